/*
 * tests/labs/prop_pick_next_entity.c - lab pick_next_entity's property
 * test: the student's pick and the reference's on random queues with
 * random buddies: buddies exactly one wakeup granularity right of the
 * leftmost (converted with the leftmost's weight, any nice level) and
 * 1 ns either side, at the leftmost's own vruntime or the leftmost
 * itself, far right; equal keys; min_vruntime at the 2^64 wrap; DEADLINE
 * forks expired, due now and not yet due.
 */
#include "scene.h"
#include "reference.h"

struct pn_case {
	struct cfs_scene s;		/* no curr: schedule() put it back */
	int at_gran[SCENE_MAX];		/* 1: q_i sits at the leftmost + its gran + d_i */
	s64 d[SCENE_MAX];
	int next, last;			/* buddies: scene index, 0 none */
	int dl[2];			/* DEADLINE: two queued indices (0 none) ... */
	s64 dl_d[2];			/* ... and their deadline - now */
};

static void generate(struct prop_rng *r, void *p)
{
	static const s64 ds[] = { -1, 0, 1 };
	struct pn_case *c = p;

	scene_generate(r, &c->s, 0xff, SF(DEADLINE), 1, SCENE_MAX, 0);
	for (int i = 0; i < c->s.nq; i++) {
		c->at_gran[i] = prop_chance(r, 30);
		c->d[i] = prop_edge(r, ds, 3, -MS, MS);
	}
	c->next = prop_chance(r, 30) ? 0 : (int)prop_range(r, 1, c->s.nq);
	c->last = prop_chance(r, 30) ? 0 : (int)prop_range(r, 1, c->s.nq);
	for (int j = 0; j < 2; j++) {
		c->dl[j] = prop_chance(r, 70) ? 0 : (int)prop_range(r, 1, c->s.nq);
		c->dl_d[j] = prop_edge(r, ds, 3, -MS, MS);
	}
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct pn_case *c = p;
	struct task *t[SCENE_MAX + 1];
	struct sched_entity *left, *se;
	int n = c->s.nq + 1;

	scene_build(&c->s, t);
	left = __pick_next_entity(CFS);
	for (int i = 1; i < n; i++) {
		se = &t[i]->se;
		if (!c->at_gran[i - 1] || se == left)
			continue;
		__dequeue_entity(CFS, se);	/* the given tree code */
		se->vruntime = left->vruntime + wakeup_gran(NULL, left) + (u64)c->d[i - 1];
		__enqueue_entity(CFS, se);
	}
	CFS->next = c->next && c->next < n ? &t[c->next]->se : NULL;
	CFS->last = c->last && c->last < n ? &t[c->last]->se : NULL;
	for (int j = 0; j < 2; j++) {
		se = c->dl[j] && c->dl[j] < n ? &t[c->dl[j]]->se : NULL;
		if (se && !se->deadline) {
			se->deadline = RQ->clock + (u64)c->dl_d[j];
			deadline_enqueue(RQ, se);
		}
	}
	se = reference ? ref_pick_next_entity(CFS) : pick_next_entity(CFS);
	obs_task(o, scene_index(t, n, se), "the entity picked");
	obs_task(o, scene_index(t, n, CFS->next), "the next buddy afterwards");
	obs_task(o, scene_index(t, n, CFS->last), "the last buddy afterwards");
}

static int shrink(const void *p, int k, void *q)
{
	const struct pn_case *in = p;
	struct pn_case *out = q;

	*out = *in;
	for (int j = 0; j < 2; j++)
		SHRINK_TRY(in->dl[j], out->dl[j] = 0);
	SHRINK_TRY(in->next, out->next = 0);
	SHRINK_TRY(in->last, out->last = 0);
	for (int i = 0; i < in->s.nq; i++) {
		SHRINK_TRY(in->d[i], out->d[i] = 0);
		SHRINK_TRY(in->at_gran[i], out->at_gran[i] = 0);
	}
	/* a task fewer: the indices above it move down */
	for (int i = in->s.nq - 1; i >= 1; i--) {
		SHRINK_TRY(in->next != i + 1 && in->last != i + 1 && in->dl[0] != i + 1 &&
			   in->dl[1] != i + 1, {
			out->s.nq--;
			for (int j = i; j < out->s.nq; j++) {
				out->s.q[j] = in->s.q[j + 1];
				out->at_gran[j] = in->at_gran[j + 1];
				out->d[j] = in->d[j + 1];
			}
			out->next -= out->next > i + 1;
			out->last -= out->last > i + 1;
			out->dl[0] -= out->dl[0] > i + 1;
			out->dl[1] -= out->dl[1] > i + 1;
		});
	}
	return scene_shrink(&in->s, k, &out->s, in->s.nq, 0);
}

static void describe(const void *p, struct prop_text *t)
{
	const struct pn_case *c = p;
	char off[48];

	scene_describe(&c->s, t);
	for (int i = 0; i < c->s.nq; i++) {
		if (c->at_gran[i])
			prop_say(t, "; %s moved to one wakeup gran right of the leftmost %s (unless"
				 " it is the leftmost)", scene_names[i + 1],
				 prop_offset(off, sizeof(off), c->d[i]));
	}
	prop_say(t, "; next buddy %s, last buddy %s", c->next ? scene_names[c->next] : "none",
		 c->last ? scene_names[c->last] : "none");
	for (int j = 0; j < 2; j++) {
		if (c->dl[j] && (!j || c->dl[1] != c->dl[0]))
			prop_say(t, "; %s has a DEADLINE %lld ns from now", scene_names[c->dl[j]],
				 (long long)c->dl_d[j]);
	}
	prop_say(t, "; pick_next_entity() chooses");
}

static const struct prop_lab lab = {
	.lab = "pick_next_entity", .size = sizeof(struct pn_case), .cases = 800, .seed = 4,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
	.task_names = scene_names,
};

void test_property_pick_next_entity(void **state)
{
	prop_check(&lab);
}
