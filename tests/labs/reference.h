/*
 * tests/labs/reference.h - the reference's functions, as the property
 * tests call them: the repository's kernel/sched/fair.c, eevdf.c,
 * balance.c and eevdf_smp.c
 * compiled once more with each function renamed ref_NAME
 * (tests/labs/rules.mk).  They run on the same runqueue as the student's.
 */
#ifndef TESTS_LABS_REFERENCE_H
#define TESTS_LABS_REFERENCE_H

#include "../../kernel/sched/sched.h"
#include "../../kernel/sched/topology.h"

void ref_update_curr(struct cfs_rq *cfs_rq);
void ref_place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
void ref_check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr);
struct sched_entity *ref_pick_next_entity(struct cfs_rq *cfs_rq);
extern const struct sched_class ref_cfs_sched_class;	/* .task_fork: START_NICE */

u64 ref_avg_vruntime(struct cfs_rq *cfs_rq);
int ref_vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);
struct sched_entity *ref_pick_eevdf(struct cfs_rq *cfs_rq);

void ref_update_sg_lb_stats(struct sched_domain *sd, struct sched_group *group, int this_cpu,
			    enum cpu_idle_type idle, int load_idx, int *sd_idle, int local_group,
			    const struct cpumask *cpus, int *balance, struct sg_lb_stats *sgs);
void ref_calculate_imbalance(struct sd_lb_stats *sds, int this_cpu, unsigned long *imbalance);
struct sched_group *ref_find_busiest_group(struct sched_domain *sd, int this_cpu,
					   unsigned long *imbalance, enum cpu_idle_type idle,
					   int *sd_idle, const struct cpumask *cpus, int *balance);

int ref_wake_affine_eevdf(struct sched_domain *sd, struct task *p, int this_cpu, int prev_cpu,
			  int sync);
void ref_update_idle_cpu_scan(int cpu);
int ref_select_idle_cpu(struct task *p, struct sched_domain *sd, int target);
int ref_select_idle_sibling_eevdf(struct task *p, int prev, int target);

#endif
