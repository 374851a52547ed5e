/*
 * kernel/sched/eevdf_lb_stats.c - Linux 6.12's balancer, its first half:
 * what a domain's groups hold and how much should move (kernel/sched/
 * fair.c: update_sg_lb_stats(), group_classify(), update_sd_pick_busiest(),
 * update_sd_lb_stats(), calculate_imbalance(),
 * sched_balance_find_src_group(), sched_balance_find_src_rq()).
 *
 * Where 2.6.35 compares one number, load per unit of power, 6.12 first
 * classifies each group (enum group_type, eevdf_lb.h) from its task count
 * and PELT utilisation, picks the busiest by class, and then chooses what
 * the imbalance counts: tasks when the local group has spare capacity
 * (even out idle CPUs or running tasks), utilisation when it should fill
 * its spare capacity from an overloaded group outside its cache, load
 * only when both groups are or will be overloaded.
 *
 * Capacities: capacity_of() is 1024 on each CPU.  6.12 subtracts what rt,
 * deadline and irq time took (scale_rt_capacity(), from their own PELT
 * series); Granule keeps no PELT for rt or irqs, so nothing is subtracted
 * and a capacity is never "reduced" (misfit by reduced capacity and the
 * capacity-driven active balance are moot).  An SMT thread is 1024 too,
 * as in 6.12 (not 2.6.35's 589 share of smt_gain).
 */
#include "eevdf_lb.h"
#include "stats.h"
#include "eevdf_pelt.h"
#include <kernel/string.h>

#define capacity_of(cpu)	SCHED_CAPACITY_SCALE

/* The queue's PELT load (6.12 cpu_load(): no groups, so cfs_rq's). */
static inline unsigned long cpu_load(int cpu)
{
	return eevdf_rq(&cpu_rq(cpu)->cfs)->avg.load_avg;
}

static inline unsigned long cpu_runnable(int cpu)
{
	return eevdf_rq(&cpu_rq(cpu)->cfs)->avg.runnable_avg;
}

/* max(util_avg, util_est) (and runnable_avg if BOOST), at most 1024 (6.12 cpu_util()). */
static unsigned long cpu_util(int cpu, int boost)
{
	struct sched_avg *sa = &eevdf_rq(&cpu_rq(cpu)->cfs)->avg;
	unsigned long util = sa->util_avg;

	if (boost)
		util = max(util, (unsigned long)sa->runnable_avg);
	if (sched_feat(UTIL_EST))
		util = max(util, (unsigned long)sa->util_est);
	return min(util, (unsigned long)capacity_of(cpu));
}

unsigned long cpu_util_cfs(int cpu)
{
	return cpu_util(cpu, 0);
}

/*
 * Linux's rq->nr_running counts a DELAY_DEQUEUE sleeper until it really
 * leaves; Granule's counts it out when it blocks (eevdf_class.c), so the
 * balancer adds them back to see what 6.12 sees.
 */
unsigned int lb_nr_running(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return rq->nr_running + eevdf_rq(&rq->cfs)->h_nr_delayed;
}

/* rq->cfs.h_nr_queued: fair entities queued, curr and delayed included. */
unsigned int lb_h_nr_running(int cpu)
{
	return cpu_rq(cpu)->cfs.nr_running;
}

/*
 * sgc->imbalance, shared by every CPU's copy of a group as 6.12's
 * sched_group_capacity is: keyed by the group's first CPU and level.
 */
static int sgc_imbalance[NR_CPUS][SD_LV_MAX];

static int *group_imbalance(struct sched_group *sg, struct sched_domain *sd)
{
	return &sgc_imbalance[group_first_cpu(sg)][sd->level];
}

/* 6.12's sd_parent->groups->sgc->imbalance: our group one level up. */
int *sg_imbalance(struct sched_domain *sd)
{
	return group_imbalance(sd->groups, sd);
}

/* A group's flags are its child domain's (6.12 sg->flags). */
static int sg_flags(struct sched_domain *sd)
{
	return sd->child ? sd->child->flags : 0;
}

/* Cores in a group of SD (6.12 sg->cores: weight over SMT threads). */
static unsigned int group_cores(struct sched_domain *sd, struct sched_group *sg)
{
	struct sched_domain *c;
	unsigned int weight = cpumask_weight(sched_group_cpus(sg));

	for (c = sd->child; c; c = c->child)
		if (c->flags & SD_SHARE_CPUPOWER)
			return weight / c->span_weight;
	return weight;
}

