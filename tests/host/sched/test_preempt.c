/*
 * tests/host/sched/test_preempt.c - preemption decisions of the fair
 * class (Linux 2.6.35's kernel/sched_fair.c and schedule()):
 *   wakeup preemption exactly at the wakeup_gran boundary (1 ns either
 *   side), scaled by the woken task's weight; NEXT_BUDDY and LAST_BUDDY at
 *   pick time and their nr_latency threshold; child_runs_first;
 *   check_preempt_tick's five steps one by one; entity_tick's conditions;
 *   sched_yield with and without compat_yield / SCHED_BATCH; SCHED_IDLE and
 *   SCHED_BATCH wakeups; HRTICK arming, firing, cancelling and DOUBLE_TICK;
 *   pick_next_entity's next/last buddy precedence; where schedule()
 *   refreshes rq->clock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "../../../kernel/sched/sched.h"
#include <kernel/hrtick.h>

#define RQ	this_rq()
#define CFS	(&this_rq()->cfs)

/*
 * RUNNER (nice RUN_NICE) on the CPU alone, SLEEPER (nice SL_NICE) asleep;
 * no clock movement after the last switch, need_resched clear.
 */
static void runner_and_sleeper(struct task **runner, struct task **sleeper,
			       int run_nice, int sl_nice)
{
	struct task *s = spawn("sleeper", sl_nice);
	struct task *r = spawn("runner", run_nice);

	resched_if_needed();
	for (int i = 0; current != s; i++) {
		assert_true(i < 10000);
		tick();
	}
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, r);
	assert_int_equal(CFS->nr_running, 1);
	r->need_resched = 0;
	*runner = r;
	*sleeper = s;
}

/* Wake S with vruntime = R.v - gran - DELTA; return whether R was preempted. */
static int wake_at_gran(int run_nice, int sl_nice, u32 expect_gran, u64 delta,
			u32 credit)
{
	struct task *r, *s;
	u64 v;

	runner_and_sleeper(&r, &s, run_nice, sl_nice);
	assert_int_equal(wakeup_gran(&r->se, &s->se), expect_gran);
	v = r->se.vruntime - expect_gran - delta;
	/* the sleeper floor min_vruntime - credit must not move it */
	assert_true((s64)(v - (CFS->min_vruntime - credit)) >= 0);
	s->se.vruntime = v;
	assert_int_equal(wake_up_process(s), 1);
	assert_int_equal(s->se.vruntime, v);
	return r->need_resched;
}

static void test_wakeup_gran_boundary_nice0(void **state)
{
	assert_false(wake_at_gran(0, 0, 1000000, 0, 3000000));	/* vdiff = gran */
	sched_test_reset();
	assert_true(wake_at_gran(0, 0, 1000000, 1, 3000000));	/* gran + 1 */
	resched_if_needed();
	assert_string_equal(current->comm, "sleeper");
}

/* A light woken task (nice 5) gets a larger gran: 1 ms * 1024/335. */
static void test_wakeup_gran_light_waker(void **state)
{
	knob_set_ok("sched_features", "NO_GENTLE_FAIR_SLEEPERS"); /* 6 ms floor */
	assert_false(wake_at_gran(0, 5, 3056716, 0, 6000000));
	sched_test_reset();
	knob_set_ok("sched_features", "NO_GENTLE_FAIR_SLEEPERS");
	assert_true(wake_at_gran(0, 5, 3056716, 1, 6000000));
}

/* A heavy woken task (nice -5) gets a smaller gran: 1 ms * 1024/3121. */
static void test_wakeup_gran_heavy_waker(void **state)
{
	assert_false(wake_at_gran(0, -5, 328100, 0, 3000000));
	sched_test_reset();
	assert_true(wake_at_gran(0, -5, 328100, 1, 3000000));
}

/* The running task's weight does not enter the gran. */
static void test_wakeup_gran_ignores_curr_weight(void **state)
{
	assert_false(wake_at_gran(5, 0, 1000000, 0, 3000000));
	sched_test_reset();
	assert_true(wake_at_gran(-5, 0, 1000000, 1, 3000000));
}

