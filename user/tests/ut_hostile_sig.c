/*
 * user/tests/ut_hostile_sig.c - usertests: the red-team pass over signals,
 * timers, sleeps, priorities and the small calls (docs/ROBUSTNESS.md,
 * section 4): signal numbers and sigset sizes at their edges, a signal
 * that is ignored by default awaited in sigtimedwait, a process-directed
 * signal left pending on a thread that exits, timer_create with every
 * kind of clock and notification, timer_settime at absurd times, sleeps
 * on clocks that cannot sleep, getpriority/setpriority on process groups,
 * prlimit64, prctl's name at a page's end, and bad pointers to uname,
 * sysinfo and getrandom.  Each answer is Linux 6.x's (i386 ABI).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <thread.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define KSIGMASK(s)	(1ull << ((s) - 1))
#define KERNEL_PTR	0xC0001000u
#define MAP_ANONYMOUS	0x20
#define PRIO_PROCESS	0
#define PRIO_PGRP	1
#define PRIO_USER	2
#define PR_SET_NAME	15
#define PR_GET_NAME	16
#define RLIMIT_NOFILE	7
#define CLOCK_MONOTONIC_RAW	4
#define CLOCK_REALTIME_COARSE	5
#define CLOCK_MONOTONIC_COARSE	6
#define CLOCK_BOOTTIME		7
#define SIGEV_BOGUS		3

/* The kernel's struct sigaction (i386 rt_sigaction): no libc reordering. */
struct ksigaction {
	uint32_t handler, flags, restorer;
	uint64_t mask;
};

struct ts32 { int32_t sec, nsec; };
struct its32 { struct ts32 interval, value; };
struct rlim64 { uint64_t cur, max; };

/* ---- signal numbers and sigset sizes ---- */

static void sig_args(void)
{
	struct ksigaction ka, old;
	uint64_t set = 0;
	int me = getpid(), tid = (int)sys_gettid();

	static const int sigs[] = { -1, (int)0x80000000, 1, 2, 31, 32, 33, 34, 63, 64, 65, 66, 255 };
	memset(&ka, 0, sizeof(ka));
	ka.handler = 1;			/* SIG_IGN: nothing arrives */
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int sig = sigs[i];
		long want = sig < 1 || sig > 64 ? -EINVAL : 0;
		EXPECT_RET(sys_rt_sigaction(sig, 0, (long)&old, 8), want);
		EXPECT_RET(sys_rt_sigaction(sig, (long)&ka, 0, 8), want);
		EXPECT_RET(sys_kill(me, sig), want);
		EXPECT_RET(sys_tgkill(me, tid, sig), want);
	}
	EXPECT_RET(sys_kill(me, 0), 0);
	EXPECT_RET(sys_rt_sigaction(0, 0, (long)&old, 8), -EINVAL);
	/* SIGKILL and SIGSTOP: reading is allowed, changing is not. */
	EXPECT_RET(sys_rt_sigaction(SIGKILL, 0, (long)&old, 8), 0);
	EXPECT_RET(sys_rt_sigaction(SIGSTOP, (long)&ka, 0, 8), -EINVAL);
	/* sigsetsize must be 8 - except rt_sigpending's, which may be less. */
	for (long size = 0; size <= 16; size += 4) {
		long want = size == 8 ? 0 : -EINVAL;
		EXPECT_RET(sys_rt_sigaction(SIGUSR1, 0, (long)&old, size), want);
		EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, (long)&set, 0, size), want);
		EXPECT_RET(sys_rt_sigpending((long)&set, size), size <= 8 ? 0 : -EINVAL);
		if (size != 8) {
			EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, 0, size), -EINVAL);
			EXPECT_RET(sys_rt_sigsuspend((long)&set, size), -EINVAL);
		}
	}
	/* rt_sigpending(4) writes the low half only. */
	uint32_t half[2] = { 0xdeadbeef, 0xcafef00d };
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, NULL);
	ka.handler = 0;
	EXPECT_RET(sys_rt_sigaction(SIGUSR2, (long)&ka, 0, 8), 0);
	EXPECT_RET(sys_kill(me, SIGUSR2), 0);
	EXPECT_RET(sys_rt_sigpending((long)half, 4), 0);
	CHECK(half[0] == KSIGMASK(SIGUSR2) && half[1] == 0xcafef00d, "rt_sigpending(4) wrote %x %x",
	      half[0], half[1]);
	EXPECT_RET(sys_rt_sigpending(KERNEL_PTR, 8), -EFAULT);
	EXPECT_RET(sys_rt_sigpending(0, 0), 0);		/* nothing to write */
	/* Bad pointers. */
	EXPECT_RET(sys_rt_sigaction(SIGUSR1, KERNEL_PTR, 0, 8), -EFAULT);
	EXPECT_RET(sys_rt_sigaction(SIGUSR1, 0, KERNEL_PTR, 8), -EFAULT);
	EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, KERNEL_PTR, 0, 8), -EFAULT);
	EXPECT_RET(sys_rt_sigprocmask(7, (long)&set, 0, 8), -EINVAL);
	EXPECT_RET(sys_rt_sigprocmask(7, 0, 0, 8), 0);	/* no set: "how" unread */
	EXPECT_RET(sys_rt_sigsuspend(KERNEL_PTR, 8), -EFAULT);
	struct ts32 bad = { 0, 1000000000 }, neg = { -1, 0 };
	set = KSIGMASK(SIGUSR1);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&bad, 8), -EINVAL);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&neg, 8), -EINVAL);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, KERNEL_PTR, 8), -EFAULT);
	/* A queued SIGUSR2 read with a bad siginfo pointer: EFAULT, and gone. */
	set = KSIGMASK(SIGUSR2);
	struct ts32 zero = { 0, 0 };
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, KERNEL_PTR, (long)&zero, 8), -EFAULT);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&zero, 8), -EAGAIN);
	/* Real-time signals queue every instance, with their si_code. */
	set = KSIGMASK(64);
	sigaddset(&block, 64);
	sigprocmask(SIG_BLOCK, &block, NULL);
	ka.handler = 0;
	EXPECT_RET(sys_rt_sigaction(64, (long)&ka, 0, 8), 0);
	EXPECT_RET(sys_tgkill(me, tid, 64), 0);
	EXPECT_RET(sys_kill(me, 64), 0);
	siginfo_t si;
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, (long)&si, (long)&zero, 8), 64);
	CHECK(si.si_code == SI_TKILL && si.si_pid == me, "first: code %d pid %d", si.si_code, si.si_pid);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, (long)&si, (long)&zero, 8), 64);
	CHECK(si.si_code == SI_USER, "second: code %d", si.si_code);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, (long)&si, (long)&zero, 8), -EAGAIN);
}

