/*
 * user/tests/fuzz.c - a random system-call fuzzer (trinity-style) that runs
 * inside the image.  Usage:
 *
 *	fuzz [-s SEED] [-n BATCHES] [-b BATCH] [-t SECONDS] [-c CALLS] [-v]
 *
 * -s the seed (default 1); -n how many batches (default 20, or unlimited
 * with -t); -b replay batch BATCH alone; -t stop starting batches after
 * SECONDS of guest time (CLOCK_MONOTONIC); -c calls per worker (48);
 * -v prints every call as it is made (name, number, arguments) and its
 * result when it returns, so the last line before a hang names the call.
 *
 * A batch is one worker process (with 0-2 threads) and 0-2 more CLONE_VM
 * processes, each making CALLS random calls (user/tests/fuzz_gen.c) from
 * its own splitmix64 stream derived from (SEED, batch, worker): the same
 * seed and batch always make the same calls, whichever batches ran before.
 * The driver is their parent and watchdog: it polls wait4 for
 * BATCH_NS of guest time, SIGKILLs whatever is left, and counts a worker
 * that outlives SIGKILL for KILL_NS as a failure.  A hang of the whole
 * kernel is the host's to see (the system test's timeout).
 *
 * Workers share the driver's memory (CLONE_VM), so their counters are
 * exact; after each batch the driver execs itself ("fuzz --cont STATE",
 * the totals in STATE), so every batch starts from a fresh image - no
 * heap, handler, timer or brk left over by the one before.  The free
 * frames are read at the start of the first batch's image and again, after
 * everything is reaped and init has reaped the orphans, at the same point
 * of the final image: any difference is a leak.
 *
 * Output: "fuzz: batch N: ..." as each batch starts (so a panic names the
 * batch to replay with -s SEED -b N), calls per system call, and one
 * RESULT {json} line.  Exit status 0 only with no leaked frame and no
 * unkillable worker.
 */
#include "fuzz.h"

#include <gen/user_syscalls.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SIGCHLD		17
#define SIGKILL		9
#define WNOHANG		1
#define BATCH_NS	200000000ll	/* a batch's guest-time budget: 200 ms */
#define KILL_NS		2000000000ll	/* SIGKILL must end a worker within 2 s */
#define SETTLE_MS	3000		/* init reaps the orphans meanwhile */
#define DEFAULT_BATCHES	20
#define DEFAULT_CALLS	48

extern char **environ;
extern unsigned long fuzz_brk_edge;

/* Everything that outlives one image, passed as "fuzz --cont STATE". */
struct fuzz_state {
	uint32_t seed_lo, seed_hi;
	uint32_t next_batch, end_batch;		/* end_batch 0: no limit */
	uint32_t deadline_lo, deadline_hi;	/* CLOCK_MONOTONIC ns, 0: none */
	uint32_t ncalls, verbose;
	uint32_t frames_before;			/* 0: not read yet */
	uint32_t batches, calls;
	uint32_t outcome[FUZZ_NOUTCOMES];
	uint32_t exited, signaled, watchdog, unkillable;
	uint32_t per_slot[FUZZ_NSLOTS];
};
#define STATE_WORDS	(sizeof(struct fuzz_state) / sizeof(uint32_t))

static struct fuzz_state st;
static char state_buf[STATE_WORDS * 9 + 16];

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static uint64_t seed(void)
{
	return (uint64_t)st.seed_hi << 32 | st.seed_lo;
}

/* Exec the next image ("fuzz --cont STATE"); returns only on failure. */
static void reexec(const char *self)
{
	uint32_t *w = (uint32_t *)&st;
	char *p = state_buf;
	char *argv[] = { (char *)self, "--cont", state_buf, NULL };

	for (unsigned i = 0; i < STATE_WORDS; i++)
		p += snprintf(p, 10, "%x%s", w[i], i + 1 < STATE_WORDS ? "," : "");
	execve(self, argv, environ);
	printf("fuzz: cannot re-exec %s\n", self);
}

static int load_state(const char *s)
{
	uint32_t *w = (uint32_t *)&st;
	char *end;

	for (unsigned i = 0; i < STATE_WORDS; i++) {
		w[i] = strtoul(s, &end, 16);
		if (end == s || (*end != ',' && i + 1 < STATE_WORDS))
			return -1;
		s = end + 1;
	}
	return 0;
}

