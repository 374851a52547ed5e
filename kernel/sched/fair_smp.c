/*
 * kernel/sched/fair_smp.c - where the fair class puts a waking, forked or
 * exec'ing task (Linux 2.6.35's sched_fair.c: select_task_rq_fair(),
 * wake_affine(), effective_load(), find_idlest_group(), find_idlest_cpu(),
 * select_idle_sibling(); no group scheduling).
 *
 * The walk (select_task_rq_fair): climb the waking CPU's domains.  For a
 * wakeup the first SD_WAKE_AFFINE domain spanning both this CPU and the
 * task's previous one is the affine domain; on the way, a cache-sharing
 * domain (SD_SHARE_PKG_RESOURCES) offers an idle sibling instead of this
 * CPU.  Then either the affine target (if wake_affine() agrees, or it is
 * idle or the previous CPU anyway) or, in the highest domain with the
 * event's SD_BALANCE_* flag, the idlest group and its idlest CPU, and the
 * same again from that CPU's domains below that level.
 *
 * Deliberate differences (docs/SCHEDULER.md): want_affine also needs the
 * AFFINE_WAKEUPS feature, which Granule prints and which is on by
 * default; the domains' SD_POWERSAVINGS_BALANCE and SD_PREFER_LOCAL are
 * never set (power savings fixed at 0), so want_sd always stays 1.
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
 * Should P, last on prev_cpu, wake on this CPU instead?  Yes if the two
 * loads, with P counted on this side, are within half the domain's
 * imbalance_pct of each other,
 *	100 * (this_load + w) <= (100 + (pct - 100) / 2) * prev_load
 * or this CPU is idle; for a sync wakeup (the waker is about to sleep)
 * the waker's weight is first taken off this CPU.  Else yes too if this
 * CPU is no busier and both together carry less than one average task of
 * this CPU (2.6.35 wake_affine).
 */
int wake_affine(struct sched_domain *sd, struct task *p, int sync)
{
	int idx = (int)sd->wake_idx, this_cpu = raw_smp_processor_id();
	int prev_cpu = (int)task_cpu(p), balanced;
	unsigned long load = source_load(prev_cpu, idx);
	unsigned long this_load = target_load(this_cpu, idx);
	unsigned long tl_per_task, weight;
	unsigned int imbalance;

	if (sync) {
		weight = current->se.load.weight;
		this_load += (unsigned long)effective_load(this_cpu, -(long)weight, -(long)weight);
		load += (unsigned long)effective_load(prev_cpu, 0, -(long)weight);
	}

	weight = p->se.load.weight;
	imbalance = 100 + (sd->imbalance_pct - 100) / 2;

	/* an idle this_cpu (maybe by the sync above) is always balanced */
	balanced = !this_load ||
		100 * (this_load + (unsigned long)effective_load(this_cpu, (long)weight, (long)weight)) <=
		imbalance * (load + (unsigned long)effective_load(prev_cpu, 0, (long)weight));

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
 * An idle CPU of SD for P instead of TARGET: P's previous CPU if TARGET is
 * this CPU and the previous one has no fair task, else the first allowed
 * CPU of SD without one, else TARGET (2.6.35 select_idle_sibling).
 */
int select_idle_sibling(struct task *p, struct sched_domain *sd, int target)
{
	int cpu = raw_smp_processor_id(), prev_cpu = (int)task_cpu(p);
	unsigned int i;

	if (target == cpu && !cpu_rq(prev_cpu)->cfs.nr_running)
		return prev_cpu;
	for_each_cpu(i, sched_domain_span(sd)) {
		if (cpumask_test_cpu(i, &p->cpus_allowed) && !cpu_rq(i)->cfs.nr_running)
			return (int)i;
	}
	return target;
}

/* The affine part of the walk: TMP spans both CPUs, maybe an idle sibling. */
static int affine_target(struct task *p, struct sched_domain *tmp, int cpu,
			 int prev_cpu, int cpu_idle)
{
	int target = -1;

	if (cpumask_test_cpu((unsigned int)prev_cpu, sched_domain_span(tmp)))
		target = cpu;
	if (!cpu_idle && (tmp->flags & SD_SHARE_PKG_RESOURCES))
		target = select_idle_sibling(p, tmp, target);
	return target;
}

/* From SD down: the idlest group's idlest CPU, level by level. */
static int find_idlest_walk(struct sched_domain *sd, struct task *p, int cpu,
			    int sd_flag, int new_cpu)
{
	struct sched_domain *tmp;

	while (sd) {
		int load_idx = (sd_flag & SD_BALANCE_WAKE) ? (int)sd->wake_idx
							   : (int)sd->forkexec_idx;
		struct sched_group *group;
		unsigned int weight;

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
		weight = sd->span_weight;
		sd = NULL;
		for_each_domain(cpu, tmp) {
			if (weight <= tmp->span_weight)
				break;
			if (tmp->flags & sd_flag)
				sd = tmp;
		}
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
	int want_affine = 0, cpu_idle = !current->pid, sync = wake_flags & WF_SYNC;

	if (sd_flag & SD_BALANCE_WAKE) {
		if (sched_feat(AFFINE_WAKEUPS) &&
		    cpumask_test_cpu((unsigned int)cpu, &p->cpus_allowed))
			want_affine = 1;
		new_cpu = prev_cpu;
	}

	for_each_domain(cpu, tmp) {
		if (!(tmp->flags & SD_LOAD_BALANCE))
			continue;
		if (want_affine) {
			int target = affine_target(p, tmp, cpu, prev_cpu, cpu_idle);

			if (target >= 0) {
				if (tmp->flags & SD_WAKE_AFFINE) {
					affine_sd = tmp;
					want_affine = 0;
					if (target != cpu)
						cpu_idle = 1;
				}
				cpu = target;
			}
		}
		if (!(tmp->flags & sd_flag))
			continue;
		sd = tmp;		/* want_sd: no power savings, always */
	}

	if (affine_sd) {
		if (cpu_idle || cpu == prev_cpu || wake_affine(affine_sd, p, sync))
			return cpu;
	}
	return find_idlest_walk(sd, p, cpu, sd_flag, new_cpu);
}
