/*
 * tests/labs/test_lab_place_entity.c - lab place_entity: where a
 * forked or woken entity enters the queue (Linux 2.6.35 place_entity:
 * START_DEBIT, the sleeper credit, GENTLE_FAIR_SLEEPERS; Granule's [M2/2]
 * line that arms a woken sleeper's shield).  Each check fixes a queue of
 * hogs, then calls place_entity() itself on an entity whose vruntime and
 * nice level it chose.  Expected figures are the reference's output; the
 * property test (prop_place_entity.c) covers random queues besides.
 */
#include "scene.h"

#define FAR	(-1000000000LL)	/* 1 s behind min_vruntime: a long sleeper */

/* N nice-0 hogs on the queue, run for NTICKS ticks. */
static void hogs(int n, int nticks)
{
	for (int i = 0; i < n; i++)
		spawn("hog", 0);
	resched_if_needed();
	ticks(nticks);
}

/* place a fresh nice-NICE entity OFF ns from min_vruntime (INITIAL: a
 * fork); returns the entity, its vruntime still absolute */
static struct sched_entity *place_nice(s64 off, int initial, int nice)
{
	struct task *t = scene_alloc("lab", nice);

	t->se.vruntime = CFS->min_vruntime + (u64)off;
	place_entity(CFS, &t->se, initial);
	return &t->se;
}

/* the same, nice 0; returns its new offset from min_vruntime */
static s64 placed(s64 off, int initial)
{
	return (s64)(place_nice(off, initial, 0)->vruntime - CFS->min_vruntime);
}

/* a fork under 3 hogs starts one vslice (4 tasks' period / 4) after
 * min_vruntime, which sits 1 ms before the 2^64 wrap: the sum wraps */
static void test_start_debit(void **state)
{
	hogs(3, 0);
	lab_scenario("3 nice-0 hogs queued, min_vruntime 1 ms before the 2^64 wrap; a nice-0 "
		     "task forks (initial=1) from 1 s behind min_vruntime");
	LAB_EQ(placed(FAR, 1), 1999512, "its vruntime - min_vruntime (ns)");
}

/* the debit is the fork's own virtual slice: a nice-5 fork pays more */
static void test_debit_is_virtual(void **state)
{
	hogs(3, 0);
	lab_scenario("3 nice-0 hogs queued; a nice-5 task forks (initial=1) from 1 s behind "
		     "min_vruntime");
	LAB_EQ((s64)(place_nice(FAR, 1, 5)->vruntime - CFS->min_vruntime), 2403756,
	       "its vruntime - min_vruntime (ns): its slice in its own virtual time");
}

/* NO_START_DEBIT: a fork starts at min_vruntime */
static void test_no_start_debit(void **state)
{
	knob_set_ok("sched_features", "NO_START_DEBIT");
	hogs(3, 0);
	lab_scenario("NO_START_DEBIT, 3 nice-0 hogs queued; a nice-0 task forks (initial=1) "
		     "from 1 s behind min_vruntime");
	LAB_EQ(placed(FAR, 1), 0, "its vruntime - min_vruntime (ns)");
}

/* a long sleeper (far behind) wakes at min_vruntime - latency/2 */
static void test_sleeper_credit_gentle(void **state)
{
	hogs(2, 0);
	lab_scenario("2 nice-0 hogs queued, latency 6 ms, GENTLE_FAIR_SLEEPERS; a nice-0 "
		     "sleeper wakes (initial=0) from 1 s behind min_vruntime");
	LAB_EQ(placed(FAR, 0), -3000000, "its vruntime - min_vruntime (ns)");
}

/* NO_GENTLE_FAIR_SLEEPERS: the credit is a whole latency */
static void test_sleeper_credit_full(void **state)
{
	knob_set_ok("sched_features", "NO_GENTLE_FAIR_SLEEPERS");
	hogs(2, 0);
	lab_scenario("NO_GENTLE_FAIR_SLEEPERS, 2 nice-0 hogs queued, latency 6 ms; a nice-0 "
		     "sleeper wakes (initial=0) from 1 s behind min_vruntime");
	LAB_EQ(placed(FAR, 0), -6000000, "its vruntime - min_vruntime (ns)");
}

/* the credit is raw wall time, the same for every nice level */
static void test_credit_is_raw(void **state)
{
	hogs(2, 0);
	lab_scenario("2 nice-0 hogs queued, latency 6 ms; a nice-19 sleeper wakes "
		     "(initial=0) from 1 s behind min_vruntime");
	LAB_EQ((s64)(place_nice(FAR, 0, 19)->vruntime - CFS->min_vruntime), -3000000,
	       "its vruntime - min_vruntime (ns)");
}

/* placement never moves an entity backwards: a short sleeper keeps its
 * vruntime, one 5 ms behind is lifted to the credit's edge */
static void test_never_backwards(void **state)
{
	hogs(2, 0);
	lab_scenario("2 nice-0 hogs queued; a nice-0 sleeper wakes 12345 ns AHEAD of "
		     "min_vruntime");
	LAB_EQ(placed(12345, 0), 12345, "its vruntime - min_vruntime (ns)");
	lab_scenario("2 nice-0 hogs queued; a nice-0 sleeper wakes 3 ms - 1 ns behind "
		     "min_vruntime, just inside the credit");
	LAB_EQ(placed(-2999999, 0), -2999999, "its vruntime - min_vruntime (ns)");
	lab_scenario("2 nice-0 hogs queued; a nice-0 sleeper wakes 5 ms behind min_vruntime");
	LAB_EQ(placed(-5000000, 0), -3000000, "its vruntime - min_vruntime (ns)");
}

/* [M2/2] (Granule, docs/VARIANTS.md): a wakeup arms the woken sleeper's
 * shield from sched_sleeper_wakeup_slice_ns; a fork does not */
static void test_sleeper_shield_armed(void **state)
{
	knob_set_ok("sched_sleeper_wakeup_slice_ns", "2000000");
	hogs(2, 0);
	lab_scenario("sched_sleeper_wakeup_slice_ns=2000000 ([M2/2]), 2 nice-0 hogs queued; "
		     "a nice-0 sleeper wakes (initial=0) from 1 s behind min_vruntime");
	LAB_EQ(place_nice(FAR, 0, 0)->sleeper_wakeup_slice, 2000000,
	       "its sleeper_wakeup_slice (ns)");
	lab_scenario("sched_sleeper_wakeup_slice_ns=2000000 ([M2/2]), 2 nice-0 hogs queued; "
		     "a nice-0 task forks (initial=1)");
	LAB_EQ(place_nice(FAR, 1, 0)->sleeper_wakeup_slice, 0,
	       "its sleeper_wakeup_slice (ns): a fork is not a sleeper");
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_start_debit),
	LAB_TEST(test_debit_is_virtual),
	LAB_TEST(test_no_start_debit),
	LAB_TEST(test_sleeper_credit_gentle),
	LAB_TEST(test_sleeper_credit_full),
	LAB_TEST(test_credit_is_raw),
	LAB_TEST(test_never_backwards),
	LAB_TEST(test_sleeper_shield_armed),
	PROP_TEST(test_property_place_entity),
};

LAB_GROUP(place_entity, tests);
