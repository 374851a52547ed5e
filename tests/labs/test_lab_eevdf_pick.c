/*
 * tests/labs/test_lab_eevdf_pick.c - lab eevdf_pick: Linux 6.12's EEVDF
 * (kernel/sched/eevdf.c): V = avg_vruntime(), the load-weighted mean
 * vruntime kept relative to zero_vruntime; vruntime_eligible() (lag =
 * V - v >= 0, decided without a division); pick_eevdf(), the eligible
 * entity with the earliest virtual deadline, with RUN_TO_PARITY.
 *
 * Each check builds a tree by hand under sched_preset=linux-6.12 (tasks at
 * chosen vruntime and deadline keys from v0 = zero_vruntime, mk() and
 * put() of tests/host/sched/eevdf_test.h) and calls the lab's functions.
 * The expected figures and picks are the reference's output.
 */
#include "lab.h"
#include "../host/sched/eevdf_test.h"

#define EEVDF_TEST(f)	cmocka_unit_test_setup_teardown(f, setup, teardown_raw)

static u64 v0(void)
{
	return eevdf_rq(cfs)->zero_vruntime;
}

/* three entities: nice 0 at key 0, nice -5 at 1000, nice 5 at 10000 */
static void mixed(struct task **a, struct task **b, struct task **c)
{
	*a = mk("a", 0, 0, 700000);
	*b = mk("b", -5, 1000, 1000 + 229669);
	*c = mk("c", 5, 10000, 10000 + 2139701);
	put(*a);
	put(*b);
	put(*c);
}

/* V is the load-weighted mean: 1444 past v0 here (the nice -5 entity
 * pulls it from the plain mean 3666 towards 1000), and becomes v0 */
static void test_avg_vruntime_weighted_mean(void **state)
{
	struct task *a, *b, *c;
	u64 z0 = v0();

	mixed(&a, &b, &c);
	assert_int_equal(avg_vruntime(cfs), z0 + 1444);
	assert_int_equal(v0(), z0 + 1444);		/* the new base ... */
	assert_int_equal(eevdf_rq(cfs)->avg_vruntime, 1880);	/* ... and the sum over it */
	assert_int_equal(eevdf_rq(cfs)->avg_load, 4480);
	assert_int_equal(avg_vruntime(cfs), z0 + 1444);	/* a second call: the same V */
}

/* a mean that is not whole rounds down (left bias: an entity placed at V
 * is eligible); a running curr counts, one that left the queue does not */
static void test_avg_vruntime_floor_and_curr(void **state)
{
	struct task *a = mk("a", 0, -1001, 500000);
	struct task *b = mk("b", 0, 0, 600000);
	struct task *r = mk("r", 0, 9000, 700000);
	u64 z0 = v0();

	put(a);
	put(b);
	assert_int_equal(avg_vruntime(cfs), z0 - 501);
	z0 = v0();
	r->se.on_rq = 1;
	cfs->curr = &r->se;				/* running: not in the tree */
	cfs->nr_running++;
	assert_int_equal(avg_vruntime(cfs), z0 + 3167);
	z0 = v0();
	r->se.on_rq = 0;				/* it left the queue */
	assert_int_equal(avg_vruntime(cfs), z0 - 3167);
	cfs->curr = NULL;
}

/* eligible <=> lag >= 0 <=> v <= V: exactly at V is eligible, 1 ns
 * later is not, with the comparison made on the sum (no division) */
static void test_eligible_lag_nonneg(void **state)
{
	struct task *a, *b, *c;

	mixed(&a, &b, &c);
	assert_true(entity_eligible(cfs, &a->se));
	assert_true(entity_eligible(cfs, &b->se));
	assert_false(entity_eligible(cfs, &c->se));
	assert_true(vruntime_eligible(cfs, v0() + 1444));
	assert_false(vruntime_eligible(cfs, v0() + 1445));
	assert_int_equal(v0(), eevdf_rq(cfs)->zero_vruntime);	/* no side effect */
}

