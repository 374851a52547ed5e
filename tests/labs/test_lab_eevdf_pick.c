/*
 * tests/labs/test_lab_eevdf_pick.c - lab eevdf_pick: Linux 6.12's EEVDF
 * (kernel/sched/eevdf.c): V = avg_vruntime(), the load-weighted mean
 * vruntime kept relative to zero_vruntime; vruntime_eligible() (lag =
 * V - v >= 0, decided without a division); pick_eevdf(), the eligible
 * entity with the earliest virtual deadline, found in O(log n) through
 * the subtree minima, with curr and RUN_TO_PARITY.
 *
 * Each check builds a tree by hand under sched_preset=linux-6.12 (tasks at
 * chosen vruntime and deadline keys from v0 = zero_vruntime, mk() and
 * put() of tests/host/sched/eevdf_test.h) and calls the lab's functions.
 * The expected figures and picks are the reference's output.  The
 * property test (prop_eevdf_pick.c) covers random trees, and
 * eevdf_visits.c counts the entities a pick touches.
 */
#include "scene.h"
#include "../host/sched/eevdf_test.h"

void test_pick_touches_log_n(void **state);	/* eevdf_visits.c */

static int eevdf_setup(void **state)
{
	lab_scenario_clear();
	return setup(state);
}

#define EEVDF_TEST(f)	cmocka_unit_test_setup_teardown(f, eevdf_setup, teardown_raw)

static u64 v0(void)
{
	return eevdf_rq(cfs)->zero_vruntime;
}

