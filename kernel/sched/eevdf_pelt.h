/*
 * kernel/sched/eevdf_pelt.h - the EEVDF class's load tracking
 * (eevdf_pelt.c) and its SMP placement (eevdf_smp.c): what
 * eevdf_class.c, place.c and migrate.c call.  Linux 6.12's names.
 */
#ifndef KERNEL_SCHED_EEVDF_PELT_H
#define KERNEL_SCHED_EEVDF_PELT_H

#include "pelt.h"

/* update_load_avg()'s flags (6.12) */
#define UPDATE_TG	0x1	/* the group's share: moot without groups */
#define SKIP_AGE_LOAD	0x2	/* attach without ageing the entity first */
#define DO_ATTACH	0x4	/* enqueue: attach an entity new on this CPU */
#define DO_DETACH	0x8	/* dequeue: detach a task moved while queued */

/* util_est (6.12): a new sample weighs 1/4; changes under 1% are ignored */
#define UTIL_EST_WEIGHT_SHIFT	2
#define UTIL_EST_MARGIN		(SCHED_CAPACITY_SCALE / 100)

/*
 * p->on_rq while move_queued_task() carries a queued task between two
 * locked runqueues (6.12's TASK_ON_RQ_MIGRATING): its dequeue detaches
 * its load (DO_DETACH) and migrate_task_rq_eevdf() knows not to remove it.
 */
#define TASK_ON_RQ_MIGRATING	2
static inline int task_on_rq_migrating(const struct task *p)
{
	return p->on_rq == TASK_ON_RQ_MIGRATING;
}

/* eevdf_pelt.c */
void init_entity_runnable_average(struct sched_entity *se);
void post_init_entity_util_avg(struct task *p);
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq);
void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void remove_entity_load_avg(struct sched_entity *se);
void migrate_task_rq_eevdf(struct task *p, int new_cpu);
void sched_balance_update_blocked_averages(int cpu);
void util_est_enqueue(struct cfs_rq *cfs_rq, struct task *p);
void util_est_dequeue(struct cfs_rq *cfs_rq, struct task *p);
void util_est_update(struct cfs_rq *cfs_rq, struct task *p, int task_sleep);

#endif
