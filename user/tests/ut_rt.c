/*
 * user/tests/ut_rt.c - usertests: the sched_setscheduler(2) family on the
 * rt class (kernel/sched/syscalls.c, rt.c) with Linux 2.6.35's errnos:
 * EINVAL for a bad pid, policy or priority, ESRCH for no such process,
 * EFAULT for a bad pointer; round trips of SCHED_FIFO/RR through
 * setscheduler, setparam, getparam, getscheduler, sched_setattr and
 * sched_getattr; SCHED_RESET_ON_FORK; the priority range (no
 * SCHED_DEADLINE in 2.6.35); the RR interval; an unchanged
 * sched_setscheduler still requeues; the calls on an unreaped zombie; the
 * order FUTEX_WAKE takes a word's waiters in (rt first, by priority).
 * Every task runs as root (CAP_SYS_NICE): no EPERM arises.
 * Each test runs in its own child, so the rt policy set here dies with it.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ut.h"

#define SCHED_OTHER	0
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_DEADLINE	6
#define RESET_ON_FORK	0x40000000
#define NO_PID		99999

static const uint32_t badp[] = { 0xC0000000u, 0x40000000u };	/* kernel, unmapped */

static long setsched(long pid, long policy, int prio)
{
	return sys_sched_setscheduler(pid, policy, (long)&prio);
}

static int getprio(long pid)
{
	int prio = -1;

	EXPECT_RET(sys_sched_getparam(pid, (long)&prio), 0);
	return prio;
}

static void rt_setscheduler_errnos(void)
{
	int prio = 10;

	EXPECT_RET(setsched(-1, SCHED_FIFO, 10), -EINVAL);
	EXPECT_RET(sys_sched_setscheduler(0, SCHED_FIFO, 0), -EINVAL);	/* NULL param */
	EXPECT_RET(setsched(0, -1, 10), -EINVAL);
	EXPECT_RET(setsched(0, 7, 0), -EINVAL);
	EXPECT_RET(setsched(0, SCHED_DEADLINE, 0), -EINVAL);		/* no dl class */
	EXPECT_RET(setsched(0, SCHED_FIFO, 0), -EINVAL);
	EXPECT_RET(setsched(0, SCHED_RR, 100), -EINVAL);
	EXPECT_RET(setsched(0, SCHED_FIFO, -1), -EINVAL);
	EXPECT_RET(setsched(0, SCHED_OTHER, 1), -EINVAL);
	EXPECT_RET(setsched(NO_PID, SCHED_FIFO, 10), -ESRCH);
	for (unsigned i = 0; i < 2; i++)
		EXPECT_RET(sys_sched_setscheduler(0, SCHED_FIFO, (long)badp[i]), -EFAULT);
	EXPECT_RET(sys_sched_setparam(-1, (long)&prio), -EINVAL);
	EXPECT_RET(sys_sched_setparam(0, 0), -EINVAL);
	EXPECT_RET(sys_sched_setparam(NO_PID, (long)&prio), -ESRCH);
	EXPECT_RET(sys_sched_setparam(0, (long)&prio), -EINVAL);	/* OTHER: 0 only */
	EXPECT_RET(sys_sched_setparam(0, (long)badp[0]), -EFAULT);
}

static void rt_getparam_errnos(void)
{
	EXPECT_RET(sys_sched_getscheduler(-1), -EINVAL);
	EXPECT_RET(sys_sched_getscheduler(NO_PID), -ESRCH);
	EXPECT_RET(sys_sched_getparam(-1, (long)badp[1]), -EINVAL);
	EXPECT_RET(sys_sched_getparam(0, 0), -EINVAL);
	EXPECT_RET(sys_sched_getparam(NO_PID, (long)badp[1]), -ESRCH);
	for (unsigned i = 0; i < 2; i++)
		EXPECT_RET(sys_sched_getparam(0, (long)badp[i]), -EFAULT);
	EXPECT_RET(sys_sched_getscheduler(0), SCHED_OTHER);
	CHECK(getprio(0) == 0, "SCHED_OTHER priority %d", getprio(0));
}

static void child_is_other(uintptr_t unused)
{
	if (sys_sched_getscheduler(0) != SCHED_OTHER || getprio(0) != 0)
		sys_exit(1);
}

static void child_is_fifo50(uintptr_t unused)
{
	if (sys_sched_getscheduler(0) != SCHED_FIFO || getprio(0) != 50)
		sys_exit(1);
}

static void rt_roundtrip(void)
{
	EXPECT_RET(setsched(0, SCHED_FIFO, 50), 0);
	EXPECT_RET(sys_sched_getscheduler(0), SCHED_FIFO);
	CHECK(getprio(0) == 50, "FIFO priority %d", getprio(0));
	CHECK(ut_run_child(child_is_fifo50, 0) == 0, "a FIFO 50 parent's child is not FIFO 50");
	int p = 60;
	EXPECT_RET(sys_sched_setparam(0, (long)&p), 0);
	CHECK(getprio(0) == 60, "setparam 60 -> %d", getprio(0));
	EXPECT_RET(sys_sched_getscheduler(0), SCHED_FIFO);
	EXPECT_RET(setsched(0, SCHED_RR | RESET_ON_FORK, 20), 0);
	EXPECT_RET(sys_sched_getscheduler(0), SCHED_RR | RESET_ON_FORK);
	CHECK(ut_run_child(child_is_other, 0) == 0, "RESET_ON_FORK: the child stayed rt");
	EXPECT_RET(setsched(0, SCHED_OTHER, 0), 0);
	EXPECT_RET(sys_sched_getscheduler(0), SCHED_OTHER);
}

