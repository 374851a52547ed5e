/*
 * kernel/sched/fair_smp.c - where the fair class puts a waking, forked or
 * exec'ing task (Linux 2.6.35's sched_fair.c: select_task_rq_fair(),
 * wake_affine(), effective_load(), find_idlest_group(), find_idlest_cpu(),
 * select_idle_sibling(); no group scheduling).
 *
 * The walk (select_task_rq_fair): climb the waking CPU's domains.  For a
 * wakeup the first SD_WAKE_AFFINE domain that spans the task's previous
 * CPU too is the affine domain; for every event the highest domain with
 * the event's SD_BALANCE_* flag is the balancing one.  With an affine
 * domain, wake_affine() chooses between this CPU and the previous one, and
 * select_idle_sibling() then prefers an idle CPU sharing the chosen one's
 * cache.  Without one, the balancing domain's idlest group and its idlest
 * CPU, and the same again from that CPU's domains below that level.
 *
 * This is 2.6.35's shape (LKML, "sched: Fix select_idle_sibling() logic in
 * select_task_rq_fair()", Suresh Siddha, 2010): the idle sibling is looked
 * for after wake_affine() has chosen, around the chosen CPU; 2.6.34 looked
 * for it during the walk, around the waking CPU.  As in 2.6.35 the
 * AFFINE_WAKEUPS feature is listed but tested nowhere.
 *
 * Deliberate difference (docs/SCHEDULER.md): the domains'
 * SD_POWERSAVINGS_BALANCE and SD_PREFER_LOCAL are never set (power
 * savings fixed at 0), so want_sd always stays 1.
 */
#include "topology.h"
#include "stats.h"

/*
 * The load change on CPU of adding WL weight to a group, as the root sees
 * it.  Without group scheduling that is WL itself (2.6.35's
 * !CONFIG_FAIR_GROUP_SCHED effective_load()).
 */
long effective_load(int cpu, long wl, long wg)
{
	(void)cpu;
	(void)wg;
	return wl;
}

/*
 * Should P, last on prev_cpu, wake on this CPU instead?  Yes if this CPU
 * is idle or, with P counted on this side and each load scaled by the
 * other CPU's power, the two are within half the domain's imbalance_pct,
 *	100 * power(prev) * (this_load + w)
 *		<= (100 + (pct - 100) / 2) * power(this) * prev_load;
 * for a sync wakeup (the waker is about to sleep) the waker's weight is
 * first taken off this CPU.  Else yes too if this CPU is no busier and
 * both together carry less than one average task of this CPU (2.6.35
 * wake_affine; the products are unsigned long, 32 bits on i686, as
 * Linux's).
 */
int wake_affine(struct sched_domain *sd, struct task *p, int sync)
{
	int idx = (int)sd->wake_idx, this_cpu = raw_smp_processor_id();
	int prev_cpu = (int)task_cpu(p), balanced;
	unsigned long load = source_load(prev_cpu, idx);
	unsigned long this_load = target_load(this_cpu, idx);
	unsigned long tl_per_task, weight;

	if (sync) {
		weight = current->se.load.weight;
		this_load += (unsigned long)effective_load(this_cpu, -(long)weight, -(long)weight);
		load += (unsigned long)effective_load(prev_cpu, 0, -(long)weight);
	}

	weight = p->se.load.weight;

	/* an idle this_cpu (maybe by the sync above) is always balanced */
	if (this_load) {
		unsigned long this_eff_load, prev_eff_load;

		this_eff_load = 100;
		this_eff_load *= power_of(prev_cpu);
		this_eff_load *= this_load +
			(unsigned long)effective_load(this_cpu, (long)weight, (long)weight);

		prev_eff_load = 100 + (sd->imbalance_pct - 100) / 2;
		prev_eff_load *= power_of(this_cpu);
		prev_eff_load *= load + (unsigned long)effective_load(prev_cpu, 0, (long)weight);

		balanced = this_eff_load <= prev_eff_load;
	} else {
		balanced = 1;
	}

	/* the waker will sleep soon: attract the wakee */
	if (sync && balanced)
		return 1;

	tl_per_task = cpu_avg_load_per_task(this_cpu);
	if (balanced ||
	    (this_load <= load && this_load + target_load(prev_cpu, idx) <= tl_per_task)) {
		/* SD_WAKE_AFFINE, p cache-cold here, no bad imbalance */
		if (schedstat_enabled())
			sd->ttwu_move_affine++;
		return 1;
	}
	return 0;
}

/*
 * The least loaded group of SD that P may run in, or NULL if ours is
 * within half the imbalance_pct of it (2.6.35 find_idlest_group).  Our
 * group counts at its CPUs' low guesses, the others at their high ones, so
 * a task leaves only for a clearly idler group.
 */