/* NO_WAKEUP_PREEMPT: no wakeup preemption however far behind. */
static void test_no_wakeup_preempt(void **state)
{
	knob_set_ok("sched_features", "NO_WAKEUP_PREEMPT");
	assert_false(wake_at_gran(0, 0, 1000000, 1000000, 3000000));
}

/* A SCHED_BATCH wakee never wakeup-preempts; a SCHED_IDLE current always is. */
static void test_batch_and_idle_policies(void **state)
{
	struct task *r, *s;

	runner_and_sleeper(&r, &s, 0, 0);
	assert_int_equal(sched_setscheduler(s, SCHED_BATCH), 0);
	s->se.vruntime = r->se.vruntime - 2500000;	/* 2.5 ms behind */
	wake_up_process(s);
	assert_false(r->need_resched);

	sched_test_reset();
	runner_and_sleeper(&r, &s, 0, 0);
	assert_int_equal(sched_setscheduler(r, SCHED_IDLE), 0);
	r->need_resched = 0;
	s->se.vruntime = r->se.vruntime + 5000000;	/* even when ahead */
	wake_up_process(s);
	assert_true(r->need_resched);
	/* an idle-policy task is never made a buddy */
	assert_null(CFS->last);
}

/* ---- buddies ------------------------------------------------------------------- */

/* Three hogs and a sleeper under linux-2.6.35 (nr_latency 3). */
static struct task *hogs_and_sleeper(struct task **h, const char *feats)
{
	struct task *s = spawn("sleeper", 0);

	knob_set_ok("sched_preset", "linux-2.6.35");
	if (feats)
		knob_set_ok("sched_features", feats);
	h[0] = spawn("h0", 0);
	h[1] = spawn("h1", 0);
	h[2] = spawn("h2", 0);
	resched_if_needed();
	for (int i = 0; current != s; i++) {
		assert_true(i < 10000);
		tick();
	}
	block_current(TASK_INTERRUPTIBLE);
	current->need_resched = 0;
	assert_int_equal(CFS->nr_running, 3);
	return s;
}

static void test_next_buddy(void **state)
{
	struct task *h[3], *s, *left;

	s = hogs_and_sleeper(h, "NEXT_BUDDY,NO_LAST_BUDDY");
	left = task_of(__pick_next_entity(CFS));
	/* within one gran of the leftmost, and not preempting current */
	s->se.vruntime = left->se.vruntime + 500000;
	current->se.vruntime = s->se.vruntime + 100000;
	wake_up_process(s);
	assert_false(current->need_resched);
	assert_ptr_equal(CFS->next, &s->se);	/* nr_running 4 >= 3 */
	schedule();
	assert_ptr_equal(current, s);		/* preferred over the leftmost */
	assert_null(CFS->next);			/* buddy status consumed */
}

static void test_next_buddy_too_far(void **state)
{
	struct task *h[3], *s, *left;

	s = hogs_and_sleeper(h, "NEXT_BUDDY,NO_LAST_BUDDY");
	left = task_of(__pick_next_entity(CFS));
	s->se.vruntime = left->se.vruntime + 1000001;	/* gran + 1 */
	current->se.vruntime = s->se.vruntime + 100000;
	wake_up_process(s);
	assert_ptr_equal(CFS->next, &s->se);
	schedule();
	assert_ptr_equal(current, left);
}

/* Below sched_nr_latency runnable tasks (8 with [0bf]) there are no buddies. */
static void test_next_buddy_needs_scale(void **state)
{
	struct task *h[3], *s;

	s = hogs_and_sleeper(h, "NEXT_BUDDY,NO_LAST_BUDDY");
	knob_set_ok("sched_preset", "commit-0bf377bbb0be");
	knob_set_ok("sched_features", "NEXT_BUDDY");
	s->se.vruntime = current->se.vruntime - 500000;
	wake_up_process(s);
	assert_null(CFS->next);
}

/* A fork (WF_FORK) never becomes the next buddy. */
static void test_next_buddy_not_on_fork(void **state)
{
	struct task *h[3];

	hogs_and_sleeper(h, "NEXT_BUDDY");
	spawn("child", 0);
	assert_null(CFS->next);
}

/*
 * LAST_BUDDY: W wakes and preempts P; after W blocks, P gets the CPU back
 * although Q is leftmost, because P is within one gran of Q.
 */