static void rt_priority_range(void)
{
	EXPECT_RET(sys_sched_get_priority_max(SCHED_FIFO), 99);
	EXPECT_RET(sys_sched_get_priority_max(SCHED_RR), 99);
	EXPECT_RET(sys_sched_get_priority_min(SCHED_FIFO), 1);
	EXPECT_RET(sys_sched_get_priority_min(SCHED_RR), 1);
	EXPECT_RET(sys_sched_get_priority_max(SCHED_OTHER), 0);
	EXPECT_RET(sys_sched_get_priority_min(5), 0);			/* SCHED_IDLE */
	EXPECT_RET(sys_sched_get_priority_max(SCHED_DEADLINE), -EINVAL);	/* 2.6.35 */
	EXPECT_RET(sys_sched_get_priority_min(SCHED_DEADLINE), -EINVAL);
	EXPECT_RET(sys_sched_get_priority_max(7), -EINVAL);
	EXPECT_RET(sys_sched_get_priority_min(-1), -EINVAL);
}

static void rt_rr_interval(void)
{
	int32_t ts[2] = { -1, -1 };
	int64_t ts64[2] = { -1, -1 };

	EXPECT_RET(sys_sched_rr_get_interval(-1, (long)ts), -EINVAL);
	EXPECT_RET(sys_sched_rr_get_interval(NO_PID, (long)ts), -ESRCH);
	EXPECT_RET(sys_sched_rr_get_interval(0, (long)badp[0]), -EFAULT);
	EXPECT_RET(setsched(0, SCHED_RR, 1), 0);
	EXPECT_RET(sys_sched_rr_get_interval(0, (long)ts), 0);
	CHECK(ts[0] == 0 && ts[1] == 100000000, "RR interval %d.%09d", ts[0], ts[1]);
	EXPECT_RET(sys_sched_rr_get_interval_time64(0, (long)ts64), 0);
	CHECK(ts64[0] == 0 && ts64[1] == 100000000, "RR interval64 %lld", (long long)ts64[1]);
	EXPECT_RET(setsched(0, SCHED_FIFO, 1), 0);
	EXPECT_RET(sys_sched_rr_get_interval(0, (long)ts), 0);
	CHECK(ts[0] == 0 && ts[1] == 0, "FIFO interval %d.%09d", ts[0], ts[1]);
}

static void rt_setattr(void)
{
	struct sched_attr a, g;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_RR;
	a.sched_priority = 0;
	EXPECT_RET(sys_sched_setattr(0, (long)&a, 0), -EINVAL);
	a.sched_priority = 100;
	EXPECT_RET(sys_sched_setattr(0, (long)&a, 0), -EINVAL);
	a.sched_priority = 42;
	EXPECT_RET(sys_sched_setattr(0, (long)&a, 0), 0);
	EXPECT_RET(sys_sched_getattr(0, (long)&g, sizeof(g), 0), 0);
	CHECK(g.sched_policy == SCHED_RR && g.sched_priority == 42,
	      "getattr: policy %u priority %u", g.sched_policy, g.sched_priority);
	EXPECT_RET(sys_sched_getscheduler(0), SCHED_RR);
	CHECK(getprio(0) == 42, "getparam after setattr: %d", getprio(0));
}

/* ---- an unchanged sched_setscheduler requeues (2.6.35) --------------------- */

static char rq_stack[2][16384] __attribute__((aligned(16)));
static volatile char rq_order[3];
static volatile int rq_n;

static void rq_a(void) { rq_order[rq_n++] = 'A'; }
static void rq_b(void) { rq_order[rq_n++] = 'B'; }

/*
 * A and B wait at FIFO 10, A ahead, while we run at FIFO 20.  Setting A to
 * FIFO 10 again changes nothing but its place: 2.6.35's
 * __sched_setscheduler() dequeues and enqueues it, at the tail.  So B runs
 * first when we sleep.
 */
static void rt_setscheduler_requeues(void)
{
	long a, b;

	ut_one_cpu();				/* A and B take turns: the threads too */
	EXPECT_RET(setsched(0, SCHED_FIFO, 20), 0);
	a = ut_clone(CLONE_VM | SIGCHLD, rq_stack[0], sizeof(rq_stack[0]), 0, 0, rq_a);
	b = ut_clone(CLONE_VM | SIGCHLD, rq_stack[1], sizeof(rq_stack[1]), 0, 0, rq_b);
	CHECK(a > 0 && b > 0, "clone: %ld %ld", a, b);
	EXPECT_RET(setsched(a, SCHED_FIFO, 10), 0);
	EXPECT_RET(setsched(b, SCHED_FIFO, 10), 0);
	EXPECT_RET(setsched(a, SCHED_FIFO, 10), 0);	/* unchanged: to the tail */
	CHECK(rq_n == 0, "a FIFO 10 task ran before a FIFO 20 one slept");
	ut_wait((pid_t)a);
	ut_wait((pid_t)b);
	CHECK(rq_n == 2 && rq_order[0] == 'B' && rq_order[1] == 'A',
	      "order %.2s: the unchanged setscheduler did not requeue A", (const char *)rq_order);
}

