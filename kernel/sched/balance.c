/*
 * kernel/sched/balance.c - load_balance()'s arithmetic: how loaded each
 * CPU and group is, whether a domain is out of balance, how much weight to
 * move and which tasks may go (Linux 2.6.35's kernel/sched.c and
 * sched_fair.c, under the same names; no group scheduling, so every
 * entity is a task and load_balance_fair() is balance_tasks()).
 *
 * Units: a load is a sum of task weights (nice 0 = 1024); a power is
 * SCHED_LOAD_SCALE (1024) per full CPU; a group's avg_load is its load
 * per 1024 of power,
 *	avg_load = group_load * 1024 / cpu_power
 * so two groups of unequal power compare fairly.  All unsigned long, 32
 * bits as on i686, as 2.6.35's.
 *
 * Deliberate differences (docs/SCHEDULER.md): a CPU's power is not scaled
 * down by the time rt tasks took (2.6.35's scale_rt_power(), from
 * rq->rt_avg, which Granule does not keep) nor by frequency (ARCH_POWER is
 * off in 2.6.35 too); the power-savings balance (sched_mc_power_savings,
 * default 0) is left out, which at its default does nothing.
 */
#include "topology.h"
#include "stats.h"
#include <kernel/string.h>
#include <kernel/cmdline.h>
#include <kernel/limits.h>

unsigned int sysctl_sched_migration_cost = 500000U;	/* 0.5 ms: cache-hot */
unsigned int sysctl_sched_nr_migrate = 32;		/* tasks looked at per move */

/*
 * 2.6.35's two balancer sysctls (kernel/sysctl.c, under CONFIG_SCHED_DEBUG),
 * on the boot line and in /proc/sys/kernel.  Linux takes any int
 * (proc_dointvec); Granule bounds them as its other knobs: the cost to the
 * time sysctls' 1 s (0: nothing is cache-hot), the count to the task table
 * (a larger one looks at every queued task, as TASK_MAX does).
 */
DEFINE_KNOB_UINT(sched_migration_cost, sysctl_sched_migration_cost, 500000, 0, 1000000000,
		 "a task that ran within this many ns is cache-hot: the balancer leaves it");
DEFINE_KNOB_UINT(sched_nr_migrate, sysctl_sched_nr_migrate, 32, 0, TASK_MAX,
		 "tasks move_tasks() looks at per pass (one more than this)");

/* ---- Per-CPU load figures -------------------------------------------------- */

/* The sum of the queued tasks' weights on CPU (rq->load, curr included). */
unsigned long weighted_cpuload(int cpu)
{
	return cpu_rq(cpu)->load.weight;
}

/*
 * A load estimate of a migration source (low guess) and target (high
 * guess): with LB_BIAS the decayed cpu_load[type-1] on the cautious side
 * of the instant load, so the balancer neither drains a CPU nor floods
 * one on a momentary peak.  Type 0 is the instant load.
 */
unsigned long source_load(int cpu, int type)
{
	unsigned long total = weighted_cpuload(cpu);

	if (type == 0 || !sched_feat(LB_BIAS))
		return total;
	return min((unsigned long)cpu_rq(cpu)->cpu_load[type - 1], total);
}

unsigned long target_load(int cpu, int type)
{
	unsigned long total = weighted_cpuload(cpu);

	if (type == 0 || !sched_feat(LB_BIAS))
		return total;
	return max((unsigned long)cpu_rq(cpu)->cpu_load[type - 1], total);
}

/* CPU's power: 1024, an SMT thread's share of its core's (rq->cpu_power). */
unsigned long power_of(int cpu)
{
	return cpu_rq(cpu)->cpu_power;
}

/* Mean weight of a task on CPU (0 if none runs). */
unsigned long cpu_avg_load_per_task(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return rq->nr_running ? rq->load.weight / rq->nr_running : 0;
}

/* CPU runs its idle task. */
int idle_cpu(int cpu)
{
	return cpu_rq(cpu)->curr == cpu_rq(cpu)->idle;
}

/* Which cpu_load[] a balance reads, by how idle the balancing CPU is. */
int get_sd_load_idx(struct sched_domain *sd, enum cpu_idle_type idle)
{
	switch (idle) {
	case CPU_NOT_IDLE:
		return (int)sd->busy_idx;
	case CPU_NEWLY_IDLE:
		return (int)sd->newidle_idx;
	default:
		return (int)sd->idle_idx;
	}
}