static void check_last_buddy(int enabled)
{
	struct task *h[3], *w, *p, *q;

	w = hogs_and_sleeper(h, enabled ? NULL : "NO_LAST_BUDDY");
	/* leave exactly P (current) and Q queued: put the third to sleep */
	p = current;
	q = task_of(__pick_next_entity(CFS));
	{
		struct task *third = h[0] != p && h[0] != q ? h[0] :
				     h[1] != p && h[1] != q ? h[1] : h[2];

		/* stays queued, but far right of everyone */
		dequeue_task(RQ, third, 0);
		third->se.vruntime += 100000000;
		enqueue_task(RQ, third, 0);
	}
	q = task_of(__pick_next_entity(CFS));
	p->se.vruntime = q->se.vruntime + 500000;		/* P - Q = gran/2 */
	w->se.vruntime = p->se.vruntime - 1000000 - 1000;	/* preempts P */
	wake_up_process(w);
	assert_true(p->need_resched);
	if (enabled)
		assert_ptr_equal(CFS->last, &p->se);
	else
		assert_null(CFS->last);
	resched_if_needed();
	assert_ptr_equal(current, w);
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, enabled ? p : q);
}

static void test_last_buddy(void **state)
{
	check_last_buddy(1);
}

static void test_no_last_buddy(void **state)
{
	check_last_buddy(0);
}

/* Requeue queued task T at absolute vruntime V (through a relative value). */
static void requeue_at(struct task *t, u64 v)
{
	dequeue_task(RQ, t, 0);
	t->se.vruntime = v - CFS->min_vruntime;
	enqueue_task(RQ, t, 0);
}

/*
 * pick_next_entity's precedence, as 2.6.35: the leftmost L, unless the next
 * buddy is within one wakeup gran of L; the last buddy is tested second
 * against L too, so when both qualify the last buddy wins.  Only the
 * chosen entity loses its buddy role.  Offsets are from L, gran = 1 ms.
 */
static void test_buddy_precedence(void **state)
{
	static const struct {
		s64 next, last;		/* offset from L; 0 = no such buddy */
		char pick;		/* 'L', 'n'(ext) or 'l'(ast) */
	} cases[] = {
		{  500000,  900000, 'l' },	/* both close: last wins */
		{  900000,  500000, 'l' },	/* whatever their order */
		{  500000, 1500000, 'n' },	/* last too far: next */
		{ 1500000,  500000, 'l' },	/* next too far: last */
		{ 1500000, 1600000, 'L' },	/* both too far: leftmost */
		{  500000,        0, 'n' },
		{        0,  500000, 'l' },
		{ 1000000,  1000001, 'n' },	/* exactly gran is still close */
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct task *a, *b, *c;
		struct sched_entity *l, *se, *want;
		u64 base;

		sched_test_reset();
		spawn("a", 0);
		spawn("b", 0);
		spawn("c", 0);
		spawn("d", 0);
		resched_if_needed();
		/* the three queued tasks, leftmost first */
		l = __pick_next_entity(CFS);
		a = task_of(l);
		b = task_of(container_of(rb_next(&l->run_node), struct sched_entity, run_node));
		c = task_of(container_of(rb_next(&b->se.run_node), struct sched_entity, run_node));
		base = a->se.vruntime;
		requeue_at(b, base + (cases[i].next ? (u64)cases[i].next : 5000000));
		requeue_at(c, base + (cases[i].last ? (u64)cases[i].last : 6000000));
		assert_ptr_equal(__pick_next_entity(CFS), &a->se);
		CFS->next = cases[i].next ? &b->se : NULL;
		CFS->last = cases[i].last ? &c->se : NULL;

		want = cases[i].pick == 'L' ? &a->se :
		       cases[i].pick == 'n' ? &b->se : &c->se;
		se = pick_next_entity(CFS);
		assert_ptr_equal(se, want);
		/* the chosen one loses its role, the other buddy keeps it */
		assert_ptr_equal(CFS->next, cases[i].next && want != &b->se ? &b->se : NULL);
		assert_ptr_equal(CFS->last, cases[i].last && want != &c->se ? &c->se : NULL);
		CFS->next = CFS->last = NULL;
	}
}

