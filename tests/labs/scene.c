/*
 * tests/labs/scene.c - CFS runqueues built to order for the property
 * tests (scene.h).
 */
#include <string.h>
#include "scene.h"

const char *const scene_presets[] = {
	"linux-2.6.35", "commit-0bf377bbb0be", "dyn-gran-sleeper", "start-nice",
	"start-nice-debit", "deadline", "cpt-fix", "dyn-gran",
};
#define NPRESETS	(int)(sizeof(scene_presets) / sizeof(scene_presets[0]))

const char *const scene_names[] = { "curr", "q1", "q2", "q3", "q4", "q5", "q6" };

#define FEATURE_NAME(f)	#f,
static const char *const feature_names[SF_NR] = { SCENE_FEATURES(FEATURE_NAME) };

/* min_vruntime 1 ms before the 2^64 wrap, as init_cfs_rq() starts it */
#define MIN_VRUNTIME_START	((u64)(-(1LL << 20)))

int scene_setup(void **state)
{
	sched_test_reset();
	lab_scenario_clear();
	return 0;
}

int scene_teardown(void **state)
{
	sched_test_reset();
	return 0;
}

static void knob_u32(const char *name, u32 v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	knob_set_ok(name, buf);
}

struct task *scene_alloc(const char *name, int nice)
{
	struct task *p = task_alloc(name);

	p->policy = SCHED_NORMAL;
	p->state = TASK_RUNNING;
	p->static_prio = p->normal_prio = p->prio = NICE_TO_PRIO(nice);
	set_load_weight(p);
	p->sched_class = &fair_sched_class;
	return p;
}

static struct task *scene_task(const char *name, const struct scene_task *st)
{
	struct task *p = scene_alloc(name, st->nice);

	p->se.vruntime = (u64)st->key;	/* relative: enqueue_entity adds min_vruntime */
	enqueue_entity(CFS, &p->se, 0);
	p->on_rq = 1;
	return p;
}

void scene_build(const struct cfs_scene *s, struct task **t)
{
	char buf[32];

	sched_test_reset();
	knob_set_ok("sched_preset", scene_presets[s->preset]);
	for (int f = 0; f < SF_NR; f++) {
		snprintf(buf, sizeof(buf), "%s%s", (s->off >> f) & 1 ? "NO_" : "",
			 feature_names[f]);
		if (((s->on | s->off) >> f) & 1)
			knob_set_ok("sched_features", buf);
	}
	if (s->latency)
		knob_u32("sched_latency_ns", s->latency);
	if (s->min_gran)
		knob_u32("sched_min_granularity_ns", s->min_gran);
	if (s->wakeup_gran)
		knob_u32("sched_wakeup_granularity_ns", s->wakeup_gran);
	if (s->sleeper_slice)
		knob_u32("sched_sleeper_wakeup_slice_ns", s->sleeper_slice);
	if (s->no_schedstats)
		knob_set_ok("sched_schedstats", "0");
	update_rq_clock(RQ);
	CFS->min_vruntime = s->min_vruntime;
	for (int i = 0; i < s->nq; i++)
		t[1 + i] = scene_task(scene_names[1 + i], &s->q[i]);
	t[0] = NULL;
	if (s->curr) {
		t[0] = scene_task(scene_names[0], &s->c);
		set_next_entity(CFS, &t[0]->se);
		this_cpu_write(current_task, t[0]);
		RQ->curr = t[0];
	}
}

int scene_index(struct task **t, int n, struct sched_entity *se)
{
	for (int i = 0; i < n; i++) {
		if (t[i] && &t[i]->se == se)
			return i;
	}
	return -1;
}

s64 scene_key(struct prop_rng *r)
{
	static const s64 edges[] = {
		0, 1, -1, MS, -MS, 3 * MS, -3 * MS, -6 * MS, 1000 * MS, -1000 * MS,
		3000 * MS, -3000 * MS, 1LL << 32, -(1LL << 32),
	};

	return prop_edge(r, edges, sizeof(edges) / sizeof(edges[0]), -10 * MS, 10 * MS);
}

static u32 pick_time(struct prop_rng *r, int percent_default, u32 lo)
{
	static const s64 edges[] = { MS, 2 * MS, 3 * MS, 6 * MS, 10 * MS, 24 * MS };

	if (prop_chance(r, percent_default))
		return 0;
	return (u32)prop_edge(r, edges, sizeof(edges) / sizeof(edges[0]), lo, 40 * MS);
}

