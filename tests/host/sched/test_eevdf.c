/*
 * tests/host/sched/test_eevdf.c - the EEVDF class (kernel/sched/eevdf*.c,
 * Linux 6.12's fair.c), compiled unchanged, under sched_preset=linux-6.12:
 *   - calc_delta_fair (6.12's __calc_delta) against exact division;
 *   - V and eligibility with mixed weights (no division: S >= key * W);
 *   - pick_eevdf in hand-built and in random trees against a brute-force
 *     "first eligible in deadline order", with the augmented minima;
 *   - lag conservation across dequeue + enqueue (PLACE_LAG's inflation),
 *     and placement of a woken task with positive and negative lag;
 *   - DELAY_DEQUEUE: a sleeper with negative lag stays queued until the
 *     pick reaches it, and DELAY_ZERO clips what it leaves with;
 *   - RUN_TO_PARITY and PREEMPT_SHORT at wakeup; the tick's resched when
 *     the deadline passes; a fork's half-slice first deadline;
 *   - knobs: the preset, sched_base_slice_ns, the 6.12 feature names, a
 *     CFS knob under EEVDF (one line, nothing changes) and vice versa;
 *   - the simulator: nice shares, and seeded random workloads with the
 *     invariant checker (sched_verify_eevdf) on after every event.
 * The figures quoted in docs/SCHEDULER.md's EEVDF chapter come from here.
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
#include <kernel/cmdline.h>
#include "../../../kernel/sched/eevdf.h"

#define SEC		1000000000ULL
#define MSEC		1000000ULL

static struct cfs_rq *cfs;

static void eevdf_reset(void)
{
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-6.12");
	cfs = &this_rq()->cfs;
}

static int setup(void **state)
{
	eevdf_reset();
	return 0;
}

/* For tests that build trees by hand: only clean up afterwards. */
static int teardown_raw(void **state)
{
	sched_test_reset();
	return 0;
}

/* V - v0 = floor(S / W) over the tree and a queued curr, without side effects. */
static s64 V_key(void)
{
	s64 S = eevdf_rq(cfs)->avg_vruntime;
	s64 W = (s64)eevdf_rq(cfs)->avg_load;

	if (cfs->curr && cfs->curr->on_rq) {
		S += entity_key(cfs, cfs->curr) * cfs->curr->load.weight;
		W += cfs->curr->load.weight;
	}
	if (!W)
		return 0;
	if (S < 0)
		S -= W - 1;
	return S / W;
}

static s64 lag_of(struct task *t)		/* V - v, virtual ns */
{
	return V_key() - entity_key(cfs, &t->se);
}

/* Tick until T runs (the pick reaches it). */
static void run_until(struct task *t)
{
	for (int i = 0; i < 1000 && current != t; i++)
		tick();
	assert_ptr_equal(current, t);
}

/* ---- weight arithmetic ------------------------------------------------------ */

static void test_calc_delta_fair(void **state)
{
	static const int nices[] = { -20, -5, -1, 0, 1, 5, 19 };
	static const u64 deltas[] = { 1, 700000, 1000000, 3000000, 4000000000ULL };

	for (size_t i = 0; i < sizeof(nices) / sizeof(nices[0]); i++) {
		struct sched_entity se = { 0 };

		se.load.weight = prio_to_weight[nices[i] + 20];
		se.load.inv_weight = prio_to_wmult[nices[i] + 20];
		for (size_t j = 0; j < sizeof(deltas) / sizeof(deltas[0]); j++) {
			u64 got = calc_delta_fair(deltas[j], &se);
			double exact = (double)deltas[j] * 1024.0 / se.load.weight;

			/* the 2^32/w inverse is rounded: within 1 ns + 2^-22 relative */
			assert_true(got <= exact * (1.0 + 1.0 / (1 << 22)) + 1.0);
			assert_true(got >= exact * (1.0 - 1.0 / (1 << 22)) - 1.0);
		}
	}
	/* the docs' numbers: the 0.70 ms slice in virtual time */
	{
		struct sched_entity se = { .load = { 335, 12820798 } };	/* nice 5 */

		assert_int_equal(calc_delta_fair(700000, &se), 2139701);
		se.load = (struct load_weight){ 3121, 1376151 };		/* nice -5 */
		assert_int_equal(calc_delta_fair(700000, &se), 229669);
	}
}

