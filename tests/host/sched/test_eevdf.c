/*
 * tests/host/sched/test_eevdf.c - the EEVDF class (kernel/sched/eevdf*.c,
 * Linux 6.12's fair.c), compiled unchanged, under sched_preset=linux-6.12,
 * part 1: the arithmetic, the tree and placement:
 *   - calc_delta_fair (6.12's __calc_delta) against exact division;
 *   - V and eligibility with mixed weights (no division: S >= key * W);
 *   - pick_eevdf in hand-built and in random trees against a brute-force
 *     "first eligible in deadline order", with the augmented minima;
 *   - lag conservation across dequeue + enqueue (PLACE_LAG's inflation),
 *     placement of a woken task with positive and negative lag, and a
 *     fork's half-slice first deadline.
 * test_eevdf_class.c has the rest.  The figures quoted in
 * docs/SCHEDULER.md's EEVDF chapter come from these two files.
 */
#include "eevdf_test.h"

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
#undef T
#undef R
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