/*
 * Refresh the local group's power (2.6.35 update_group_power): at the
 * lowest level the CPU's own (SMT: smt_gain shared by the threads; no rt
 * scaling here), above it the sum of the child's groups.
 */
void update_group_power(struct sched_domain *sd, int cpu)
{
	struct sched_domain *child = sd->child;
	struct sched_group *group, *sdg = sd->groups;
	unsigned long power;

	if (!child) {
		power = SCHED_LOAD_SCALE;
		if ((sd->flags & SD_SHARE_CPUPOWER) && sd->span_weight > 1) {
			power *= sd->smt_gain / sd->span_weight;	/* default_scale_smt_power */
			power >>= SCHED_LOAD_SHIFT;
		}
		if (!power)
			power = 1;
		cpu_rq(cpu)->cpu_power = power;		/* update_cpu_power() */
		sdg->cpu_power = (unsigned int)power;
		return;
	}
	power = 0;
	group = child->groups;
	do {
		power += group->cpu_power;
		group = group->next;
	} while (group != child->groups);
	sdg->cpu_power = (unsigned int)power;
}

/* ---- find_busiest_group() ----------------------------------------------- */

/*
 * One group's figures (2.6.35 update_sg_lb_stats).  The local group's CPUs
 * count at their high guess (target_load), the others' at their low one
 * (source_load): the balancer pulls only when clearly worth it.  A group is
 * imbalanced within itself (group_imb) when its CPUs' loads differ by more
 * than two average tasks.  Only the local group's first idle CPU (or its
 * first CPU) balances at this level: else *BALANCE = 0.
 */
void update_sg_lb_stats(struct sched_domain *sd, struct sched_group *group, int this_cpu,
			enum cpu_idle_type idle, int load_idx, int *sd_idle, int local_group,
			const struct cpumask *cpus, int *balance, struct sg_lb_stats *sgs)
{
	unsigned long load, max_cpu_load = 0, min_cpu_load = ~0UL, avg_load_per_task = 0;
	unsigned int balance_cpu = ~0U, i;
	int first_idle_cpu = 0;

	if (local_group)
		balance_cpu = group_first_cpu(group);

	for_each_cpu(i, sched_group_cpus(group)) {
		struct rq *rq = cpu_rq(i);

		if (!cpumask_test_cpu(i, cpus))
			continue;
		if (*sd_idle && rq->nr_running)
			*sd_idle = 0;
		if (local_group) {	/* bias balancing toward CPUs of our domain */
			if (idle_cpu((int)i) && !first_idle_cpu) {
				first_idle_cpu = 1;
				balance_cpu = i;
			}
			load = target_load((int)i, load_idx);
		} else {
			load = source_load((int)i, load_idx);
			if (load > max_cpu_load)
				max_cpu_load = load;
			if (min_cpu_load > load)
				min_cpu_load = load;
		}
		sgs->group_load += load;
		sgs->sum_nr_running += rq->nr_running;
		sgs->sum_weighted_load += weighted_cpuload((int)i);
	}

	if (idle != CPU_NEWLY_IDLE && local_group && balance_cpu != (unsigned int)this_cpu) {
		*balance = 0;
		return;
	}
	update_group_power(sd, this_cpu);	/* LAB(find_busiest_group) BEGIN */

	sgs->avg_load = (sgs->group_load * SCHED_LOAD_SCALE) / group->cpu_power;
	if (sgs->sum_nr_running)
		avg_load_per_task = sgs->sum_weighted_load / sgs->sum_nr_running;
	if ((max_cpu_load - min_cpu_load) > 2 * avg_load_per_task)
		sgs->group_imb = 1;
	/* DIV_ROUND_CLOSEST(cpu_power, 1024): how many tasks it runs at full speed */
	sgs->group_capacity = (group->cpu_power + SCHED_LOAD_SCALE / 2) / SCHED_LOAD_SCALE;
}	/* LAB(find_busiest_group) END */

/*
 * Every group's figures, and the local and busiest groups' kept in SDS
 * (2.6.35 update_sd_lb_stats).  The busiest is the one of highest avg_load
 * that runs more tasks than its capacity or is imbalanced within; under a
 * child with SD_PREFER_SIBLING each group's capacity counts as at most 1,
 * so the excess tasks spread to sibling groups first.
 */