/* ---- hand-built trees -------------------------------------------------------- */

static struct task *mk(const char *name, int nice, s64 vkey, s64 dkey)
{
	struct task *t = task_alloc(name);

	t->policy = SCHED_NORMAL;
	t->static_prio = t->normal_prio = t->prio = NICE_TO_PRIO(nice);
	set_load_weight(t);
	t->sched_class = &fair_sched_class;
	t->se.vruntime = eevdf_rq(cfs)->zero_vruntime + (u64)vkey;
	t->se.deadline = eevdf_rq(cfs)->zero_vruntime + (u64)dkey;
	t->se.slice = sysctl_sched_base_slice;
	return t;
}

static void put(struct task *t)
{
	__enqueue_entity(cfs, &t->se);
	t->se.on_rq = 1;
	cfs->nr_running++;
}

/*
 * Three entities (nice 0, -5, 5) at v - v0 = 0, 1000, 10000:
 *	S = 1024*0 + 3121*1000 + 335*10000 = 6471000,  W = 4480
 *	V - v0 = floor(6471000 / 4480) = 1444   (6471000 / 4480 = 1444.42)
 * so the first two are eligible (v <= V) and the third is not; an entity
 * at 1444 would be, one at 1445 would not: vruntime_eligible() decides
 * 6471000 >= 1444 * 4480 = 6469120 and 6471000 < 1445 * 4480 = 6473600.
 */
static void test_eligibility_mixed_weights(void **state)
{
	struct task *a = mk("a", 0, 0, 700000);
	struct task *b = mk("b", -5, 1000, 1000 + 229669);
	struct task *c = mk("c", 5, 10000, 10000 + 2139701);

	put(a);
	put(b);
	put(c);
	assert_int_equal(eevdf_rq(cfs)->avg_vruntime, 6471000);
	assert_int_equal(eevdf_rq(cfs)->avg_load, 4480);
	assert_int_equal(V_key(), 1444);
	assert_true(entity_eligible(cfs, &a->se));
	assert_true(entity_eligible(cfs, &b->se));
	assert_false(entity_eligible(cfs, &c->se));
	assert_true(vruntime_eligible(cfs, eevdf_rq(cfs)->zero_vruntime + 1444));
	assert_false(vruntime_eligible(cfs, eevdf_rq(cfs)->zero_vruntime + 1445));
	/* lag w (V - v): 1024*1444 + 3121*444 + 335*(-8556) = sum 0 within W */
	{
		s64 sum = 1024 * lag_of(a) + 3121 * lag_of(b) + 335 * lag_of(c);

		assert_true(sum <= 0 && sum > -4480);
		assert_int_equal(sum, -1880);
	}
	/* avg_vruntime() returns V and makes it the new base v0 */
	{
		u64 z0 = eevdf_rq(cfs)->zero_vruntime;

		assert_int_equal(avg_vruntime(cfs), z0 + 1444);
		assert_int_equal(eevdf_rq(cfs)->zero_vruntime, z0 + 1444);
		assert_int_equal(eevdf_rq(cfs)->avg_vruntime, 6471000 - 4480LL * 1444);
		assert_true(entity_eligible(cfs, &b->se));
		assert_false(entity_eligible(cfs, &c->se));
	}
}

/*
 * The deadline pick: four nice-0 entities (vkey, deadline key):
 *	p (3000, 3700)  q (0, 4000)  r (-2000, 5000)  s (-1000, 9000)
 * V = floor(0 / 4) = 0: p is not eligible although its deadline is the
 * earliest; q (v = 0 = V) is, so q is the pick.  Move q to 500 and V =
 * floor(500 / 4) = 125: q is out, r (deadline 5000) is picked.
 */