/* a running curr weighs in V for eligibility too; not once it left */
static void test_eligible_counts_curr(void **state)
{
	struct task *a = mk("a", 0, 0, 500000);
	struct task *r = mk("r", 0, 10000, 700000);

	put(a);
	r->se.on_rq = 1;
	cfs->curr = &r->se;
	cfs->nr_running++;
	assert_true(vruntime_eligible(cfs, v0() + 4000));
	assert_false(vruntime_eligible(cfs, v0() + 5001));
	r->se.on_rq = 0;
	assert_false(vruntime_eligible(cfs, v0() + 4000));
	assert_true(vruntime_eligible(cfs, v0()));
	cfs->curr = NULL;
}

/*
 * Four nice-0 entities (vruntime key, deadline key):
 *	p (3000, 3700)  q (0, 4000)  r (-2000, 5000)  s (-1000, 9000)
 * p has the earliest deadline but is not eligible; q is the pick.  With q
 * moved 500 right, r is; with r gone, q is eligible again (V moved).
 */
static void test_pick_earliest_eligible_deadline(void **state)
{
	struct task *p = mk("p", 0, 3000, 3700);
	struct task *q = mk("q", 0, 0, 4000);
	struct task *r = mk("r", 0, -2000, 5000);
	struct task *s = mk("s", 0, -1000, 9000);

	put(p);
	put(q);
	put(r);
	put(s);
	assert_ptr_equal(pick_eevdf(cfs), &q->se);
	__dequeue_entity(cfs, &q->se);
	q->se.vruntime += 500;
	__enqueue_entity(cfs, &q->se);
	assert_ptr_equal(pick_eevdf(cfs), &r->se);
	__dequeue_entity(cfs, &r->se);
	cfs->nr_running--;
	assert_ptr_equal(pick_eevdf(cfs), &q->se);
	assert_int_equal(eevdf_verify_tree(cfs), 0);
}

/*
 * curr (running, out of the tree) against the tree's pick q:
 * an earlier deadline keeps curr; an ineligible curr loses;
 * RUN_TO_PARITY keeps a protected curr whose deadline is later, until the
 * protection is cancelled (as PREEMPT_SHORT does) or the feature is off;
 * alone on the queue, curr is the pick without any test.
 */
static void test_pick_curr_and_run_to_parity(void **state)
{
	struct task *p = mk("p", 0, 3000, 3700);
	struct task *q = mk("q", 0, 0, 4000);
	struct task *c = mk("c", 0, -500, 4500);

	put(p);
	put(q);
	c->se.on_rq = 1;
	cfs->curr = &c->se;
	cfs->nr_running++;
	assert_ptr_equal(pick_eevdf(cfs), &q->se);	/* q's deadline is earlier */
	c->se.deadline = v0() + 3900;
	assert_ptr_equal(pick_eevdf(cfs), &c->se);	/* now curr's is */
	c->se.vruntime = v0() + 20000;			/* not eligible: out, */
	assert_ptr_equal(pick_eevdf(cfs), &p->se);	/* and V moved past p */

	c->se.vruntime = v0() - 500;
	c->se.deadline = v0() + 4500;
	set_protect_slice(&c->se);
	assert_ptr_equal(pick_eevdf(cfs), &c->se);	/* RUN_TO_PARITY */
	knob_set_ok("sched_features", "NO_RUN_TO_PARITY");
	assert_ptr_equal(pick_eevdf(cfs), &q->se);
	knob_set_ok("sched_features", "RUN_TO_PARITY");
	cancel_protect_slice(&c->se);
	assert_ptr_equal(pick_eevdf(cfs), &q->se);

	__dequeue_entity(cfs, &p->se);
	__dequeue_entity(cfs, &q->se);
	cfs->nr_running -= 2;
	c->se.vruntime = v0() + 20000;			/* alone: no eligibility test */
	assert_ptr_equal(pick_eevdf(cfs), &c->se);
	cfs->curr = NULL;
}

static const struct CMUnitTest tests[] = {
	EEVDF_TEST(test_avg_vruntime_weighted_mean),
	EEVDF_TEST(test_avg_vruntime_floor_and_curr),
	EEVDF_TEST(test_eligible_lag_nonneg),
	EEVDF_TEST(test_eligible_counts_curr),
	EEVDF_TEST(test_pick_earliest_eligible_deadline),
	EEVDF_TEST(test_pick_curr_and_run_to_parity),
};

LAB_GROUP(eevdf_pick, tests);
