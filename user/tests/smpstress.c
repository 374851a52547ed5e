/*
 * user/tests/smpstress.c - the SMP soak's workload: threads of one process
 * doing what makes CPUs share an address space and the kernel's tables.
 *
 *	smpstress [-t THREADS] [-d SECONDS]	(4 threads, 5 s)
 *
 * Each thread loops until the time is up, one round after another:
 *   mmap   map 16 pages anonymous, write each, munmap them: every munmap
 *          of a page another CPU's thread may cache is a TLB shootdown of
 *          the process's mm (mm_cpumask);
 *   futex  a FUTEX_WAKE/FUTEX_WAIT ping-pong with its partner thread
 *          (thread i and i ^ 1) on a shared word, 8 passes a round;
 *   fork   every 8th round, fork a child that writes a page of the copy
 *          and exits 3; the thread waits for it (fork's COW write-protect
 *          and the child's exit on whatever CPU it was placed).
 * At the end each thread's rounds are summed: "smpstress: T threads, R
 * rounds, M mmaps, F futex passes, C forks in S s"; exit status 0, or 1
 * with a line naming what failed (a wrong byte read back, a child's status).
 */
#include <errno.h>
#include <granule.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <thread.h>
#include <time.h>
#include <unistd.h>
#include <gen/user_syscalls.h>

#define MAX_THREADS	32
#define PAGES		16
#define PAGE		4096
#define PASSES		8	/* futex passes a round */
#define FORK_EVERY	8	/* rounds */

#define FUTEX_WAIT	0
#define FUTEX_WAKE	1

struct worker {
	int id;
	long rounds, mmaps, passes, forks;
	int failed;
};

static struct worker workers[MAX_THREADS];
static volatile int turn[MAX_THREADS / 2];	/* whose pass it is in pair i: 0 or 1 */
static volatile int stop;
static int nthreads = 4;

static int mmap_round(struct worker *w)
{
	long a = sys_mmap2(0, PAGES * PAGE, 3 /* RW */, 0x22 /* PRIVATE|ANON */, -1, 0);

	if (a < 0 && a > -4096)
		return a == -ENOMEM ? 0 : -1;	/* memory may be short: not a failure */
	volatile unsigned char *p = (volatile unsigned char *)a;
	for (int i = 0; i < PAGES; i++)
		p[i * PAGE] = (unsigned char)(w->id + i);
	for (int i = 0; i < PAGES; i++)
		if (p[i * PAGE] != (unsigned char)(w->id + i))
			return -1;
	w->mmaps++;
	return sys_munmap(a, PAGES * PAGE) ? -1 : 0;
}

/* PASSES turns of the pair's word: wait for ours, hand it over, wake. */
static void futex_round(struct worker *w)
{
	volatile int *t = &turn[w->id / 2];
	int me = w->id & 1;

	if ((w->id ^ 1) >= nthreads)		/* an odd thread out: no partner */
		return;
	for (int i = 0; i < PASSES && !stop; i++) {
		/* 10 ms at most: a partner that stopped wakes nobody any more */
		struct timespec tmo = { 0, 10 * 1000 * 1000 };
		while (*t != me && !stop)
			sys_futex((long)t, FUTEX_WAIT, !me, (long)&tmo, 0, 0);
		*t = !me;
		sys_futex((long)t, FUTEX_WAKE, 1, 0, 0, 0);
		w->passes++;
	}
}

static int fork_round(struct worker *w)
{
	static char page[PAGE];
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		page[w->id] = 1;		/* a COW copy */
		_exit(page[w->id] == 1 ? 3 : 4);
	}
	if (pid < 0)
		return errno == EAGAIN || errno == ENOMEM ? 0 : -1;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 3)
		return -1;
	w->forks++;
	return 0;
}

static void *worker(void *arg)
{
	struct worker *w = arg;

	while (!stop && !w->failed) {
		if (mmap_round(w))
			w->failed = 1;
		futex_round(w);
		if (w->rounds % FORK_EVERY == 0 && fork_round(w))
			w->failed = 2;
		w->rounds++;
	}
	stop = 1;
	sys_futex((long)&turn[w->id / 2], FUTEX_WAKE, 1, 0, 0, 0);	/* a partner still waiting */
	return NULL;
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: smpstress [-t THREADS] [-d SECONDS]\n"
		  "Threads mapping and unmapping memory, passing a futex and forking, for the SMP soak.\n");
	static thread_t th[MAX_THREADS];
	struct worker sum = { 0 };
	long seconds = 5;
	int opt;

	while ((opt = getopt(argc, argv, "t:d:")) != -1) {
		if (opt == 't')
			nthreads = atoi(optarg);
		else if (opt == 'd')
			seconds = atol(optarg);
		else
			goto usage;
	}
	if (nthreads < 1 || nthreads > MAX_THREADS || seconds < 1)
		goto usage;
	for (int i = 0; i < nthreads; i++) {
		workers[i].id = i;
		if (thread_create(&th[i], worker, &workers[i]) < 0) {
			printf("smpstress: thread_create: %s\n", strerror(errno));
			return 1;
		}
	}
	struct timespec ts = { seconds, 0 };
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < nthreads / 2; i++)
		sys_futex((long)&turn[i], FUTEX_WAKE, 2, 0, 0, 0);
	for (int i = 0; i < nthreads; i++) {
		thread_join(th[i], NULL);
		sum.rounds += workers[i].rounds;
		sum.mmaps += workers[i].mmaps;
		sum.passes += workers[i].passes;
		sum.forks += workers[i].forks;
		if (workers[i].failed) {
			printf("smpstress: thread %d failed in its %s round\n", i,
			       workers[i].failed == 1 ? "mmap" : "fork");
			sum.failed = 1;
		}
	}
	printf("smpstress: %d threads, %ld rounds, %ld mmaps, %ld futex passes, %ld forks in %ld s\n",
	       nthreads, sum.rounds, sum.mmaps, sum.passes, sum.forks, seconds);
	return sum.failed;
usage:
	printf("usage: smpstress [-t THREADS] [-d SECONDS]\n");
	return 2;
}