/*
 * An exited child that is not reaped yet (a zombie) is still found by the
 * sched_* calls, as 2.6.35's find_process_by_pid() finds it in the pid
 * hash; once reaped it is ESRCH.
 */
static void rt_zombie(void)
{
	int32_t ts[2] = { -1, -1 };
	long pid = ut_vfork();			/* we run again once it has exited */

	if (pid == 0)
		sys_exit(0);
	CHECK(pid > 0, "vfork: %ld", pid);
	EXPECT_RET(sys_sched_getscheduler(pid), SCHED_OTHER);
	CHECK(getprio(pid) == 0, "a zombie's priority %d", getprio(pid));
	EXPECT_RET(setsched(pid, SCHED_FIFO, 7), 0);
	EXPECT_RET(sys_sched_getscheduler(pid), SCHED_FIFO);
	CHECK(getprio(pid) == 7, "a zombie's priority %d after setscheduler", getprio(pid));
	EXPECT_RET(sys_sched_rr_get_interval(pid, (long)ts), 0);
	CHECK(ut_wait((pid_t)pid) == 0, "the zombie's status");
	EXPECT_RET(sys_sched_getscheduler(pid), -ESRCH);
	EXPECT_RET(setsched(pid, SCHED_FIFO, 7), -ESRCH);
}

/*
 * futex_wake_order: a futex word's waiters come off it in 2.6.35's plist
 * order, the key min(normal_prio, MAX_RT_PRIO): A (SCHED_OTHER) waits
 * first, then B (FIFO 10), then C (FIFO 20); three FUTEX_WAKEs of one
 * waiter each wake C, B, A.  Each waiter sets its own policy before it
 * waits, and is seen asleep ('S' in /proc/PID/stat) before the next comes.
 */
static volatile int fw_word, fw_n;
static volatile char fw_order[4];

static void fw_wait(char name, int prio)
{
	if (prio)
		EXPECT_RET(setsched(0, SCHED_FIFO, prio), 0);
	long r = sys_futex((long)&fw_word, FUTEX_WAIT, 0, 0, 0, 0);
	CHECK(r == 0, "%c: FUTEX_WAIT %ld", name, r);
	fw_order[fw_n++] = name;
}
static void fw_a(void) { fw_wait('A', 0); }
static void fw_b(void) { fw_wait('B', 10); }
static void fw_c(void) { fw_wait('C', 20); }

/* The state letter of /proc/PID/stat. */
static char proc_state(long pid)
{
	char path[32], buf[512];

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	return *ut_stat_field(path, 3, buf, sizeof(buf));
}

/* Yield until COND holds, at most a thousand times. */
#define YIELD_UNTIL(cond)						\
	do {								\
		int n_ = 0;						\
		while (!(cond) && n_++ < 1000)				\
			sys_sched_yield();				\
		CHECK(cond, "never: %s", #cond);			\
	} while (0)

static void futex_wake_order(void)
{
	static char stack[3][8192] __attribute__((aligned(16)));
	void (*fn[3])(void) = { fw_a, fw_b, fw_c };
	long tid[3];

	for (int i = 0; i < 3; i++) {
		tid[i] = ut_clone(CLONE_VM | SIGCHLD, stack[i], sizeof(stack[i]), 0, 0, fn[i]);
		CHECK(tid[i] > 0, "clone: %ld", tid[i]);
		YIELD_UNTIL(proc_state(tid[i]) == 'S');
	}
	for (int i = 0; i < 3; i++) {
		EXPECT_RET(sys_futex((long)&fw_word, FUTEX_WAKE, 1, 0, 0, 0), 1);
		YIELD_UNTIL(fw_n == i + 1);
	}
	CHECK(fw_order[0] == 'C' && fw_order[1] == 'B' && fw_order[2] == 'A',
	      "woken in the order %.3s, not CBA", (const char *)fw_order);
	for (int i = 0; i < 3; i++)
		CHECK(ut_wait((pid_t)tid[i]) == 0, "waiter %d's status", i);
}

const struct ut_test ut_rt_tests[] = {
	{ rt_setscheduler_errnos, "rt_setscheduler_errnos" },
	{ rt_getparam_errnos, "rt_getparam_errnos" },
	{ rt_roundtrip, "rt_roundtrip" },
	{ rt_priority_range, "rt_priority_range" },
	{ rt_rr_interval, "rt_rr_interval" },
	{ rt_setattr, "rt_setattr" },
	{ rt_setscheduler_requeues, "rt_setscheduler_requeues" },
	{ rt_zombie, "rt_zombie" },
	{ futex_wake_order, "futex_wake_order" },
	{ NULL, NULL },
};
