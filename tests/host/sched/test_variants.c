/*
 * tests/host/sched/test_variants.c - the September 2010 variants, as
 * docs/VARIANTS.md describes them (source tags: docs/DEBATE.md), each
 * pinned to its formula:
 *   dyn-gran ([M1/2]): period threshold 8, __sched_gran table, the tick gate,
 *     buddies/hrtick still at nr_latency 3, the sysctl-write quirk;
 *   dyn-gran-sleeper ([M2/2]): the 2 ms wakeup shield and what it does not
 *     shield, set on every wakeup placement, zeroed at fork;
 *   start-nice / start-nice-debit ([SN]): penalty and timeout bookkeeping,
 *     the 2^penalty vruntime speed, the cap at 8, clearing on expiry and on
 *     dequeue, the shifted START_DEBIT vslice and wakeup gran;
 *   deadline (OUR reconstruction): deadline = now + period(n+1), the tick
 *     and the pick honour an expired one, cleared on first run;
 *   cpt-fix (a guess): step 5 against calc_delta_fair(ideal).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "sim.h"
#include "../../../kernel/sched/sched.h"

#define RQ	this_rq()
#define CFS	(&this_rq()->cfs)
#define MSEC	1000000ULL

static void hogs(int n)
{
	for (int i = 0; i < n; i++)
		spawn("hog", 0);
	resched_if_needed();
	ticks(5);
}

/* curr has run RAN of its slice and leads the leftmost by LEAD: resched? */
static int tick_check(u64 ran, s64 lead)
{
	struct sched_entity *x = &current->se, *y = __pick_next_entity(CFS);

	current->need_resched = 0;
	x->prev_sum_exec_runtime = x->sum_exec_runtime - ran;
	x->vruntime = y->vruntime + (u64)lead;
	check_preempt_tick(CFS, x);
	return current->need_resched;
}

/* ---- dyn-gran ------------------------------------------------------------------ */

static void test_dyn_gran_formulas(void **state)
{
	/* [M1/2]: n -> period, __sched_gran */
	static const struct { u32 n; u64 period; u32 gran; } rows[] = {
		{ 1, 6000000, 2000000 }, { 2, 6000000, 2000000 }, { 3, 6000000, 2000000 },
		{ 4, 6000000, 1500000 }, { 6, 6000000, 1000000 }, { 8, 6000000, 750000 },
		{ 9, 6750000, 750000 }, { 10, 7500000, 750000 }, { 11, 8250000, 750000 },
	};

	knob_set_ok("sched_preset", "dyn-gran");
	assert_int_equal(sched_nr_latency, 3);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(__sched_period(rows[i].n), rows[i].period);
		assert_int_equal(__sched_gran(rows[i].n), rows[i].gran);
	}
	/* the period equals [0bf]'s for every n */
	for (u32 n = 1; n <= 20; n++) {
		u64 p = __sched_period(n);

		knob_set_ok("sched_preset", "commit-0bf377bbb0be");
		assert_int_equal(__sched_period(n), p);
		knob_set_ok("sched_preset", "dyn-gran");
	}
}

/*
 * Step 4's gate is __sched_gran(nr_running).  With 4 tasks it is 1.5 ms,
 * which is also the slice (less the fixed-point error), so a 1.2 ms run
 * with a huge lead is gated under dyn-gran but rescheduled under [0bf]
 * (gate 0.75 ms).  (For 3 <= n, gran >= slice: the lead test can then
 * never fire before the slice expires.)  With 2 tasks the gate is the
 * 2 ms std granularity, below the 3 ms slice: the boundary is visible.
 */
static void test_dyn_gran_tick_gate(void **state)
{
	knob_set_ok("sched_preset", "dyn-gran");
	hogs(4);
	assert_false(tick_check(1200000, 20000000));
	knob_set_ok("sched_preset", "commit-0bf377bbb0be");
	assert_true(tick_check(1200000, 20000000));

	sched_test_reset();
	knob_set_ok("sched_preset", "dyn-gran");
	hogs(2);
	assert_false(tick_check(1999999, 20000000));	/* n <= 3: std gran 2 ms */
	assert_true(tick_check(2000000, 20000000));
}

