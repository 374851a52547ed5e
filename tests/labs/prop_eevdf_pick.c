/*
 * tests/labs/prop_eevdf_pick.c - lab eevdf_pick's property test: the
 * student's avg_vruntime(), vruntime_eligible() and pick_eevdf() against
 * the reference's on random EEVDF trees (built by hand, as the lab's
 * checks do: vruntime and deadline keys from v0 = zero_vruntime): every
 * nice level, keys of seconds, empty and one-entity trees, equal
 * deadlines, a leftmost that is not eligible (the walk through the
 * subtree minima), a running curr (eligible or not, protected by
 * RUN_TO_PARITY or not, its deadline equal to the tree's), a curr that
 * left the queue, sums that are negative and not whole (floor, not
 * truncation).  In order: the pick, eligibility at V - 1, V, V + 1 and at
 * each entity, V itself (and the new v0 and sums), the pick again.
 */
#include "property.h"
#include "reference.h"
#include "../host/sched/eevdf_test.h"

#define EV_MAX		10
#define CURR_NONE	0
#define CURR_RUNS	1
#define CURR_LEFT	2	/* curr, but it left the queue (on_rq 0) */

struct ev_ent {
	int nice;
	s64 v, d;		/* vruntime and deadline - v0 */
};

struct ev_case {
	int n;
	struct ev_ent e[EV_MAX];
	int curr_mode;
	struct ev_ent c;
	int protect;		/* RUN_TO_PARITY protects curr's slice */
	int no_parity;		/* NO_RUN_TO_PARITY */
};

static const char *const names[] = {
	"curr", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10",
};

static s64 vkey(struct prop_rng *r)
{
	static const s64 edges[] = {
		0, 1, -1, 700000, -700000, 1000 * MS, -1000 * MS, 3000 * MS, -3000 * MS,
	};

	return prop_edge(r, edges, 9, -3 * MS, 3 * MS);
}

static void entity(struct prop_rng *r, struct ev_case *c, struct ev_ent *e, int i)
{
	e->nice = prop_nice(r);
	e->v = vkey(r);
	if (i && prop_chance(r, 20))
		e->d = c->e[prop_below(r, (u64)i)].d;		/* an equal deadline */
	else if (prop_chance(r, 30))
		e->d = prop_range(r, -3 * MS, 3 * MS);		/* early, perhaps ineligible */
	else
		e->d = e->v + prop_range(r, 1, 3 * MS);
}

static void generate(struct prop_rng *r, void *p)
{
	struct ev_case *c = p;

	c->n = (int)prop_range(r, 0, EV_MAX);
	for (int i = 0; i < c->n; i++)
		entity(r, c, &c->e[i], i);
	c->curr_mode = prop_chance(r, 40) ? CURR_NONE : prop_chance(r, 75) ? CURR_RUNS : CURR_LEFT;
	entity(r, c, &c->c, c->n);
	c->protect = prop_chance(r, 30);
	c->no_parity = prop_chance(r, 25);
	if (!c->n && c->curr_mode == CURR_NONE)
		c->curr_mode = CURR_RUNS;
}