static void test_pick_constructed(void **state)
{
	struct task *p = mk("p", 0, 3000, 3700);
	struct task *q = mk("q", 0, 0, 4000);
	struct task *r = mk("r", 0, -2000, 5000);
	struct task *s = mk("s", 0, -1000, 9000);

	put(p);
	put(q);
	put(r);
	put(s);
	assert_ptr_equal(__pick_first_entity(cfs), &p->se);
	assert_int_equal(V_key(), 0);
	assert_ptr_equal(pick_eevdf(cfs), &q->se);
	assert_int_equal(eevdf_verify_tree(cfs), 0);

	__dequeue_entity(cfs, &q->se);
	q->se.vruntime += 500;
	__enqueue_entity(cfs, &q->se);
	assert_int_equal(V_key(), 125);
	assert_ptr_equal(pick_eevdf(cfs), &r->se);

	/* a running curr with an earlier deadline wins (step 5) */
	__dequeue_entity(cfs, &s->se);
	s->se.deadline = eevdf_rq(cfs)->zero_vruntime + 4500;
	cfs->curr = &s->se;
	assert_ptr_equal(pick_eevdf(cfs), &s->se);
	/* ... unless it is not eligible: V rose to (3000 + 500 - 2000 +
	 * 100000) / 4 = 25375, and now p is eligible, with the earliest deadline */
	s->se.vruntime = eevdf_rq(cfs)->zero_vruntime + 100000;
	assert_int_equal(V_key(), 25375);
	assert_ptr_equal(pick_eevdf(cfs), &p->se);
	cfs->curr = NULL;
}

/* pick_eevdf against "the first eligible in deadline order", random trees. */
static void test_pick_random_trees(void **state)
{
	static struct task *t[40];
	u32 rng = 99;
	int picks = 0, not_leftmost = 0;

	for (int round = 0; round < 300; round++) {
		int n = 2 + (int)(rng % 38);

		sched_test_reset();
		knob_set_ok("sched_preset", "linux-6.12");
		cfs = &this_rq()->cfs;
		for (int i = 0; i < n; i++) {
			rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5;
			t[i] = mk("t", (int)(rng % 40) - 20, (s64)(rng % 20000) - 10000,
				  (s64)((rng >> 8) % 50000));
			put(t[i]);
		}
		for (int k = 0; k < n / 2; k++) {	/* some erases too */
			rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5;
			if (rng % 3 == 0 && t[k]->se.on_rq) {
				__dequeue_entity(cfs, &t[k]->se);
				t[k]->se.on_rq = 0;
				cfs->nr_running--;
			}
		}
		assert_int_equal(eevdf_verify_tree(cfs), 0);
		if (cfs->nr_running < 2)
			continue;
		{
			struct sched_entity *want = NULL;

			for (struct rb_node *nd = rb_first(&cfs->tasks_timeline); nd;
			     nd = rb_next(nd))
				if (entity_eligible(cfs, __node_2_se(nd))) {
					want = __node_2_se(nd);
					break;
				}
			assert_non_null(want);
			assert_ptr_equal(pick_eevdf(cfs), want);
			picks++;
			not_leftmost += want != __pick_first_entity(cfs);
		}
	}
	assert_true(picks > 250 && not_leftmost > 50);
}

/* ---- lag, placement ----------------------------------------------------------- */

/* Three hogs at nice 0, -5, 5, run for 7 ticks: lags of both signs. */
static void three_hogs(struct task **a, struct task **b, struct task **c)
{
	*a = spawn("a", 0);
	*b = spawn("b", -5);
	*c = spawn("c", 5);
	resched_if_needed();
	ticks(7);
}

static struct task *queued_with_lag(struct task **ts, int n, int sign)
{
	for (int i = 0; i < n; i++)
		if (ts[i] != current && ts[i]->se.on_rq &&
		    (sign > 0 ? lag_of(ts[i]) > 0 : lag_of(ts[i]) < 0))
			return ts[i];
	return NULL;
}

/*
 * Lag survives a dequeue + enqueue (the nice/policy path, flags 0):
 * dequeue stores vlag = V - v; PLACE_LAG puts the task back at
 *	v = V - vlag * (W + w) / W
 * so that after V has moved by -w*vlag/(W + w) its lag is vlag again.
 * Sum w (V - v) stays within (-W, 0] (the floor of V) throughout.
 */
