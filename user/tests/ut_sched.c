/*
 * user/tests/ut_sched.c - usertests: sched_setattr(2) and sched_getattr(2)
 * (kernel/sched/syscalls.c) - every error path Linux 6.12 has for the fair
 * policies (EINVAL, E2BIG with the size write-back, EFAULT, ESRCH,
 * EOPNOTSUPP for utilization clamps), then what a good call changes and
 * what fork passes on.  The custom slice (sched_runtime) is kept by EEVDF
 * only: under CFS sched_getattr reports 0, so the checks accept either.
 */
#include <string.h>
#include <unistd.h>
#include "ut.h"

#define VER0	48
#define VER1	56
#define SCHED_NORMAL	0
#define SCHED_FIFO	1
#define SCHED_BATCH	3
#define SCHED_IDLE	5
#define F_RESET_ON_FORK	0x01
#define F_KEEP_POLICY	0x08
#define F_KEEP_PARAMS	0x10
#define F_UTIL_CLAMP_MIN 0x20

static const uint32_t badp[] = { 0xC0000000u, 0x40000000u };	/* kernel, unmapped */

static long setattr(long pid, void *a, long flags)
{
	return sys_sched_setattr(pid, (long)a, flags);
}

static long getattr(long pid, void *a, long size, long flags)
{
	return sys_sched_getattr(pid, (long)a, size, flags);
}

static struct sched_attr attr_of(uint32_t policy, int nice)
{
	struct sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = policy;
	a.sched_nice = nice;
	return a;
}

/* Bad arguments -> EINVAL, in the order Linux checks them. */
static void sched_attr_einval(void)
{
	struct sched_attr a = attr_of(SCHED_NORMAL, 0);

	EXPECT_RET(setattr(0, NULL, 0), -EINVAL);
	EXPECT_RET(setattr(-1, &a, 0), -EINVAL);
	EXPECT_RET(setattr(0, &a, 1), -EINVAL);		/* flags must be 0 */
	a.sched_policy = 0x80000000u;			/* (int)policy < 0 */
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a.sched_policy = 7;				/* no such policy */
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a.sched_policy = SCHED_FIFO;			/* rt: priority 1..99 */
	a.sched_priority = 0;
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a = attr_of(SCHED_NORMAL, 0);
	a.sched_priority = 1;				/* fair: priority 0 only */
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a.sched_priority = 100;
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a = attr_of(SCHED_NORMAL, 0);
	a.sched_flags = 0x80;				/* unknown flag */
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a.sched_flags = 0x10000000;			/* SCHED_FLAG_SUGOV */
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a.sched_flags = F_UTIL_CLAMP_MIN;		/* clamps need VER1 */
	a.size = VER0;
	EXPECT_RET(setattr(0, &a, 0), -EINVAL);
	a.size = VER1;					/* no uclamp here */
	EXPECT_RET(setattr(0, &a, 0), -EOPNOTSUPP);

	EXPECT_RET(getattr(0, NULL, VER1, 0), -EINVAL);
	EXPECT_RET(getattr(-1, &a, VER1, 0), -EINVAL);
	EXPECT_RET(getattr(0, &a, VER0 - 1, 0), -EINVAL);
	EXPECT_RET(getattr(0, &a, 4097, 0), -EINVAL);
	EXPECT_RET(getattr(0, &a, VER1, 1), -EINVAL);
}

/* Sizes: too small or too big -> E2BIG and attr->size = 56. */
static void sched_attr_e2big(void)
{
	static uint8_t big[4200];
	struct sched_attr *a = (struct sched_attr *)big;

	memset(big, 0, sizeof(big));
	a->size = VER0 - 1;
	EXPECT_RET(setattr(0, a, 0), -E2BIG);
	CHECK(a->size == VER1, "size written back %u", a->size);
	a->size = 4097;
	EXPECT_RET(setattr(0, a, 0), -E2BIG);
	CHECK(a->size == VER1, "size written back %u", a->size);
	a->size = 4096;					/* a newer struct, zero tail */
	EXPECT_RET(setattr(0, a, 0), 0);
	big[4000] = 1;					/* ... with a field we lack */
	EXPECT_RET(setattr(0, a, 0), -E2BIG);
	CHECK(a->size == VER1, "size written back %u", a->size);
	big[4000] = 0;
	a->size = 0;					/* 0 means VER0 */
	EXPECT_RET(setattr(0, a, 0), 0);

	/* getattr writes min(usize, 56) and says so */
	memset(big, 0xff, sizeof(big));
	EXPECT_RET(getattr(0, a, 4096, 0), 0);
	CHECK(a->size == VER1 && big[VER1] == 0xff, "getattr size %u", a->size);
	memset(big, 0xff, sizeof(big));
	EXPECT_RET(getattr(0, a, VER0, 0), 0);
	CHECK(a->size == VER0 && big[VER0] == 0xff, "getattr size %u", a->size);
}

