/*
 * user/tests/ut_rlimit.c - resource limits are one value each, reported and
 * enforced alike (kernel/proc/rlimit.c): RLIMIT_SIGPENDING as getrlimit,
 * /proc/PID/status's SigQ and the signal queue see it, lowered by
 * setrlimit; RLIMIT_RSS as /proc/PID/stat's rsslim prints it; RLIMIT_NOFILE
 * as open, dup2, F_DUPFD and poll enforce it once lowered; every limit
 * at start as Linux's.  And mlock / munlock of a range with a hole
 * (2.6.35's do_mlock: -ENOMEM; nothing changed here) or of a PROT_NONE
 * area (2.6.35: -ENOMEM, the area left locked).
 * Each test runs in its own child, so a limit it sets dies with it.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <granule.h>
#include "ut.h"

#define RLIMIT_STACK		3
#define RLIMIT_RSS		5
#define RLIMIT_NOFILE		7
#define RLIMIT_SIGPENDING	11
#define RLIM64_INFINITY		(~0ull)
#define TASK_MAX		1024	/* the kernel's task table (max_threads) */

/* The two numbers of /proc/self/status's "SigQ:\tqueued/limit" line. */
static void sigq(unsigned long *queued, unsigned long *limit)
{
	char buf[2048], *p;

	CHECK(ut_slurp("/proc/self/status", buf, sizeof(buf)) > 0, "read /proc/self/status");
	p = strstr(buf, "\nSigQ:\t");
	CHECK(p, "no SigQ line");
	*queued = strtoul(p + 7, &p, 10);
	CHECK(*p == '/', "SigQ: %.20s", p);
	*limit = strtoul(p + 1, NULL, 10);
}

/* Field K (1-based, Linux's numbering) of /proc/self/stat. */
static unsigned long long self_stat_field(int k)
{
	char buf[1024];

	return strtoull(ut_stat_field("/proc/self/stat", k, buf, sizeof(buf)), NULL, 10);
}

static void child_sees_limit(uintptr_t want)
{
	uint64_t l[2];

	EXPECT_RET(sys_prlimit64(0, RLIMIT_SIGPENDING, 0, (long)l), 0);
	CHECK(l[0] == want && l[1] == want, "the child's RLIMIT_SIGPENDING %llu/%llu, want %lu",
	      (unsigned long long)l[0], (unsigned long long)l[1], (unsigned long)want);
}

/* Queue SIGRTMIN (blocked) N times by tgkill: how many were queued. */
static int queue_rt(int n)
{
	int me = (int)sys_getpid(), queued = 0;

	for (int i = 0; i < n; i++) {
		long r = sys_tgkill(me, me, SIGRTMIN);
		CHECK(r == 0 || r == -EAGAIN, "tgkill returned %ld", r);
		queued += r == 0;
	}
	return queued;
}

/*
 * RLIMIT_SIGPENDING: Linux's default is RLIMIT_NPROC's (fork_init), here
 * the task table's size; getrlimit, prlimit and SigQ give that number, and
 * the queue stops there.  Lowered to 8 (setrlimit), the ninth real-time
 * signal is -EAGAIN, SigQ says "8/8", and a forked child inherits it.
 */
