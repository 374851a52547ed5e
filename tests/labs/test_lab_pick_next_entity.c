/*
 * tests/labs/test_lab_pick_next_entity.c - lab pick_next_entity: the
 * rbtree pick and the buddies (Linux 2.6.35 pick_next_entity: the
 * leftmost, unless the next or the last buddy is within one wakeup
 * granularity of it; the chosen entity loses its buddy role).
 *
 * Each check runs one task and queues four more at vruntimes it chose:
 * L (the leftmost), B and C at set distances right of L, and Z 100 ms
 * right of everyone (the rightmost, never the right answer).  It sets the
 * buddies by hand (cfs_rq->next, cfs_rq->last) and calls
 * pick_next_entity() itself.  wakeup_granularity is 1 ms (linux-2.6.35).
 */
#include "scene.h"


static struct task *L, *B, *C, *Z;

/* Requeue queued task T at absolute vruntime V (through a relative value). */
static void requeue_at(struct task *t, u64 v)
{
	dequeue_task(RQ, t, 0);
	t->se.vruntime = v - CFS->min_vruntime;
	enqueue_task(RQ, t, 0);
}

/* current runs; L (nice L_NICE), B, C, Z queued at L, L + b, L + c, L + 100 ms */
static void queue(int l_nice, s64 b, s64 c)
{
	u64 base;

	spawn("cur", 0);
	resched_if_needed();
	L = spawn("L", l_nice);
	B = spawn("B", 0);
	C = spawn("C", 0);
	Z = spawn("Z", 0);
	current->need_resched = 0;
	base = CFS->min_vruntime + MS;
	requeue_at(L, base);
	requeue_at(B, base + (u64)b);
	requeue_at(C, base + (u64)c);
	requeue_at(Z, base + 100 * MS);
	assert_int_equal(CFS->nr_running, 5);
	assert_ptr_equal(__pick_next_entity(CFS), &L->se);
	assert_ptr_equal(__pick_last_entity(CFS), &Z->se);
}

/* pick with NEXT and LAST as the buddies (NULL: none) */
static struct sched_entity *pick(struct task *next, struct task *last)
{
	CFS->next = next ? &next->se : NULL;
	CFS->last = last ? &last->se : NULL;
	return pick_next_entity(CFS);
}

#define SE(t)	((t) ? &(t)->se : NULL)

/* no buddies: the leftmost, whatever the others' distance */
static void test_leftmost_picked(void **state)
{
	queue(0, MS / 2, 2 * MS);
	lab_scenario("queued: L (nice 0), B 0.5 ms right of L, C 2 ms, Z 100 ms; no buddies");
	LAB_TASK(pick(NULL, NULL), SE(L), "the entity picked");
}

/* a next buddy within one gran of the leftmost is preferred, and consumed */
static void test_next_buddy_within_gran(void **state)
{
	queue(0, MS / 2, 2 * MS);
	lab_scenario("queued: L (nice 0), B 0.5 ms right of L, C 2 ms, Z 100 ms; B is the "
		     "next buddy (wakeup_granularity 1 ms)");
	LAB_TASK(pick(B, NULL), SE(B), "the entity picked");
	LAB_TASK(CFS->next, NULL, "the next buddy afterwards");
}

/* a next buddy more than one gran right of the leftmost is not; it stays a buddy */
static void test_next_buddy_too_far(void **state)
{
	queue(0, 3 * MS / 2, 2 * MS);
	lab_scenario("queued: L (nice 0), B 1.5 ms right of L, C 2 ms, Z 100 ms; B is the "
		     "next buddy (wakeup_granularity 1 ms)");
	LAB_TASK(pick(B, NULL), SE(L), "the entity picked");
	LAB_TASK(CFS->next, SE(B), "the next buddy afterwards");
}

/* a buddy at the leftmost's own vruntime (wakeup_preempt_entity's -1)
 * is as close as can be; so is the leftmost itself */
static void test_buddy_at_leftmost(void **state)
{
	queue(0, 0, 2 * MS);
	lab_scenario("queued: L (nice 0), B at the same vruntime as L (queued after it), C "
		     "2 ms right of L, Z 100 ms; B is the next buddy");
	LAB_TASK(pick(B, NULL), SE(B), "the entity picked");
	lab_scenario("as before; L itself is the last buddy, B the next buddy");
	LAB_TASK(pick(B, L), SE(L), "the entity picked");
	LAB_TASK(CFS->next, SE(B), "the next buddy afterwards");
	LAB_TASK(CFS->last, NULL, "the last buddy afterwards");
}