/* Bad pointers -> EFAULT; no such task -> ESRCH. */
static void sched_attr_efault_esrch(void)
{
	struct sched_attr a = attr_of(SCHED_NORMAL, 0);

	for (unsigned i = 0; i < sizeof(badp) / sizeof(badp[0]); i++) {
		EXPECT_RET(setattr(0, (void *)badp[i], 0), -EFAULT);
		EXPECT_RET(getattr(0, (void *)badp[i], VER1, 0), -EFAULT);
	}
	/* the struct ends past the last mapped byte of the stack's top page */
	EXPECT_RET(getattr(0, (void *)(STACK_TOP - 8), VER1, 0), -EFAULT);
	EXPECT_RET(setattr(30000, &a, 0), -ESRCH);
	EXPECT_RET(getattr(30000, &a, VER1, 0), -ESRCH);
}

static void child_checks_reset(uintptr_t parent_runtime)
{
	struct sched_attr a;

	EXPECT_RET(getattr(0, &a, VER1, 0), 0);
	CHECK(a.sched_flags == 0, "child kept RESET_ON_FORK (%llu)",
	      (unsigned long long)a.sched_flags);
	CHECK(a.sched_nice == 5, "child nice %d, want 5 (only negative nice resets)",
	      a.sched_nice);
	CHECK(a.sched_policy == SCHED_BATCH, "child policy %u", a.sched_policy);
	CHECK(a.sched_runtime != 100000 || parent_runtime == 0,
	      "child kept the custom slice despite RESET_ON_FORK");
}

static void child_checks_inherit(uintptr_t parent_runtime)
{
	struct sched_attr a;

	EXPECT_RET(getattr(0, &a, VER1, 0), 0);
	CHECK(a.sched_runtime == parent_runtime, "child slice %llu, parent's %llu",
	      (unsigned long long)a.sched_runtime, (unsigned long long)parent_runtime);
}

/* A good call: policy, nice, slice (clamped), RESET_ON_FORK; and fork. */
static void sched_attr_roundtrip(void)
{
	struct sched_attr a = attr_of(SCHED_BATCH, 5), g;

	a.sched_runtime = 1;				/* below 0.1 ms: clamped */
	EXPECT_RET(setattr(0, &a, 0), 0);
	EXPECT_RET(getattr(getpid(), &g, VER1, 0), 0);
	CHECK(g.size == VER1 && g.sched_policy == SCHED_BATCH && g.sched_nice == 5,
	      "getattr size %u policy %u nice %d", g.size, g.sched_policy, g.sched_nice);
	CHECK(g.sched_runtime == 0 || g.sched_runtime == 100000,
	      "slice %llu: neither CFS's 0 nor the 0.1 ms clamp", (unsigned long long)g.sched_runtime);
	CHECK(ut_run_child(child_checks_inherit, (uintptr_t)g.sched_runtime) == 0,
	      "the child did not inherit the slice");

	a.sched_runtime = 1000000000ULL;		/* above 100 ms: clamped */
	a.sched_flags = F_RESET_ON_FORK;
	EXPECT_RET(setattr(0, &a, 0), 0);
	EXPECT_RET(getattr(0, &g, VER1, 0), 0);
	CHECK(g.sched_flags == F_RESET_ON_FORK, "flags %llu", (unsigned long long)g.sched_flags);
	CHECK(g.sched_runtime == 0 || g.sched_runtime == 100000000,
	      "slice %llu: neither 0 nor the 100 ms clamp", (unsigned long long)g.sched_runtime);
	CHECK(ut_run_child(child_checks_reset, (uintptr_t)g.sched_runtime) == 0,
	      "RESET_ON_FORK was not applied to the child");

	/* KEEP_POLICY: the policy and RESET_ON_FORK stay, nice changes (clamped) */
	a = attr_of(SCHED_IDLE, 40);
	a.sched_flags = F_KEEP_POLICY;
	EXPECT_RET(setattr(0, &a, 0), 0);
	EXPECT_RET(getattr(0, &g, VER1, 0), 0);
	CHECK(g.sched_policy == SCHED_BATCH && g.sched_nice == 19 &&
	      g.sched_flags == F_RESET_ON_FORK,
	      "KEEP_POLICY: policy %u nice %d flags %llu", g.sched_policy, g.sched_nice,
	      (unsigned long long)g.sched_flags);
	/* KEEP_PARAMS: nice stays, the policy changes */
	a = attr_of(SCHED_NORMAL, -20);
	a.sched_flags = F_KEEP_PARAMS;
	EXPECT_RET(setattr(0, &a, 0), 0);
	EXPECT_RET(getattr(0, &g, VER1, 0), 0);
	CHECK(g.sched_policy == SCHED_NORMAL && g.sched_nice == 19,
	      "KEEP_PARAMS: policy %u nice %d", g.sched_policy, g.sched_nice);
}

const struct ut_test ut_sched_tests[] = {
	{ sched_attr_einval, "sched_attr_einval" },
	{ sched_attr_e2big, "sched_attr_e2big" },
	{ sched_attr_efault_esrch, "sched_attr_efault" },
	{ sched_attr_roundtrip, "sched_attr_roundtrip" },
	{ NULL, NULL },
};