/* ---- rq clock refresh points in schedule() (2.6.35) ---------------------------- */

/*
 * 2.6.35's schedule() has no update_rq_clock() of its own: the clock moves
 * in deactivate_task() (a sleeper) or in put_prev_task() when prev is still
 * queued (preempted).  Switching away from the idle task, which is never
 * queued, keeps the clock of the wakeup's enqueue, so the woken task's
 * exec_start is its wakeup time and the wakeup-to-switch time is charged
 * to it.
 */
static void test_schedule_clock_from_idle(void **state)
{
	struct task *s = spawn("s", 0);
	u64 woke;

	resched_if_needed();
	assert_ptr_equal(current, s);
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, sched_idle_task());

	fake_clock_advance(3000000);
	woke = fake_clock_ns;
	wake_up_process(s);			/* enqueue: rq->clock = woke */
	assert_true(current->need_resched);
	fake_clock_advance(40000);		/* irq exit 40 us later */
	schedule();
	assert_ptr_equal(current, s);
	assert_int_equal(RQ->clock, woke);
	assert_int_equal(s->se.exec_start, woke);
	/* the next tick charges s from its wakeup: 1 ms - 40 us + 40 us */
	{
		u64 before = s->se.sum_exec_runtime;

		tick();
		assert_int_equal(s->se.sum_exec_runtime - before,
				 fake_clock_ns - woke);
	}
}

/*
 * PREV runs RAN ns and then leaves the CPU, preempted (still queued: the
 * clock moves in put_prev_task) or asleep (it moves in deactivate_task).
 * Either way PREV is charged exactly RAN and the next task starts now.
 */
static void check_clock_at_switch(int sleep, u64 ran)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	struct task *prev;
	u64 before;

	resched_if_needed();
	prev = current;
	before = prev->se.sum_exec_runtime;
	fake_clock_advance(ran);
	if (sleep) {
		block_current(TASK_INTERRUPTIBLE);
		assert_ptr_equal(current, prev == a ? b : a);
	} else {
		prev->need_resched = 1;
		schedule();
		assert_true(current == a || current == b);	/* either may be leftmost */
	}
	assert_int_equal(RQ->clock, fake_clock_ns);
	assert_int_equal(prev->se.sum_exec_runtime - before, ran);
	assert_int_equal(current->se.exec_start, fake_clock_ns);
}

static void test_schedule_clock_preempted(void **state)
{
	check_clock_at_switch(0, 250000);
}

static void test_schedule_clock_sleeper(void **state)
{
	check_clock_at_switch(1, 70000);
}

/* check_preempt_tick's step 2 clears the running task's buddy favours. */
static void test_slice_expiry_clears_buddies(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	struct sched_entity *se;

	resched_if_needed();
	se = &current->se;
	CFS->last = se;
	CFS->next = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime - 2998536; /* ideal + 1 */
	check_preempt_tick(CFS, se);
	assert_true(current->need_resched);
	assert_null(CFS->last);
	assert_null(CFS->next);
	(void)a;
	(void)b;
}

/* ---- fork: child_runs_first ------------------------------------------------------- */

static void check_child_runs_first(int on)
{
	struct task *parent, *child;
	u64 pv;

	if (on)
		knob_set_ok("sched_child_runs_first", "1");
	spawn("parent", 0);
	resched_if_needed();
	ticks(5);
	parent = current;
	update_rq_clock(RQ);
	update_curr(CFS);
	pv = parent->se.vruntime;
	child = task_alloc("child");
	sched_fork(child);
	if (on) {
		/* the child took the parent's place, the parent the child's */
		assert_int_equal(child->se.vruntime + CFS->min_vruntime, pv);
		assert_true((s64)(parent->se.vruntime - pv) > 0);
		assert_true(parent->need_resched);
	} else {
		assert_int_equal(parent->se.vruntime, pv);
		assert_false(parent->need_resched);
	}
	wake_up_new_task(child);
	resched_if_needed();
	assert_ptr_equal(current, on ? child : parent);
}

static void test_child_runs_first(void **state)
{
	check_child_runs_first(1);
}

static void test_parent_runs_first(void **state)
{
	check_child_runs_first(0);
}

/* ---- check_preempt_tick, step by step ----------------------------------------------- */

