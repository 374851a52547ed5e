/*
 * tests/labs/prop_check_preempt_tick.c - lab check_preempt_tick's property
 * test: the tick's decision by the student's check_preempt_tick() and the
 * reference's on random queues: every nice level of curr and of the queue,
 * a run exactly at the slice, the granularity and the [M2/2] shield and
 * 1 ns either side, a lead exactly at its limit and 1 ns either side,
 * negative leads (curr behind the leftmost) and leads past 2^32 ns,
 * WAKEUP_PREEMPT, DYN_GRAN, CPT_FIX and DEADLINE on and off, buddies set.
 */
#include "scene.h"
#include "reference.h"

enum { RAN_ABS, RAN_SLICE, RAN_GRAN, RAN_SHIELD };
static const char *const ran_names[] = {
	"", "its slice (sched_slice)", "the granularity", "its [M2/2] shield" };
enum { LEAD_ABS, LEAD_LIMIT };

struct cpt_case {
	struct cfs_scene s;	/* curr runs */
	int ran_mode;		/* RAN_*: curr ran RAN ns, or that edge + ran_d */
	s64 ran, ran_d;
	int lead_mode;		/* LEAD_*: curr leads the leftmost by LEAD, or the limit + lead_d */
	s64 lead, lead_d;
	u64 sum;		/* curr's sum_exec_runtime */
	u32 shield;		/* curr's sleeper_wakeup_slice */
	int last_curr;		/* cfs_rq->last = curr */
	int next;		/* cfs_rq->next: scene index, -1 none */
	int dl;			/* DEADLINE: queued index with a deadline, 0 none */
	s64 dl_d;		/* that deadline - now */
};

static void generate(struct prop_rng *r, void *p)
{
	static const s64 rans[] = { 0, 1, MS, 3 * MS, (1LL << 32) + MS, 10000 * MS };
	static const s64 leads[] = { 0, 1, -1, MS, -MS, 3000 * MS, -3000 * MS, (1LL << 32) + MS,
				     1LL << 31 };
	static const s64 ds[] = { -1, 0, 1 };
	static const s64 sums[] = { 5 * MS, (1LL << 32) + 100, 10000 * MS };
	struct cpt_case *c = p;

	scene_generate(r, &c->s, 0xff, SF(WAKEUP_PREEMPT) | SF(DYN_GRAN) | SF(CPT_FIX) |
		       SF(DEADLINE), 0, SCENE_MAX, 1);
	if (!c->s.nq && !(c->s.off & SF(WAKEUP_PREEMPT)))
		c->s.nq = 1;
	c->ran_mode = (int)prop_below(r, 4);
	c->ran = prop_edge(r, rans, 6, 0, 10 * MS);
	c->ran_d = prop_edge(r, ds, 3, -MS, MS);
	c->lead_mode = prop_chance(r, 50) ? LEAD_LIMIT : LEAD_ABS;
	c->lead = prop_edge(r, leads, 9, -10 * MS, 10 * MS);
	c->lead_d = prop_edge(r, ds, 3, -MS, MS);
	c->sum = (u64)prop_edge(r, sums, 3, 0, 1LL << 36);
	c->shield = prop_chance(r, 60) ? 0 : (u32)prop_range(r, 1, 4 * MS);
	c->last_curr = prop_chance(r, 30);
	c->next = prop_chance(r, 50) ? -1 : (int)prop_range(r, 0, c->s.nq);
	c->dl = prop_chance(r, 60) ? 0 : (int)prop_range(r, 1, c->s.nq);
	c->dl_d = prop_edge(r, ds, 3, -MS, MS);
}

/* the edges, as this queue puts them (the given helpers, the same code
 * in every tree) */
static s64 ran_of(const struct cpt_case *c, struct sched_entity *curr)
{
	switch (c->ran_mode) {
	case RAN_SLICE:
		return (s64)sched_slice(CFS, curr) + c->ran_d;
	case RAN_GRAN:
		return (s64)(sched_feat(DYN_GRAN) ? __sched_gran(CFS->nr_running)
						  : sysctl_sched_min_granularity) + c->ran_d;
	case RAN_SHIELD:
		return (s64)c->shield + c->ran_d;
	}
	return c->ran;
}