/* Buddies keep the old threshold: 3 runnable tasks enable them. */
static void test_dyn_gran_buddy_threshold(void **state)
{
	knob_set_ok("sched_preset", "dyn-gran");
	knob_set_ok("sched_features", "NEXT_BUDDY");
	hogs(2);
	{
		struct task *s = task_alloc("sleeper");

		sched_fork(s);
		wake_up_new_task(s);			/* a fork: not a buddy */
		assert_null(CFS->next);
		resched_if_needed();
		TICK_WHILE(current != s);
		block_current(TASK_INTERRUPTIBLE);
		s->se.vruntime = current->se.vruntime;	/* no preemption */
		wake_up_process(s);			/* 3 >= 3 */
		assert_ptr_equal(CFS->next, &s->se);
	}
}

/* The quirk: any sched sysctl write recomputes nr_latency = ceil(6/0.75) = 8. */
static void test_dyn_gran_sysctl_quirk(void **state)
{
	knob_set_ok("sched_preset", "dyn-gran");
	assert_int_equal(sched_nr_latency, 3);
	knob_set_ok("sched_wakeup_granularity_ns", "1000000");
	assert_int_equal(sched_nr_latency, 8);
	assert_int_equal(__sched_gran(4), 2000000);	/* now std gran up to 8 */
}

/* ---- dyn-gran-sleeper ------------------------------------------------------------ */

/* A sleeper next to one hog (so n = 2, slice 3 ms), now asleep. */
static struct task *woken_sleeper(void)
{
	struct task *s = spawn("sleeper", 0);

	hogs(1);
	TICK_WHILE(current != s);
	assert_int_equal(s->se.sleeper_wakeup_slice, 0);	/* zero at fork */
	block_current(TASK_INTERRUPTIBLE);
	return s;
}

static void test_sleeper_slice_set_on_wakeup(void **state)
{
	struct task *s;

	knob_set_ok("sched_preset", "dyn-gran-sleeper");
	s = woken_sleeper();
	/* a short sleep: max() keeps its own vruntime, the field is set anyway */
	s->se.vruntime = CFS->min_vruntime + 5000000;
	wake_up_process(s);
	assert_int_equal(s->se.vruntime, CFS->min_vruntime + 5000000);
	assert_int_equal(s->se.sleeper_wakeup_slice, 2000000);
}

static void test_sleeper_slice_shield(void **state)
{
	struct task *s;

	knob_set_ok("sched_preset", "dyn-gran-sleeper");
	s = woken_sleeper();
	wake_up_process(s);
	TICK_WHILE(current != s);
	/* shielded from the vruntime-lead test for its first 2 ms of run */
	assert_false(tick_check(1999999, 50000000));
	assert_int_equal(s->se.sleeper_wakeup_slice, 2000000);
	/* not from slice expiry (ideal ~3 ms: 2 tasks share 6 ms) */
	assert_true(tick_check(sched_slice(CFS, &s->se) + 1, 0));
	/* past 2 ms the field is zeroed and the normal test applies */
	assert_true(tick_check(2000000, 50000000));
	assert_int_equal(s->se.sleeper_wakeup_slice, 0);
	assert_false(tick_check(2000000, 0));
}

/* The field survives a sleep until the next wakeup overwrites it. */
static void test_sleeper_slice_stale(void **state)
{
	struct task *s;

	knob_set_ok("sched_preset", "dyn-gran-sleeper");
	s = woken_sleeper();
	wake_up_process(s);
	TICK_WHILE(current != s);
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(s->se.sleeper_wakeup_slice, 2000000);
	knob_set_ok("sched_sleeper_wakeup_slice_ns", "3000000");
	wake_up_process(s);
	assert_int_equal(s->se.sleeper_wakeup_slice, 3000000);
}

/* With the knob at 0 (every other preset) the shield never applies. */
static void test_sleeper_slice_off(void **state)
{
	struct task *s = woken_sleeper();

	wake_up_process(s);
	assert_int_equal(s->se.sleeper_wakeup_slice, 0);
}