/* X runs, Y waits; X has run RAN ns of its slice and leads Y by LEAD. */
static int tick_check(u64 ran, s64 lead)
{
	struct sched_entity *x = &current->se, *y = __pick_next_entity(CFS);

	current->need_resched = 0;
	x->prev_sum_exec_runtime = x->sum_exec_runtime - ran;
	x->vruntime = y->vruntime + (u64)lead;
	check_preempt_tick(CFS, x);
	return current->need_resched;
}

static void two_hogs(int nice_a, int nice_b)
{
	spawn("a", nice_a);
	spawn("b", nice_b);
	resched_if_needed();
	ticks(7);
}

static void test_tick_step2_slice_expired(void **state)
{
	u32 ideal;

	two_hogs(0, 0);
	ideal = (u32)sched_slice(CFS, &current->se);
	assert_int_equal(ideal, 2998535);
	assert_true(tick_check(ideal + 1, -5000000));	/* even far behind */
	assert_false(tick_check(ideal, 0));
}

static void test_tick_step3_no_wakeup_preempt(void **state)
{
	two_hogs(0, 0);
	knob_set_ok("sched_features", "NO_WAKEUP_PREEMPT");
	assert_false(tick_check(1000000, 20000000));	/* lead ignored */
	assert_true(tick_check(2998536, 0));		/* step 2 still applies */
}

static void test_tick_step4_min_granularity(void **state)
{
	two_hogs(0, 0);
	assert_false(tick_check(749999, 20000000));	/* ran < 0.75 ms */
	assert_true(tick_check(750000, 20000000));
	knob_set_ok("sched_preset", "linux-2.6.35");
	assert_false(tick_check(1999999, 20000000));	/* ran < 2 ms */
	assert_true(tick_check(2000000, 20000000));
}

static void test_tick_step5_vruntime_lead(void **state)
{
	two_hogs(0, 0);
	assert_false(tick_check(750000, 2998535));	/* lead = ideal */
	assert_true(tick_check(750000, 2998536));	/* lead = ideal + 1 */
	assert_false(tick_check(750000, -1));
}

/* Step 5 compares a virtual lead with a wall-time slice (the 2.6.35 quirk). */
static void test_tick_step5_virtual_vs_wall(void **state)
{
	u32 ideal;

	two_hogs(5, 5);
	ideal = (u32)sched_slice(CFS, &current->se);
	assert_int_equal(ideal, 2995529);	/* wall: 6 ms * 335/670 */
	/* 1.1 ms of wall time at nice 5 is a 3.36 ms virtual lead: resched */
	assert_true(tick_check(750000, (s64)calc_delta_fair(1100000, &current->se)));
	assert_false(tick_check(750000, (s64)ideal));
}

/* entity_tick: with one task the check runs only if WAKEUP_PREEMPT is off. */
static void test_entity_tick_single_task(void **state)
{
	struct task *a = spawn("a", 0);

	resched_if_needed();
	a->se.prev_sum_exec_runtime = a->se.sum_exec_runtime - 10000000;
	tick();
	assert_ptr_equal(current, a);
	assert_false(a->need_resched);
	knob_set_ok("sched_features", "NO_WAKEUP_PREEMPT");
	scheduler_tick();
	assert_true(a->need_resched);		/* ran 11 ms > slice 6 ms */
	resched_if_needed();
	assert_ptr_equal(current, a);		/* alone: picked again */
}

/* ---- yield ----------------------------------------------------------------------------- */

static struct task *three_with_current_leftmost(void)
{
	struct task *x;

	spawn("a", 0);
	spawn("b", 0);
	spawn("c", 0);
	resched_if_needed();
	ticks(3);
	x = current;
	x->se.vruntime = __pick_next_entity(CFS)->vruntime - 1000;
	return x;
}

static void test_yield_default(void **state)
{
	struct task *x = three_with_current_leftmost();
	unsigned long sw = switches.count;

	sched_yield();
	assert_ptr_equal(current, x);		/* still leftmost: re-picked */
	assert_int_equal(switches.count, sw);
	assert_int_equal(RQ->yld_count, 1);
}