void update_sd_lb_stats(struct sched_domain *sd, int this_cpu, enum cpu_idle_type idle,
			int *sd_idle, const struct cpumask *cpus, int *balance,
			struct sd_lb_stats *sds)
{
	struct sched_domain *child = sd->child;
	struct sched_group *group = sd->groups;
	struct sg_lb_stats sgs;
	int load_idx, prefer_sibling = child && (child->flags & SD_PREFER_SIBLING);

	load_idx = get_sd_load_idx(sd, idle);
	do {
		int local_group = cpumask_test_cpu((unsigned int)this_cpu, sched_group_cpus(group));

		memset(&sgs, 0, sizeof(sgs));
		update_sg_lb_stats(sd, group, this_cpu, idle, load_idx, sd_idle,
				   local_group, cpus, balance, &sgs);
		if (local_group && !(*balance))
			return;

		sds->total_load += sgs.group_load;
		sds->total_pwr += group->cpu_power;
		if (prefer_sibling)
			sgs.group_capacity = min(sgs.group_capacity, 1UL);

		if (local_group) {
			sds->this_load = sgs.avg_load;
			sds->this = group;
			sds->this_nr_running = sgs.sum_nr_running;
			sds->this_load_per_task = sgs.sum_weighted_load;
		} else if (sgs.avg_load > sds->max_load &&
			   (sgs.sum_nr_running > sgs.group_capacity || sgs.group_imb)) {
			sds->max_load = sgs.avg_load;
			sds->busiest = group;
			sds->busiest_nr_running = sgs.sum_nr_running;
			sds->busiest_group_capacity = sgs.group_capacity;
			sds->busiest_load_per_task = sgs.sum_weighted_load;
			sds->group_imb = sgs.group_imb;
		}
		group = group->next;
	} while (group != sd->groups);
}

/*
 * The imbalance is smaller than one of the busiest group's tasks: move one
 * anyway if the gap is at least one task (two if ours are lighter, imbn),
 * or if moving one raises the throughput the two groups get, pwr_move >
 * pwr_now, each group's throughput being power * min(per-task, load)
 * (2.6.35 fix_small_imbalance).
 */
void fix_small_imbalance(struct sd_lb_stats *sds, int this_cpu, unsigned long *imbalance)
{	/* LAB(find_busiest_group) BEGIN */
	unsigned long tmp, pwr_now = 0, pwr_move = 0, scaled_busy_load_per_task;
	unsigned long bpwr = sds->busiest->cpu_power, tpwr = sds->this->cpu_power;
	unsigned int imbn = 2;

	if (sds->this_nr_running) {
		sds->this_load_per_task /= sds->this_nr_running;
		if (sds->busiest_load_per_task > sds->this_load_per_task)
			imbn = 1;
	} else {
		sds->this_load_per_task = cpu_avg_load_per_task(this_cpu);
	}

	scaled_busy_load_per_task = sds->busiest_load_per_task * SCHED_LOAD_SCALE / bpwr;
	if (sds->max_load - sds->this_load + scaled_busy_load_per_task >=
	    scaled_busy_load_per_task * imbn) {
		*imbalance = sds->busiest_load_per_task;
		return;
	}

	pwr_now += bpwr * min(sds->busiest_load_per_task, sds->max_load);
	pwr_now += tpwr * min(sds->this_load_per_task, sds->this_load);
	pwr_now /= SCHED_LOAD_SCALE;

	/* amount of load we'd subtract */
	tmp = sds->busiest_load_per_task * SCHED_LOAD_SCALE / bpwr;
	if (sds->max_load > tmp)
		pwr_move += bpwr * min(sds->busiest_load_per_task, sds->max_load - tmp);

	/* amount of load we'd add */
	if (sds->max_load * bpwr < sds->busiest_load_per_task * SCHED_LOAD_SCALE)
		tmp = sds->max_load * bpwr / tpwr;
	else
		tmp = sds->busiest_load_per_task * SCHED_LOAD_SCALE / tpwr;
	pwr_move += tpwr * min(sds->this_load_per_task, sds->this_load + tmp);
	pwr_move /= SCHED_LOAD_SCALE;

	if (pwr_move > pwr_now)		/* move if we gain throughput */
		*imbalance = sds->busiest_load_per_task;
}	/* LAB(find_busiest_group) END */