/* both close: the last buddy (the preempted one) wins and loses its role,
 * the next buddy keeps its; a last buddy too far leaves the next one */
static void test_last_buddy_wins(void **state)
{
	queue(0, MS / 2, 9 * MS / 10);
	lab_scenario("queued: L (nice 0), B 0.5 ms right of L, C 0.9 ms, Z 100 ms; B is the "
		     "next buddy, C the last buddy");
	LAB_TASK(pick(B, C), SE(C), "the entity picked");
	LAB_TASK(CFS->last, NULL, "the last buddy afterwards");
	LAB_TASK(CFS->next, SE(B), "the next buddy afterwards");
	lab_scenario("as before, but C is the next buddy and B the last buddy");
	LAB_TASK(pick(C, B), SE(B), "the entity picked");
	LAB_TASK(CFS->last, NULL, "the last buddy afterwards");
	LAB_TASK(CFS->next, SE(C), "the next buddy afterwards");

	requeue_at(C, L->se.vruntime + 3 * MS / 2);
	lab_scenario("queued: L (nice 0), B 0.5 ms right of L, C 1.5 ms, Z 100 ms; B is the "
		     "next buddy, C the last buddy (too far)");
	LAB_TASK(pick(B, C), SE(B), "the entity picked");
	LAB_TASK(CFS->last, SE(C), "the last buddy afterwards");
	LAB_TASK(CFS->next, NULL, "the next buddy afterwards");
}

/*
 * The gran's edge: a lead of exactly one gran is still close, one ns more
 * is not.  The gran is converted with the weight of the leftmost (the
 * second argument of wakeup_preempt_entity): behind a nice-5 leftmost it
 * is 3056716 ns (the reference's calc_delta_fair(1 ms) at nice 5, as in
 * lab update_curr).
 */
static void test_gran_edge_and_weight(void **state)
{
	queue(0, MS, MS + 1);
	lab_scenario("queued: L (nice 0), B exactly 1 ms (one wakeup_granularity) right of L, "
		     "C 1 ms + 1 ns, Z 100 ms; B is the next buddy");
	LAB_TASK(pick(B, NULL), SE(B), "the entity picked");
	lab_scenario("as before, with C the next buddy");
	LAB_TASK(pick(C, NULL), SE(L), "the entity picked");
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-2.6.35");
	queue(5, 3056716, 3056717);
	lab_scenario("queued: L (nice 5: the gran is 1 ms x 1024/335 = 3056716 ns in its "
		     "virtual time), B exactly 3056716 ns right of L, Z 100 ms; B is the next buddy");
	LAB_TASK(pick(B, NULL), SE(B), "the entity picked");
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-2.6.35");
	queue(5, 3056717, 4 * MS);
	lab_scenario("queued: L (nice 5), B 3056717 ns right of L (1 ns past its gran), Z "
		     "100 ms; B is the next buddy");
	LAB_TASK(pick(B, NULL), SE(L), "the entity picked");
}

/* DEADLINE (Granule's, deadline.c): an expired unrun fork beats the
 * leftmost and both buddies, who keep their roles; not yet expired, it
 * does not */
static void test_expired_deadline_first(void **state)
{
	queue(0, MS / 2, 2 * MS);
	knob_set_ok("sched_features", "DEADLINE");	/* after the forks */
	C->se.deadline = RQ->clock + 1;
	deadline_enqueue(RQ, &C->se);
	lab_scenario("DEADLINE; queued: L (nice 0), B 0.5 ms right of L, C 2 ms, Z 100 ms; B "
		     "the next buddy, L the last buddy; C is an unrun fork due 1 ns from now");
	LAB_TASK(pick(B, L), SE(L), "the entity picked");
	C->se.deadline = RQ->clock;
	lab_scenario("as before, but C's deadline is now");
	LAB_TASK(pick(B, L), SE(C), "the entity picked");
	LAB_TASK(CFS->next, SE(B), "the next buddy afterwards");
	LAB_TASK(CFS->last, SE(L), "the last buddy afterwards");
	deadline_dequeue(&C->se);
	C->se.deadline = 0;
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_leftmost_picked),
	LAB_TEST(test_next_buddy_within_gran),
	LAB_TEST(test_next_buddy_too_far),
	LAB_TEST(test_buddy_at_leftmost),
	LAB_TEST(test_last_buddy_wins),
	LAB_TEST(test_gran_edge_and_weight),
	LAB_TEST(test_expired_deadline_first),
	PROP_TEST(test_property_pick_next_entity),
};

LAB_GROUP(pick_next_entity, tests);