/* ---- START_NICE ------------------------------------------------------------------------ */

static void test_start_nice_bookkeeping(void **state)
{
	struct task *p, *c1, *c2, *c[10];
	u64 sum, slice1, slice2;

	knob_set_ok("sched_preset", "start-nice");
	hogs(2);
	p = current;
	update_rq_clock(RQ);
	update_curr(CFS);
	sum = p->se.sum_exec_runtime;
	slice1 = sched_slice(CFS, &p->se);		/* 3 ms of 6 */

	c1 = task_alloc("c1");
	sched_fork(c1);
	assert_int_equal(p->se.fork_nice_penality, 1);
	assert_int_equal(p->se.fork_nice_timeout, sum + slice1);
	assert_int_equal(c1->se.fork_nice_penality, 1);
	assert_int_equal(c1->se.fork_nice_timeout, slice1);	/* what is left */
	wake_up_new_task(c1);

	/* a second fork within the slice escalates */
	slice2 = sched_slice(CFS, &p->se);		/* now 3 tasks: 2 ms */
	c2 = task_alloc("c2");
	sched_fork(c2);
	assert_int_equal(p->se.fork_nice_penality, 2);
	assert_int_equal(p->se.fork_nice_timeout, sum + slice1 + slice2);
	assert_int_equal(c2->se.fork_nice_penality, 2);
	assert_int_equal(c2->se.fork_nice_timeout, slice1 + slice2);
	wake_up_new_task(c2);

	/* capped at 8 */
	for (int i = 0; i < 10; i++) {
		c[i] = task_alloc("cn");
		sched_fork(c[i]);
		wake_up_new_task(c[i]);
	}
	assert_int_equal(p->se.fork_nice_penality, 8);
	assert_int_equal(c[9]->se.fork_nice_penality, 8);
	/* the child's runtime scale: 0 vs its timeout */
	assert_int_equal(c[9]->se.sum_exec_runtime, 0);
}

/* vruntime advances 2^penalty times faster until the timeout. */
static void test_start_nice_speed(void **state)
{
	struct task *p, *c;
	u64 v;

	knob_set_ok("sched_preset", "start-nice");
	hogs(1);
	p = current;
	c = task_alloc("c");
	sched_fork(c);
	wake_up_new_task(c);
	resched_if_needed();
	assert_ptr_equal(current, p);		/* NO_START_DEBIT: child = parent v */
	v = p->se.vruntime;
	tick();					/* 1 ms at penalty 1 */
	assert_int_equal(p->se.vruntime - v, 2000000);
	/* past the timeout (sum + 3 ms slice) the penalty goes */
	p->se.sum_exec_runtime = p->se.fork_nice_timeout + 1;
	assert_int_equal(calc_delta_fair(1000000, &p->se), 1000000);
	assert_int_equal(p->se.fork_nice_penality, 0);
	assert_int_equal(p->se.fork_nice_timeout, 0);
}

/* Any dequeue (here: the parent blocks) clears the penalty. */
static void test_start_nice_dequeue_clears(void **state)
{
	struct task *p, *c;

	knob_set_ok("sched_preset", "start-nice");
	hogs(1);
	p = current;
	c = task_alloc("c");
	sched_fork(c);
	wake_up_new_task(c);
	assert_int_equal(p->se.fork_nice_penality, 1);
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(p->se.fork_nice_penality, 0);
	assert_int_equal(p->se.fork_nice_timeout, 0);
}

/* An expired penalty of the parent is dropped before the next fork counts. */
static void test_start_nice_expired_parent(void **state)
{
	struct task *p, *c;

	knob_set_ok("sched_preset", "start-nice");
	hogs(2);
	p = current;
	p->se.fork_nice_penality = 5;
	p->se.fork_nice_timeout = p->se.sum_exec_runtime - 1;	/* passed */
	c = task_alloc("c");
	sched_fork(c);
	assert_int_equal(p->se.fork_nice_penality, 1);
	wake_up_new_task(c);
}