/*
 * A yield that switches reads the clock once (Linux 6.1's
 * rq_clock_skip_update in yield_task_fair): yield_task_fair charges X up to
 * that read, schedule() keeps the clock, so X's second update_curr() adds
 * nothing and the next task's run starts at the yield's clock.  The flag is
 * consumed: the next preemption refreshes the clock again.
 */
static void test_yield_skips_clock_update(void **state)
{
	struct task *x = three_with_current_leftmost(), *next;
	u64 sum, start, yield_clock;
	unsigned long reads;

	x->se.vruntime = __pick_last_entity(CFS)->vruntime + 1000;	/* not leftmost */
	fake_clock_advance(50000);
	fake_clock_step = 700;			/* every read moves the clock */
	sum = x->se.sum_exec_runtime;
	start = x->se.exec_start;
	reads = fake_clock_reads;
	yield_clock = fake_clock_ns;
	sched_yield();
	next = current;
	assert_ptr_not_equal(next, x);
	assert_int_equal(fake_clock_reads - reads, 1);
	assert_int_equal(RQ->clock, yield_clock);
	assert_int_equal(x->se.exec_start, yield_clock);
	assert_int_equal(x->se.sum_exec_runtime - sum, yield_clock - start);	/* charged once */
	assert_int_equal(next->se.exec_start, yield_clock);
	assert_int_equal(RQ->skip_clock_update, 0);

	next->need_resched = 1;			/* a preemption reads it again */
	reads = fake_clock_reads;
	schedule();
	assert_int_equal(fake_clock_reads - reads, 1);
	assert_int_equal(RQ->clock, yield_clock + 700);
}

static void test_yield_compat(void **state)
{
	struct task *x = three_with_current_leftmost();
	u64 rightmost = __pick_last_entity(CFS)->vruntime;

	knob_set_ok("sched_compat_yield", "1");
	sched_yield();
	assert_ptr_not_equal(current, x);
	assert_int_equal(x->se.vruntime, rightmost + 1);
	assert_ptr_equal(__pick_last_entity(CFS), &x->se);
	assert_int_equal(x->nivcsw, 1);		/* a yield is involuntary */
}

static void test_yield_batch(void **state)
{
	struct task *x = three_with_current_leftmost();

	assert_int_equal(sched_setscheduler(x, SCHED_BATCH), 0);
	x->se.vruntime = __pick_next_entity(CFS)->vruntime - 1000;
	sched_yield();
	assert_ptr_not_equal(current, x);
	assert_ptr_equal(__pick_last_entity(CFS), &x->se);
}

static void test_yield_alone(void **state)
{
	struct task *a = spawn("a", 0);
	u64 v;

	knob_set_ok("sched_compat_yield", "1");
	resched_if_needed();
	v = a->se.vruntime;
	sched_yield();
	assert_ptr_equal(current, a);
	assert_int_equal(a->se.vruntime, v);
}

/* ---- HRTICK ---------------------------------------------------------------------------- */

static void test_hrtick_arm_and_fire(void **state)
{
	struct task *x;

	knob_set_ok("sched_features", "HRTICK");
	fake_hrtick.available = 1;
	spawn("a", 0);
	spawn("b", 0);
	resched_if_needed();
	x = current;
	assert_true(fake_hrtick.armed);
	assert_true(RQ->hrtick_active);
	assert_int_equal(fake_hrtick.last_delay, 2998535);	/* slice - 0 */

	/* the periodic tick does not preempt while it is armed ... */
	x->se.prev_sum_exec_runtime = x->se.sum_exec_runtime - 5000000;
	scheduler_tick();
	assert_false(x->need_resched);
	/* ... unless DOUBLE_TICK */
	knob_set_ok("sched_features", "DOUBLE_TICK");
	scheduler_tick();
	assert_true(x->need_resched);
	x->need_resched = 0;
	knob_set_ok("sched_features", "NO_DOUBLE_TICK");

	fake_clock_set(fake_hrtick.expires);
	hrtick_fire();				/* the queued tick */
	assert_true(x->need_resched);
	assert_false(RQ->hrtick_active);
	resched_if_needed();
	assert_ptr_not_equal(current, x);
	assert_true(fake_hrtick.armed);		/* re-armed for the next task */
}

