/*
 * tests/labs/prop_start_nice.c - lab start_nice's property test: a fork
 * under START_NICE through the student's task_fork_fair() and the
 * reference's, from random parents: every nice level of the parent, the
 * child and the queue (the timeout grows by the parent's own slice), a
 * parent that has run past 2^32 ns, penalties from none to the cap of 8,
 * a timeout 1 ns before, at and after the parent's runtime.  The clock
 * stands still, so the fork's update_curr() charges nothing, and
 * START_DEBIT is off, so the fork's place_entity() computes no vslice (whose
 * calc_delta_fair() may drop the child's penalty): no other lab's function
 * touches what is compared, the penalties and timeouts.
 */
#include "scene.h"
#include "reference.h"

struct sn_case {
	struct cfs_scene s;	/* curr: the parent */
	u64 sum;		/* the parent's sum_exec_runtime */
	int penalty;		/* its penalty before the fork (0..8) */
	s64 left;		/* its timeout - sum (when it has one) */
	int no_timeout;		/* its timeout is 0 (no penalty running) */
	int child_nice;
};

static void generate(struct prop_rng *r, void *p)
{
	static const s64 sums[] = { 3 * MS, (1LL << 32) - 1, (1LL << 32) + 7, 5000 * MS };
	static const s64 lefts[] = { -1, 0, 1, MS, -MS, 6 * MS };
	struct sn_case *c = p;

	/* start-nice and start-nice-debit, or START_NICE turned on */
	scene_generate(r, &c->s, 0x1f, SF(DYN_GRAN), 0, SCENE_MAX, 1);
	if (c->s.preset != 3 && c->s.preset != 4)
		c->s.on |= SF(START_NICE);
	c->sum = (u64)prop_edge(r, sums, 4, 0, 1LL << 34);
	c->penalty = prop_chance(r, 40) ? 0 : (int)prop_range(r, 1, 8);
	c->left = prop_edge(r, lefts, 6, -10 * MS, 10 * MS);
	c->no_timeout = !c->penalty && prop_chance(r, 70);
	c->child_nice = prop_nice(r);
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct sn_case *c = p;
	struct task *t[SCENE_MAX + 1], *child;
	struct sched_entity *parent;

	scene_build(&c->s, t);
	knob_set_ok("sched_features", "NO_START_DEBIT");	/* see above */
	parent = &t[0]->se;
	parent->sum_exec_runtime = parent->prev_sum_exec_runtime = c->sum;
	parent->fork_nice_penality = (unsigned int)c->penalty;
	parent->fork_nice_timeout = c->no_timeout ? 0 : c->sum + (u64)c->left;
	child = scene_alloc("child", c->child_nice);
	if (reference)
		ref_cfs_sched_class.task_fork(child);
	else
		fair_sched_class.task_fork(child);
	obs_num(o, parent->fork_nice_penality, "the parent's penalty");
	obs_num(o, (s64)(parent->fork_nice_timeout - c->sum),
		"the parent's timeout - its sum_exec_runtime");
	obs_num(o, child->se.fork_nice_penality, "the child's penalty");
	obs_num(o, (s64)child->se.fork_nice_timeout, "the child's timeout (its own runtime)");
}

static int shrink(const void *p, int k, void *q)
{
	const struct sn_case *in = p;
	struct sn_case *out = q;

	*out = *in;
	SHRINK_TRY(in->child_nice, out->child_nice = 0);
	SHRINK_TRY(in->penalty, out->penalty = 0);
	SHRINK_TRY(in->penalty > 1, out->penalty = 1);
	SHRINK_TRY(!in->no_timeout && !in->penalty, out->no_timeout = 1);
	SHRINK_TRY(in->left, out->left = 0);
	SHRINK_TRY(in->left / 2, out->left /= 2);
	SHRINK_TRY(in->sum != 3 * MS, out->sum = 3 * MS);
	return scene_shrink(&in->s, k, &out->s, 0, 0);
}

static void describe(const void *p, struct prop_text *t)
{
	const struct sn_case *c = p;

	scene_describe(&c->s, t);
	prop_say(t, " (and NO_START_DEBIT); the parent (curr) has run %llu ns", (unsigned long long)c->sum);
	if (c->no_timeout)
		prop_say(t, " and has no penalty (timeout 0)");
	else
		prop_say(t, " with penalty %d and its timeout %lld ns after that", c->penalty,
			 (long long)c->left);
	prop_say(t, "; it forks a nice %d child (task_fork_fair)", c->child_nice);
}

static const struct prop_lab lab = {
	.lab = "start_nice", .size = sizeof(struct sn_case), .cases = 600, .seed = 6,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
	.task_names = scene_names,
};

void test_property_start_nice(void **state)
{
	prop_check(&lab);
}
