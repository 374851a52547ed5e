/*
 * kernel/sched/eevdf_lb.h - Linux 6.12's load balancer for the EEVDF
 * class (kernel/sched/fair.c: sched_balance_rq() and its helpers):
 * eevdf_lb_stats.c classifies the groups of a domain and computes the
 * imbalance, eevdf_balance.c moves the tasks and decides when.
 *
 * 2.6.35's balancer (balance.c, migrate.c, topology.h) owns several of
 * 6.12's names as global symbols (struct sg_lb_stats, can_migrate_task,
 * calculate_imbalance, ...), and both are linked into one kernel; so, as
 * eevdf.h does for the class, the colliding names are mapped to eevdf_*
 * symbols here.  Include after topology.h, never where 2.6.35's are meant.
 */
#ifndef KERNEL_SCHED_EEVDF_LB_H
#define KERNEL_SCHED_EEVDF_LB_H

#include "topology.h"

#define sg_lb_stats		eevdf_sg_lb_stats
#define sd_lb_stats		eevdf_sd_lb_stats
#define update_sg_lb_stats	eevdf_update_sg_lb_stats
#define update_sd_lb_stats	eevdf_update_sd_lb_stats
#define calculate_imbalance	eevdf_calculate_imbalance
#define task_hot		eevdf_task_hot
#define can_migrate_task	eevdf_can_migrate_task
#define active_load_balance_cpu_stop	eevdf_active_load_balance_cpu_stop
#define need_active_balance	eevdf_need_active_balance
#define migrate_task		lb_migrate_task	/* 2.6.35's migrate_task() is place.c's */

/*
 * A group at the moment of balancing, in order of pulling priority
 * (update_sd_pick_busiest() compares them as numbers).  Under QEMU's
 * equal CPUs misfit_task and asym_packing never occur (no
 * SD_ASYM_CPUCAPACITY, no SD_ASYM_PACKING, capacity_of() never reduced),
 * smt_balance only with a SIBLING level (-smp with threads=2).
 */
enum group_type {
	group_has_spare = 0,	/* spare capacity for more tasks */
	group_fully_busy,	/* fully used, no task competes for more */
	group_misfit_task,	/* a task too big for its CPU (moot here) */
	group_smt_balance,	/* busy SMT core: move to an idle core */
	group_asym_packing,	/* a preferred CPU is idle (moot here) */
	group_imbalanced,	/* affinity kept a lower level from balancing */
	group_overloaded	/* more tasks than the CPUs can serve */
};

/* What the imbalance counts (env->imbalance's unit). */
enum migration_type {
	migrate_load = 0,	/* PELT load_avg */
	migrate_util,		/* PELT util (util_est) */
	migrate_task,		/* tasks */
	migrate_misfit		/* one misfit task (moot here) */
};

#define LBF_ALL_PINNED	0x01	/* every task seen was pinned elsewhere */
#define LBF_NEED_BREAK	0x02	/* loop_break reached: unlock, go on */
#define LBF_DST_PINNED	0x04	/* some task may go to new_dst_cpu */
#define LBF_SOME_PINNED	0x08	/* some task was pinned elsewhere */
#define LBF_ACTIVE_LB	0x10	/* the active balance: hot tasks go too */

#define SCHED_NR_MIGRATE_BREAK	32	/* 6.12 (not PREEMPT_RT): a breather every 32 */

struct lb_env {
	struct sched_domain *sd;
	struct rq *src_rq;
	int src_cpu;
	int dst_cpu;
	struct rq *dst_rq;
	struct cpumask *dst_grpmask;	/* the local group's CPUs */
	int new_dst_cpu;
	enum cpu_idle_type idle;	/* Granule's 2.6.35 values: CPU_NOT_IDLE is 1 */
	long imbalance;			/* in migration_type's unit */
	struct cpumask *cpus;		/* CPUs still considered */
	unsigned int flags;		/* LBF_* */
	unsigned int loop, loop_break, loop_max;
	enum migration_type migration_type;
	int sched_task_hot;		/* can_migrate_task() let a hot one go (6.12: p->sched_task_hot) */
};

/* 6.12's env->idle is 0 when busy; Granule's enum keeps 2.6.35's order. */
static inline int env_idle(const struct lb_env *env)
{
	return env->idle != CPU_NOT_IDLE;
}

struct sg_lb_stats {
	unsigned long avg_load;		/* load per 1024 of capacity (overloaded only) */
	unsigned long group_load;	/* sum of cpu_load() */
	unsigned long group_capacity;	/* sum of capacity_of() */
	unsigned long group_util;	/* sum of cpu_util_cfs() */
	unsigned long group_runnable;	/* sum of cpu_runnable() */
	unsigned int sum_nr_running;	/* tasks of every class */
	unsigned int sum_h_nr_running;	/* fair tasks (delayed sleepers too) */
	unsigned int idle_cpus;
	unsigned int group_weight;
	enum group_type group_type;
	unsigned int group_smt_balance;
	unsigned long group_misfit_task_load;	/* 0: moot here */
};

struct sd_lb_stats {
	struct sched_group *busiest;
	struct sched_group *local;
	unsigned long total_load;
	unsigned long total_capacity;
	unsigned long avg_load;
	unsigned int prefer_sibling;	/* the busiest's child domain spreads */
	struct sg_lb_stats busiest_stat;
	struct sg_lb_stats local_stat;
};

/* eevdf_lb_stats.c */
unsigned long cpu_util_cfs(int cpu);
unsigned int lb_nr_running(int cpu);
unsigned int lb_h_nr_running(int cpu);
int *sg_imbalance(struct sched_domain *sd);
enum group_type group_classify(unsigned int imbalance_pct, struct sched_group *group,
			       struct sched_domain *sd, struct sg_lb_stats *sgs);
void update_sg_lb_stats(struct lb_env *env, struct sd_lb_stats *sds,
			struct sched_group *group, struct sg_lb_stats *sgs);
int update_sd_pick_busiest(struct lb_env *env, struct sd_lb_stats *sds,
			   struct sched_group *sg, struct sg_lb_stats *sgs);
void update_sd_lb_stats(struct lb_env *env, struct sd_lb_stats *sds);
void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds);
struct sched_group *sched_balance_find_src_group(struct lb_env *env);
struct rq *sched_balance_find_src_rq(struct lb_env *env, struct sched_group *group);

/* eevdf_find_dst.c (sched_balance_find_dst_cpu(): topology.h) */
void update_sg_wakeup_stats(struct sched_domain *sd, struct sched_group *group,
			    struct sg_lb_stats *sgs, struct task *p);
struct sched_group *sched_balance_find_dst_group(struct sched_domain *sd, struct task *p,
						 int this_cpu);

/* eevdf_balance.c */
int task_hot(struct task *p, struct lb_env *env);
int can_migrate_task(struct task *p, struct lb_env *env);
int detach_tasks(struct lb_env *env);
int need_active_balance(struct lb_env *env);
int active_load_balance_cpu_stop(void *data);
int sched_balance_rq(int this_cpu, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, int *continue_balancing);

#endif
