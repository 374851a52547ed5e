/*
 * tests/labs/test_lab_update_curr.c - lab update_curr: charging the
 * running entity (Linux 2.6.35 __update_curr).  Each check makes a task
 * current, moves the fake clock by a fixed amount and calls update_curr()
 * itself, so only the charge is under test.  The expected figures are the
 * reference's own output (docs/LABS.md, "Answer policy"); the property
 * test (prop_update_curr.c) covers random queues besides.
 */
#include "scene.h"

/* One task of nice NICE made current, its clock start fixed at now. */
static struct task *run_one(int nice)
{
	struct task *t = spawn("lab", nice);

	resched_if_needed();
	assert_ptr_equal(current, t);
	update_rq_clock(RQ);
	update_curr(CFS);
	return t;
}

/* Advance the clock by NS and charge current. */
static void charge(u64 ns)
{
	fake_clock_advance(ns);
	update_rq_clock(RQ);
	update_curr(CFS);
}

/* nice 0: 1 ms of CPU is 1 ms of vruntime and 1 ms of sum_exec_runtime */
static void test_nice0_charge(void **state)
{
	struct task *t = run_one(0);
	u64 s = t->se.sum_exec_runtime, v = t->se.vruntime;

	lab_scenario("one nice-0 task runs alone; the clock moves 1 ms and update_curr() "
		     "charges it");
	charge(1000000);
	LAB_EQ(t->se.sum_exec_runtime - s, 1000000, "its sum_exec_runtime grew by (ns)");
	LAB_EQ(t->se.vruntime - v, 1000000, "its vruntime grew by (ns)");
}

/* nice 5 (weight 335): vruntime grows by delta * 1024/335, fixed point */
static void test_weighted_charge(void **state)
{
	struct task *t = run_one(5);
	u64 s = t->se.sum_exec_runtime, v = t->se.vruntime;

	lab_scenario("one nice-5 task (weight 335) runs alone; the clock moves 1 ms and "
		     "update_curr() charges it");
	charge(1000000);
	LAB_EQ(t->se.sum_exec_runtime - s, 1000000, "its sum_exec_runtime grew by (ns)");
	LAB_EQ(t->se.vruntime - v, 3056716, "its vruntime grew by (ns): 1 ms x 1024/335");
}

/* the ends of the nice range, and both sides of 0: calc_delta_fair's
 * fixed point at every weight */
static void test_every_nice_level(void **state)
{
	static const struct { int nice; long long v; } want[] = {
		{ -20, 11537 }, { -10, 107248 }, { -1, 801879 }, { 1, 1248780 },
		{ 10, 9309091 }, { 19, 68266667 },
	};
	char what[64];

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct task *t;
		u64 v;

		sched_test_reset();
		knob_set_ok("sched_preset", "linux-2.6.35");
		t = run_one(want[i].nice);
		v = t->se.vruntime;
		lab_scenario("one nice %d task runs alone; the clock moves 1 ms and "
			     "update_curr() charges it", want[i].nice);
		charge(1000000);
		snprintf(what, sizeof(what), "its vruntime grew by (ns) at nice %d", want[i].nice);
		LAB_EQ(t->se.vruntime - v, want[i].v, what);
	}
}

/* one charge of 10 ms: delta * 1024 no longer fits 32 bits (4.19 ms) */
static void test_long_delta(void **state)
{
	struct task *t = run_one(0);
	u64 v = t->se.vruntime;

	lab_scenario("one nice-0 task runs alone; the clock moves 10 ms at once (more than "
		     "the 4.19 ms after which delta x 1024 overflows 32 bits)");
	charge(10000000);
	LAB_EQ(t->se.vruntime - v, 10000000, "its vruntime grew by (ns)");
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-2.6.35");
	t = run_one(-20);
	v = t->se.vruntime;
	lab_scenario("one nice -20 task runs alone; the clock moves 3 s at once");
	charge(3000000000ULL);
	LAB_EQ(t->se.vruntime - v, 34609795, "its vruntime grew by (ns)");
}

/* the queue's exec_clock and the schedstat exec_max follow the charges;
 * with schedstats off, exec_max is left alone */
static void test_exec_clock_and_max(void **state)
{
	struct task *t = run_one(0);
	u64 c = CFS->exec_clock;

	lab_scenario("one nice-0 task runs alone and is charged 0.3 ms, 0.7 ms and 0.2 ms");
	charge(300000);
	charge(700000);
	charge(200000);
	LAB_EQ(CFS->exec_clock - c, 1200000, "the queue's exec_clock grew by (ns)");
	LAB_EQ(t->se.statistics.exec_max, 700000, "its exec_max, the longest charge (ns)");
	lab_scenario("as before, then schedstats are turned off and it is charged 0.9 ms");
	knob_set_ok("sched_schedstats", "0");
	charge(900000);
	LAB_EQ(t->se.statistics.exec_max, 700000, "its exec_max with schedstats off (ns)");
}

/* alone on the queue, min_vruntime follows the running task's vruntime */
static void test_min_vruntime_follows(void **state)
{
	struct task *t = run_one(0);
	u64 v = t->se.vruntime;

	lab_scenario("one nice-0 task runs alone; the clock moves 2 ms and update_curr() "
		     "charges it");
	charge(2000000);
	LAB_EQ(t->se.vruntime - v, 2000000, "its vruntime grew by (ns)");
	LAB_EQ(CFS->min_vruntime - t->se.vruntime, 0, "min_vruntime - its vruntime (ns)");
}

/*
 * With others queued: min_vruntime = max(itself, min(curr, leftmost)).
 * curr, a woken sleeper, starts 3 ms behind min_vruntime; q1 and q2 wait
 * 1 ms and 2 ms ahead of it.  After 1 ms curr is still behind: nothing
 * moves; after 4 ms more curr is 2 ms ahead, q1 1 ms: min_vruntime moves
 * to q1, not to curr.
 */
static void test_min_vruntime_never_backwards(void **state)
{
	const struct cfs_scene s = {
		.min_vruntime = (u64)(-(1LL << 20)), .curr = 1, .c = { 0, -3 * MS },
		.nq = 2, .q = { { 0, MS }, { 0, 2 * MS } },
	};
	struct task *t[SCENE_MAX + 1];
	u64 v0;

	scene_build(&s, t);
	v0 = CFS->min_vruntime;
	lab_scenario("curr (nice 0) runs 3 ms behind min_vruntime (a woken sleeper); q1 and "
		     "q2 wait 1 ms and 2 ms ahead of min_vruntime; update_curr() charges curr "
		     "1 ms");
	charge(MS);
	LAB_EQ(CFS->min_vruntime - v0, 0, "min_vruntime moved by (ns)");
	lab_scenario("as before, then curr is charged 4 ms more: it is now 2 ms ahead, q1 1 ms");
	charge(4 * MS);
	LAB_EQ(t[0]->se.vruntime - v0, 2 * MS, "curr's vruntime - the old min_vruntime (ns)");
	LAB_EQ(CFS->min_vruntime - v0, MS, "min_vruntime moved by (ns)");
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_nice0_charge),
	LAB_TEST(test_weighted_charge),
	LAB_TEST(test_every_nice_level),
	LAB_TEST(test_long_delta),
	LAB_TEST(test_exec_clock_and_max),
	LAB_TEST(test_min_vruntime_follows),
	SCENE_TEST(test_min_vruntime_never_backwards),
	PROP_TEST(test_property_update_curr),
};

LAB_GROUP(update_curr, tests);