/* Run batch B of the seed; add its counts to st. */
static void run_batch(uint32_t b)
{
	uint64_t r = seed() ^ (0x5851f42d4c957f2dull * (b + 1ull));
	int nthreads = fuzz_below(&r, FUZZ_MAX_THREADS + 1);
	int nvm = fuzz_below(&r, FUZZ_MAX_VMPROCS + 1);
	int warm = b == ~0u;	/* warm_up(): every worker, no call */
	int pid[FUZZ_MAX_WORKERS], live = 0, starts = 0;
	long long deadline, killed_at = 0;

	if (warm)
		nthreads = FUZZ_MAX_THREADS, nvm = FUZZ_MAX_VMPROCS;
	fuzz_nworkers = 1 + nthreads + nvm;
	for (int i = 0; i < fuzz_nworkers; i++) {
		struct fuzz_worker *w = &fuzz_workers[i];

		w->rng = fuzz_rand(&r);
		w->ncalls = st.ncalls;
		w->nthreads = i ? 0 : nthreads;
	}
	if (!warm)
		printf("fuzz: batch %u: %d thread%s, %d CLONE_VM process%s\n", b, nthreads,
	       nthreads == 1 ? "" : "s", nvm, nvm == 1 ? "" : "es");
	fuzz_protected_pid[0] = getpid();
	fuzz_protected_pid[1] = getppid();

	/* Worker 0 (it starts the threads itself), then the other processes. */
	for (int i = 0; i < fuzz_nworkers; i = i ? i + 1 : 1 + nthreads) {
		long p = fuzz_start_worker(i, CLONE_VM | SIGCHLD);

		if (p > 0)
			pid[starts++] = (int)p;
		else
			printf("fuzz: batch %u: cannot start worker %d: %ld\n", b, i, p);
	}
	live = starts;
	deadline = now_ns() + BATCH_NS;
	while (live > 0) {
		int status;
		long w = sys_wait4(-1, (long)&status, WNOHANG, 0);

		if (w > 0) {
			for (int i = 0; i < starts; i++)
				if (pid[i] == w)
					pid[i] = 0, live--;
			if ((status & 0x7f) == 0)
				st.exited++;
			else
				st.signaled++;
			continue;
		}
		if (w < 0) {
			printf("fuzz: batch %u: wait4: %ld with %d workers left\n", b, w, live);
			st.unkillable += live;
			break;
		}
		if (killed_at && now_ns() > killed_at + KILL_NS) {
			for (int i = 0; i < starts; i++)
				if (pid[i])
					printf("fuzz: batch %u: worker pid %d survived SIGKILL\n", b, pid[i]);
			st.unkillable += live;
			break;
		}
		if (!killed_at && now_ns() > deadline) {
			for (int i = 0; i < starts; i++)
				if (pid[i] && !sys_kill(pid[i], SIGKILL))
					st.watchdog++;
			killed_at = now_ns();
		}
		sleep_ms(1);
	}
	for (int i = 0; i < fuzz_nworkers; i++) {
		struct fuzz_worker *w = &fuzz_workers[i];

		st.calls += w->calls;
		for (int k = 0; k < FUZZ_NOUTCOMES; k++)
			st.outcome[k] += w->outcome[k];
		for (int k = 0; k < FUZZ_NSLOTS; k++)
			st.per_slot[k] += w->per_slot[k];
	}
	st.batches++;
}

/*
 * Before the baseline: one batch of the largest shape that makes no call,
 * so that the kernel heap's partial slabs (tasks, signal state) are in
 * their steady state when the first batch's image reads the free frames.
 */
static void warm_up(void)
{
	uint32_t n = st.ncalls;
	struct fuzz_state saved;

	st.ncalls = 0;
	saved = st;
	for (int i = 0; i < 2; i++)
		run_batch(~0u);
	st = saved;
	st.ncalls = n;
}