/* ---- a default-ignored signal awaited by sigtimedwait ---- */

static void urg_then_exit(uintptr_t parent)
{
	ut_sleep_ns(50000000);
	sys_kill((long)parent, SIGURG);
	ut_sleep_ns(20000000);
}

/*
 * SIGCHLD and SIGURG are ignored by default, so a sender drops them unless
 * the receiver blocks them.  sigtimedwait unblocks its set for the wait, but
 * the signals are still "blocked" for that rule (Linux's real_blocked in
 * sig_ignored): the classic "block SIGCHLD, fork, sigwaitinfo" must see the
 * child's exit even when it comes during the wait.
 */
static void sigwait_ignored(void)
{
	sigset_t b;
	siginfo_t si;
	uint64_t set = KSIGMASK(SIGCHLD) | KSIGMASK(SIGURG);
	struct ts32 two = { 2, 0 }, zero = { 0, 0 };

	sigemptyset(&b);
	sigaddset(&b, SIGCHLD);
	sigaddset(&b, SIGURG);
	sigprocmask(SIG_BLOCK, &b, NULL);
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		urg_then_exit((uintptr_t)getppid());
		_exit(0);
	}
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, (long)&si, (long)&two, 8), SIGURG);
	CHECK(si.si_pid == pid && si.si_code == SI_USER, "SIGURG from %d code %d", si.si_pid, si.si_code);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, (long)&si, (long)&two, 8), SIGCHLD);
	CHECK(si.si_code == CLD_EXITED && si.si_pid == pid && si.si_status == 0,
	      "SIGCHLD code %d pid %d status %d", si.si_code, si.si_pid, si.si_status);
	ut_wait(pid);
	/* Unblocked again, and still SIG_DFL: the next one is dropped. */
	sigprocmask(SIG_UNBLOCK, &b, NULL);
	EXPECT_RET(sys_kill(getpid(), SIGURG), 0);
	sigprocmask(SIG_BLOCK, &b, NULL);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, (long)&si, (long)&zero, 8), -EAGAIN);
}

