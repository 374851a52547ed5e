/*
 * tests/labs/eevdf_visits.c - lab eevdf_pick's complexity check: how many
 * entities does pick_eevdf() touch in a tree of 1023?
 *
 * Each entity lives in its own page of one mapping, and the pages are
 * made inaccessible (mprotect) before the pick: the first access to an
 * entity faults, the handler counts it and opens that page, and the
 * access is retried.  So the count is the number of distinct entities
 * whose memory the pick read, whatever code it ran.  The O(log n) walk
 * of the lab reads, per level of the tree, one node and its left child
 * (the left subtree's min_vruntime), plus the cached leftmost: at most
 * 2 * height + 2, and a red-black tree of n nodes is at most
 * 2 * log2(n + 1) levels high: 42 for 1023 (the reference reads 10 to 16).  A scan in deadline order reads every entity up to the
 * first eligible one; the trees are made so that it comes late (eligible
 * entities have later deadlines), about half of them.
 */
#include <string.h>
#include "property.h"
#include "reference.h"
#include "watch.h"
#include "../host/sched/eevdf_test.h"

#define NODES	1023	/* 2^10 - 1 */
#define LOG2	10	/* log2(NODES + 1) */
#define TREES	6
#define BOUND	(2 * (2 * LOG2) + 2)

/* entity I, in its own page of the watched mapping */
static struct task *entity(int i, s64 vkey, s64 dkey)
{
	struct task *t = watch_object(i);

	memset(t, 0, sizeof(*t));
	snprintf(t->comm, sizeof(t->comm), "n%d", i);
	return mk_at(t, 0, vkey, dkey);
}

/* One tree: entities ahead of v0 (mostly not eligible) get the early
 * deadlines, those behind it the late ones. */
static void build(struct prop_rng *r)
{
	eevdf_reset();
	for (int i = 0; i < NODES; i++) {
		s64 v = prop_range(r, -MS, MS);
		s64 d = v > 0 ? prop_range(r, 0, MS) : prop_range(r, MS + 1, 2 * MS);

		put(entity(i, v, d));
	}
}

void test_pick_touches_log_n(void **state)
{
	struct prop_rng r = { .s = 7 };
	char w[96], g[96];

	watch_alloc(NODES, sizeof(struct task));
	for (int tree = 0; tree < TREES; tree++) {
		struct sched_entity *want, *got;
		int nr_touched;

		build(&r);
		want = ref_pick_eevdf(cfs);
		watch_start();
		got = pick_eevdf(cfs);
		nr_touched = watch_stop();
		lab_scenario("tree %d of %d: %d nice-0 entities (an rbtree at most %d levels high); "
			     "those ahead of v0 have the earlier deadlines, so the leftmost is "
			     "seldom eligible; pick_eevdf() runs with each entity's memory watched",
			     tree + 1, TREES, NODES, 2 * LOG2);
		LAB_TASK(got, want, "the entity picked");
		snprintf(w, sizeof(w), "at most %d (2 x the height + 2: one path down)", BOUND);
		snprintf(g, sizeof(g), "%d (an O(n) walk?)", nr_touched);
		if (nr_touched > BOUND)
			LAB_FAIL("entities whose memory pick_eevdf() read", w, g);
	}
	watch_free();
}
