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
#include <string.h>
#include "scene.h"


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

#define ALONE	"a nice-0 parent runs alone for 3 ms under sched_preset=start-nice"

/* the first fork: penalty 1 for both, until the parent's slice ends */
static void test_first_fork_penalty(void **state)
{
	struct task *p = parent("start-nice", 3), *c;

	lab_scenario(ALONE " and forks a child");
	c = spawn("c", 0);
	LAB_TASK(&current->se, &p->se, "the task running after the fork");
	LAB_EQ(p->se.fork_nice_penality, 1, "the parent's penalty");
	/* one sched_slice of the parent, alone on the queue (the child is not
	 * queued yet): 6 ms as calc_delta_mine() rounds it */
	LAB_EQ(left(p), 5994146, "the parent's timeout - its runtime (ns): its slice");
	LAB_EQ(c->se.fork_nice_penality, 1, "the child's penalty");
	LAB_EQ(c->se.fork_nice_timeout, 5994146, "the child's timeout (ns): what is left");
}

/* a second fork within the timeout: penalty 2, one more slice of time */
static void test_second_fork_escalates(void **state)
{
	struct task *p = parent("start-nice", 3), *c;

	lab_scenario(ALONE " and forks two children, one after the other");
	spawn("c1", 0);
	c = spawn("c2", 0);
	LAB_EQ(p->se.fork_nice_penality, 2, "the parent's penalty");
	LAB_EQ(left(p), 8992681, "the parent's timeout - its runtime (ns): + a 2-task slice");
	LAB_EQ(c->se.fork_nice_penality, 2, "the second child's penalty");
	LAB_EQ(c->se.fork_nice_timeout, 8992681, "the second child's timeout (ns)");
}

/* ten forks in a row: the penalty stops at 8 */
static void test_cap_at_8(void **state)
{
	struct task *p = parent("start-nice", 1), *c = NULL;
	char what[64];

	lab_scenario("a nice-0 parent runs alone for 1 ms under sched_preset=start-nice and "
		     "forks ten children, one after the other");
	for (int i = 0; i < 10; i++) {
		c = spawn("c", 0);
		snprintf(what, sizeof(what), "the parent's penalty after fork %d", i + 1);
		LAB_EQ(p->se.fork_nice_penality, i < 8 ? i + 1 : 8, what);
	}
	LAB_EQ(c->se.fork_nice_penality, 8, "the last child's penalty");
}

/* a penalty whose time is up is dropped: the next fork starts again at 1 */
static void test_expired_penalty_dropped(void **state)
{
	struct task *p = parent("start-nice", 3);

	spawn("c1", 0);
	spawn("c2", 0);
	p->se.sum_exec_runtime = p->se.fork_nice_timeout + 1;	/* ran past it */
	lab_scenario(ALONE ", forks two children (penalty 2), runs 1 ns past its timeout, and "
		     "forks a third");
	spawn("c3", 0);
	LAB_EQ(p->se.fork_nice_penality, 1, "the parent's penalty");
	LAB_EQ(left(p), 1999349, "the parent's timeout - its runtime (ns): a fresh 3-task slice");
}

/* the timeout's edge: a parent whose runtime has just reached its timeout
 * still holds its penalty ("> 0", as calc_delta_fair() decides) */
static void test_expiry_edge(void **state)
{
	struct task *p = parent("start-nice", 3);

	spawn("c1", 0);
	p->se.sum_exec_runtime = p->se.fork_nice_timeout;	/* exactly at it */
	lab_scenario(ALONE ", forks a child (penalty 1), runs exactly up to its timeout, and "
		     "forks again");
	spawn("c2", 0);
	LAB_EQ(p->se.fork_nice_penality, 2, "the parent's penalty");
}