/* ---- a process signal pending on a thread that exits ---- */

static int leader_pipe[2];

static void *after_leader(void *arg)
{
	uint64_t set = KSIGMASK(SIGUSR1);
	struct ts32 zero = { 0, 0 };
	(void)arg;
	ut_sleep_ns(100000000);		/* the leader is gone by now */
	long r = sys_rt_sigtimedwait((long)&set, 0, (long)&zero, 8);
	sys_write(leader_pipe[1], (long)&r, sizeof(r));
	sys_exit_group(0);
	return NULL;
}

static void leader_exits(uintptr_t unused)
{
	sigset_t b;
	thread_t t;

	sigemptyset(&b);
	sigaddset(&b, SIGUSR1);
	sigprocmask(SIG_BLOCK, &b, NULL);
	CHECK(thread_create(&t, after_leader, NULL) == 0, "thread_create");
	sys_kill(getpid(), SIGUSR1);	/* every thread blocks it: pending on one */
	sys_exit(0);			/* the leader alone */
}

/*
 * kill() sends to the process: whichever thread it is queued on, another
 * thread must still be able to take it after that one exits (Linux keeps
 * it in the shared pending set).
 */
static void thread_exit_pending(void)
{
	long r = 0;

	CHECK(sys_pipe((long)leader_pipe) == 0, "pipe");
	ut_run_child(leader_exits, 0);
	EXPECT_RET(sys_read(leader_pipe[0], (long)&r, sizeof(r)), sizeof(r));
	CHECK(r == SIGUSR1, "the thread left found %ld, not SIGUSR1", r);
	sys_close(leader_pipe[0]);
	sys_close(leader_pipe[1]);
}

/* ---- timers ---- */

static volatile int ticks;

static void on_tick(int sig)
{
	(void)sig;
	ticks++;
}

/* Arm a timer every nanosecond from the epoch (long past) and spin. */
static void flood_self(int unused)
{
	struct sigevent ev;
	struct sigaction sa;
	struct its32 its = { { 0, 1 }, { 0, 1 } };
	int id;

	(void)unused;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigaction(SIGUSR1, &sa, NULL);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	if (sys_timer_create(CLOCK_REALTIME, (long)&ev, (long)&id) ||
	    sys_timer_settime(id, 1, (long)&its, 0))
		_exit(3);
	for (;;)
		ticks++;
}

