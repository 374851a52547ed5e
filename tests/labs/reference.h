/*
 * tests/labs/reference.h - the reference's functions, as the property
 * tests call them: the repository's kernel/sched/fair.c and eevdf.c
 * compiled once more with each function renamed ref_NAME
 * (tests/labs/rules.mk).  They run on the same runqueue as the student's.
 */
#ifndef TESTS_LABS_REFERENCE_H
#define TESTS_LABS_REFERENCE_H

#include "../../kernel/sched/sched.h"

void ref_update_curr(struct cfs_rq *cfs_rq);
void ref_place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
void ref_check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr);
struct sched_entity *ref_pick_next_entity(struct cfs_rq *cfs_rq);
extern const struct sched_class ref_cfs_sched_class;	/* .task_fork: START_NICE */

u64 ref_avg_vruntime(struct cfs_rq *cfs_rq);
int ref_vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);
struct sched_entity *ref_pick_eevdf(struct cfs_rq *cfs_rq);

#endif