/* Fewer tasks than CPUs, or utilisation below capacity by imbalance_pct. */
static int group_has_capacity(unsigned int imbalance_pct, struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return 1;
	if ((sgs->group_capacity * imbalance_pct) < (sgs->group_runnable * 100))
		return 0;
	if ((sgs->group_capacity * 100) > (sgs->group_util * imbalance_pct))
		return 1;
	return 0;
}

/* More tasks than CPUs, and utilisation or runnable over capacity by imbalance_pct. */
static int group_is_overloaded(unsigned int imbalance_pct, struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return 0;
	if ((sgs->group_capacity * 100) < (sgs->group_util * imbalance_pct))
		return 1;
	if ((sgs->group_capacity * imbalance_pct) < (sgs->group_runnable * 100))
		return 1;
	return 0;
}

enum group_type group_classify(unsigned int imbalance_pct, struct sched_group *group,
			       struct sched_domain *sd, struct sg_lb_stats *sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		return group_overloaded;
	if (*group_imbalance(group, sd))
		return group_imbalanced;
	/* group_asym_packing: no SD_ASYM_PACKING here */
	if (sgs->group_smt_balance)
		return group_smt_balance;
	if (sgs->group_misfit_task_load)
		return group_misfit_task;
	if (!group_has_capacity(imbalance_pct, sgs))
		return group_fully_busy;
	return group_has_spare;
}

/* A busy SMT group, seen by an idle CPU: move a task to an idle core. */
static int smt_balance(struct lb_env *env, struct sg_lb_stats *sgs)
{
	return env_idle(env) && (sg_flags(env->sd) & SD_SHARE_CPUPOWER) &&
	       sgs->sum_h_nr_running > 1;
}

void update_sg_lb_stats(struct lb_env *env, struct sd_lb_stats *sds,
			struct sched_group *group, struct sg_lb_stats *sgs)
{
	int local_group = group == sds->local;
	unsigned int i;

	memset(sgs, 0, sizeof(*sgs));
	for_each_cpu(i, sched_group_cpus(group)) {
		unsigned int nr_running;

		if (!cpumask_test_cpu(i, env->cpus))
			continue;
		sgs->group_load += cpu_load((int)i);
		sgs->group_util += cpu_util_cfs((int)i);
		sgs->group_runnable += cpu_runnable((int)i);
		sgs->sum_h_nr_running += lb_h_nr_running((int)i);
		nr_running = lb_nr_running((int)i);
		sgs->sum_nr_running += nr_running;
		/* no need to call idle_cpu() if nr_running is not 0 */
		if (!nr_running && available_idle_cpu((int)i))
			sgs->idle_cpus++;
		/* misfit (SD_ASYM_CPUCAPACITY or reduced capacity): moot */
	}
	for_each_cpu(i, sched_group_cpus(group))
		sgs->group_capacity += capacity_of(i);
	sgs->group_weight = cpumask_weight(sched_group_cpus(group));

	if (!local_group && smt_balance(env, sgs))
		sgs->group_smt_balance = 1;
	sgs->group_type = group_classify(env->sd->imbalance_pct, group, env->sd, sgs);

	/* computing avg_load makes sense only when group is overloaded */
	if (sgs->group_type == group_overloaded)
		sgs->avg_load = (sgs->group_load * SCHED_CAPACITY_SCALE) / sgs->group_capacity;
}

/*
 * Is SG busier than the busiest so far?  A higher group_type wins; within
 * a type: the higher avg_load (overloaded, fully busy), the first
 * (imbalanced), else fewer idle CPUs, then more tasks.  (The misfit and
 * asym cases need SD_ASYM_*; one level's groups are all SMT or none, so
 * smt_vs_nonsmt_groups() is always false here.)
 */
int update_sd_pick_busiest(struct lb_env *env, struct sd_lb_stats *sds,
			   struct sched_group *sg, struct sg_lb_stats *sgs)
{
	struct sg_lb_stats *busiest = &sds->busiest_stat;

	if (!sgs->sum_h_nr_running)		/* at least one task to pull */
		return 0;
	if (sgs->group_type > busiest->group_type)
		return 1;
	if (sgs->group_type < busiest->group_type)
		return 0;