static void rlimit_sigpending(void)
{
	uint32_t r[2];
	uint64_t l[2], lim[2] = { 8, 8 };
	unsigned long queued, limit;
	sigset_t set;
	struct timespec zero = { 0, 0 };

	EXPECT_RET(sys_ugetrlimit(RLIMIT_SIGPENDING, (long)r), 0);
	CHECK(r[0] == TASK_MAX && r[1] == TASK_MAX, "RLIMIT_SIGPENDING %u/%u, want %u", r[0], r[1], TASK_MAX);
	sigq(&queued, &limit);
	CHECK(limit == r[0], "SigQ's limit %lu, getrlimit's %u", limit, r[0]);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	EXPECT_RET(sys_prlimit64(0, RLIMIT_SIGPENDING, (long)lim, (long)l), 0);
	CHECK(l[0] == TASK_MAX && l[1] == TASK_MAX, "old limit %llu", (unsigned long long)l[0]);
	EXPECT_RET(sys_ugetrlimit(RLIMIT_SIGPENDING, (long)r), 0);
	CHECK(r[0] == 8 && r[1] == 8, "RLIMIT_SIGPENDING %u/%u after setting 8/8", r[0], r[1]);
	CHECK(queue_rt(20) == 8, "the limit of 8 not enforced");
	sigq(&queued, &limit);
	CHECK(queued == 8 && limit == 8, "SigQ %lu/%lu, want 8/8", queued, limit);
	CHECK(ut_run_child(child_sees_limit, 8) == 0, "fork did not pass RLIMIT_SIGPENDING on");
	while (sigtimedwait(&set, NULL, &zero) == SIGRTMIN)
		;
	/* Raised again (root: CAP_SYS_RESOURCE), the queue takes more. */
	lim[0] = lim[1] = 12;
	EXPECT_RET(sys_prlimit64(0, RLIMIT_SIGPENDING, (long)lim, 0), 0);
	CHECK(queue_rt(20) == 12, "the raised limit of 12 not enforced");
	lim[0] = 13;
	EXPECT_RET(sys_prlimit64(0, RLIMIT_SIGPENDING, (long)lim, 0), -EINVAL);	/* cur > max */
}

/*
 * RLIMIT_RSS: Linux's default is RLIM_INFINITY, printed by /proc/PID/stat
 * as rsslim (field 25, rlim_cur) - 4294967295 on i386; setrlimit moves it.
 * Nothing enforces it (nor in 2.6.35).
 */
static void rlimit_rss(void)
{
	uint32_t r[2];
	uint64_t lim[2] = { 409600, RLIM64_INFINITY };

	EXPECT_RET(sys_ugetrlimit(RLIMIT_RSS, (long)r), 0);
	CHECK(r[0] == 0xffffffffu && r[1] == 0xffffffffu, "RLIMIT_RSS %x/%x", r[0], r[1]);
	CHECK(self_stat_field(25) == 0xffffffffull, "rsslim %llu", self_stat_field(25));
	EXPECT_RET(sys_prlimit64(0, RLIMIT_RSS, (long)lim, 0), 0);
	CHECK(self_stat_field(25) == 409600, "rsslim %llu after setrlimit(409600)", self_stat_field(25));
	EXPECT_RET(sys_ugetrlimit(RLIMIT_RSS, (long)r), 0);
	CHECK(r[0] == 409600 && r[1] == 0xffffffffu, "RLIMIT_RSS %u/%x", r[0], r[1]);
	/* A limit Granule cannot move is still refused, unchanged. */
	lim[0] = lim[1] = 10;
	EXPECT_RET(sys_prlimit64(0, RLIMIT_STACK, (long)lim, 0), -EPERM);
}

/* The child of rlimit_nofile: the limit of 16 came with fork. */
static void child_nofile(uintptr_t limit)
{
	long fd;

	while ((fd = sys_open((long)"/dev/null", O_RDONLY, 0)) >= 0 && fd < (long)limit)
		;
	CHECK(fd == -EMFILE, "the child's open past RLIMIT_NOFILE %lu: %ld", (unsigned long)limit, fd);
}

/*
 * RLIMIT_NOFILE, 1024/1024 at start (INR_OPEN), lowered to 16: the open
 * that would make fd 16 is -EMFILE (expand_files checks the limit before the
 * table's size), dup2 to fd 16 -EBADF, F_DUPFD from 16 -EINVAL, poll of 17
 * fds -EINVAL, all as 2.6.35; fork passes the limit on.  Raised again to
 * 1024 it binds no more; a hard limit past NR_OPEN (Granule's
 * sysctl_nr_open, 1024) is -EPERM even for root.
 */
