/*
 * user/bench/kbuild-load.c - a deterministic stand-in for `make -jN`.
 *
 *   kbuild-load [-j N] [-d duration_s] [-s seed] [-P canonical|chain] [-m] [-q]
 *
 * Like make, the parent keeps N jobs in flight (default 10): it forks a
 * child per job, blocks in wait() and starts another whenever one ends,
 * until the duration (default 15 s) has passed; then it reaps the rest.
 * Job i's parameters depend only on (seed, i) (kjob_params, splitmix64):
 * CPU bursts a, b, c (a+b+c uniform in [5, 60] ms of the job's OWN CPU
 * time, so preemption does not shorten the work) separated by sleeps s1,
 * s2 (uniform in [0, 2] ms), then with probability 1/2 an "as" grandchild
 * that burns 1-5 ms and exits; the job waits for it and exits.
 *
 * Profiles: canonical (the default, used for comparisons): the forked
 * child runs the job itself.  chain: each job is make -> sh -> gcc -> cc1
 * (+ as), every stage a fork + execve of chainjob under that name
 * (user/bench/chainjob.c), for realism.
 *
 * Reported over the window [start, start + duration]:
 *   jobs        jobs that ended (were reaped) inside the window
 *   jobs_per_s  jobs / duration
 *   work_frac   planned useful CPU time of those jobs (a+b+c+as) / window
 *               (work of jobs still running at the end is not counted)
 *   tail_jobs   jobs reaped after the window
 * and with -m, when it may run on more than one CPU (canonical profile; the
 * experiment asks for it at more than one CPU):
 *   migrations  moves between CPUs of the jobs and their "as" children
 *               reaped inside the window, after their fork placed them:
 *               each reads its own /proc/self/sched se.nr_migrations when
 *               it starts and just before it exits, and writes the
 *               difference to a pipe the parent drains after every wait().
 *               (2.6.35 counts the fork's placement as a migration, Linux
 *               6.x does not: wake_up_new_task() uses __set_task_cpu().)
 *               The two reads cost the load about 2 % of its jobs at two CPUs
 *               and 3 % at four (117 -> 115 and 226 -> 220 jobs in 2 s).
 */
#include <bench.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gen/user_syscalls.h>

#define MAX_J	256

struct slot {
	pid_t pid;
	uint64_t index;
};

static uint64_t seed = 1;
static int chain;
static int mig_fd[2] = { -1, -1 };	/* the migration counts' pipe, at > 1 CPU */

/* A load process's se.nr_migrations when it starts, at > 1 CPU (else 0). */
static long start_migrations(void)
{
	return mig_fd[1] >= 0 ? self_nr_migrations() : 0;
}

/* Its last act at > 1 CPU: the moves since START to the pipe. */
static void report_migrations(long start)
{
	long m;

	if (mig_fd[1] >= 0 && start >= 0 && (m = self_nr_migrations()) >= start) {
		uint32_t v = (uint32_t)(m - start);
		(void)!write(mig_fd[1], &v, sizeof(v));		/* 4 bytes: atomic */
	}
}

/* The counts written so far (the read end does not block). */
static long drain_migrations(void)
{
	uint32_t v[64];
	long sum = 0;
	ssize_t n;

	while (mig_fd[0] >= 0 && (n = read(mig_fd[0], v, sizeof(v))) > 0)
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(v[0]); i++)
			sum += v[i];
	return sum;
}