/* curr T runs (on the queue, out of the tree) */
static void running(struct task *t)
{
	t->se.on_rq = 1;
	cfs->curr = &t->se;
	cfs->nr_running++;
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

#define MIXED	"a (nice 0) at v0, b (nice -5, weight 3121) at v0 + 1000, c (nice 5, " \
		"weight 335) at v0 + 10000"

/* V is the load-weighted mean: 1444 past v0 here (the nice -5 entity
 * pulls it from the plain mean 3666 towards 1000), and becomes v0 */
static void test_avg_vruntime_weighted_mean(void **state)
{
	struct task *a, *b, *c;
	u64 z0 = v0();

	mixed(&a, &b, &c);
	lab_scenario("in the tree: " MIXED "; avg_vruntime() is called twice");
	LAB_EQ(avg_vruntime(cfs) - z0, 1444, "V - the old v0 (ns)");
	LAB_EQ(v0() - z0, 1444, "zero_vruntime moved by (ns): V is the new base");
	LAB_EQ(eevdf_rq(cfs)->avg_vruntime, 1880, "the sum avg_vruntime over the new base");
	LAB_EQ(eevdf_rq(cfs)->avg_load, 4480, "avg_load");
	LAB_EQ(avg_vruntime(cfs) - z0, 1444, "V - the old v0 (ns), a second call");
}

/* a mean that is not whole rounds down (left bias: an entity placed at
 * V is eligible); a running curr counts, one that left the queue does not */
static void test_avg_vruntime_floor_and_curr(void **state)
{
	struct task *a = mk("a", 0, -1001, 500000);
	struct task *b = mk("b", 0, 0, 600000);
	struct task *r = mk("r", 0, 9000, 700000);
	u64 z0 = v0();

	put(a);
	put(b);
	lab_scenario("in the tree: a (nice 0) at v0 - 1001, b (nice 0) at v0: the mean is "
		     "-500.5");
	LAB_EQ(avg_vruntime(cfs) - z0, -501, "V - v0 (ns), rounded down");
	z0 = v0();
	running(r);
	lab_scenario("as before, and r (nice 0) runs at 9000 past the old v0 (curr, out of "
		     "the tree)");
	LAB_EQ(avg_vruntime(cfs) - z0, 3167, "V - v0 (ns)");
	z0 = v0();
	r->se.on_rq = 0;
	lab_scenario("as before, but r left the queue (curr with on_rq = 0)");
	LAB_EQ(avg_vruntime(cfs) - z0, -3167, "V - v0 (ns)");
	cfs->curr = NULL;
}

/* eligible <=> lag >= 0 <=> v <= V: exactly at V is eligible, 1 ns
 * later is not, with the comparison made on the sum (no division) */
static void test_eligible_lag_nonneg(void **state)
{
	struct task *a, *b, *c;

	mixed(&a, &b, &c);
	lab_scenario("in the tree: " MIXED " (V = v0 + 1444)");
	LAB_YES(entity_eligible(cfs, &a->se), "is a eligible");
	LAB_YES(entity_eligible(cfs, &b->se), "is b eligible");
	LAB_NO(entity_eligible(cfs, &c->se), "is c eligible");
	LAB_YES(vruntime_eligible(cfs, v0() + 1444), "is v0 + 1444 (= V) eligible");
	LAB_NO(vruntime_eligible(cfs, v0() + 1445), "is v0 + 1445 eligible");
	LAB_EQ(v0(), eevdf_rq(cfs)->zero_vruntime, "zero_vruntime after the calls");
}

/* a running curr weighs in V for eligibility too; not once it left */
static void test_eligible_counts_curr(void **state)
{
	struct task *a = mk("a", 0, 0, 500000);
	struct task *r = mk("r", 0, 10000, 700000);

	put(a);
	running(r);
	lab_scenario("in the tree: a (nice 0) at v0; running: r (nice 0) at v0 + 10000 "
		     "(V = v0 + 5000)");
	LAB_YES(vruntime_eligible(cfs, v0() + 4000), "is v0 + 4000 eligible");
	LAB_NO(vruntime_eligible(cfs, v0() + 5001), "is v0 + 5001 eligible");
	r->se.on_rq = 0;
	lab_scenario("as before, but r left the queue (V = v0)");
	LAB_NO(vruntime_eligible(cfs, v0() + 4000), "is v0 + 4000 eligible");
	LAB_YES(vruntime_eligible(cfs, v0()), "is v0 eligible");
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
	lab_scenario("in the tree (nice 0, vruntime and deadline from v0): p (+3000, +3700), "
		     "q (0, +4000), r (-2000, +5000), s (-1000, +9000); V = v0");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");
	__dequeue_entity(cfs, &q->se);
	q->se.vruntime += 500;
	__enqueue_entity(cfs, &q->se);
	lab_scenario("as before, with q moved to +500 (V = v0 + 125)");
	LAB_TASK(pick_eevdf(cfs), &r->se, "pick_eevdf() picks");
	__dequeue_entity(cfs, &r->se);
	cfs->nr_running--;
	lab_scenario("as before, with r gone (V = v0 + 833)");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");
	assert_int_equal(eevdf_verify_tree(cfs), 0);
}

/*
 * Seven nice-0 entities with deadlines 1000 .. 7000 (a .. g), queued in
 * the order d b f a c e g, so that the tree is d over b and f, b over a
 * and c.  a and b, the earliest, are not eligible; c is, under b: the
 * walk must go left at d because b's SUBTREE holds an eligible entity
 * (its min_vruntime), although b itself is not eligible.
 */
static void test_pick_walks_subtree_minima(void **state)
{
	static const struct { const char *name; s64 v, d; } e[] = {
		{ "d", -1000, 4000 }, { "b", 2000, 2000 }, { "f", 1000, 6000 },
		{ "a", 3000, 1000 }, { "c", -3000, 3000 }, { "e", 0, 5000 }, { "g", -2000, 7000 },
	};
	struct task *t[7];

	for (int i = 0; i < 7; i++) {
		t[i] = mk(e[i].name, 0, e[i].v, e[i].d);
		put(t[i]);
	}
	lab_scenario("in the tree (nice 0, vruntime and deadline from v0), queued in this "
		     "order: d (-1000, +4000), b (+2000, +2000), f (+1000, +6000), a (+3000, "
		     "+1000), c (-3000, +3000), e (0, +5000), g (-2000, +7000); V = v0: a, b "
		     "and f are not eligible; the root is d, its left child b");
	LAB_TASK(pick_eevdf(cfs), &t[4]->se, "pick_eevdf() picks (c: the earliest eligible "
		 "deadline)");
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
	running(c);
	lab_scenario("in the tree: p (+3000, deadline +3700), q (0, +4000); running: curr c "
		     "(-500, +4500)");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");
	c->se.deadline = v0() + 3900;
	lab_scenario("as before, but c's deadline is +3900, earlier than q's");
	LAB_TASK(pick_eevdf(cfs), &c->se, "pick_eevdf() picks");
	c->se.vruntime = v0() + 20000;
	lab_scenario("as before, but c is at +20000: not eligible (and V moved past p)");
	LAB_TASK(pick_eevdf(cfs), &p->se, "pick_eevdf() picks");

	c->se.vruntime = v0() - 500;
	c->se.deadline = v0() + 4500;
	set_protect_slice(&c->se);
	lab_scenario("c back at -500 with deadline +4500, its slice protected (RUN_TO_PARITY)");
	LAB_TASK(pick_eevdf(cfs), &c->se, "pick_eevdf() picks");
	knob_set_ok("sched_features", "NO_RUN_TO_PARITY");
	lab_scenario("as before, under NO_RUN_TO_PARITY");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");
	knob_set_ok("sched_features", "RUN_TO_PARITY");
	cancel_protect_slice(&c->se);
	lab_scenario("RUN_TO_PARITY, but c's protection cancelled (as PREEMPT_SHORT does)");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");

	__dequeue_entity(cfs, &p->se);
	__dequeue_entity(cfs, &q->se);
	cfs->nr_running -= 2;
	c->se.vruntime = v0() + 20000;
	lab_scenario("c alone on the queue, at +20000");
	LAB_TASK(pick_eevdf(cfs), &c->se, "pick_eevdf() picks");
	cfs->curr = NULL;
}

/*
 * Protection does not save a curr that is no longer eligible, and on
 * equal deadlines the tree's entity wins (curr must be strictly earlier).
 * p, the tree's earliest deadline, is never eligible here.
 */
static void test_pick_curr_ineligible_or_tied(void **state)
{
	struct task *q = mk("q", 0, 0, 4000);
	struct task *p = mk("p", 0, 6000, 3700);
	struct task *c = mk("c", 0, 5000, 3500);

	put(q);
	put(p);
	running(c);
	set_protect_slice(&c->se);
	lab_scenario("in the tree: q (0, deadline +4000), p (+6000, +3700); running: curr c "
		     "(+5000, +3500), its slice protected (RUN_TO_PARITY), but not eligible "
		     "(V = v0 + 3666)");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");
	cancel_protect_slice(&c->se);
	c->se.vruntime = v0();
	c->se.deadline = v0() + 4000;
	lab_scenario("in the tree: q (0, +4000), p (+6000, +3700); running: curr c (0, +4000): "
		     "q's deadline, and both eligible (V = v0 + 2000)");
	LAB_TASK(pick_eevdf(cfs), &q->se, "pick_eevdf() picks");
	cfs->curr = NULL;
}

static const struct CMUnitTest tests[] = {
	EEVDF_TEST(test_avg_vruntime_weighted_mean),
	EEVDF_TEST(test_avg_vruntime_floor_and_curr),
	EEVDF_TEST(test_eligible_lag_nonneg),
	EEVDF_TEST(test_eligible_counts_curr),
	EEVDF_TEST(test_pick_earliest_eligible_deadline),
	EEVDF_TEST(test_pick_walks_subtree_minima),
	EEVDF_TEST(test_pick_curr_and_run_to_parity),
	EEVDF_TEST(test_pick_curr_ineligible_or_tied),
	EEVDF_TEST(test_pick_touches_log_n),
	PROP_TEST(test_property_eevdf_pick),
};

LAB_GROUP(eevdf_pick, tests);