/*
 * How much weight to pull (2.6.35 calculate_imbalance): bring both groups
 * toward the domain's average, never the busiest below it nor below its
 * capacity (load_above_capacity, unless it is imbalanced within), nor us
 * above it:
 *	imbalance = min(max_pull * busiest power, (avg - this) * this power) / 1024
 * and if that is under one task, fix_small_imbalance() decides.
 */
void calculate_imbalance(struct sd_lb_stats *sds, int this_cpu, unsigned long *imbalance)
{	/* LAB(find_busiest_group) BEGIN */
	unsigned long max_pull, load_above_capacity = ~0UL;

	sds->busiest_load_per_task /= sds->busiest_nr_running;
	if (sds->group_imb)
		sds->busiest_load_per_task = min(sds->busiest_load_per_task, sds->avg_load);

	/* smp nice balancing can leave max_load under the average */
	if (sds->max_load < sds->avg_load) {
		*imbalance = 0;
		fix_small_imbalance(sds, this_cpu, imbalance);
		return;
	}

	if (!sds->group_imb) {	/* don't pull so much that a group would go idle */
		load_above_capacity = sds->busiest_nr_running - sds->busiest_group_capacity;
		load_above_capacity *= SCHED_LOAD_SCALE * SCHED_LOAD_SCALE;
		load_above_capacity /= sds->busiest->cpu_power;
	}
	max_pull = min(sds->max_load - sds->avg_load, load_above_capacity);
	*imbalance = min(max_pull * sds->busiest->cpu_power,
			 (sds->avg_load - sds->this_load) * sds->this->cpu_power) /
		     SCHED_LOAD_SCALE;

	if (*imbalance < sds->busiest_load_per_task)
		fix_small_imbalance(sds, this_cpu, imbalance);
}	/* LAB(find_busiest_group) END */

/*
 * The group to pull from, if the domain is out of balance, and *IMBALANCE,
 * the weight to move (2.6.35 find_busiest_group).  Balanced: no busiest
 * group, or ours at least as loaded as it or as the domain's average, or
 * the busiest within imbalance_pct of us (100 * max <= pct * this).
 */
struct sched_group *find_busiest_group(struct sched_domain *sd, int this_cpu,
				       unsigned long *imbalance, enum cpu_idle_type idle,
				       int *sd_idle, const struct cpumask *cpus, int *balance)
{
	struct sd_lb_stats sds;

	memset(&sds, 0, sizeof(sds));
	update_sd_lb_stats(sd, this_cpu, idle, sd_idle, cpus, balance, &sds);

	if (!(*balance))
		goto ret;
	if (!sds.busiest || sds.busiest_nr_running == 0)
		goto ret;
	if (sds.this_load >= sds.max_load)
		goto ret;
	sds.avg_load = (SCHED_LOAD_SCALE * sds.total_load) / sds.total_pwr;
	if (sds.this_load >= sds.avg_load)
		goto ret;
	if (100 * sds.max_load <= sd->imbalance_pct * sds.this_load)
		goto ret;

	calculate_imbalance(&sds, this_cpu, imbalance);
	return sds.busiest;
ret:	/* out_balanced: no power-savings balance here (see the top) */
	*imbalance = 0;
	return NULL;
}

/*
 * The busiest runqueue of GROUP: the highest load per power, skipping a
 * CPU whose one task outweighs the imbalance (moving it would only move
 * the imbalance) (2.6.35 find_busiest_queue).
 */
struct rq *find_busiest_queue(struct sched_group *group, enum cpu_idle_type idle,
			      unsigned long imbalance, const struct cpumask *cpus)
{
	struct rq *busiest = NULL;
	unsigned long max_load = 0;
	unsigned int i;

	(void)idle;
	for_each_cpu(i, sched_group_cpus(group)) {
		unsigned long power = power_of((int)i);
		unsigned long capacity = (power + SCHED_LOAD_SCALE / 2) / SCHED_LOAD_SCALE;
		unsigned long wl;
		struct rq *rq;

		if (!cpumask_test_cpu(i, cpus))
			continue;
		rq = cpu_rq(i);
		wl = weighted_cpuload((int)i);
		if (capacity && rq->nr_running == 1 && wl > imbalance)
			continue;
		wl = wl * SCHED_LOAD_SCALE / power;	/* compare per unit of power */
		if (wl > max_load) {
			max_load = wl;
			busiest = rq;
		}
	}
	return busiest;
}