	switch (sgs->group_type) {
	case group_overloaded:
		return sgs->avg_load > busiest->avg_load;
	case group_imbalanced:
	case group_asym_packing:
		return 0;
	case group_misfit_task:
		return sgs->group_misfit_task_load > busiest->group_misfit_task_load;
	case group_smt_balance:
		if (sgs->idle_cpus != 0 || busiest->idle_cpus != 0)
			goto has_spare;
		/* fallthrough */
	case group_fully_busy:
		/* avg_load is 0 here (not computed): the first one stays, unless SMT */
		if (sgs->avg_load < busiest->avg_load)
			return 0;
		if (sgs->avg_load == busiest->avg_load && (sg_flags(env->sd) & SD_SHARE_CPUPOWER))
			return 0;
		break;
	case group_has_spare:
has_spare:
		/* fewest idle CPUs, then most running tasks */
		if (sgs->idle_cpus > busiest->idle_cpus)
			return 0;
		if (sgs->idle_cpus == busiest->idle_cpus &&
		    sgs->sum_nr_running <= busiest->sum_nr_running)
			return 0;
		break;
	}
	(void)sg;
	return 1;
}

void update_sd_lb_stats(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sched_group *sg = env->sd->groups;
	struct sg_lb_stats tmp_sgs;

	do {
		struct sg_lb_stats *sgs = &tmp_sgs;
		int local_group = cpumask_test_cpu((unsigned int)env->dst_cpu,
						   sched_group_cpus(sg));

		if (local_group) {
			sds->local = sg;
			sgs = &sds->local_stat;
		}
		update_sg_lb_stats(env, sds, sg, sgs);
		if (!local_group && update_sd_pick_busiest(env, sds, sg, sgs)) {
			sds->busiest = sg;
			sds->busiest_stat = *sgs;
		}
		sds->total_load += sgs->group_load;
		sds->total_capacity += sgs->group_capacity;
		sg = sg->next;
	} while (sg != env->sd->groups);

	/* the flags of a group are its child domain's */
	if (sds->busiest)
		sds->prefer_sibling = !!(sg_flags(env->sd) & SD_PREFER_SIBLING);
	/* rd overload/overutilized (EAS, newidle gate) and SIS_UTIL's scan:
	 * not here (see SCHEDULER.md) */
}

/* Tasks to move so that both groups run as many per core (6.12 sibling_imbalance()). */
static long sibling_imbalance(struct lb_env *env, struct sd_lb_stats *sds,
			      struct sg_lb_stats *busiest, struct sg_lb_stats *local)
{
	long ncores_busiest, ncores_local, imbalance;

	if (!env_idle(env) || !busiest->sum_nr_running)
		return 0;
	ncores_busiest = group_cores(env->sd, sds->busiest);
	ncores_local = group_cores(env->sd, sds->local);
	if (ncores_busiest == ncores_local) {
		imbalance = (long)busiest->sum_nr_running - (long)local->sum_nr_running;
		return max(imbalance, 0L);		/* lsub_positive */
	}
	/* balance such that nr_running/ncores ratio are same on both groups */
	imbalance = ncores_local * (long)busiest->sum_nr_running -
		    ncores_busiest * (long)local->sum_nr_running;
	imbalance = max(imbalance, 0L);
	imbalance = (2 * imbalance + ncores_local + ncores_busiest) /
		    (ncores_local + ncores_busiest);	/* rounded */
	if (imbalance <= 1 && local->sum_nr_running == 0 && busiest->sum_nr_running > 1)
		imbalance = 2;		/* use an empty group */
	return imbalance;
}

/* The local group has spare capacity: fill it (util) or even tasks out. */
static void imbalance_to_spare(struct lb_env *env, struct sd_lb_stats *sds,
			       struct sg_lb_stats *local, struct sg_lb_stats *busiest)
{
	if (busiest->group_type > group_fully_busy &&
	    !(env->sd->flags & SD_SHARE_PKG_RESOURCES)) {
		/* busiest overloaded, in another cache: fill our spare capacity */
		env->migration_type = migrate_util;
		env->imbalance = (long)(max(local->group_capacity, local->group_util) -
					local->group_util);
		/* util at capacity but this CPU idles: pull one waiting task */
		if (env_idle(env) && env->imbalance == 0) {
			env->migration_type = migrate_task;
			env->imbalance = 1;
		}
		return;
	}
	env->migration_type = migrate_task;
	if (busiest->group_weight == 1 || sds->prefer_sibling)
		env->imbalance = sibling_imbalance(env, sds, busiest, local);
	else	/* no overload: even the idle CPUs out */
		env->imbalance = max(0L, (long)local->idle_cpus - (long)busiest->idle_cpus);
	env->imbalance >>= 1;		/* half the difference moves */
}