static s64 lead_of(const struct cpt_case *c, struct sched_entity *curr)
{
	u32 limit = (u32)sched_slice(CFS, curr);

	if (c->lead_mode == LEAD_ABS)
		return c->lead;
	if (sched_feat(CPT_FIX))
		limit = calc_delta_fair(limit, curr);
	return (s64)limit + c->lead_d;
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct cpt_case *c = p;
	struct task *t[SCENE_MAX + 1];
	struct sched_entity *curr, *left;

	scene_build(&c->s, t);
	if (!c->s.nq && sched_feat(WAKEUP_PREEMPT))
		return;		/* entity_tick does not call it then */
	curr = &t[0]->se;
	left = __pick_next_entity(CFS);
	curr->sum_exec_runtime = c->sum;
	curr->sleeper_wakeup_slice = c->shield;
	curr->prev_sum_exec_runtime = c->sum - (u64)ran_of(c, curr);
	if (left)
		curr->vruntime = left->vruntime + (u64)lead_of(c, curr);
	CFS->last = c->last_curr ? curr : NULL;
	CFS->next = c->next >= 0 && c->next <= c->s.nq ? &t[c->next]->se : NULL;
	if (c->dl && c->dl <= c->s.nq) {
		t[c->dl]->se.deadline = RQ->clock + (u64)c->dl_d;
		deadline_enqueue(RQ, &t[c->dl]->se);
	}
	if (reference)
		ref_check_preempt_tick(CFS, curr);
	else
		check_preempt_tick(CFS, curr);
	obs_yesno(o, t[0]->need_resched, "does the tick preempt curr (need_resched)");
	obs_yesno(o, CFS->last == curr, "is curr still the last buddy");
	obs_task(o, scene_index(t, c->s.nq + 1, CFS->next), "the next buddy afterwards");
	obs_num(o, curr->sleeper_wakeup_slice, "curr's [M2/2] sleeper_wakeup_slice afterwards");
}

static int shrink(const void *p, int k, void *q)
{
	const struct cpt_case *in = p;
	struct cpt_case *out = q;

	*out = *in;
	SHRINK_TRY(in->dl, out->dl = 0);
	SHRINK_TRY(in->next >= 0, out->next = -1);
	SHRINK_TRY(in->last_curr, out->last_curr = 0);
	SHRINK_TRY(in->shield && in->ran_mode != RAN_SHIELD, out->shield = 0);
	SHRINK_TRY(in->sum != 5 * MS, out->sum = 5 * MS);
	SHRINK_TRY(in->ran_d, out->ran_d = 0);
	SHRINK_TRY(in->ran_mode != RAN_ABS, { out->ran_mode = RAN_ABS; out->ran = 0; });
	SHRINK_TRY(in->ran_mode == RAN_ABS && in->ran, out->ran = 0);
	SHRINK_TRY(in->ran_mode == RAN_ABS && in->ran / 2, out->ran /= 2);
	SHRINK_TRY(in->lead_d, out->lead_d = 0);
	SHRINK_TRY(in->lead_mode != LEAD_ABS, { out->lead_mode = LEAD_ABS; out->lead = 0; });
	SHRINK_TRY(in->lead_mode == LEAD_ABS && in->lead, out->lead = 0);
	SHRINK_TRY(in->lead_mode == LEAD_ABS && in->lead / 2, out->lead /= 2);
	return scene_shrink(&in->s, k, &out->s, 1, 0);
}

static void describe(const void *p, struct prop_text *t)
{
	const struct cpt_case *c = p;
	char off[48];

	scene_describe(&c->s, t);
	prop_say(t, "; curr has run ");
	if (c->ran_mode == RAN_ABS)
		prop_say(t, "%lld ns", (long long)c->ran);
	else
		prop_say(t, "%s %s", ran_names[c->ran_mode], prop_offset(off, sizeof(off), c->ran_d));
	prop_say(t, " since it was picked (sum_exec_runtime %llu ns)", (unsigned long long)c->sum);
	if (c->lead_mode == LEAD_ABS)
		prop_say(t, " and leads the leftmost by %lld ns", (long long)c->lead);
	else
		prop_say(t, " and leads the leftmost by the limit (its slice, or under CPT_FIX its"
			 " vslice) %s", prop_offset(off, sizeof(off), c->lead_d));
	if (c->shield)
		prop_say(t, "; curr's sleeper_wakeup_slice is %u ns", c->shield);
	if (c->last_curr)
		prop_say(t, "; curr is the last buddy");
	if (c->next >= 0)
		prop_say(t, "; %s is the next buddy", scene_names[c->next]);
	if (c->dl)
		prop_say(t, "; %s has a DEADLINE %lld ns from now", scene_names[c->dl],
			 (long long)c->dl_d);
	prop_say(t, "; the tick calls check_preempt_tick()");
}

static const struct prop_lab lab = {
	.lab = "check_preempt_tick", .size = sizeof(struct cpt_case), .cases = 800, .seed = 3,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
	.task_names = scene_names,
};

void test_property_check_preempt_tick(void **state)
{
	prop_check(&lab);
}