/* a parent that has run for seconds: its timeout is 64-bit runtime */
static void test_long_running_parent(void **state)
{
	struct task *p = parent("start-nice", 3);

	p->se.sum_exec_runtime += 5000000000ULL;
	p->se.prev_sum_exec_runtime += 5000000000ULL;
	lab_scenario("a nice-0 parent that has run 5 s (more than 2^32 ns) in all runs alone "
		     "under sched_preset=start-nice and forks a child");
	spawn("c", 0);
	LAB_EQ(p->se.fork_nice_penality, 1, "the parent's penalty");
	LAB_EQ(left(p), 5994146, "the parent's timeout - its runtime (ns): its slice");
}

/* the timeout grows by the parent's OWN slice: a nice-5 parent among
 * nice-0 tasks has a shorter one (the queue built by hand and the fork's
 * class hook called alone, so that no other lab's function takes part) */
static void test_nice_parent(void **state)
{
	struct cfs_scene s = {
		.min_vruntime = (u64)(-(1LL << 20)), .curr = 1, .c = { 5, 0 },
		.nq = 1, .q = { { 0, 0 } },
	};
	struct task *t[SCENE_MAX + 1], *c;

	for (s.preset = 0; strcmp(scene_presets[s.preset], "start-nice"); s.preset++)
		;
	scene_build(&s, t);
	t[0]->se.sum_exec_runtime = 3 * MS;
	lab_scenario("a nice-5 parent runs, a nice-0 task waits, under sched_preset=start-nice; "
		     "the parent forks a child (task_fork_fair)");
	c = scene_alloc("c", 0);
	fair_sched_class.task_fork(c);
	LAB_EQ(left(t[0]), 1477941, "the parent's timeout - its runtime (ns): its slice");
	LAB_EQ(c->se.fork_nice_timeout, 1477941, "the child's timeout (ns)");
}

/* only under START_NICE: linux-2.6.35 forks get no penalty */
static void test_only_with_start_nice(void **state)
{
	struct task *p = parent("linux-2.6.35", 3), *c;

	lab_scenario("a nice-0 parent runs alone under sched_preset=linux-2.6.35 (no "
		     "START_NICE) and forks a child");
	c = spawn("c", 0);
	LAB_EQ(p->se.fork_nice_penality, 0, "the parent's penalty");
	LAB_EQ(c->se.fork_nice_penality, 0, "the child's penalty");
	knob_set_ok("sched_features", "START_NICE");
	lab_scenario("as before, then START_NICE is turned on and it forks again");
	c = spawn("c", 0);
	LAB_EQ(p->se.fork_nice_penality, 1, "the parent's penalty");
	LAB_EQ(c->se.fork_nice_penality, 1, "the child's penalty");
}

/* the effect, through the given calc_delta_fair(): 1 ms of a child's
 * runtime is 2 ms of vruntime after one fork, 4 ms after two */
static void test_child_runs_faster(void **state)
{
	struct task *c1, *c2;

	parent("start-nice", 3);
	lab_scenario(ALONE " and forks a child; calc_delta_fair(1 ms) of the child");
	c1 = spawn("c1", 0);
	LAB_EQ(calc_delta_fair(MS, &c1->se), 2000000, "the child's vruntime for 1 ms (ns)");
	lab_scenario(ALONE " and forks two children; calc_delta_fair(1 ms) of each");
	c2 = spawn("c2", 0);
	LAB_EQ(calc_delta_fair(MS, &c2->se), 4000000, "the second child's (ns)");
	LAB_EQ(calc_delta_fair(MS, &current->se), 4000000, "the parent's (ns)");
}

static const struct CMUnitTest tests[] = {
	LAB_TEST(test_first_fork_penalty),
	LAB_TEST(test_second_fork_escalates),
	LAB_TEST(test_cap_at_8),
	LAB_TEST(test_expired_penalty_dropped),
	LAB_TEST(test_expiry_edge),
	LAB_TEST(test_long_running_parent),
	SCENE_TEST(test_nice_parent),
	LAB_TEST(test_only_with_start_nice),
	LAB_TEST(test_child_runs_faster),
	PROP_TEST(test_property_start_nice),
};

LAB_GROUP(start_nice, tests);