static void rlimit_nofile(void)
{
	uint32_t r[2];
	uint64_t lim[2] = { 16, 1024 };
	long fd, last = -1;

	EXPECT_RET(sys_ugetrlimit(RLIMIT_NOFILE, (long)r), 0);
	CHECK(r[0] == 1024 && r[1] == 1024, "RLIMIT_NOFILE %u/%u, want 1024/1024", r[0], r[1]);
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, (long)lim, 0), 0);
	while ((fd = sys_open((long)"/dev/null", O_RDONLY, 0)) >= 0)
		last = fd;
	CHECK(fd == -EMFILE && last == 15, "open ended with %ld after fd %ld, want EMFILE after 15", fd, last);
	EXPECT_RET(sys_dup2(1, 16), -EBADF);
	EXPECT_RET(sys_close(15), 0);
	EXPECT_RET(sys_dup2(1, 15), 15);
	EXPECT_RET(sys_fcntl64(1, 0 /* F_DUPFD */, 16), -EINVAL);
	EXPECT_RET(sys_poll(0, 17, 0), -EINVAL);
	for (fd = 3; fd <= last; fd++)
		EXPECT_RET(sys_close(fd), 0);
	CHECK(ut_run_child(child_nofile, 16) == 0, "fork did not pass RLIMIT_NOFILE on");
	lim[0] = 1024;
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, (long)lim, 0), 0);
	EXPECT_RET(sys_dup2(1, 1000), 1000);
	EXPECT_RET(sys_close(1000), 0);
	lim[1] = 1025;
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, (long)lim, 0), -EPERM);	/* past nr_open */
	EXPECT_RET(sys_ugetrlimit(RLIMIT_NOFILE, (long)r), 0);
	CHECK(r[0] == 1024 && r[1] == 1024, "RLIMIT_NOFILE %u/%u after the refusal", r[0], r[1]);
}

/*
 * Every limit at start is Linux 2.6.35's (INIT_RLIMITS, fork_init): those
 * that bind root nowhere (RLIMIT_MEMLOCK, NICE, RTPRIO: capabilities) or
 * that have nothing here to bind (CORE: no core files; MSGQUEUE: no
 * message queues) read as on Linux, the rest as what Granule enforces.
 */
static void rlimit_defaults(void)
{
	static const uint32_t want[16][2] = {
		[3] = { 8u << 20, ~0u },			/* RLIMIT_STACK: _STK_LIM, the stack window */
		[4] = { 0, ~0u },				/* RLIMIT_CORE */
		[6] = { TASK_MAX, TASK_MAX },			/* RLIMIT_NPROC: the task table */
		[RLIMIT_NOFILE] = { 1024, 1024 },		/* INR_OPEN, the fd table */
		[8] = { 65536, 65536 },				/* RLIMIT_MEMLOCK: MLOCK_LIMIT */
		[RLIMIT_SIGPENDING] = { TASK_MAX, TASK_MAX },	/* RLIMIT_NPROC's */
		[12] = { 819200, 819200 },			/* RLIMIT_MSGQUEUE: MQ_BYTES_MAX */
		[13] = { 0, 0 },				/* RLIMIT_NICE */
		[14] = { 0, 0 },				/* RLIMIT_RTPRIO */
	};
	static const int inf[] = { 0, 1, 2, RLIMIT_RSS, 9, 10, 15 };
	uint32_t r[2];
	uint64_t l[2];

	for (int i = 0; i < 16; i++) {
		uint32_t w0 = want[i][0], w1 = want[i][1];
		for (unsigned k = 0; k < sizeof(inf) / sizeof(inf[0]); k++)
			if (inf[k] == i)
				w0 = w1 = ~0u;
		EXPECT_RET(sys_ugetrlimit(i, (long)r), 0);
		CHECK(r[0] == w0 && r[1] == w1, "limit %d: %u/%u, Linux's %u/%u", i, r[0], r[1], w0, w1);
		EXPECT_RET(sys_prlimit64(0, i, 0, (long)l), 0);
		CHECK(l[0] == (w0 == ~0u ? RLIM64_INFINITY : w0) && l[1] == (w1 == ~0u ? RLIM64_INFINITY : w1),
		      "prlimit64 of limit %d: %llx/%llx", i, (unsigned long long)l[0], (unsigned long long)l[1]);
	}
}

