/*
 * kernel/sched/eevdf_find_dst.c - where a forked or exec'ing EEVDF task
 * goes: Linux 6.12's slow path of select_task_rq_fair()
 * (kernel/sched/fair.c: sched_balance_find_dst_cpu(),
 * sched_balance_find_dst_group(), update_sg_wakeup_stats(),
 * update_pick_idlest(), sched_balance_find_dst_group_cpu()).
 *
 * The balancer's group statistics (eevdf_lb_stats.c) are taken as if P
 * were not there (the *_without() helpers: its own load, runnable and
 * utilisation taken off the CPU it is queued on), each group classified,
 * and the idlest group chosen by type: the lower the better; between two
 * with spare capacity the more idle CPUs, then the lower utilisation;
 * between two busy ones the lower avg_load.  The local group keeps P
 * unless the idlest is of a better type, or has more idle CPUs, or (busy
 * against busy) its avg_load is lower by more than imbalance_pct and a
 * quarter task's load ((pct - 100)% of 1024).  Then the idlest CPU of
 * that group, and the same again in that CPU's smaller domains.  2.6.35
 * (find_idlest_group(), fair_smp.c) compared cpu_load[] weights alone.
 */
#include "eevdf_lb.h"
#include "stats.h"
#include "eevdf_pelt.h"
#include <kernel/string.h>

#define capacity_of(cpu)	SCHED_CAPACITY_SCALE

/* P counts on CPU: queued there, with a PELT history (6.12). */
static int task_counts_on(int cpu, struct task *p)
{
	return (int)task_cpu(p) == cpu && p->se.avg.last_update_time;
}

static unsigned int task_running_on_cpu(int cpu, struct task *p)
{
	return task_counts_on(cpu, p) && p->on_rq && !task_on_rq_migrating(p);
}

static unsigned long sub_positive(unsigned long a, unsigned long b)
{
	return a > b ? a - b : 0;		/* lsub_positive() */
}

/* CPU's PELT load, runnable and util without P's share (6.12 *_without()). */
static void cpu_stats_without(int cpu, struct task *p, struct sg_lb_stats *sgs)
{
	struct sched_avg *sa = &eevdf_rq(&cpu_rq(cpu)->cfs)->avg;
	unsigned long load = sa->load_avg, runnable = sa->runnable_avg;
	unsigned long util = sa->util_avg, util_est = sa->util_est;

	if (task_counts_on(cpu, p)) {
		load = sub_positive(load, p->se.avg.load_avg);
		runnable = sub_positive(runnable, p->se.avg.runnable_avg);
		util = sub_positive(util, p->se.avg.util_avg);
		if ((p->on_rq && !task_on_rq_migrating(p)) || p == current)
			util_est = sub_positive(util_est, p->se.avg.util_est & ~UTIL_AVG_UNCHANGED);
	}
	if (sched_feat(UTIL_EST))
		util = max(util, util_est);
	sgs->group_load += load;
	sgs->group_runnable += runnable;
	sgs->group_util += min(util, (unsigned long)capacity_of(cpu));
}

/* Would CPU idle without P? (6.12 idle_cpu_without(), nr_running tested before) */
static int idle_cpu_without(int cpu, struct task *p)
{
	struct rq *rq = cpu_rq(cpu);

	return rq->curr == rq->idle || rq->curr == p;
}

void update_sg_wakeup_stats(struct sched_domain *sd, struct sched_group *group,
			    struct sg_lb_stats *sgs, struct task *p)
{
	unsigned int i;

	memset(sgs, 0, sizeof(*sgs));
	for_each_cpu(i, sched_group_cpus(group)) {
		unsigned int local = task_running_on_cpu((int)i, p), nr_running;

		cpu_stats_without((int)i, p, sgs);
		sgs->sum_h_nr_running += lb_h_nr_running((int)i) - local;
		nr_running = lb_nr_running((int)i) - local;
		sgs->sum_nr_running += nr_running;
		if (!nr_running && idle_cpu_without((int)i, p))
			sgs->idle_cpus++;
		sgs->group_capacity += capacity_of(i);
	}
	sgs->group_weight = cpumask_weight(sched_group_cpus(group));
	sgs->group_type = group_classify(sd->imbalance_pct, group, sd, sgs);
	/* avg_load only for fully busy or overloaded groups */
	if (sgs->group_type == group_fully_busy || sgs->group_type == group_overloaded)
		sgs->avg_load = (sgs->group_load * SCHED_CAPACITY_SCALE) / sgs->group_capacity;
}

/* Is SGS's group idler than the idlest so far? */
static int update_pick_idlest(struct sg_lb_stats *idlest_sgs, struct sg_lb_stats *sgs)
{
	if (sgs->group_type < idlest_sgs->group_type)
		return 1;
	if (sgs->group_type > idlest_sgs->group_type)
		return 0;
	switch (sgs->group_type) {
	case group_overloaded:
	case group_fully_busy:
		return idlest_sgs->avg_load > sgs->avg_load;	/* lowest avg_load */
	case group_has_spare:
		if (idlest_sgs->idle_cpus > sgs->idle_cpus)	/* most idle CPUs ... */
			return 0;
		if (idlest_sgs->idle_cpus == sgs->idle_cpus &&	/* ... then lowest util */
		    idlest_sgs->group_util <= sgs->group_util)
			return 0;
		return 1;
	default:	/* imbalanced, asym, smt, misfit: not used here (misfit moot) */
		return 0;
	}
}

