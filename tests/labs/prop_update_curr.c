/*
 * tests/labs/prop_update_curr.c - lab update_curr's property test: after
 * the clock moves, update_curr() (the student's __update_curr) and the
 * reference's charge curr the same on random queues: every nice level,
 * deltas past the 4.19 ms where delta * 1024 leaves 32 bits and past 2^32
 * ns, a curr ahead of and behind the leftmost and min_vruntime (so that
 * min_vruntime would move backwards if it could), min_vruntime at the
 * 2^64 wrap, schedstats off, a START_NICE penalty on curr.
 */
#include <string.h>
#include "scene.h"
#include "reference.h"

struct uc_case {
	struct cfs_scene s;	/* curr runs */
	u64 delta;		/* the clock moves by, ns */
	u64 sum;		/* curr's sum_exec_runtime before */
	u64 exec_max;		/* curr's schedstat exec_max before */
	int penalty;		/* START_NICE shift on curr (0: none) */
	s64 penalty_left;	/* its timeout - sum, ns */
};

static void generate(struct prop_rng *r, void *p)
{
	static const s64 deltas[] = {
		1, MS, 4194303, 4194304, 4194305, 10 * MS, 1LL << 31, (1LL << 32) - 1,
		4000 * MS, (1LL << 32) + 5,
	};
	static const s64 lefts[] = { -1, 0, 1, MS, 100 * MS };
	struct uc_case *c = p;

	scene_generate(r, &c->s, 1, 0, 0, SCENE_MAX, 1);
	c->delta = (u64)prop_edge(r, deltas, 10, 1, 1LL << 33);
	c->sum = prop_chance(r, 50) ? 0 : (u64)prop_range(r, 0, 1LL << 40);
	c->exec_max = prop_chance(r, 50) ? 0 : (u64)prop_range(r, 0, (s64)c->delta + 1);
	if (prop_chance(r, 25)) {
		c->penalty = (int)prop_range(r, 1, 8);
		c->penalty_left = prop_edge(r, lefts, 5, -MS, 10 * MS);
	}
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct uc_case *c = p;
	struct task *t[SCENE_MAX + 1];
	struct sched_entity *se;
	u64 v0, clock0;

	scene_build(&c->s, t);
	se = &t[0]->se;
	se->sum_exec_runtime = se->prev_sum_exec_runtime = c->sum;
	se->statistics.exec_max = c->exec_max;
	se->fork_nice_penality = (unsigned int)c->penalty;
	se->fork_nice_timeout = c->penalty ? c->sum + (u64)c->penalty_left : 0;
	v0 = CFS->min_vruntime;
	clock0 = CFS->exec_clock;
	fake_clock_advance(c->delta);
	update_rq_clock(RQ);
	if (reference)
		ref_update_curr(CFS);
	else
		update_curr(CFS);
	obs_num(o, (s64)(se->vruntime - v0), "curr's vruntime - the old min_vruntime");
	obs_num(o, (s64)(se->sum_exec_runtime - c->sum), "curr's sum_exec_runtime grew by");
	obs_num(o, (s64)(CFS->exec_clock - clock0), "the queue's exec_clock grew by");
	obs_num(o, (s64)se->statistics.exec_max, "curr's exec_max (schedstats)");
	obs_num(o, (s64)(CFS->min_vruntime - v0), "min_vruntime - the old min_vruntime");
	obs_num(o, se->fork_nice_penality, "curr's START_NICE penalty");
	obs_num(o, (s64)(se->exec_start - RQ->clock), "curr's exec_start - the rq clock");
}

static int shrink(const void *p, int k, void *q)
{
	const struct uc_case *in = p;
	struct uc_case *out = q;

	*out = *in;
	SHRINK_TRY(in->penalty, { out->penalty = 0; out->penalty_left = 0; });
	SHRINK_TRY(in->exec_max, out->exec_max = 0);
	SHRINK_TRY(in->sum, out->sum = 0);
	SHRINK_TRY(in->delta != MS && in->delta > 1, out->delta = MS);
	SHRINK_TRY(in->delta / 2 > MS, out->delta /= 2);
	if (scene_shrink(&in->s, k, &out->s, 0, 0))
		return 1;
	return 0;
}

static void describe(const void *p, struct prop_text *t)
{
	const struct uc_case *c = p;

	scene_describe(&c->s, t);
	if (c->sum || c->exec_max)
		prop_say(t, "; curr has run %llu ns in all, at most %llu ns at a time (exec_max)",
			 (unsigned long long)c->sum, (unsigned long long)c->exec_max);
	if (c->penalty)
		prop_say(t, ", with a START_NICE penalty %d ending %lld ns later", c->penalty,
			 (long long)c->penalty_left);
	prop_say(t, "; the clock moves %llu ns and update_curr() charges curr",
		 (unsigned long long)c->delta);
}

static const struct prop_lab lab = {
	.lab = "update_curr", .size = sizeof(struct uc_case), .cases = 600, .seed = 1,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
	.task_names = scene_names,
};

void test_property_update_curr(void **state)
{
	prop_check(&lab);
}