static pid_t start_job(uint64_t i)
{
	struct kjob j;
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (chain) {
		char s[24], n[24];
		char *argv[] = { "sh", s, n, NULL };

		snprintf(s, sizeof(s), "%llu", (unsigned long long)seed);
		snprintf(n, sizeof(n), "%llu", (unsigned long long)i);
		execve(KBUILD_CHAIN_DIR "sh", argv, environ);
		printf("kbuild-load: cannot exec %s (chainjob): %s\n", KBUILD_CHAIN_DIR "sh",
		       strerror(errno));
		_exit(127);
	}
	long m0 = start_migrations();

	kjob_params(seed, i, &j);
	kjob_body(&j);
	if (j.as_ns) {
		pid_t as = fork();

		if (as == 0) {
			m0 = start_migrations();
			burn_cpu_ns(j.as_ns);
			report_migrations(m0);
			_exit(0);
		}
		if (as > 0)
			waitpid(as, NULL, 0);
	}
	report_migrations(m0);
	_exit(0);
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: kbuild-load [-j N] [-d duration_s] [-s seed] [-P canonical|chain] [-m] [-q]\nA make -jN-like load: N jobs in flight, each a fork with CPU bursts and sleeps.\n-m: at more than one CPU, count the jobs' migrations after their fork (RESULT migrations).\n");
	static struct slot slots[MAX_J];
	int nj = 10, duration = 15, quiet = 0, opt, inflight = 0, failed = 0, count_mig = 0;
	long jobs = 0, tail = 0, as_children = 0, migrations = 0;
	int cpus = bench_cpus();
	int64_t start, end, work = 0;
	uint64_t next = 0;
	struct jline jl;
	char b1[32], b2[32];

	while ((opt = getopt(argc, argv, "j:d:s:P:mq")) != -1) {
		switch (opt) {
		case 'j': nj = atoi(optarg); break;
		case 'd': duration = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'P':
			if (strcmp(optarg, "chain") == 0)
				chain = 1;
			else if (strcmp(optarg, "canonical") != 0)
				goto usage;
			break;
		case 'm': count_mig = 1; break;
		case 'q': quiet = 1; break;
		default:
			goto usage;
		}
	}
	if (nj < 1 || nj > MAX_J || duration < 1)
		goto usage;
	if (!quiet)
		printf("kbuild-load: profile %s, -j %d, %d s, seed %llu\n", chain ? "chain" : "canonical",
		       nj, duration, (unsigned long long)seed);
	if (count_mig && cpus > 1 && !chain && sys_pipe2((long)mig_fd, 04000 /* O_NONBLOCK */) < 0)
		mig_fd[0] = mig_fd[1] = -1;
	start = mono_ns();
	end = start + (int64_t)duration * NSEC_PER_SEC;
	for (;;) {
		int status;
		pid_t pid;

		while (inflight < nj && mono_ns() < end) {
			pid = start_job(next);
			if (pid < 0) {
				failed++;
				break;
			}
			for (int s = 0; s < nj; s++) {
				if (!slots[s].pid) {
					slots[s].pid = pid;
					slots[s].index = next;
					break;
				}
			}
			next++;
			inflight++;
		}
		if (!inflight)
			break;
		pid = wait(&status);
		if (pid < 0)
			break;
		if (mono_ns() <= end)
			migrations += drain_migrations();
		else
			drain_migrations();
		for (int s = 0; s < nj; s++) {
			if (slots[s].pid != pid)
				continue;
			slots[s].pid = 0;
			inflight--;
			if (mono_ns() <= end) {
				struct kjob j;

				kjob_params(seed, slots[s].index, &j);
				jobs++;
				work += j.work + j.as_ns;
				as_children += j.as_ns != 0;
			} else {
				tail++;
			}
			break;
		}
	}
	if (!quiet)
		printf("kbuild-load: %ld jobs in %d s (%s jobs/s), work_frac %s, %ld as-children, "
		       "%ld jobs after the window, %d failed forks\n", jobs, duration,
		       fmt_ratio(b1, jobs, duration, 2), fmt_ratio(b2, work, (int64_t)duration * NSEC_PER_SEC, 3),
		       as_children, tail, failed);
	jl_init(&jl);
	jl_str(&jl, "bench", "kbuild-load");
	jl_str(&jl, "profile", chain ? "chain" : "canonical");
	jl_int(&jl, "j", nj);
	jl_int(&jl, "seed", (long long)seed);
	jl_int(&jl, "duration_s", duration);
	jl_int(&jl, "jobs", jobs);
	jl_raw(&jl, "jobs_per_s", fmt_ratio(b1, jobs, duration, 2));
	jl_raw(&jl, "work_frac", fmt_ratio(b2, work, (int64_t)duration * NSEC_PER_SEC, 3));
	jl_int(&jl, "work_ms", work / NSEC_PER_MSEC);
	jl_int(&jl, "as_children", as_children);
	jl_int(&jl, "tail_jobs", tail);
	jl_int(&jl, "failed_forks", failed);
	if (mig_fd[0] >= 0) {
		if (!quiet)
			printf("kbuild-load: %ld migrations in the window (%s per s) on %d CPUs\n",
			       migrations, fmt_ratio(b1, migrations, duration, 1), cpus);
		jl_int(&jl, "cpus", cpus);
		jl_int(&jl, "migrations", migrations);
		jl_raw(&jl, "migrations_per_s", fmt_ratio(b1, migrations, duration, 1));
	}
	printf("RESULT %s\n", jl_end(&jl));
	return 0;
usage:
	fprintf(stderr, "usage: kbuild-load [-j N] [-d duration_s] [-s seed] [-P canonical|chain] [-m] [-q]\n");
	return 2;
}