static void timer_edges(void)
{
	struct sigevent ev;
	int id, ids[80];
	struct its32 its, cur;
	long n;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	static const int bad_clocks[] = { -1, -7, 10, 12, 16, 1000, 0x7fffffff, (int)0x80000000 };
	for (unsigned i = 0; i < sizeof(bad_clocks) / sizeof(bad_clocks[0]); i++)
		EXPECT_RET(sys_timer_create(bad_clocks[i], (long)&ev, (long)&id), -EINVAL);
	/* Clocks that exist but cannot drive a timer. */
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC_RAW, (long)&ev, (long)&id), -EOPNOTSUPP);
	EXPECT_RET(sys_timer_create(CLOCK_REALTIME_COARSE, (long)&ev, (long)&id), -EOPNOTSUPP);
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC_COARSE, (long)&ev, (long)&id), -EOPNOTSUPP);
	EXPECT_RET(sys_timer_create(CLOCK_BOOTTIME, (long)&ev, (long)&id), 0);
	EXPECT_RET(sys_timer_delete(id), 0);
	EXPECT_RET(sys_timer_delete(id), -EINVAL);		/* twice */
	EXPECT_RET(sys_timer_delete(-1), -EINVAL);
	/* Notifications. */
	ev.sigev_notify = SIGEV_BOGUS;
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), -EINVAL);
	ev.sigev_notify = -1;
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), -EINVAL);
	ev.sigev_notify = SIGEV_THREAD;		/* the kernel takes it as SIGEV_SIGNAL */
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), 0);
	EXPECT_RET(sys_timer_delete(id), 0);
	ev.sigev_notify = SIGEV_SIGNAL;
	for (int s = -1; s <= 65; s += (s == 1 ? 62 : 1)) {
		ev.sigev_signo = s;
		n = sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id);
		EXPECT_RET(n, s >= 1 && s <= 64 ? 0 : -EINVAL);
		if (!n)
			sys_timer_delete(id);
	}
	ev.sigev_signo = SIGUSR1;
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_notify_thread_id = 1;			/* init's thread: not ours */
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), -EINVAL);
	ev.sigev_notify_thread_id = getppid();
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), -EINVAL);
	ev.sigev_notify_thread_id = -1;
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), -EINVAL);
	ev.sigev_notify = SIGEV_SIGNAL;
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, KERNEL_PTR, (long)&id), -EFAULT);
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, KERNEL_PTR), -EFAULT);
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, 0), -EFAULT);
	/* More timers than the limit: EAGAIN, and each one deletes. */
	int made = 0;
	while (made < 80 && (n = sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&ids[made])) == 0)
		made++;
	/* Granule's limit is 64 a process (Linux's is RLIMIT_SIGPENDING). */
	CHECK((made == 64 && n == -EAGAIN) || made == 80, "timer %d: %ld", made, n);
	for (int i = 0; i < made; i++)
		EXPECT_RET(sys_timer_delete(ids[i]), 0);

	/* timer_settime's values. */
	EXPECT_RET(sys_timer_create(CLOCK_REALTIME, (long)&ev, (long)&id), 0);
	struct its32 bads[] = {
		{ { 0, 0 }, { 0, 1000000000 } }, { { 0, 0 }, { 0, -1 } }, { { 0, 0 }, { -1, 0 } },
		{ { 0, 1000000000 }, { 1, 0 } }, { { -5, 0 }, { 1, 0 } },
	};
	for (unsigned i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		EXPECT_RET(sys_timer_settime(id, 0, (long)&bads[i], 0), -EINVAL);
		EXPECT_RET(sys_timer_settime(id, 1, (long)&bads[i], 0), -EINVAL);
	}
	EXPECT_RET(sys_timer_settime(id, 0, 0, 0), -EINVAL);
	EXPECT_RET(sys_timer_settime(id, 0, KERNEL_PTR, 0), -EFAULT);
	EXPECT_RET(sys_timer_settime(id + 1000, 0, (long)&bads[0], 0), -EINVAL);
	EXPECT_RET(sys_timer_gettime(id, KERNEL_PTR), -EFAULT);
	EXPECT_RET(sys_timer_gettime(id + 1000, (long)&cur), -EINVAL);
	EXPECT_RET(sys_timer_getoverrun(id + 1000), -EINVAL);
	/* Far in the future, absolute: armed, and reads back as far. */
	its = (struct its32){ { 0, 0 }, { 0x7fffffff, 999999999 } };
	EXPECT_RET(sys_timer_settime(id, 1, (long)&its, 0), 0);
	EXPECT_RET(sys_timer_gettime(id, (long)&cur), 0);
	CHECK(cur.value.sec > 0x10000000, "far timer reads %d s", cur.value.sec);
	/* Unknown flag bits are not checked (Linux reads TIMER_ABSTIME only). */
	its = (struct its32){ { 0, 0 }, { 100, 0 } };
	EXPECT_RET(sys_timer_settime(id, 0x100, (long)&its, 0), 0);
	EXPECT_RET(sys_timer_gettime(id, (long)&cur), 0);
	CHECK(cur.value.sec >= 98 && cur.value.sec <= 100, "relative 100 s reads %d s", cur.value.sec);
	/* In the past, absolute, every nanosecond, with a handler: the process
	 * spends its life in the handler (on Linux too), but only its own
	 * time - the rest of the machine runs, and SIGKILL ends it. */
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0)
		flood_self(id);
	long long t0 = ut_cpu_ns(CLOCK_MONOTONIC);
	ut_sleep_ns(50000000);
	CHECK(ut_cpu_ns(CLOCK_MONOTONIC) - t0 >= 50000000, "the sleep ended early");
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	int st = ut_wait(pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the flooded child: status %#x", st);
	its = (struct its32){ { 0, 0 }, { 0, 0 } };
	EXPECT_RET(sys_timer_settime(id, 0, (long)&its, (long)&cur), 0);
	EXPECT_RET(sys_timer_delete(id), 0);
	EXPECT_RET(sys_timer_getoverrun(id), -EINVAL);
}

/* ---- sleeps ---- */

