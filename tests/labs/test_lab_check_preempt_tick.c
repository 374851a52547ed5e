/*
 * tests/labs/test_lab_check_preempt_tick.c - lab check_preempt_tick: the
 * tick's preemption (Linux 2.6.35 check_preempt_tick: the slice, the
 * minimum granularity, the vruntime lead over the leftmost; Granule's
 * variants in the same function: DEADLINE, the [M2/2] shield, [M1/2]
 * DYN_GRAN, CPT_FIX).  Each check queues tasks (two nice-0 ones unless it
 * says otherwise: period 6 ms, slice 3 ms, min_granularity 2 ms under
 * linux-2.6.35), sets how long curr has run and how far its vruntime
 * leads the leftmost, and calls check_preempt_tick() itself.  The
 * property test (prop_check_preempt_tick.c) covers random queues.
 */
#include <string.h>
#include "scene.h"

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

/* curr (nice CNICE) and one nice-0 task queued, under PRESET with FEATURES on */
static void pair(const char *preset, u32 features, int cnice)
{
	struct cfs_scene s = {
		.min_vruntime = (u64)(-(1LL << 20)), .curr = 1, .c = { cnice, 0 },
		.nq = 1, .q = { { 0, 0 } }, .on = features,
	};
	struct task *t[SCENE_MAX + 1];

	for (s.preset = 0; strcmp(scene_presets[s.preset], preset); s.preset++)
		;
	scene_build(&s, t);
}

/* past its slice: preempted, and a buddy hint on it is dropped */
static void test_slice_used_up(void **state)
{
	two_tasks();
	CFS->last = &current->se;
	lab_scenario("two nice-0 tasks (slice 3 ms); curr, the last buddy, has run 10 ms and "
		     "does not lead the leftmost");
	LAB_YES(preempts(10000000, 0), "does the tick preempt curr");
	LAB_TASK(CFS->last, NULL, "the last buddy afterwards");
}

/* the slice's edge: exactly the slice is not past it, 1 ns more is */
static void test_slice_edge(void **state)
{
	u64 slice;

	two_tasks();
	slice = sched_slice(CFS, &current->se);
	lab_scenario("two nice-0 tasks; curr has run exactly its slice (sched_slice(), %llu "
		     "ns) and does not lead the leftmost", (unsigned long long)slice);
	LAB_NO(preempts(slice, 0), "does the tick preempt curr");
	lab_scenario("two nice-0 tasks; curr has run its slice + 1 ns");
	LAB_YES(preempts(slice + 1, 0), "does the tick preempt curr");
}

/* within the slice, past min_granularity, leading by more than the slice */
static void test_lead_over_slice(void **state)
{
	two_tasks();
	lab_scenario("two nice-0 tasks (slice 3 ms, min_granularity 2 ms); curr has run "
		     "2.5 ms and leads the leftmost by 10 ms");
	LAB_YES(preempts(2500000, 10000000), "does the tick preempt curr");
	lab_scenario("two nice-0 tasks; curr has run 2.5 ms and leads the leftmost by 1 ms");
	LAB_NO(preempts(2500000, 1000000), "does the tick preempt curr");
}

/* the lead's edge: exactly the slice is not more than it; a negative
 * lead (curr behind) never preempts; a lead past 2^32 ns does */
static void test_lead_edge(void **state)
{
	s64 slice;

	two_tasks();
	slice = (s64)sched_slice(CFS, &current->se);
	lab_scenario("two nice-0 tasks; curr has run 2.5 ms and leads the leftmost by exactly "
		     "its slice (%lld ns)", (long long)slice);
	LAB_NO(preempts(2500000, slice), "does the tick preempt curr");
	lab_scenario("two nice-0 tasks; curr has run 2.5 ms and leads by its slice + 1 ns");
	LAB_YES(preempts(2500000, slice + 1), "does the tick preempt curr");
	lab_scenario("two nice-0 tasks; curr has run 2.5 ms and is 1 s BEHIND the leftmost");
	LAB_NO(preempts(2500000, -1000000000LL), "does the tick preempt curr");
	lab_scenario("two nice-0 tasks; curr has run 2.5 ms and leads the leftmost by 5 s "
		     "(more than 2^32 ns)");
	LAB_YES(preempts(2500000, 5000000000LL), "does the tick preempt curr");
}

/* before min_granularity nothing preempts, whatever the lead */
static void test_min_granularity(void **state)
{
	two_tasks();
	lab_scenario("two nice-0 tasks (min_granularity 2 ms); curr has run 1 ms and leads "
		     "the leftmost by 10 ms");
	LAB_NO(preempts(1000000, 10000000), "does the tick preempt curr");
	lab_scenario("two nice-0 tasks; curr has run 2.5 ms and leads the leftmost by 10 ms");
	LAB_YES(preempts(2500000, 10000000), "does the tick preempt curr");
}