/* start-nice-debit: the child's START_DEBIT vslice is shifted too. */
static void test_start_nice_debit_vslice(void **state)
{
	struct task *c;
	struct load_weight lw;
	u64 slice;

	knob_set_ok("sched_preset", "start-nice-debit");
	hogs(2);
	current->se.vruntime = CFS->min_vruntime;	/* parent not ahead */
	lw = CFS->load;
	lw.weight += 1024;
	lw.inv_weight = 0;
	slice = calc_delta_mine((u32)__sched_period(3), 1024, &lw);
	c = task_alloc("c");
	sched_fork(c);
	assert_int_equal(c->se.fork_nice_penality, 1);
	assert_int_equal(c->se.vruntime, slice << 1);	/* relative: 2 vslices */
	wake_up_new_task(c);
}

/*
 * wakeup_gran converts through calc_delta_fair only when the waker's weight
 * is not NICE_0_LOAD (2.6.35), so a penalised nice-0 waker keeps the plain
 * 1 ms; a penalised nice-5 waker gets 1 ms * 1024/335 = 3056716, shifted by
 * its penalty of 1: 6113432.
 */
static void test_start_nice_wakeup_gran(void **state)
{
	struct task *c;

	knob_set_ok("sched_preset", "start-nice");
	hogs(2);
	c = task_alloc("c");
	sched_fork(c);
	wake_up_new_task(c);
	assert_int_equal(c->se.fork_nice_penality, 1);
	assert_int_equal(wakeup_gran(&current->se, &c->se), 1000000);

	set_user_nice(current, 5);		/* a light penalised parent */
	c = task_alloc("c5");
	sched_fork(c);
	assert_int_equal(c->se.load.weight, 335);
	assert_true(c->se.fork_nice_penality >= 1);
	assert_int_equal(wakeup_gran(&current->se, &c->se),
			 3056716U << c->se.fork_nice_penality);
	wake_up_new_task(c);
}

/* ---- DEADLINE (our reconstruction) ------------------------------------------------------ */

static struct task *deadline_fork(u64 *deadline)
{
	struct task *c;
	u32 nr;

	knob_set_ok("sched_preset", "deadline");
	hogs(3);
	TICK_WHILE(earliest_deadline_entity(RQ));	/* the hogs were forks too */
	nr = CFS->nr_running;
	c = task_alloc("c");
	sched_fork(c);
	*deadline = RQ->clock + __sched_period(nr + 1);
	assert_int_equal(c->se.deadline, *deadline);
	wake_up_new_task(c);
	assert_ptr_equal(earliest_deadline_entity(RQ), &c->se);
	/* push it far right: vruntime alone would not run it for long */
	dequeue_task(RQ, c, 0);
	c->se.vruntime += 200 * MSEC;
	enqueue_task(RQ, c, 0);
	assert_ptr_equal(earliest_deadline_entity(RQ), &c->se);
	return c;
}

static void test_deadline_tick_and_pick(void **state)
{
	struct task *c;
	u64 dl;

	c = deadline_fork(&dl);
	while (fake_clock_ns + 1000000 < dl) {
		tick();
		assert_ptr_not_equal(current, c);
	}
	tick();					/* the first tick at/after dl */
	assert_true(fake_clock_ns >= dl);
	assert_ptr_equal(current, c);		/* run at once */
	assert_int_equal(c->se.deadline, 0);	/* met: cleared */
	assert_null(earliest_deadline_entity(RQ));
}

static void test_deadline_off(void **state)
{
	struct task *c;
	u64 dl;

	c = deadline_fork(&dl);
	knob_set_ok("sched_features", "NO_DEADLINE");
	while (fake_clock_ns < dl + 20 * MSEC) {
		tick();
		assert_ptr_not_equal(current, c);
	}
	/* other presets never set one */
	sched_test_reset();
	hogs(2);
	c = spawn("c", 0);
	assert_int_equal(c->se.deadline, 0);
}

/* Deadlines are kept sorted; a nice change requeues without losing it. */
static void push_right(struct task *t)
{
	dequeue_task(RQ, t, 0);
	t->se.vruntime += 200 * MSEC;
	enqueue_task(RQ, t, 0);
}