static void sleep_edges(void)
{
	struct ts32 ts = { 0, 1000 }, rem, bad = { 0, 1000000000 }, neg = { -1, 0 };

	EXPECT_RET(sys_clock_nanosleep(-1, 0, (long)&ts, 0), -EINVAL);
	EXPECT_RET(sys_clock_nanosleep(16, 0, (long)&ts, 0), -EINVAL);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, (long)&ts, 0), -EINVAL);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC_RAW, 0, (long)&ts, 0), -EOPNOTSUPP);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC_COARSE, 0, (long)&ts, 0), -EOPNOTSUPP);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_BOOTTIME, 0, (long)&ts, 0), 0);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC, 0x100, (long)&ts, 0), 0);	/* flags unread */
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC, 0, (long)&bad, 0), -EINVAL);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC, 0, (long)&neg, 0), -EINVAL);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC, 0, KERNEL_PTR, 0), -EFAULT);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC, 0, 0, 0), -EFAULT);
	/* Absolute times in the past: at once. */
	struct ts32 past = { 0, 0 };
	EXPECT_RET(sys_clock_nanosleep(CLOCK_REALTIME, 1, (long)&past, KERNEL_PTR), 0);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_MONOTONIC, 1, (long)&past, KERNEL_PTR), 0);
	EXPECT_RET(sys_clock_nanosleep(CLOCK_BOOTTIME, 1, (long)&past, 0), 0);
	/* rem is written only when the sleep is interrupted. */
	EXPECT_RET(sys_nanosleep((long)&ts, KERNEL_PTR), 0);
	EXPECT_RET(sys_nanosleep((long)&ts, (long)&rem), 0);
	EXPECT_RET(sys_nanosleep((long)&bad, (long)&rem), -EINVAL);
	EXPECT_RET(sys_clock_gettime(-1, (long)&rem), -EINVAL);
	EXPECT_RET(sys_clock_gettime(CLOCK_MONOTONIC, KERNEL_PTR), -EFAULT);
	EXPECT_RET(sys_clock_gettime(CLOCK_BOOTTIME, (long)&rem), 0);
	EXPECT_RET(sys_clock_getres(CLOCK_MONOTONIC, 0), 0);
	EXPECT_RET(sys_clock_getres(99, 0), -EINVAL);
}

/* ---- priorities ---- */

static void prio_group(uintptr_t unused)
{
	EXPECT_RET(sys_setpgid(0, 0), 0);
	EXPECT_RET(sys_setpriority(PRIO_PGRP, 0, 7), 0);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 0), 20 - 7);
	EXPECT_RET(sys_getpriority(PRIO_PGRP, 0), 20 - 7);
	EXPECT_RET(sys_getpriority(PRIO_PGRP, getpid()), 20 - 7);
	EXPECT_RET(sys_setpriority(PRIO_PGRP, getpid(), 100), 0);	/* clamped */
	EXPECT_RET(sys_getpriority(PRIO_PGRP, getpid()), 20 - 19);
	EXPECT_RET(sys_getpriority(PRIO_PGRP, 0x7ffffff0), -ESRCH);
	EXPECT_RET(sys_setpriority(PRIO_PGRP, 0x7ffffff0, 3), -ESRCH);
	EXPECT_RET(sys_getpriority(PRIO_USER, 12345), -ESRCH);		/* nobody is uid 12345 */
	EXPECT_RET(sys_setpriority(PRIO_USER, 12345, 3), -ESRCH);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 0), 20 - 19);
}

static void prio_edges(void)
{
	int st;

	EXPECT_RET(sys_getpriority(3, 0), -EINVAL);
	EXPECT_RET(sys_getpriority(-1, 0), -EINVAL);
	EXPECT_RET(sys_setpriority(3, 0, 0), -EINVAL);
	EXPECT_RET(sys_setpriority(0x7fffffff, 0, 0), -EINVAL);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, -1), -ESRCH);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 0x7fffffff), -ESRCH);
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, -1000), 0);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 0), 40);
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, 0x7fffffff), 0);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 0), 1);
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, 0), 0);
	st = ut_run_child(prio_group, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the group's child: status %#x", st);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 0), 20);	/* ours is untouched */
}

/* ---- limits, names and the small calls ---- */

