/*
 * tests/labs/test_lab_start_nice.c - lab start_nice: a 2010 seed variant
 * written from its patch text, Mathieu Desnoyers' "[RFC PATCH] sched:
 * START_NICE feature (temporarily niced forks) (v2)" (LKML, 2010-09-14):
 * a fork doubles the speed at which parent and child advance vruntime
 * (fork_nice_penality, up to 2^8) until the parent has run one more
 * sched_slice (fork_nice_timeout).  The student writes the fork side in
 * task_fork_fair(); calc_delta_fair() (the speed-up) and dequeue_entity()
 * (a dequeue ends it) are given.
 *
 * Each check runs a parent under sched_preset=start-nice (START_NICE,
 * NO_START_DEBIT), forks from it with spawn() (sched_fork ->
 * task_fork_fair) and reads the fields the fork set.  The expected figures
 * are the reference's output; tools/lab also compares one QEMU figure.
 */
#include "lab.h"

#define MS	1000000ULL

/* the parent runs, alone, for NTICKS ticks */
static struct task *parent(const char *preset, int nticks)
{
	knob_set_ok("sched_preset", preset);
	spawn("parent", 0);
	resched_if_needed();
	ticks(nticks);
	return current;
}

/* the parent's remaining penalty time, ns of its runtime */
static s64 left(struct task *t)
{
	return (s64)(t->se.fork_nice_timeout - t->se.sum_exec_runtime);
}

/* the first fork: penalty 1 for both, until the parent's slice ends */
static void test_first_fork_penalty(void **state)
{
	struct task *p = parent("start-nice", 3), *c;

	c = spawn("c", 0);
	assert_ptr_equal(current, p);
	assert_int_equal(p->se.fork_nice_penality, 1);
	/* one sched_slice of the parent, alone on the queue (the child is not
	 * queued yet): 6 ms as calc_delta_mine() rounds it */
	assert_int_equal(left(p), 5994146);
	assert_int_equal(c->se.fork_nice_penality, 1);
	assert_int_equal(c->se.fork_nice_timeout, 5994146);	/* what is left */
}

/* a second fork within the timeout: penalty 2, one more slice of time */
static void test_second_fork_escalates(void **state)
{
	struct task *p = parent("start-nice", 3), *c;

	spawn("c1", 0);
	c = spawn("c2", 0);
	assert_int_equal(p->se.fork_nice_penality, 2);
	assert_int_equal(left(p), 8992681);		/* + a 2-task slice, ~3 ms */
	assert_int_equal(c->se.fork_nice_penality, 2);
	assert_int_equal(c->se.fork_nice_timeout, 8992681);
}

/* ten forks in a row: the penalty stops at 8 */
static void test_cap_at_8(void **state)
{
	struct task *p = parent("start-nice", 1), *c = NULL;

	for (int i = 0; i < 10; i++) {
		c = spawn("c", 0);
		assert_int_equal(p->se.fork_nice_penality, i < 8 ? i + 1 : 8);
	}
	assert_int_equal(c->se.fork_nice_penality, 8);
}

/* a penalty whose time is up is dropped: the next fork starts again at 1 */
static void test_expired_penalty_dropped(void **state)
{
	struct task *p = parent("start-nice", 3);

	spawn("c1", 0);
	spawn("c2", 0);
	assert_int_equal(p->se.fork_nice_penality, 2);
	p->se.sum_exec_runtime = p->se.fork_nice_timeout + 1;	/* ran past it */
	spawn("c3", 0);
	assert_int_equal(p->se.fork_nice_penality, 1);
	assert_int_equal(left(p), 1999349);		/* a fresh 3-task slice, ~2 ms */
}

/* only under START_NICE: linux-2.6.35 forks get no penalty */
static void test_only_with_start_nice(void **state)
{
	struct task *p = parent("linux-2.6.35", 3), *c;

	c = spawn("c", 0);
	assert_int_equal(p->se.fork_nice_penality, 0);
	assert_int_equal(c->se.fork_nice_penality, 0);
	knob_set_ok("sched_features", "START_NICE");
	c = spawn("c", 0);
	assert_int_equal(p->se.fork_nice_penality, 1);
	assert_int_equal(c->se.fork_nice_penality, 1);
}

/* the effect, through the given calc_delta_fair(): 1 ms of a child's
 * runtime is 2 ms of vruntime after one fork, 4 ms after two */
static void test_child_runs_faster(void **state)
{
	struct task *c1, *c2;

	parent("start-nice", 3);
	c1 = spawn("c1", 0);
	assert_int_equal(calc_delta_fair(MS, &c1->se), 2000000);
	c2 = spawn("c2", 0);
	assert_int_equal(calc_delta_fair(MS, &c2->se), 4000000);
	assert_int_equal(calc_delta_fair(MS, &current->se), 4000000);
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_first_fork_penalty),
	LAB_TEST(test_second_fork_escalates),
	LAB_TEST(test_cap_at_8),
	LAB_TEST(test_expired_penalty_dropped),
	LAB_TEST(test_only_with_start_nice),
	LAB_TEST(test_child_runs_faster),
};

LAB_GROUP(start_nice, tests);
