/*
 * tests/labs/test_lab_place_entity.c - lab place_entity: where a
 * forked or woken entity enters the queue (Linux 2.6.35 place_entity:
 * START_DEBIT, the sleeper credit, GENTLE_FAIR_SLEEPERS).  Each check
 * fixes a queue of hogs, then calls place_entity() itself on an entity
 * whose vruntime it chose.  Expected figures are the reference's output.
 */
#include "lab.h"

#define FAR	(-1000000000LL)	/* 1 s behind min_vruntime: a long sleeper */

/* N nice-0 hogs on the queue, run for NTICKS ticks. */
static void hogs(int n, int nticks)
{
	for (int i = 0; i < n; i++)
		spawn("hog", 0);
	resched_if_needed();
	ticks(nticks);
}

/* place a fresh nice-0 entity OFF ns from min_vruntime; returns its new offset */
static s64 placed(s64 off, int initial)
{
	u64 v = CFS->min_vruntime + (u64)off;
	struct task *t = task_alloc("lab");

	t->se.load.weight = 1024;
	t->se.load.inv_weight = 4194304;
	t->se.vruntime = v;
	place_entity(CFS, &t->se, initial);
	return (s64)(t->se.vruntime - CFS->min_vruntime);
}

/* a fork under 3 hogs starts one vslice (4 tasks' period / 4) after min_vruntime */
static void test_start_debit(void **state)
{
	hogs(3, 0);
	assert_int_equal(placed(FAR, 1), 1999512);	/* reference's figure */
}

/* NO_START_DEBIT: a fork starts at min_vruntime */
static void test_no_start_debit(void **state)
{
	knob_set_ok("sched_features", "NO_START_DEBIT");
	hogs(3, 0);
	assert_int_equal(placed(FAR, 1), 0);
}

/* a long sleeper (far behind) wakes at min_vruntime - latency/2 */
static void test_sleeper_credit_gentle(void **state)
{
	hogs(2, 0);
	assert_int_equal(placed(FAR, 0), -3000000);
}

/* NO_GENTLE_FAIR_SLEEPERS: the credit is a whole latency */
static void test_sleeper_credit_full(void **state)
{
	knob_set_ok("sched_features", "NO_GENTLE_FAIR_SLEEPERS");
	hogs(2, 0);
	assert_int_equal(placed(FAR, 0), -6000000);
}

/* placement never moves an entity backwards: a short sleeper keeps its
 * vruntime, one 5 ms behind is lifted to the credit's edge */
static void test_never_backwards(void **state)
{
	hogs(2, 0);
	assert_int_equal(placed(12345, 0), 12345);
	assert_int_equal(placed(-5000000, 0), -3000000);
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_start_debit),
	LAB_TEST(test_no_start_debit),
	LAB_TEST(test_sleeper_credit_gentle),
	LAB_TEST(test_sleeper_credit_full),
	LAB_TEST(test_never_backwards),
};

LAB_GROUP(place_entity, tests);