static void small_calls(void)
{
	struct rlim64 lim, now;
	char name[16];

	EXPECT_RET(sys_prlimit64(0, 16, 0, (long)&lim), -EINVAL);
	EXPECT_RET(sys_prlimit64(0, -1, 0, (long)&lim), -EINVAL);
	EXPECT_RET(sys_prlimit64(0x7ffffff0, RLIMIT_NOFILE, 0, (long)&lim), -ESRCH);
	EXPECT_RET(sys_prlimit64(-1, RLIMIT_NOFILE, 0, (long)&lim), -ESRCH);
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, 0, KERNEL_PTR), -EFAULT);
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, KERNEL_PTR, 0), -EFAULT);
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, 0, (long)&lim), 0);
	now = (struct rlim64){ lim.max + 1, lim.max };
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, (long)&now, 0), -EINVAL);	/* cur > max */
	now = (struct rlim64){ lim.cur, (1u << 20) + 1 };			/* past nr_open */
	EXPECT_RET(sys_prlimit64(0, RLIMIT_NOFILE, (long)&now, 0), -EPERM);
	EXPECT_RET(sys_prlimit64(getppid(), RLIMIT_NOFILE, 0, (long)&now), 0);
	CHECK(now.cur == lim.cur && now.max == lim.max, "another pid's limit differs");
	EXPECT_RET(sys_ugetrlimit(16, (long)&now), -EINVAL);
	EXPECT_RET(sys_ugetrlimit(RLIMIT_NOFILE, KERNEL_PTR), -EFAULT);

	/* A 15-byte name with no NUL, ending at the last byte of a page: the
	 * kernel reads at most 15 bytes (TASK_COMM_LEN - 1). */
	long p = sys_mmap2(0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK((unsigned long)p < TASK_SIZE && (p & (PAGE_SIZE - 1)) == 0, "mmap2: %ld", p);
	EXPECT_RET(sys_munmap(p + PAGE_SIZE, PAGE_SIZE), 0);
	char *edge = (char *)p + PAGE_SIZE - 15;
	memset(edge, 'n', 15);
	EXPECT_RET(sys_prctl(PR_SET_NAME, (long)edge, 0, 0, 0), 0);
	EXPECT_RET(sys_prctl(PR_GET_NAME, (long)name, 0, 0, 0), 0);
	CHECK(!strcmp(name, "nnnnnnnnnnnnnnn"), "name %s", name);
	EXPECT_RET(sys_prctl(PR_SET_NAME, (long)(edge + 14 + 1), 0, 0, 0), -EFAULT);
	EXPECT_RET(sys_prctl(PR_SET_NAME, KERNEL_PTR, 0, 0, 0), -EFAULT);
	EXPECT_RET(sys_prctl(PR_GET_NAME, KERNEL_PTR, 0, 0, 0), -EFAULT);
	EXPECT_RET(sys_prctl(-1, 0, 0, 0, 0), -EINVAL);
	EXPECT_RET(sys_munmap(p, PAGE_SIZE), 0);

	EXPECT_RET(sys_uname(0), -EFAULT);
	EXPECT_RET(sys_uname(KERNEL_PTR), -EFAULT);
	EXPECT_RET(sys_sysinfo(0), -EFAULT);
	EXPECT_RET(sys_sysinfo(KERNEL_PTR), -EFAULT);
	EXPECT_RET(sys_getrandom((long)name, 0, 0), 0);
	EXPECT_RET(sys_getrandom(0, 0, 0), 0);
	EXPECT_RET(sys_getrandom((long)name, 16, 8), -EINVAL);		/* unknown flag */
	EXPECT_RET(sys_getrandom((long)name, 16, 2 | 4), -EINVAL);	/* RANDOM|INSECURE */
	EXPECT_RET(sys_getrandom(KERNEL_PTR, 16, 0), -EFAULT);
	EXPECT_RET(sys_getrandom(0, 16, 0), -EFAULT);
	EXPECT_RET(sys_getrandom((long)name, 16, 1), 16);
}

const struct ut_test ut_hostile_sig_tests[] = {
	{ sig_args, "hostile_sig_args" },
	{ sigwait_ignored, "hostile_sigwait_ignored" },
	{ thread_exit_pending, "hostile_thread_exit_pending" },
	{ timer_edges, "hostile_timer_edges" },
	{ sleep_edges, "hostile_sleep_edges" },
	{ prio_edges, "hostile_prio_edges" },
	{ small_calls, "hostile_small_calls" },
	{ NULL, NULL },
};
