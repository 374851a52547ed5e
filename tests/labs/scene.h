/*
 * tests/labs/scene.h - a CFS runqueue built to order for the labs'
 * property tests (prop_*.c): a preset, feature bits and knobs, a
 * min_vruntime, a running curr and queued tasks at chosen nice levels and
 * vruntimes.  The queue is built through enqueue_entity() (flags 0) and
 * set_next_entity() with the clock standing still, so no lab's function
 * takes part in the building: a tree cut for another lab builds the same
 * queue.  reference.h names the reference's functions.
 */
#ifndef TESTS_LABS_SCENE_H
#define TESTS_LABS_SCENE_H

#include "property.h"

#define SCENE_MAX	6	/* queued tasks besides curr */

/* feature bits a scene can turn on (on) or off (off), by sched_features= name */
#define SCENE_FEATURES(X) X(START_DEBIT) X(GENTLE_FAIR_SLEEPERS) X(WAKEUP_PREEMPT) \
			  X(START_NICE) X(DYN_GRAN) X(DEADLINE) X(CPT_FIX)
#define SCENE_BIT(f)	SF_##f##_bit,
enum { SCENE_FEATURES(SCENE_BIT) SF_NR };
#undef SCENE_BIT
#define SF(f)		(1U << SF_##f##_bit)

struct scene_task {
	int nice;
	s64 key;		/* vruntime - min_vruntime, ns */
};

struct cfs_scene {
	int preset;		/* index in scene_presets[] */
	u32 on, off;		/* SF() bits */
	u32 latency, min_gran, wakeup_gran, sleeper_slice;	/* ns; 0: the preset's */
	int no_schedstats;
	u64 min_vruntime;
	int curr;		/* 1: a task runs (out of the tree) */
	struct scene_task c;
	int nq;
	struct scene_task q[SCENE_MAX];
};

extern const char *const scene_presets[];	/* linux-2.6.35 first */
/* names of the tasks by index: 0 curr, 1.. q1 .. q6 (obs_task) */
extern const char *const scene_names[];

/* A fair task of nice NICE, zeroed, not queued (from fake.h's pool). */
struct task *scene_alloc(const char *name, int nice);
/* Build S from scratch; T[0] = curr (NULL if none), T[1..nq] the queued. */
void scene_build(const struct cfs_scene *s, struct task **t);
/* A random scene: preset from PRESETS (a mask of scene_presets[] indices),
 * feature bits from FEATS, NQ_MIN..NQ_MAX queued, curr if WITH_CURR. */
void scene_generate(struct prop_rng *r, struct cfs_scene *s, u32 presets, u32 feats,
		    int nq_min, int nq_max, int with_curr);
/* The K-th simplification of the scene part of a case (SHRINK_TRY list),
 * keeping NQ_MIN queued tasks and curr unless CURR_OPTIONAL. */
int scene_shrink(const struct cfs_scene *in, int k, struct cfs_scene *out, int nq_min,
		 int curr_optional);
/* the index in T (scene_build's) of SE, -1 if none */
int scene_index(struct task **t, int n, struct sched_entity *se);
void scene_describe(const struct cfs_scene *s, struct prop_text *t);

/* the vruntime edges the generators lean on, ns from min_vruntime */
s64 scene_key(struct prop_rng *r);
/* setup / teardown of a property test: reset, and no invariant checks
 * afterwards (the scenes are built by hand) */
int scene_setup(void **state);
int scene_teardown(void **state);
#define PROP_TEST(f)	cmocka_unit_test_setup_teardown(f, scene_setup, scene_teardown)
#define SCENE_TEST(f)	PROP_TEST(f)

#endif
