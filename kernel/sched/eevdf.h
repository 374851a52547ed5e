/*
 * kernel/sched/eevdf.h - the EEVDF class's private interface (eevdf.c,
 * eevdf_class.c, eevdf_debug.c and the host tests).
 *
 * The functions keep Linux 6.12's names (kernel/sched/fair.c), but CFS
 * (fair.c, Linux 2.6.35) already owns several of those names as global
 * symbols and both classes are linked into one kernel.  So the colliding
 * names are mapped to eevdf_* symbols here: inside any file that includes
 * this header, update_curr() IS EEVDF's update_curr().  Include it after
 * sched.h, and never together with code that wants CFS's versions.
 */
#ifndef KERNEL_SCHED_EEVDF_H
#define KERNEL_SCHED_EEVDF_H

#include "sched.h"

#define calc_delta_fair		eevdf_calc_delta_fair
#define entity_before		eevdf_entity_before
#define entity_key		eevdf_entity_key
#define __enqueue_entity	eevdf___enqueue_entity
#define __dequeue_entity	eevdf___dequeue_entity
#define __pick_last_entity	eevdf___pick_last_entity
#define update_curr(cfs_rq)	eevdf_update_curr(cfs_rq)
#define place_entity		eevdf_place_entity
#define enqueue_entity		eevdf_enqueue_entity
#define dequeue_entity		eevdf_dequeue_entity
#define set_next_entity		eevdf_set_next_entity
#define pick_next_entity	eevdf_pick_next_entity
#define put_prev_entity		eevdf_put_prev_entity
#define entity_tick		eevdf_entity_tick
#define clear_buddies		eevdf_clear_buddies

/* Features: inside EEVDF code sched_feat() reads Linux 6.12's mask. */
#define SCHED_FEAT(name, enabled) __EEVDF_FEAT_##name,
enum {
#include "features_eevdf.h"
	__EEVDF_FEAT_NR,
};
#undef SCHED_FEAT
#undef sched_feat
#define sched_feat(x)	(sysctl_sched_features_eevdf & (1U << __EEVDF_FEAT_##x))
extern const char *const eevdf_feat_names[__EEVDF_FEAT_NR];
unsigned int sched_features_eevdf_default(void);

/* Linux 6.12's base-slice bounds for sched_setattr's sched_runtime. */
#define EEVDF_SLICE_MIN		100000ULL	/* NSEC_PER_MSEC/10 */
#define EEVDF_SLICE_MAX		100000000ULL	/* NSEC_PER_MSEC*100 */
#define TICK_NSEC		((u64)(1000000000U / HZ))	/* one tick, ns */

/* eevdf_tunables.c: sched_setattr's sched_runtime -> P's slice (0: base) */
void eevdf_set_slice(struct task *p, u64 runtime);
void eevdf_change_slice(struct task *p, u64 runtime);

/* ---- eevdf.c: V, lag, eligibility, deadlines, the tree, placement ---- */
u64 calc_delta_fair(u64 delta, struct sched_entity *se);
int entity_before(const struct sched_entity *a, const struct sched_entity *b);
s64 entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 avg_vruntime(struct cfs_rq *cfs_rq);
s64 entity_lag(u64 avruntime, struct sched_entity *se);
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se);
int vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);
int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq);
struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq);
struct sched_entity *__pick_last_entity(struct cfs_rq *cfs_rq);
bool min_vruntime_update(struct rb_node *node);	/* the augment compute */
void set_protect_slice(struct sched_entity *se);
bool protect_slice(struct sched_entity *se);
void cancel_protect_slice(struct sched_entity *se);
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq);
bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se);
void update_curr(struct cfs_rq *cfs_rq);
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se);

/* ---- eevdf_class.c: enqueue/dequeue, DELAY_DEQUEUE, pick, tick, wakeup ---- */
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq);
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev);
void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued);

/* ---- eevdf_wakeup.c: wakeup preemption, yield, priority changes ---- */
void check_preempt_wakeup_eevdf(struct rq *rq, struct task *p, int wake_flags);
void yield_task_eevdf(struct rq *rq);
void prio_changed_eevdf(struct rq *rq, struct task *p, int oldprio, int running);
void switched_to_eevdf(struct rq *rq, struct task *p, int running);

static inline int task_has_idle_policy(struct task *p)
{
	return p->policy == SCHED_IDLE;
}

/* se_is_idle() without groups: a SCHED_IDLE task. */
static inline int se_is_idle(struct sched_entity *se)
{
	return task_has_idle_policy(task_of(se));
}

/* ---- eevdf_debug.c ---- */
int eevdf_verify_tree(struct cfs_rq *cfs_rq);	/* violations printed, counted */

/* EEVDF's fields of the cfs_rq (kept at the end of struct rq, see sched.h). */
static inline struct eevdf_cfs_rq *eevdf_rq(struct cfs_rq *cfs_rq)
{
	return &rq_of(cfs_rq)->eevdf;
}

static inline struct sched_entity *__node_2_se(struct rb_node *node)
{
	return rb_entry(node, struct sched_entity, run_node);
}

#endif