void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;
	unsigned long a, b;

	if (busiest->group_type == group_misfit_task) {	/* reduced capacity: moot */
		env->migration_type = migrate_load;
		env->imbalance = (long)busiest->group_misfit_task_load;
		return;
	}
	if (busiest->group_type == group_smt_balance ||
	    busiest->group_type == group_imbalanced) {
		/* move any one task; the next balance sets things right */
		env->migration_type = migrate_task;
		env->imbalance = 1;
		return;
	}
	if (local->group_type == group_has_spare) {
		imbalance_to_spare(env, sds, local, busiest);
		return;
	}
	/* local is fully busy but has to take more load: avg_load needed now */
	if (local->group_type < group_overloaded) {
		local->avg_load = (local->group_load * SCHED_CAPACITY_SCALE) / local->group_capacity;
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = (sds->total_load * SCHED_CAPACITY_SCALE) / sds->total_capacity;
		if (local->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	/* both at the domain's average, neither pushed past it */
	env->migration_type = migrate_load;
	a = (busiest->avg_load - sds->avg_load) * busiest->group_capacity;
	b = (sds->avg_load - local->avg_load) * local->group_capacity;
	env->imbalance = (long)(min(a, b) / SCHED_CAPACITY_SCALE);
}

/*
 * The busiest group of env->sd if the domain is out of balance, with
 * env->imbalance and env->migration_type set; else NULL (6.12's decision
 * matrix: busiest against local group type).
 */
struct sched_group *sched_balance_find_src_group(struct lb_env *env)
{
	struct sg_lb_stats *local, *busiest;
	struct sd_lb_stats sds;

	memset(&sds, 0, sizeof(sds));
	sds.busiest_stat.idle_cpus = ~0U;	/* the worst busiest group */
	sds.busiest_stat.group_type = group_has_spare;
	update_sd_lb_stats(env, &sds);

	if (!sds.busiest)
		goto out_balanced;
	busiest = &sds.busiest_stat;
	if (busiest->group_type == group_misfit_task ||
	    busiest->group_type == group_imbalanced)
		goto force_balance;
	/* no perf domains (EAS): the rd_overutilized test never skips */
	local = &sds.local_stat;
	if (local->group_type > busiest->group_type)
		goto out_balanced;
	if (local->group_type == group_overloaded) {
		if (local->avg_load >= busiest->avg_load)
			goto out_balanced;
		sds.avg_load = (sds.total_load * SCHED_CAPACITY_SCALE) / sds.total_capacity;
		if (local->avg_load >= sds.avg_load)
			goto out_balanced;
		/* the busiest more loaded by imbalance_pct at least */
		if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
			goto out_balanced;
	}
	if (sds.prefer_sibling && local->group_type == group_has_spare &&
	    sibling_imbalance(env, &sds, busiest, local) > 1)
		goto force_balance;
	if (busiest->group_type != group_overloaded) {
		if (!env_idle(env))	/* not overloaded, this CPU busy: leave it to an idle one */
			goto out_balanced;
		if (busiest->group_weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			goto out_balanced;	/* idle CPUs differ by one at most */
		if (busiest->sum_h_nr_running == 1)
			goto out_balanced;	/* nothing waits there */
	}
force_balance:
	calculate_imbalance(env, &sds);
	return env->imbalance ? sds.busiest : NULL;
out_balanced:
	env->imbalance = 0;
	return NULL;
}

/*
 * The queue of GROUP to pull from, by migration_type: the highest load per
 * capacity (a single task heavier than the imbalance stays), the highest
 * boosted utilisation among queues of two tasks or more, or the most fair
 * tasks.  (fbq_type, NUMA, and the asym checks are moot here.)
 */
struct rq *sched_balance_find_src_rq(struct lb_env *env, struct sched_group *group)
{
	unsigned long busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
	unsigned int busiest_nr = 0, i;
	struct rq *busiest = NULL;

	for_each_cpu(i, sched_group_cpus(group)) {
		unsigned long capacity = capacity_of(i), load, util;
		unsigned int nr_running = lb_h_nr_running((int)i);

		if (!cpumask_test_cpu(i, env->cpus) || !nr_running)
			continue;
		switch (env->migration_type) {
		case migrate_load:
			load = cpu_load((int)i);
			/* check_cpu_capacity() is never true: capacity not reduced */
			if (nr_running == 1 && load > (unsigned long)env->imbalance)
				break;
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = cpu_rq(i);
			}
			break;
		case migrate_util:
			util = cpu_util((int)i, 1);	/* cpu_util_cfs_boost() */
			if (nr_running <= 1)
				continue;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = cpu_rq(i);
			}
			break;
		case migrate_task:
			if (busiest_nr < nr_running) {
				busiest_nr = nr_running;
				busiest = cpu_rq(i);
			}
			break;
		case migrate_misfit:
			break;
		}
	}
	return busiest;
}