/* NO_WAKEUP_PREEMPT: only the used-up slice preempts */
static void test_no_wakeup_preempt(void **state)
{
	knob_set_ok("sched_features", "NO_WAKEUP_PREEMPT");
	two_tasks();
	lab_scenario("NO_WAKEUP_PREEMPT, two nice-0 tasks; curr has run 2.5 ms and leads the "
		     "leftmost by 10 ms");
	LAB_NO(preempts(2500000, 10000000), "does the tick preempt curr");
	lab_scenario("NO_WAKEUP_PREEMPT, two nice-0 tasks; curr has run 3.5 ms (past its "
		     "slice)");
	LAB_YES(preempts(3500000, 0), "does the tick preempt curr");
}

/*
 * 2.6.35 compares curr's VIRTUAL lead with its WALL-time slice: for a
 * heavy curr (nice -10, slice ~5.4 ms, ~0.58 ms virtual) a 1 ms lead is
 * not enough.  CPT_FIX (Granule's guess) compares it with the virtual
 * slice instead, and preempts.
 */
static void test_lead_against_wall_slice(void **state)
{
	pair("linux-2.6.35", 0, -10);
	lab_scenario("curr nice -10 and one nice-0 task queued; curr has run 2.5 ms and leads "
		     "the leftmost by 1 ms");
	LAB_NO(preempts(2500000, 1000000), "does the tick preempt curr");
	pair("linux-2.6.35", SF(CPT_FIX), -10);
	lab_scenario("CPT_FIX, curr nice -10 and one nice-0 task queued; curr has run 2.5 ms "
		     "and leads the leftmost by 1 ms");
	LAB_YES(preempts(2500000, 1000000), "does the tick preempt curr");
}

/* DEADLINE (ours, deadline.c): an unrun fork whose deadline has come
 * preempts at once, before the granularity; one still due does not */
static void test_deadline_expired(void **state)
{
	struct sched_entity *fork;

	pair("linux-2.6.35", SF(DEADLINE), 0);
	fork = __pick_next_entity(CFS);
	fork->deadline = RQ->clock + 1;
	deadline_enqueue(RQ, fork);
	lab_scenario("DEADLINE, two nice-0 tasks; the queued one is an unrun fork whose "
		     "deadline is 1 ns from now; curr has run 0.5 ms");
	LAB_NO(preempts(500000, 0), "does the tick preempt curr");
	fork->deadline = RQ->clock;
	lab_scenario("DEADLINE, as before but the fork's deadline is now");
	LAB_YES(preempts(500000, 0), "does the tick preempt curr");
}

/* [M2/2]: a woken sleeper's first sleeper_wakeup_slice is shielded from
 * the lead test; past it, the shield is dropped */
static void test_sleeper_shield(void **state)
{
	two_tasks();
	current->se.sleeper_wakeup_slice = 2600000;
	lab_scenario("two nice-0 tasks; curr, a woken sleeper shielded for 2.6 ms "
		     "([M2/2] sleeper_wakeup_slice), has run 2.5 ms and leads by 10 ms");
	LAB_NO(preempts(2500000, 10000000), "does the tick preempt curr");
	LAB_EQ(current->se.sleeper_wakeup_slice, 2600000, "its sleeper_wakeup_slice (ns)");
	lab_scenario("as before, but curr has run 2.7 ms");
	LAB_YES(preempts(2700000, 10000000), "does the tick preempt curr");
	LAB_EQ(current->se.sleeper_wakeup_slice, 0, "its sleeper_wakeup_slice (ns)");
}

/* [M1/2] DYN_GRAN: with few tasks the gate is sched_std_granularity
 * (2 ms under dyn-gran), not min_granularity (0.75 ms) */
static void test_dyn_gran(void **state)
{
	pair("dyn-gran", 0, 0);
	lab_scenario("preset dyn-gran (DYN_GRAN, min_granularity 0.75 ms, std_granularity "
		     "2 ms), two nice-0 tasks; curr has run 1 ms and leads by 10 ms");
	LAB_NO(preempts(1000000, 10000000), "does the tick preempt curr");
	lab_scenario("preset dyn-gran, two nice-0 tasks; curr has run 2.5 ms and leads by "
		     "10 ms");
	LAB_YES(preempts(2500000, 10000000), "does the tick preempt curr");
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_slice_used_up),
	LAB_TEST(test_slice_edge),
	LAB_TEST(test_lead_over_slice),
	LAB_TEST(test_lead_edge),
	LAB_TEST(test_min_granularity),
	LAB_TEST(test_no_wakeup_preempt),
	SCENE_TEST(test_lead_against_wall_slice),
	SCENE_TEST(test_deadline_expired),
	LAB_TEST(test_sleeper_shield),
	SCENE_TEST(test_dyn_gran),
	PROP_TEST(test_property_check_preempt_tick),
};

LAB_GROUP(check_preempt_tick, tests);