/* The end: wait for the frames to settle, print the counts and RESULT. */
static int finish(void)
{
	static const char *const names[FUZZ_NOUTCOMES] = {
		"ok", "EFAULT", "EINVAL", "ENOSYS", "ESRCH", "EAGAIN", "ENOMEM", "other_errno",
	};
	long after = sys_granule_frames();
	uint32_t done = 0;
	long leaked;
	char line[160];
	int n = 0;

	for (int i = 0; i < SETTLE_MS && after != (long)st.frames_before; i++) {
		sleep_ms(1);
		after = sys_granule_frames();
	}
	leaked = after < (long)st.frames_before ? (long)st.frames_before - after : 0;
	for (int k = 0; k < FUZZ_NOUTCOMES; k++)
		done += st.outcome[k];

	printf("fuzz: calls by number:");
	for (int i = 0; i < FUZZ_NSLOTS; i++) {
		if (!st.per_slot[i])
			continue;
		if (n > 100) {
			printf("%s\n", line);
			printf("fuzz: calls by number:");
			n = 0;
		}
		n += snprintf(line + n, sizeof(line) - n, " %s=%u", fuzz_slot_name(i), st.per_slot[i]);
	}
	printf("%s\n", line);
	printf("fuzz: %u batches, %u calls, %u returned, %u did not (exit, exec, killed)\n",
	       st.batches, st.calls, done, st.calls - done);
	printf("fuzz: free frames %u before, %ld after: %ld leaked\n", st.frames_before, after, leaked);

	printf("RESULT {\"seed\":%llu,\"batches\":%u,\"calls\":%u,\"outcomes\":{", seed(), st.batches,
	       st.calls);
	for (int k = 0; k < FUZZ_NOUTCOMES; k++)
		printf("\"%s\":%u,", names[k], st.outcome[k]);
	printf("\"noreturn\":%u},\"workers\":{\"exited\":%u,\"signaled\":%u,\"watchdog_killed\":%u,"
	       "\"unkillable\":%u},\"frames_before\":%u,\"frames_after\":%ld,\"leaked_frames\":%ld}\n",
	       st.calls - done, st.exited, st.signaled, st.watchdog, st.unkillable,
	       st.frames_before, after, leaked);
	return leaked || st.unkillable ? 1 : 0;
}

/* Touch the stack pages main() and finish() will use, so that both frame
 * readings see the same stack (pages are mapped on first touch). */
static void stack_prefault(void)
{
	volatile char buf[4 * 4096];

	for (unsigned i = 0; i < sizeof(buf); i += 1024)
		buf[i] = 0;
}

static int usage(void)
{
	printf("usage: fuzz [-s SEED] [-n BATCHES] [-b BATCH] [-t SECONDS] [-c CALLS] [-v]\n");
	return 2;
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: fuzz [seed=N] [seconds=S] ...\nRandom system calls, seeded and replayable (docs/ROBUSTNESS.md).\n");
	uint64_t full = ~0ull;
	sigset_t all;

	stack_prefault();
	/* Nothing a worker does should reach the driver; block what can be (the
	 * same mask in every image: a blocked SIGCHLD stays queued). */
	memset(&all, 0xff, sizeof(all));
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (argc == 3 && !strcmp(argv[1], "--cont")) {
		if (load_state(argv[2]))
			return usage();
	} else {
		uint64_t s = 1;
		long long secs = 0;
		int c, n = -1, b = -1;

		st.ncalls = DEFAULT_CALLS;
		while ((c = getopt(argc, argv, "s:n:b:t:c:v")) != -1) {
			switch (c) {
			case 's': s = strtoull(optarg, NULL, 0); break;
			case 'n': n = atoi(optarg); break;
			case 'b': b = atoi(optarg); break;
			case 't': secs = atoi(optarg); break;
			case 'c': st.ncalls = atoi(optarg); break;
			case 'v': st.verbose = 1; break;
			default: return usage();
			}
		}
		if (optind != argc || n == 0 || n < -1 || b < -1 || secs < 0)
			return usage();
		st.seed_lo = (uint32_t)s;
		st.seed_hi = (uint32_t)(s >> 32);
		if (b >= 0) {
			st.next_batch = b;
			st.end_batch = b + 1;
		} else {
			st.end_batch = n > 0 ? n : secs ? 0 : DEFAULT_BATCHES;
		}
		if (secs) {
			uint64_t d = now_ns() + secs * 1000000000ll;

			st.deadline_lo = (uint32_t)d;
			st.deadline_hi = (uint32_t)(d >> 32);
		}
		if (b >= 0)
			printf("fuzz: seed %llu, replaying batch %d, %u calls per worker\n", s, b,
			       st.ncalls);
		else
			printf("fuzz: seed %llu, %u batches (0: no limit), %u calls per worker, %lld s\n",
			       s, st.end_batch, st.ncalls, secs);
		warm_up();
		reexec(argv[0]);	/* the first batch starts from a fresh image too */
		return 1;
	}
	fuzz_verbose = st.verbose;
	fuzz_brk_edge = ((unsigned long)sbrk(0) + 4095) & ~4095ul;
	if (!st.frames_before)
		st.frames_before = (uint32_t)sys_granule_frames();
	full = (uint64_t)st.deadline_hi << 32 | st.deadline_lo;
	if ((st.end_batch && st.next_batch >= st.end_batch) || (full && (uint64_t)now_ns() >= full))
		return finish();
	run_batch(st.next_batch++);
	reexec(argv[0]);
	return 1;
}
