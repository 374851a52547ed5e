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
#include "lab.h"

#define MS	1000000LL

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
static struct task *pick(struct task *next, struct task *last)
{
	CFS->next = next ? &next->se : NULL;
	CFS->last = last ? &last->se : NULL;
	return task_of(pick_next_entity(CFS));
}

/* no buddies: the leftmost, whatever the others' distance */
static void test_leftmost_picked(void **state)
{
	queue(0, MS / 2, 2 * MS);
	assert_ptr_equal(pick(NULL, NULL), L);
}

/* a next buddy within one gran of the leftmost is preferred, and consumed */
static void test_next_buddy_within_gran(void **state)
{
	queue(0, MS / 2, 2 * MS);
	assert_ptr_equal(pick(B, NULL), B);
	assert_null(CFS->next);
}

/* a next buddy more than one gran right of the leftmost is not; it stays a buddy */
static void test_next_buddy_too_far(void **state)
{
	queue(0, 3 * MS / 2, 2 * MS);
	assert_ptr_equal(pick(B, NULL), L);
	assert_ptr_equal(CFS->next, &B->se);
}

/* both close: the last buddy (the preempted one) wins and loses its role,
 * the next buddy keeps its; a last buddy too far leaves the next one */
static void test_last_buddy_wins(void **state)
{
	queue(0, MS / 2, 9 * MS / 10);
	assert_ptr_equal(pick(B, C), C);
	assert_null(CFS->last);
	assert_ptr_equal(CFS->next, &B->se);
	assert_ptr_equal(pick(C, B), B);
	assert_null(CFS->last);
	assert_ptr_equal(CFS->next, &C->se);

	requeue_at(C, L->se.vruntime + 3 * MS / 2);
	assert_ptr_equal(pick(B, C), B);
	assert_ptr_equal(CFS->last, &C->se);
	assert_null(CFS->next);
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
	assert_ptr_equal(pick(B, NULL), B);
	assert_ptr_equal(pick(C, NULL), L);
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-2.6.35");
	queue(5, 3056716, 3056717);
	assert_ptr_equal(pick(B, NULL), B);
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-2.6.35");
	queue(5, 3056717, 4 * MS);
	assert_ptr_equal(pick(B, NULL), L);
}

/* DEADLINE (Granule's, deadline.c): an expired unrun fork beats the
 * leftmost and both buddies; not yet expired, it does not */
static void test_expired_deadline_first(void **state)
{
	queue(0, MS / 2, 2 * MS);
	knob_set_ok("sched_features", "DEADLINE");	/* after the forks */
	C->se.deadline = RQ->clock + 1;
	deadline_enqueue(RQ, &C->se);
	assert_ptr_equal(pick(B, L), L);
	C->se.deadline = RQ->clock;
	assert_ptr_equal(pick(B, L), C);
	deadline_dequeue(&C->se);
	C->se.deadline = 0;
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_leftmost_picked),
	LAB_TEST(test_next_buddy_within_gran),
	LAB_TEST(test_next_buddy_too_far),
	LAB_TEST(test_last_buddy_wins),
	LAB_TEST(test_gran_edge_and_weight),
	LAB_TEST(test_expired_deadline_first),
};

LAB_GROUP(pick_next_entity, tests);
