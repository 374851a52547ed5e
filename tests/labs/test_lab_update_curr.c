/*
 * tests/labs/test_lab_update_curr.c - lab update_curr: charging the
 * running entity (Linux 2.6.35 __update_curr).  Each check makes one task
 * current, moves the fake clock by a fixed amount and calls update_curr()
 * itself, so only the charge is under test.  The expected figures are the
 * reference's own output (docs/LABS.md, "Answer policy").
 */
#include "lab.h"

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

	charge(1000000);
	assert_int_equal(t->se.sum_exec_runtime - s, 1000000);
	assert_int_equal(t->se.vruntime - v, 1000000);
}

/* nice 5 (weight 335): vruntime grows by delta * 1024/335, fixed point */
static void test_weighted_charge(void **state)
{
	struct task *t = run_one(5);
	u64 s = t->se.sum_exec_runtime, v = t->se.vruntime;

	charge(1000000);
	assert_int_equal(t->se.sum_exec_runtime - s, 1000000);
	assert_int_equal(t->se.vruntime - v, 3056716);	/* reference's figure */
}

/* the queue's exec_clock and the schedstat exec_max follow the charges */
static void test_exec_clock_and_max(void **state)
{
	struct task *t = run_one(0);
	u64 c = CFS->exec_clock;

	charge(300000);
	charge(700000);
	charge(200000);
	assert_int_equal(CFS->exec_clock - c, 1200000);
	assert_int_equal(t->se.statistics.exec_max, 700000);
}

/* alone on the queue, min_vruntime follows the running task's vruntime */
static void test_min_vruntime_follows(void **state)
{
	struct task *t = run_one(0);
	u64 v = t->se.vruntime;

	charge(2000000);
	assert_int_equal(t->se.vruntime - v, 2000000);
	assert_int_equal(CFS->min_vruntime, t->se.vruntime);
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_nice0_charge),
	LAB_TEST(test_weighted_charge),
	LAB_TEST(test_exec_clock_and_max),
	LAB_TEST(test_min_vruntime_follows),
};

LAB_GROUP(update_curr, tests);