struct sched_group *find_idlest_group(struct sched_domain *sd, struct task *p,
				      int this_cpu, int load_idx)
{
	struct sched_group *idlest = NULL, *group = sd->groups;
	unsigned long min_load = ~0UL, this_load = 0;
	unsigned int imbalance = 100 + (sd->imbalance_pct - 100) / 2;

	do {
		unsigned long load, avg_load = 0;
		int local_group;
		unsigned int i;

		if (!(group->cpumask.bits & p->cpus_allowed.bits))
			continue;	/* no CPU of it allowed */
		local_group = cpumask_test_cpu((unsigned int)this_cpu, sched_group_cpus(group));

		for_each_cpu(i, sched_group_cpus(group)) {
			if (local_group)
				load = source_load((int)i, load_idx);
			else
				load = target_load((int)i, load_idx);
			avg_load += load;
		}
		avg_load = avg_load * SCHED_LOAD_SCALE / group->cpu_power;

		if (local_group) {
			this_load = avg_load;
		} else if (avg_load < min_load) {
			min_load = avg_load;
			idlest = group;
		}
	} while (group = group->next, group != sd->groups);

	if (!idlest || 100 * this_load < imbalance * min_load)
		return NULL;
	return idlest;
}

/* The allowed CPU of GROUP with the least weight; ties go to THIS_CPU. */
int find_idlest_cpu(struct sched_group *group, struct task *p, int this_cpu)
{
	unsigned long load, min_load = ~0UL;
	int idlest = -1;
	unsigned int i;

	for_each_cpu(i, sched_group_cpus(group)) {
		if (!cpumask_test_cpu(i, &p->cpus_allowed))
			continue;
		load = weighted_cpuload((int)i);
		if (load < min_load || (load == min_load && (int)i == this_cpu)) {
			min_load = load;
			idlest = (int)i;
		}
	}
	return idlest;
}

/*
 * TARGET (this CPU or P's previous one, as wake_affine() chose) if it is
 * idle; else the first idle allowed CPU of TARGET's cache-sharing
 * (SD_SHARE_PKG_RESOURCES) domains, lowest first, up to the one that spans
 * both this CPU and the previous one; else TARGET (2.6.35
 * select_idle_sibling).
 */
int select_idle_sibling(struct task *p, int target)
{
	int cpu = raw_smp_processor_id(), prev_cpu = (int)task_cpu(p);
	struct sched_domain *sd;
	unsigned int i;

	if (target == cpu && idle_cpu(cpu))
		return cpu;
	if (target == prev_cpu && idle_cpu(prev_cpu))
		return prev_cpu;

	for_each_domain(target, sd) {
		if (!(sd->flags & SD_SHARE_PKG_RESOURCES))
			break;
		for_each_cpu(i, sched_domain_span(sd)) {
			if (cpumask_test_cpu(i, &p->cpus_allowed) && idle_cpu((int)i)) {
				target = (int)i;
				break;
			}
		}
		/* no further than the domain spanning both candidates */
		if (cpumask_test_cpu((unsigned int)cpu, sched_domain_span(sd)) &&
		    cpumask_test_cpu((unsigned int)prev_cpu, sched_domain_span(sd)))
			break;
	}
	return target;
}

/* From SD down: the idlest group's idlest CPU, level by level (inlined
 * into select_task_rq_fair, as 2.6.35 has it there). */
static __attribute__((always_inline)) inline int find_idlest_walk(struct sched_domain *sd, struct task *p, int cpu,
			    int sd_flag, int new_cpu)
{
	while (sd) {
		int load_idx = (sd_flag & SD_BALANCE_WAKE) ? (int)sd->wake_idx
							   : (int)sd->forkexec_idx;
		struct sched_group *group;

		if (!(sd->flags & sd_flag)) {
			sd = sd->child;
			continue;
		}
		group = find_idlest_group(sd, p, cpu, load_idx);
		if (!group) {
			sd = sd->child;
			continue;
		}
		new_cpu = find_idlest_cpu(group, p, cpu);
		if (new_cpu == -1 || new_cpu == cpu) {
			sd = sd->child;		/* a lower level of cpu */
			continue;
		}
		/* a lower level of new_cpu: its domains below this one's size */
		cpu = new_cpu;
		sd = sd_below(cpu, sd->span_weight, sd_flag);
	}
	return new_cpu;
}

/*
 * The CPU P should run on for the event SD_FLAG (SD_BALANCE_WAKE, _FORK
 * or _EXEC), from the running CPU's view (2.6.35 select_task_rq_fair).
 */
int select_task_rq_fair(struct task *p, int sd_flag, int wake_flags)
{
	struct sched_domain *tmp, *affine_sd = NULL, *sd = NULL;
	int cpu = raw_smp_processor_id(), prev_cpu = (int)task_cpu(p), new_cpu = cpu;
	int want_affine = 0, sync = wake_flags & WF_SYNC;

	if (sd_flag & SD_BALANCE_WAKE) {
		if (cpumask_test_cpu((unsigned int)cpu, &p->cpus_allowed))
			want_affine = 1;
		new_cpu = prev_cpu;
	}

	for_each_domain(cpu, tmp) {
		if (!(tmp->flags & SD_LOAD_BALANCE))
			continue;
		/* both this CPU and prev_cpu in it: this CPU may take P */
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu((unsigned int)prev_cpu, sched_domain_span(tmp))) {
			affine_sd = tmp;
			want_affine = 0;
		}
		if (!(tmp->flags & sd_flag))
			continue;
		sd = tmp;		/* want_sd: no power savings, always */
	}

	if (affine_sd) {
		if (cpu == prev_cpu || wake_affine(affine_sd, p, sync))
			return select_idle_sibling(p, cpu);
		return select_idle_sibling(p, prev_cpu);
	}
	return find_idlest_walk(sd, p, cpu, sd_flag, new_cpu);
}