static void test_hrtick_cancelled_by_schedule(void **state)
{
	unsigned long cancels;

	knob_set_ok("sched_features", "HRTICK");
	fake_hrtick.available = 1;
	spawn("a", 0);
	spawn("b", 0);
	spawn("c", 0);
	resched_if_needed();
	cancels = fake_hrtick.cancels;
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(fake_hrtick.cancels, cancels + 1);
	assert_true(fake_hrtick.armed);		/* and armed for the next */
}

static void test_hrtick_unavailable_or_off(void **state)
{
	spawn("a", 0);
	spawn("b", 0);
	fake_hrtick.available = 1;		/* feature off (default) */
	resched_if_needed();
	assert_int_equal(fake_hrtick.arms, 0);
	knob_set_ok("sched_features", "HRTICK");
	fake_hrtick.available = 0;		/* no high-res timer */
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(fake_hrtick.arms, 0);
}

/* A pick never arms less than 10 us ahead: a nice 19 task next to nice -20. */
static void test_hrtick_min_10us(void **state)
{
	struct task *light, *heavy;

	knob_set_ok("sched_features", "HRTICK");
	fake_hrtick.available = 1;
	light = spawn("light", 19);
	heavy = spawn("heavy", -20);
	resched_if_needed();
	for (int i = 0; current != light; i++) {
		assert_true(i < 100000);
		tick();
	}
	/* slice = 6 ms * 15 / 88776 ~ 1 us: clamped */
	assert_true(sched_slice(CFS, &light->se) < 10000);
	assert_int_equal(fake_hrtick.last_delay, 10000);
	(void)heavy;
}

/* Enqueue re-arms (nr_running < nr_latency); an overrun reschedules at once. */
static void test_hrtick_update_on_enqueue(void **state)
{
	struct task *r, *s;

	knob_set_ok("sched_features", "HRTICK");
	fake_hrtick.available = 1;
	runner_and_sleeper(&r, &s, 0, 0);
	/* r has run 4 ms of its new 3 ms slice when s arrives */
	r->se.prev_sum_exec_runtime = r->se.sum_exec_runtime - 4000000;
	s->se.vruntime = r->se.vruntime;	/* no wakeup preemption */
	wake_up_process(s);
	assert_true(r->need_resched);

	sched_test_reset();
	knob_set_ok("sched_features", "HRTICK");
	fake_hrtick.available = 1;
	runner_and_sleeper(&r, &s, 0, 0);
	r->se.prev_sum_exec_runtime = r->se.sum_exec_runtime - 1000000;
	s->se.vruntime = r->se.vruntime;
	wake_up_process(s);
	assert_false(r->need_resched);
	assert_int_equal(fake_hrtick.last_delay, 2998535 - 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, sched_test_teardown)
		T(test_wakeup_gran_boundary_nice0),
		T(test_wakeup_gran_light_waker),
		T(test_wakeup_gran_heavy_waker),
		T(test_wakeup_gran_ignores_curr_weight),
		T(test_no_wakeup_preempt),
		T(test_batch_and_idle_policies),
		T(test_next_buddy),
		T(test_next_buddy_too_far),
		T(test_next_buddy_needs_scale),
		T(test_next_buddy_not_on_fork),
		T(test_last_buddy),
		T(test_no_last_buddy),
		T(test_slice_expiry_clears_buddies),
		T(test_buddy_precedence),
		T(test_schedule_clock_from_idle),
		T(test_schedule_clock_preempted),
		T(test_schedule_clock_sleeper),
		T(test_child_runs_first),
		T(test_parent_runs_first),
		T(test_tick_step2_slice_expired),
		T(test_tick_step3_no_wakeup_preempt),
		T(test_tick_step4_min_granularity),
		T(test_tick_step5_vruntime_lead),
		T(test_tick_step5_virtual_vs_wall),
		T(test_entity_tick_single_task),
		T(test_yield_default),
		T(test_yield_skips_clock_update),
		T(test_yield_compat),
		T(test_yield_batch),
		T(test_yield_alone),
		T(test_hrtick_arm_and_fire),
		T(test_hrtick_cancelled_by_schedule),
		T(test_hrtick_unavailable_or_off),
		T(test_hrtick_min_10us),
		T(test_hrtick_update_on_enqueue),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
