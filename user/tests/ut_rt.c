/*
 * user/tests/ut_rt.c - usertests: the sched_setscheduler(2) family on the
 * rt class (kernel/sched/syscalls.c, rt.c) with Linux 6.12's errnos:
 * EINVAL for a bad pid, policy or priority, ESRCH for no such process,
 * EFAULT for a bad pointer; round trips of SCHED_FIFO/RR through
 * setscheduler, setparam, getparam, getscheduler, sched_setattr and
 * sched_getattr; SCHED_RESET_ON_FORK; the priority range; the RR
 * interval.  Every task runs as root (CAP_SYS_NICE): no EPERM arises.
 * Each test runs in its own child, so the rt policy set here dies with it.
 */
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
	EXPECT_RET(sys_sched_get_priority_min(SCHED_DEADLINE), 0);
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

const struct ut_test ut_rt_tests[] = {
	{ rt_setscheduler_errnos, "rt_setscheduler_errnos" },
	{ rt_getparam_errnos, "rt_getparam_errnos" },
	{ rt_roundtrip, "rt_roundtrip" },
	{ rt_priority_range, "rt_priority_range" },
	{ rt_rr_interval, "rt_rr_interval" },
	{ rt_setattr, "rt_setattr" },
	{ NULL, NULL },
};
