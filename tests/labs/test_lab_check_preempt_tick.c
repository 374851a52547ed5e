/*
 * tests/labs/test_lab_check_preempt_tick.c - lab check_preempt_tick: the
 * tick's preemption (Linux 2.6.35 check_preempt_tick: the slice, the
 * minimum granularity, the vruntime lead over the leftmost).  Each check
 * queues two nice-0 tasks (period 6 ms, slice 3 ms, min_granularity 2 ms
 * under linux-2.6.35), sets how long curr has run and how far its vruntime
 * leads, and calls check_preempt_tick() itself.
 */
#include "lab.h"

/* Does the tick preempt a curr that ran RAN ns and leads the leftmost by LEAD ns? */
static int preempts(u64 ran, s64 lead)
{
	struct sched_entity *curr = &current->se;

	curr->prev_sum_exec_runtime = curr->sum_exec_runtime - ran;
	curr->vruntime = __pick_next_entity(CFS)->vruntime + (u64)lead;
	current->need_resched = 0;
	check_preempt_tick(CFS, curr);
	return current->need_resched != 0;
}

static void two_tasks(void)
{
	spawn("a", 0);
	spawn("b", 0);
	resched_if_needed();
	assert_true(current != sched_idle_task());
	assert_int_equal(CFS->nr_running, 2);
}

/* past its slice: preempted, and a buddy hint on it is dropped */
static void test_slice_used_up(void **state)
{
	two_tasks();
	CFS->last = &current->se;
	assert_true(preempts(10000000, 0));
	assert_null(CFS->last);
}

/* within the slice, past min_granularity, leading by more than the slice */
static void test_lead_over_slice(void **state)
{
	two_tasks();
	assert_true(preempts(2500000, 10000000));
	assert_false(preempts(2500000, 1000000));
}

/* before min_granularity nothing preempts, whatever the lead */
static void test_min_granularity(void **state)
{
	two_tasks();
	assert_false(preempts(1000000, 10000000));
	assert_true(preempts(2500000, 10000000));
}

/* NO_WAKEUP_PREEMPT: only the used-up slice preempts */
static void test_no_wakeup_preempt(void **state)
{
	knob_set_ok("sched_features", "NO_WAKEUP_PREEMPT");
	two_tasks();
	assert_false(preempts(2500000, 10000000));
	assert_true(preempts(3500000, 0));
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_slice_used_up),
	LAB_TEST(test_lead_over_slice),
	LAB_TEST(test_min_granularity),
	LAB_TEST(test_no_wakeup_preempt),
};

LAB_GROUP(check_preempt_tick, tests);