static void test_lag_conservation(void **state)
{
	struct task *ts[3];

	three_hogs(&ts[0], &ts[1], &ts[2]);
	for (int sign = -1; sign <= 1; sign += 2) {
		struct task *x = queued_with_lag(ts, 3, sign);
		s64 before, after, sum = 0, W = 0;

		for (int i = 0; i < 100 && !x; i++) {	/* a queued one with that sign */
			tick();
			x = queued_with_lag(ts, 3, sign);
		}
		assert_non_null(x);
		before = lag_of(x);
		dequeue_task(this_rq(), x, 0);
		assert_int_equal(x->se.vlag, before);
		enqueue_task(this_rq(), x, 0);
		after = lag_of(x);
		if (after - before > 2 || before - after > 2)
			fail_msg("lag %lld became %lld", (long long)before, (long long)after);
		for (int i = 0; i < 3; i++) {
			sum += (s64)ts[i]->se.load.weight * lag_of(ts[i]);
			W += ts[i]->se.load.weight;
		}
		assert_true(sum <= 0 && sum > -W);
	}
	assert_int_equal(sched_verify(), 0);
}

/*
 * A woken task is placed by its stored lag: positive (it was owed CPU)
 * puts it before V, negative after; PLACE_LAG off puts it at V.
 * Example (docs): two nice-0 hogs queued (W = 2048), a nice-0 sleeper
 * with vlag = +300000 wakes: v = V - 300000 * 3072 / 2048 = V - 450000,
 * and afterwards V' - v = 300000 exactly.
 */
static void test_place_woken_task(void **state)
{
	static const s64 lags[] = { 300000, -300000, 1234567, -7 };
	struct task *a = spawn("a", 0), *b = spawn("b", 0), *x = spawn("x", 0);

	resched_if_needed();
	ticks(3);
	/* x to sleep (picked first, then blocked with lag 0: DELAY_ZERO) */
	run_until(x);
	knob_set_ok("sched_features", "NO_DELAY_DEQUEUE");
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(x->se.on_rq, 0);

	for (size_t i = 0; i < sizeof(lags) / sizeof(lags[0]); i++) {
		u64 V0 = eevdf_rq(cfs)->zero_vruntime + (u64)V_key();
		s64 W = (s64)eevdf_rq(cfs)->avg_load + (cfs->curr && cfs->curr->on_rq ?
					      cfs->curr->load.weight : 0);
		s64 inflated = lags[i] * (W + 1024) / W;

		x->se.vlag = lags[i];
		wake_up_process(x);
		assert_int_equal(x->se.vruntime, V0 - (u64)inflated);
		if (lags[i] == 300000) {
			assert_int_equal(W, 2048);
			assert_int_equal(inflated, 450000);
		}
		{
			s64 got = lag_of(x);

			if (got - lags[i] > 1 || lags[i] - got > 1)
				fail_msg("placed with lag %lld, kept %lld",
					 (long long)lags[i], (long long)got);
		}
		/* a positive lag makes it eligible, a negative one not */
		assert_int_equal(entity_eligible(cfs, &x->se), lags[i] >= 0);
		/* back to sleep without running: dequeue directly */
		x->state = TASK_INTERRUPTIBLE;
		deactivate_task(this_rq(), x, DEQUEUE_SLEEP);
	}

	/* NO_PLACE_LAG: at V whatever the lag */
	knob_set_ok("sched_features", "NO_PLACE_LAG");
	x->se.vlag = 300000;
	{
		u64 V0 = eevdf_rq(cfs)->zero_vruntime + (u64)V_key();

		wake_up_process(x);
		assert_int_equal(x->se.vruntime, V0);
	}
	(void)a;
	(void)b;
}

/* A fork starts at V with half a vslice (PLACE_DEADLINE_INITIAL). */
static void test_fork_half_slice(void **state)
{
	struct task *a = spawn("a", 0), *c;

	resched_if_needed();
	ticks(2);
	c = spawn("c", 5);			/* the nice applies before the enqueue */
	assert_int_equal(lag_of(c), 0);
	assert_int_equal(c->se.deadline - c->se.vruntime, 2139701 / 2);
	assert_int_equal(c->se.slice, 700000);
	knob_set_ok("sched_features", "NO_PLACE_DEADLINE_INITIAL");
	c = spawn("d", 0);
	assert_int_equal(c->se.deadline - c->se.vruntime, 700000);
	(void)a;
}

/* ---- DELAY_DEQUEUE ------------------------------------------------------------ */

/*
 * Two nice-0 hogs with a 3 ms base slice: the first one picked (A) runs a
 * whole tick (1 ms) ahead of B, so V = (vA + vB) / 2 and A's lag is
 * -0.5 ms (virtual) when it blocks, still inside its slice.
 */
