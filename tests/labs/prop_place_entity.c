/*
 * tests/labs/prop_place_entity.c - lab place_entity's property test: a
 * fork or a wakeup placed by the student's place_entity() and by the
 * reference's on random queues: every nice level of the placed entity and
 * of the queue (the debit is the entity's virtual slice, the credit is
 * raw), vruntimes exactly on the credit's and the debit's edge and 1 ns
 * either side, far behind and far ahead, min_vruntime at the 2^64 wrap,
 * START_DEBIT and GENTLE_FAIR_SLEEPERS on and off, the [M2/2] shield's
 * sysctl, a START_NICE penalty on the entity.
 */
#include "scene.h"
#include "reference.h"

enum { KEY_ABS, KEY_CREDIT, KEY_DEBIT };	/* where the entity starts */
static const char *const key_names[] = {
	"", " (the sleeper credit's edge", " (the START_DEBIT edge" };

struct pe_case {
	struct cfs_scene s;
	int nice;		/* the placed entity's */
	int key_mode;		/* KEY_*: the key is ABS, or that edge + d */
	s64 key, d;
	int initial;		/* 1: a fork, 0: a wakeup */
	u32 shield;		/* its sleeper_wakeup_slice before */
	int penalty;		/* its START_NICE shift */
	s64 penalty_left;
};

static void generate(struct prop_rng *r, void *p)
{
	static const s64 ds[] = { -1, 0, 1 };
	struct pe_case *c = p;

	scene_generate(r, &c->s, 0xff, SF(START_DEBIT) | SF(GENTLE_FAIR_SLEEPERS) | SF(DYN_GRAN),
		       0, SCENE_MAX, prop_chance(r, 50));
	c->nice = prop_nice(r);
	c->initial = prop_chance(r, 50);
	c->key_mode = (int)prop_below(r, 3);
	c->key = scene_key(r);
	c->d = prop_edge(r, ds, 3, -10, 10);
	c->shield = prop_chance(r, 50) ? 0 : 12345;
	if (prop_chance(r, 20)) {
		c->penalty = (int)prop_range(r, 1, 8);
		c->penalty_left = prop_range(r, -1, 1);
	}
}

/* the entity's key, from its mode: an edge resolved on this queue */
static s64 key_of(const struct pe_case *c, struct sched_entity *se)
{
	struct sched_entity tmp = *se;	/* sched_vslice may drop a penalty */

	if (c->key_mode == KEY_CREDIT)
		return -(s64)(sched_feat(GENTLE_FAIR_SLEEPERS) ? sysctl_sched_latency / 2
							       : sysctl_sched_latency) + c->d;
	if (c->key_mode == KEY_DEBIT)
		return (s64)sched_vslice(CFS, &tmp) + c->d;
	return c->key;
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct pe_case *c = p;
	struct task *t[SCENE_MAX + 1], *e;
	struct sched_entity *se;
	u64 v0;

	scene_build(&c->s, t);
	e = scene_alloc("se", c->nice);
	se = &e->se;
	se->sum_exec_runtime = 5 * MS;
	se->fork_nice_penality = (unsigned int)c->penalty;
	se->fork_nice_timeout = c->penalty ? se->sum_exec_runtime + (u64)c->penalty_left : 0;
	v0 = CFS->min_vruntime;
	se->vruntime = v0 + (u64)key_of(c, se);
	se->sleeper_wakeup_slice = c->shield;
	if (reference)
		ref_place_entity(CFS, se, c->initial);
	else
		place_entity(CFS, se, c->initial);
	obs_num(o, (s64)(se->vruntime - v0), "the entity's vruntime - min_vruntime");
	obs_num(o, se->sleeper_wakeup_slice, "its [M2/2] sleeper_wakeup_slice");
	obs_num(o, se->fork_nice_penality, "its START_NICE penalty");
	obs_num(o, (s64)(CFS->min_vruntime - v0), "min_vruntime moved by");
}

static int shrink(const void *p, int k, void *q)
{
	const struct pe_case *in = p;
	struct pe_case *out = q;

	*out = *in;
	SHRINK_TRY(in->penalty, { out->penalty = 0; out->penalty_left = 0; });
	SHRINK_TRY(in->shield, out->shield = 0);
	SHRINK_TRY(in->nice, out->nice = 0);
	SHRINK_TRY(in->d, out->d = 0);
	SHRINK_TRY(in->key_mode != KEY_ABS, { out->key_mode = KEY_ABS; out->key = 0; });
	SHRINK_TRY(in->key_mode == KEY_ABS && in->key, out->key = 0);
	SHRINK_TRY(in->key_mode == KEY_ABS && in->key / 2, out->key /= 2);
	return scene_shrink(&in->s, k, &out->s, 0, 1);
}

static void describe(const void *p, struct prop_text *t)
{
	const struct pe_case *c = p;
	char off[48];

	scene_describe(&c->s, t);
	prop_say(t, "; a nice %d entity%s at min_vruntime %s%s%s", c->nice,
		 c->initial ? ", just forked," : " waking up",
		 c->key_mode == KEY_ABS ? prop_offset(off, sizeof(off), c->key) : "",
		 key_names[c->key_mode], c->key_mode == KEY_ABS ? "" : "");
	if (c->key_mode != KEY_ABS)
		prop_say(t, " %s)", prop_offset(off, sizeof(off), c->d));
	if (c->shield)
		prop_say(t, ", its sleeper_wakeup_slice %u", c->shield);
	if (c->penalty)
		prop_say(t, ", a START_NICE penalty %d ending %lld ns after now", c->penalty,
			 (long long)c->penalty_left);
	prop_say(t, ", is placed by place_entity(initial=%d)", c->initial);
}

static const struct prop_lab lab = {
	.lab = "place_entity", .size = sizeof(struct pe_case), .cases = 600, .seed = 2,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
	.task_names = scene_names,
};

void test_property_place_entity(void **state)
{
	prop_check(&lab);
}