static int index_of(struct task **t, int n, struct sched_entity *se)
{
	for (int i = 0; i <= n; i++) {
		if (t[i] && &t[i]->se == se)
			return i;
	}
	return -1;
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct ev_case *c = p;
	struct task *t[EV_MAX + 1] = { NULL };
	u64 z0;
	s64 V;

	eevdf_reset();
	if (c->no_parity)
		knob_set_ok("sched_features", "NO_RUN_TO_PARITY");
	for (int i = 0; i < c->n; i++) {
		t[i + 1] = mk(names[i + 1], c->e[i].nice, c->e[i].v, c->e[i].d);
		put(t[i + 1]);
	}
	if (c->curr_mode != CURR_NONE) {
		t[0] = mk(names[0], c->c.nice, c->c.v, c->c.d);
		t[0]->se.on_rq = c->curr_mode == CURR_RUNS;
		cfs->curr = &t[0]->se;
		cfs->nr_running += c->curr_mode == CURR_RUNS;
		if (c->protect)
			set_protect_slice(&t[0]->se);
	}
	z0 = eevdf_rq(cfs)->zero_vruntime;
	obs_task(o, index_of(t, c->n, reference ? ref_pick_eevdf(cfs) : pick_eevdf(cfs)),
		 "pick_eevdf() picks");
	V = V_key();	/* floor(sum / load), the probes' centre */
	for (int d = -1; d <= 1; d++)
		obs_yesno(o, (reference ? ref_vruntime_eligible : vruntime_eligible)(cfs, z0 + (u64)(V + d)),
			  "vruntime_eligible(v0 %+lld) (V is v0 %+lld)", (long long)(V + d), (long long)V);
	for (int i = 0; i <= c->n; i++) {
		if (t[i])
			obs_yesno(o, (reference ? ref_vruntime_eligible : vruntime_eligible)(cfs,
				  t[i]->se.vruntime), "is %s eligible", names[i]);
	}
	obs_num(o, (s64)((reference ? ref_avg_vruntime : avg_vruntime)(cfs) - z0),
		"avg_vruntime() - v0 (V)");
	obs_num(o, (s64)(eevdf_rq(cfs)->zero_vruntime - z0), "zero_vruntime moved by");
	obs_num(o, eevdf_rq(cfs)->avg_vruntime, "the sum avg_vruntime after it");
	obs_task(o, index_of(t, c->n, reference ? ref_pick_eevdf(cfs) : pick_eevdf(cfs)),
		 "pick_eevdf() picks after avg_vruntime()");
	cfs->curr = NULL;
}

static int shrink(const void *p, int k, void *q)
{
	const struct ev_case *in = p;
	struct ev_case *out = q;

	*out = *in;
	for (int i = in->n - 1; i >= 0; i--) {
		SHRINK_TRY(in->n > 1 || in->curr_mode == CURR_RUNS, {
			out->n--;
			for (int j = i; j < out->n; j++)
				out->e[j] = in->e[j + 1];
		});
	}
	SHRINK_TRY(in->curr_mode != CURR_NONE && in->n, out->curr_mode = CURR_NONE);
	SHRINK_TRY(in->curr_mode == CURR_LEFT, out->curr_mode = CURR_RUNS);
	SHRINK_TRY(in->protect, out->protect = 0);
	SHRINK_TRY(in->no_parity, out->no_parity = 0);
	for (int i = 0; i <= in->n; i++) {
		const struct ev_ent *e = i < in->n ? &in->e[i] : &in->c;
		struct ev_ent *f = i < in->n ? &out->e[i] : &out->c;

		SHRINK_TRY(e->nice, f->nice = 0);
		SHRINK_TRY(e->v, f->v = 0);
		SHRINK_TRY(e->v / 2, f->v /= 2);
		SHRINK_TRY(e->d, f->d = 0);
		SHRINK_TRY(e->d / 2, f->d /= 2);
	}
	return 0;
}

static void say(struct prop_text *t, const char *name, const struct ev_ent *e)
{
	prop_say(t, "%s, nice %d, at v0 %+lld (deadline v0 %+lld)", name, e->nice,
		 (long long)e->v, (long long)e->d);
}

static void describe(const void *p, struct prop_text *t)
{
	const struct ev_case *c = p;

	prop_say(t, "preset linux-6.12%s; in the tree:%s", c->no_parity ? " NO_RUN_TO_PARITY" : "",
		 c->n ? "" : " nothing");
	for (int i = 0; i < c->n; i++) {
		prop_say(t, i ? ", " : " ");
		say(t, names[i + 1], &c->e[i]);
	}
	if (c->curr_mode == CURR_NONE) {
		prop_say(t, "; no curr");
		return;
	}
	prop_say(t, c->curr_mode == CURR_RUNS ? "; running: " : "; curr, which left the queue: ");
	say(t, "curr", &c->c);
	if (c->protect)
		prop_say(t, ", its slice protected (set_protect_slice)");
}

static const struct prop_lab lab = {
	.lab = "eevdf_pick", .size = sizeof(struct ev_case), .cases = 1000, .seed = 5,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
	.task_names = names,
};

void test_property_eevdf_pick(void **state)
{
	prop_check(&lab);
}