static struct task *ahead_of_V(struct task **other)
{
	struct task *x, *y;

	knob_set_ok("sched_base_slice_ns", "3000000");
	x = spawn("a", 0);
	y = spawn("b", 0);
	resched_if_needed();
	*other = current == x ? y : x;
	x = current;
	tick();
	assert_ptr_equal(current, x);
	assert_int_equal(lag_of(x), -500000);
	return x;
}

/*
 * A blocks with negative lag: instead of leaving (to come back later at
 * V - lag, or, after a sleep long enough to clamp or forget it, not
 * repaying it at all), it stays queued, delayed.  B runs; A stays queued
 * while its lag is negative; when the pick reaches it, it leaves, and
 * DELAY_ZERO clips its positive lag to 0.
 */
static void test_delay_dequeue(void **state)
{
	struct task *b, *a = ahead_of_V(&b);
	int delayed_ticks = 0;

	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, b);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(a->se.on_rq, 1);
	assert_int_equal(a->on_rq, 1);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 1);
	assert_int_equal(cfs->nr_running, 2);		/* still competing ... */
	assert_int_equal(this_rq()->nr_running, 1);	/* ... but counted out by core.c */
	assert_true(lag_of(a) < 0);

	while (a->se.sched_delayed && delayed_ticks < 50) {
		s64 lag = lag_of(a);

		tick();
		delayed_ticks++;
		/* it cannot have left while its lag was still negative */
		if (lag < 0 && lag_of(a) < 0)
			assert_int_equal(a->se.sched_delayed, 1);
	}
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(a->se.vlag, 0);		/* DELAY_ZERO: >= 0 clipped */
	assert_int_equal(this_rq()->nr_running, 1);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 0);
	assert_true(delayed_ticks >= 1);
	assert_int_equal(sched_verify(), 0);
}

/* A delayed sleeper woken early is simply requeued (ttwu_runnable). */
static void test_delayed_task_woken(void **state)
{
	struct task *b, *a = ahead_of_V(&b);

	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(wake_up_process(a), 0);	/* it was still queued */
	assert_int_equal(a->state, TASK_RUNNING);
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 0);
	assert_int_equal(this_rq()->nr_running, 2);
	assert_int_equal(lag_of(a), -500000);		/* still owes: not re-placed */
}

/* NO_DELAY_DEQUEUE: it leaves at once with its negative lag stored. */
static void test_no_delay_dequeue(void **state)
{
	struct task *b, *a = ahead_of_V(&b);

	knob_set_ok("sched_features", "NO_DELAY_DEQUEUE");
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(a->se.vlag, -500000);
	assert_int_equal(this_rq()->nr_running, 1);
}

/* ---- preemption ----------------------------------------------------------------- */

/*
 * a hogs alone; it has just been picked (its slice protected).  w wakes
 * at V (lag 0): eligible, with an earlier deadline than a's.  The
 * pick would choose w, but RUN_TO_PARITY keeps a until its deadline;
 * NO_RUN_TO_PARITY preempts; PREEMPT_SHORT preempts if w asks for a
 * shorter slice (0.1 ms).
 */
static struct task *parity_setup(void)
{
	struct task *a = spawn("a", 0), *w = spawn("w", 0);

	resched_if_needed();
	run_until(w);				/* put w to sleep */
	knob_set_ok("sched_features", "NO_DELAY_DEQUEUE");
	block_current(TASK_INTERRUPTIBLE);
	knob_set_ok("sched_features", "DELAY_DEQUEUE");
	run_until(a);
	/* a has just been picked with a long request (10 ms to its deadline) */
	a->se.deadline = a->se.vruntime + 10 * MSEC;
	set_protect_slice(&a->se);
	assert_true(entity_eligible(cfs, &a->se));
	w->se.vlag = 0;				/* w joins at V */
	return w;
}

static void test_run_to_parity(void **state)
{
	struct task *w = parity_setup();

	wake_up_process(w);
	assert_int_equal(current->need_resched, 0);
	assert_true(entity_eligible(cfs, &w->se));
	assert_true(entity_before(&w->se, &current->se));
}