static void test_deadline_list(void **state)
{
	struct task *c1, *c2;

	knob_set_ok("sched_preset", "deadline");
	hogs(2);
	TICK_WHILE(earliest_deadline_entity(RQ));
	c1 = spawn("c1", 0);
	push_right(c1);
	tick();
	c2 = spawn("c2", 0);
	push_right(c2);
	assert_true(c2->se.deadline > c1->se.deadline);
	assert_ptr_equal(earliest_deadline_entity(RQ), &c1->se);
	set_user_nice(c1, 3);
	assert_ptr_equal(earliest_deadline_entity(RQ), &c1->se);
	set_user_nice(c2, -3);
	assert_ptr_equal(earliest_deadline_entity(RQ), &c1->se);
	/* both run, in deadline order, once expired */
	TICK_WHILE(c1->se.deadline);
	assert_ptr_equal(current, c1);
	assert_ptr_equal(earliest_deadline_entity(RQ), &c2->se);
	TICK_WHILE(c2->se.deadline);
	assert_null(earliest_deadline_entity(RQ));
}

/* In the fork workload, no child waits more than its deadline plus a tick. */
static void test_deadline_bounds_fork_latency(void **state)
{
	static struct sim sim;
	static struct sim_task storage[64];
	struct sim_task *f;

	knob_set_ok("sched_preset", "deadline");
	sim_init(&sim, storage, 64, 5);
	for (int i = 0; i < 10; i++)
		sim_spawn(&sim, SIM_HOG, "hog", 0, 0, 0);
	f = sim_spawn(&sim, SIM_FORKER, "forker", 0, 50000, 3 * MSEC);
	f->child_run_ns = 2 * MSEC;		/* children pile up */
	sim.max_live = 40;
	sim_run(&sim, 2000 * MSEC);
	assert_true(sim.child_lat_n > 100);
	/* period(n + 1) for n <= 40 live tasks, plus one 1 ms tick */
	assert_true(sim.child_lat_max <= __sched_period(41) + MSEC);
	assert_int_equal(sim_check_runtimes(&sim), 0);
}

/* ---- cpt-fix (a guess) ------------------------------------------------------------------- */

static void test_cpt_fix(void **state)
{
	s64 lead;

	knob_set_ok("sched_preset", "cpt-fix");
	spawn("a", 5);
	spawn("b", 5);
	resched_if_needed();
	ticks(3);
	lead = (s64)calc_delta_fair(1100000, &current->se);	/* 3.36 ms virtual */
	/* baseline would resched (lead > wall ideal 2.995 ms); the fix compares
	 * with calc_delta_fair(ideal) = 9.15 ms */
	assert_false(tick_check(750000, lead));
	assert_true(tick_check(750000, (s64)calc_delta_fair(2995529, &current->se) + 1));
	knob_set_ok("sched_features", "NO_CPT_FIX");
	assert_true(tick_check(750000, lead));

	/* a no-op at nice 0 */
	sched_test_reset();
	knob_set_ok("sched_preset", "cpt-fix");
	hogs(2);
	assert_false(tick_check(750000, 2998535));
	assert_true(tick_check(750000, 2998536));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, sched_test_teardown)
		T(test_dyn_gran_formulas),
		T(test_dyn_gran_tick_gate),
		T(test_dyn_gran_buddy_threshold),
		T(test_dyn_gran_sysctl_quirk),
		T(test_sleeper_slice_set_on_wakeup),
		T(test_sleeper_slice_shield),
		T(test_sleeper_slice_stale),
		T(test_sleeper_slice_off),
		T(test_start_nice_bookkeeping),
		T(test_start_nice_speed),
		T(test_start_nice_dequeue_clears),
		T(test_start_nice_expired_parent),
		T(test_start_nice_debit_vslice),
		T(test_start_nice_wakeup_gran),
		T(test_deadline_tick_and_pick),
		T(test_deadline_off),
		T(test_deadline_list),
		T(test_deadline_bounds_fork_latency),
		T(test_cpt_fix),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