/* Should P leave the local group for IDLEST?  (the end of 6.12's find_dst_group) */
static int push_to_idlest(struct sched_domain *sd, struct sg_lb_stats *local,
			  struct sg_lb_stats *idlest)
{
	unsigned long imbalance;

	if (local->group_type != idlest->group_type)
		return local->group_type > idlest->group_type;
	switch (local->group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* allowed imbalance: (pct - 100)% of a nice-0 task's load */
		imbalance = SCHED_CAPACITY_SCALE * (sd->imbalance_pct - 100) / 100;
		if (idlest->avg_load >= local->avg_load + imbalance)
			return 0;
		return 100 * local->avg_load > sd->imbalance_pct * idlest->avg_load;
	case group_has_spare:	/* the group with more idle CPUs (no NUMA here) */
		return local->idle_cpus < idlest->idle_cpus;
	default:
		return 0;
	}
}

/* The least busy group of SD for P, or NULL to stay local (6.12). */
struct sched_group *sched_balance_find_dst_group(struct sched_domain *sd, struct task *p,
						 int this_cpu)
{
	struct sched_group *idlest = NULL, *local = NULL, *group = sd->groups;
	struct sg_lb_stats local_sgs, tmp_sgs, idlest_sgs;

	memset(&idlest_sgs, 0, sizeof(idlest_sgs));
	idlest_sgs.avg_load = ~0U;
	idlest_sgs.group_type = group_overloaded;
	do {
		int local_group;

		if (!cpumask_intersects(sched_group_cpus(group), &p->cpus_allowed))
			continue;	/* no CPU of it allowed */
		local_group = cpumask_test_cpu((unsigned int)this_cpu, sched_group_cpus(group));
		if (local_group) {
			update_sg_wakeup_stats(sd, group, &local_sgs, p);
			local = group;
		} else {
			update_sg_wakeup_stats(sd, group, &tmp_sgs, p);
			if (update_pick_idlest(&idlest_sgs, &tmp_sgs)) {
				idlest = group;
				idlest_sgs = tmp_sgs;
			}
		}
	} while (group = group->next, group != sd->groups);

	if (!idlest)
		return NULL;
	if (!local)		/* the local group skipped for affinity */
		return idlest;
	return push_to_idlest(sd, &local_sgs, &idlest_sgs) ? idlest : NULL;
}

/*
 * The idlest allowed CPU of GROUP: an idle one, the most recently idled
 * first (no cpuidle states here: all exit latencies equal), else the one
 * with the least PELT load (6.12 sched_balance_find_dst_group_cpu()).
 */
static int sched_balance_find_dst_group_cpu(struct sched_group *group, struct task *p,
					    int this_cpu)
{
	unsigned long load, min_load = ~0UL;
	int least_loaded_cpu = this_cpu, shallowest_idle_cpu = -1;
	u64 latest_idle_timestamp = 0;
	unsigned int i;

	if (cpumask_weight(sched_group_cpus(group)) == 1)
		return (int)group_first_cpu(group);
	for_each_cpu(i, sched_group_cpus(group)) {
		struct rq *rq = cpu_rq(i);

		if (!cpumask_test_cpu(i, &p->cpus_allowed))
			continue;
		if (available_idle_cpu((int)i)) {
			if (rq->idle_stamp > latest_idle_timestamp) {
				latest_idle_timestamp = rq->idle_stamp;
				shallowest_idle_cpu = (int)i;
			}
		} else if (shallowest_idle_cpu == -1) {
			load = eevdf_rq(&rq->cfs)->avg.load_avg;
			if (load < min_load) {
				min_load = load;
				least_loaded_cpu = (int)i;
			}
		}
	}
	return shallowest_idle_cpu != -1 ? shallowest_idle_cpu : least_loaded_cpu;
}

/*
 * From SD down: at each level with SD_FLAG, the idlest group and its
 * idlest CPU; a new CPU restarts from its own domains below the level
 * just decided (6.12 sched_balance_find_dst_cpu(), whose first checks,
 * the mask and the PELT sync, select_task_rq_eevdf() has made).
 */
int sched_balance_find_dst_cpu(struct sched_domain *sd, struct task *p, int cpu, int sd_flag)
{
	int new_cpu = cpu;

	while (sd) {
		struct sched_group *group;

		if (!(sd->flags & sd_flag)) {
			sd = sd->child;
			continue;
		}
		group = sched_balance_find_dst_group(sd, p, cpu);
		if (!group) {
			sd = sd->child;
			continue;
		}
		new_cpu = sched_balance_find_dst_group_cpu(group, p, cpu);
		if (new_cpu == cpu) {	/* try a lower level of cpu */
			sd = sd->child;
			continue;
		}
		cpu = new_cpu;		/* try a lower level of new_cpu */
		sd = sd_below(cpu, sd->span_weight, sd_flag);
	}
	return new_cpu;
}