static void test_no_run_to_parity(void **state)
{
	struct task *w;

	knob_set_ok("sched_features", "NO_RUN_TO_PARITY");
	w = parity_setup();
	wake_up_process(w);
	assert_int_equal(current->need_resched, 1);
	resched_if_needed();
	assert_ptr_equal(current, w);
}

static void test_preempt_short(void **state)
{
	struct task *w = parity_setup(), *a = current;

	w->se.custom_slice = 1;
	w->se.slice = 100000;
	wake_up_process(w);
	assert_int_equal(a->need_resched, 1);
	assert_false(protect_slice(&a->se));
	resched_if_needed();
	assert_ptr_equal(current, w);
}

static void test_no_preempt_short(void **state)
{
	struct task *w;

	knob_set_ok("sched_features", "NO_PREEMPT_SHORT");
	w = parity_setup();
	w->se.custom_slice = 1;
	w->se.slice = 100000;
	wake_up_process(w);
	assert_int_equal(current->need_resched, 0);
}

/*
 * The tick: update_curr() charges curr; once vruntime >= deadline a new
 * deadline (v + vslice) is set and, with others queued, curr is
 * rescheduled; before that, no tick preempts.
 */
static void test_tick_resched_at_deadline(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	u64 dl;

	knob_set_ok("sched_base_slice_ns", "3000000");	/* 3 ms: several ticks */
	resched_if_needed();
	run_until(a);
	a->se.deadline = a->se.vruntime + 3000000;	/* just picked, 3 ms request */
	set_protect_slice(&a->se);
	dl = a->se.deadline;
	for (int i = 0; i < 2; i++) {
		fake_clock_advance(MSEC);
		scheduler_tick();
		assert_int_equal(a->need_resched, 0);
	}
	fake_clock_advance(MSEC);
	scheduler_tick();
	assert_true(a->se.vruntime >= dl);
	assert_int_equal(a->need_resched, 1);
	assert_int_equal(a->se.deadline, a->se.vruntime + 3000000);
	(void)b;
}

/* ---- knobs ---------------------------------------------------------------------- */

static void test_knobs(void **state)
{
	u32 lat = sysctl_sched_latency;

	assert_true(sched_eevdf());
	assert_ptr_equal(fair_sched_class_rw.pick_next_task, eevdf_sched_class.pick_next_task);
	assert_int_equal(sysctl_sched_base_slice, 700000);
	assert_int_equal(sysctl_sched_features_eevdf, sched_features_eevdf_default());
	assert_true(sched_feat(PLACE_LAG) && sched_feat(DELAY_DEQUEUE) &&
		    !sched_feat(NEXT_BUDDY));

	capture_reset();
	assert_int_equal(knob_apply("sched_min_granularity_ns", "1000000"), -1);
	assert_true(capture_contains("sched_min_granularity_ns has no effect under "
				     "linux-6.12 (EEVDF); see sched_base_slice_ns\n"));
	assert_int_equal(knob_apply("sched_latency_ns", "1000000"), -1);
	assert_int_equal(sysctl_sched_latency, lat);
	assert_int_equal(knob_apply("sched_child_runs_first", "1"), -1);
	assert_true(capture_contains("sched_child_runs_first has no effect under "
				     "linux-6.12 (EEVDF)\n"));

	knob_set_ok("sched_base_slice_ns", "3000000");
	assert_int_equal(sysctl_sched_base_slice, 3000000);
	assert_int_equal(normalized_sysctl_sched_base_slice, 3000000);
	assert_int_equal(knob_apply("sched_base_slice_ns", "99999"), -1);
	assert_int_equal(sysctl_sched_base_slice, 3000000);

	knob_set_ok("sched_features", "NO_PLACE_LAG,NO_RUN_TO_PARITY");
	assert_false(sched_feat(PLACE_LAG) || sched_feat(RUN_TO_PARITY));
	assert_int_equal(knob_apply("sched_features", "START_DEBIT"), -1);	/* CFS's */
	assert_false(sched_feat(PLACE_LAG));

	/* back to CFS: the EEVDF knob is refused there */
	knob_set_ok("sched_preset", "commit-0bf377bbb0be");
	assert_false(sched_eevdf());
	assert_ptr_equal(fair_sched_class_rw.pick_next_task, cfs_sched_class.pick_next_task);
	capture_reset();
	assert_int_equal(knob_apply("sched_base_slice_ns", "1000000"), -1);
	assert_true(capture_contains("sched_base_slice_ns has no effect under "
				     "commit-0bf377bbb0be (CFS); see sched_min_granularity_ns\n"));
	knob_set_ok("sched_min_granularity_ns", "1000000");
}