static unsigned long vmlck_kb(void)
{
	char buf[2048], *p;

	CHECK(ut_slurp("/proc/self/status", buf, sizeof(buf)) > 0, "read /proc/self/status");
	p = strstr(buf, "\nVmLck:");
	CHECK(p, "no VmLck line");
	return strtoul(p + 7, NULL, 10);
}

/*
 * mlock/munlock of [p, p + 3 pages) with the middle page unmapped: -ENOMEM,
 * the page before the hole locked (unlocked) all the same, as 2.6.35's
 * do_mlock has fixed it up when its walk meets the gap; a range that starts
 * in the hole: -ENOMEM, nothing changed.
 * mlock of a PROT_NONE area: -ENOMEM as 2.6.35's (get_user_pages without
 * FOLL_FORCE faults nothing in it: -EFAULT, which mlock reports as -ENOMEM),
 * the area marked VM_LOCKED all the same (mlock_fixup set it first).
 */
static void mlock_holes(void)
{
	long p = sys_mmap2(0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0), n;

	CHECK((unsigned long)p < TASK_SIZE, "mmap2 %ld", p);
	EXPECT_RET(sys_munmap(p + PAGE_SIZE, PAGE_SIZE), 0);
	CHECK(vmlck_kb() == 0, "VmLck %lu kB before", vmlck_kb());
	EXPECT_RET(sys_mlock(p, 3 * PAGE_SIZE), -ENOMEM);
	CHECK(vmlck_kb() == 4, "VmLck %lu kB after mlock over a hole, want 4", vmlck_kb());
	EXPECT_RET(sys_mlock(p + PAGE_SIZE, 2 * PAGE_SIZE), -ENOMEM);	/* starts in the hole */
	CHECK(vmlck_kb() == 4, "VmLck %lu kB after mlock from a hole, want 4", vmlck_kb());
	EXPECT_RET(sys_mlock(p, PAGE_SIZE), 0);
	EXPECT_RET(sys_mlock(p + 2 * PAGE_SIZE, PAGE_SIZE), 0);
	CHECK(vmlck_kb() == 8, "VmLck %lu kB, want 8", vmlck_kb());
	EXPECT_RET(sys_munlock(p, 3 * PAGE_SIZE), -ENOMEM);
	CHECK(vmlck_kb() == 4, "VmLck %lu kB after munlock over a hole, want 4", vmlck_kb());
	EXPECT_RET(sys_munlock(p, PAGE_SIZE), 0);
	EXPECT_RET(sys_munlock(p + 2 * PAGE_SIZE, PAGE_SIZE), 0);
	CHECK(vmlck_kb() == 0, "VmLck %lu kB after munlock", vmlck_kb());

	n = sys_mmap2(0, 2 * PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANON, -1, 0);
	CHECK((unsigned long)n < TASK_SIZE, "mmap2 PROT_NONE %ld", n);
	EXPECT_RET(sys_mlock(n, 2 * PAGE_SIZE), -ENOMEM);
	CHECK(vmlck_kb() == 8, "VmLck %lu kB after mlock of PROT_NONE, want 8", vmlck_kb());
	EXPECT_RET(sys_munlock(n, 2 * PAGE_SIZE), 0);
	CHECK(vmlck_kb() == 0, "VmLck %lu kB after munlock of PROT_NONE", vmlck_kb());
}

const struct ut_test ut_rlimit_tests[] = {
	{ rlimit_sigpending, "rlimit_sigpending" },
	{ rlimit_rss, "rlimit_rss" },
	{ rlimit_nofile, "rlimit_nofile" },
	{ rlimit_defaults, "rlimit_defaults" },
	{ mlock_holes, "mlock_holes" },
	{ NULL, NULL },
};