void scene_generate(struct prop_rng *r, struct cfs_scene *s, u32 presets, u32 feats,
		    int nq_min, int nq_max, int with_curr)
{
	static const s64 mins[] = {
		(s64)MIN_VRUNTIME_START, -1, 0, (s64)(~0ULL >> 1), (s64)(1ULL << 63),
		(s64)MIN_VRUNTIME_START, -(2 * MS),
	};

	do
		s->preset = (int)prop_below(r, NPRESETS);
	while (!((presets >> s->preset) & 1));
	for (int f = 0; f < SF_NR; f++) {
		int roll = (int)prop_below(r, 3);

		if ((feats >> f) & 1 && roll)
			*(roll == 1 ? &s->on : &s->off) |= 1U << f;
	}
	s->latency = pick_time(r, 50, 100000);
	s->min_gran = pick_time(r, 50, 100000);
	s->wakeup_gran = pick_time(r, 50, 1);
	s->sleeper_slice = pick_time(r, 70, 1);
	s->no_schedstats = prop_chance(r, 25);
	s->min_vruntime = (u64)prop_edge(r, mins, sizeof(mins) / sizeof(mins[0]), 0, 1LL << 40);
	s->curr = with_curr;
	s->c.nice = prop_nice(r);
	s->c.key = scene_key(r);
	s->nq = (int)prop_range(r, nq_min, nq_max);
	for (int i = 0; i < s->nq; i++) {
		s->q[i].nice = prop_nice(r);
		s->q[i].key = i && prop_chance(r, 25) ? s->q[prop_below(r, (u64)i)].key
						      : scene_key(r);	/* equal keys */
	}
}

/* The K-th simplification: a queued task fewer, a feature or knob back to
 * the preset's, min_vruntime back to its start, nice 0, a key nearer 0. */
int scene_shrink(const struct cfs_scene *in, int k, struct cfs_scene *out, int nq_min,
		 int curr_optional)
{
	*out = *in;
	SHRINK_TRY(in->curr && curr_optional, out->curr = 0);
	for (int i = in->nq - 1; i >= 0; i--) {
		SHRINK_TRY(in->nq > nq_min, {
			memmove(&out->q[i], &out->q[i + 1], (size_t)(in->nq - 1 - i) * sizeof(out->q[0]));
			out->nq--;
		});
	}
	SHRINK_TRY(in->preset, out->preset = 0);
	for (int f = 0; f < SF_NR; f++)
		SHRINK_TRY(((in->on | in->off) >> f) & 1, { out->on &= ~(1U << f); out->off &= ~(1U << f); });
	SHRINK_TRY(in->latency, out->latency = 0);
	SHRINK_TRY(in->min_gran, out->min_gran = 0);
	SHRINK_TRY(in->wakeup_gran, out->wakeup_gran = 0);
	SHRINK_TRY(in->sleeper_slice, out->sleeper_slice = 0);
	SHRINK_TRY(in->no_schedstats, out->no_schedstats = 0);
	SHRINK_TRY(in->min_vruntime != MIN_VRUNTIME_START, out->min_vruntime = MIN_VRUNTIME_START);
	SHRINK_TRY(in->curr && in->c.nice, out->c.nice = 0);
	SHRINK_TRY(in->curr && in->c.key, out->c.key = 0);
	SHRINK_TRY(in->curr && in->c.key / 2, out->c.key /= 2);
	for (int i = 0; i < in->nq; i++) {
		SHRINK_TRY(in->q[i].nice, out->q[i].nice = 0);
		SHRINK_TRY(in->q[i].key, out->q[i].key = 0);
		SHRINK_TRY(in->q[i].key / 2, out->q[i].key /= 2);
	}
	return 0;
}

static void say_task(struct prop_text *t, const char *name, const struct scene_task *st)
{
	char off[48];

	prop_say(t, "%s, nice %d, at min_vruntime %s", name, st->nice,
		 prop_offset(off, sizeof(off), st->key));
}

void scene_describe(const struct cfs_scene *s, struct prop_text *t)
{
	prop_say(t, "preset %s", scene_presets[s->preset]);
	for (int f = 0; f < SF_NR; f++) {
		if (((s->on | s->off) >> f) & 1)
			prop_say(t, " %s%s", (s->off >> f) & 1 ? "NO_" : "", feature_names[f]);
	}
	if (s->latency)
		prop_say(t, ", sched_latency_ns=%u", s->latency);
	if (s->min_gran)
		prop_say(t, ", sched_min_granularity_ns=%u", s->min_gran);
	if (s->wakeup_gran)
		prop_say(t, ", sched_wakeup_granularity_ns=%u", s->wakeup_gran);
	if (s->sleeper_slice)
		prop_say(t, ", sched_sleeper_wakeup_slice_ns=%u", s->sleeper_slice);
	if (s->no_schedstats)
		prop_say(t, ", schedstats off");
	if (s->min_vruntime == MIN_VRUNTIME_START)
		;	/* where init_cfs_rq() starts it, as in every check */
	else if (s->min_vruntime >= 1ULL << 63)
		prop_say(t, "; min_vruntime = 2^64 - %llu", (unsigned long long)-s->min_vruntime);
	else
		prop_say(t, "; min_vruntime = %llu", (unsigned long long)s->min_vruntime);
	if (s->curr) {
		prop_say(t, "; running: ");
		say_task(t, "curr", &s->c);
	}
	prop_say(t, "; queued:%s", s->nq ? "" : " none");
	for (int i = 0; i < s->nq; i++) {
		prop_say(t, i ? ", " : " ");
		say_task(t, scene_names[1 + i], &s->q[i]);
	}
}