/* ---- the simulator ------------------------------------------------------------- */

static struct sim sim;
static struct sim_task storage[96];

static void test_sim_nice_shares(void **state)
{
	static const int pairs[][2] = { { 0, 1 }, { 0, 5 }, { -5, 5 } };

	for (size_t k = 0; k < 3; k++) {
		struct sim_task *h0, *h1;
		double w0 = prio_to_weight[pairs[k][0] + 20];
		double w1 = prio_to_weight[pairs[k][1] + 20];
		double got;

		eevdf_reset();
		sim_init(&sim, storage, 96, 1);
		h0 = sim_spawn(&sim, SIM_HOG, "h0", pairs[k][0], 0, 0);
		h1 = sim_spawn(&sim, SIM_HOG, "h1", pairs[k][1], 0, 0);
		sim_run(&sim, 10 * SEC);
		got = (double)h0->cpu_ns / (double)(h0->cpu_ns + h1->cpu_ns);
		if (got < w0 / (w0 + w1) - 0.01 || got > w0 / (w0 + w1) + 0.01)
			fail_msg("nice %d vs %d: %.4f, want %.4f", pairs[k][0], pairs[k][1],
				 got, w0 / (w0 + w1));
		assert_int_equal(sim_check_runtimes(&sim), 0);
		assert_int_equal(sched_verify_failures, 0);
	}
}

static void random_workload(u32 seed)
{
	static const unsigned int hzs[] = { 100, 250, 300, 1000 };
	int n;

	eevdf_reset();
	sim_init(&sim, storage, 48, seed);
	HZ = hzs[sim_rand(&sim) % 4];
	sim_init(&sim, storage, 48, seed);
	sim.random = 1;
	sim.max_live = 40;
	n = 1 + (int)(sim_rand(&sim) % 12);
	for (int i = 0; i < n; i++)
		sim_spawn(&sim, (enum sim_kind)(sim_rand(&sim) % 3 ? SIM_RANDOM :
				sim_rand(&sim) % 2 ? SIM_HOG : SIM_SLEEPER), "w",
			  (int)(sim_rand(&sim) % 40) - 20,
			  1 + sim_rand(&sim) % 5000000, 1 + sim_rand(&sim) % 20000000);
	sim_run(&sim, 1 * SEC);
	if (sched_verify_failures || switches.bad || sim_check_runtimes(&sim))
		fail_msg("seed %u: %lu invariant violations, %lu bad switches",
			 seed, sched_verify_failures, switches.bad);
}

static void test_random_workloads(void **state)
{
	unsigned long forks = 0, exits = 0, events = 0, delayed = 0;

	for (u32 seed = 1; seed <= 300; seed++) {
		random_workload(seed);
		forks += sim.forks;
		exits += sim.exits;
		events += sim.events;
		delayed += eevdf_rq(cfs)->h_nr_delayed;
	}
	print_message("300 EEVDF random workloads: %lu events, %lu forks, %lu exits\n",
		      events, forks, exits);
	assert_true(forks > 900 && exits > 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define R(f) cmocka_unit_test_setup_teardown(f, setup, teardown_raw)
#define T(f) cmocka_unit_test_setup_teardown(f, setup, sched_test_teardown)
		R(test_calc_delta_fair),
		R(test_eligibility_mixed_weights),
		R(test_pick_constructed),
		R(test_pick_random_trees),
		T(test_lag_conservation),
		T(test_place_woken_task),
		T(test_fork_half_slice),
		T(test_delay_dequeue),
		T(test_delayed_task_woken),
		T(test_no_delay_dequeue),
		T(test_run_to_parity),
		T(test_no_run_to_parity),
		T(test_preempt_short),
		T(test_no_preempt_short),
		T(test_tick_resched_at_deadline),
		T(test_knobs),
		T(test_sim_nice_shares),
		T(test_random_workloads),
#undef T
#undef R
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
