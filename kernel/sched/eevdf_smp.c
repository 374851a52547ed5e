/*
 * kernel/sched/eevdf_smp.c - the EEVDF class on several CPUs: Linux
 * 6.12's move of a queued task (move_queued_task() with
 * TASK_ON_RQ_MIGRATING) and, by it, where a task runs
 * (select_task_rq_fair(): wake_affine(), select_idle_sibling(); its slow
 * path, sched_balance_find_dst_cpu(), is eevdf_find_dst.c).
 *
 * Lag across CPUs: 6.12 keeps a task's vlag (V - v_i at its dequeue,
 * eevdf.c) and place_entity() puts it at V' - vlag on the new queue, so
 * what it was owed (or owed) on one CPU it is owed on the other; nothing
 * is converted at the move, unlike 2.6.35's relative vruntime
 * (migrate.c).  PELT's load goes with it (eevdf_pelt.c): detached at the
 * dequeue, attached at the enqueue.
 */
#include "topology.h"
#include "stats.h"
#include "eevdf_pelt.h"
#include <kernel/math64.h>

/*
 * Move the queued, not running task P from SRC_RQ to DST_RQ, both locked
 * (6.12 move_queued_task(): deactivate_task() leaves p->on_rq at
 * TASK_ON_RQ_MIGRATING until activate_task() there).  A DELAY_DEQUEUE
 * sleeper moves as it is, still delayed, as 6.12 moves it; but Granule's
 * rq->nr_running counted it out when it blocked, and its class's
 * preemption check is what requeues a woken one (eevdf_class.c,
 * ttwu_delayed()): so it moves without deactivate/activate's counts and
 * without the check, which would wake it.
 */
void move_queued_task_eevdf(struct rq *src_rq, struct task *p, struct rq *dst_rq)
{
	int delayed = p->se.sched_delayed;

	p->on_rq = TASK_ON_RQ_MIGRATING;
	if (delayed)
		dequeue_task(src_rq, p, 0);
	else
		deactivate_task(src_rq, p, 0);
	p->on_rq = TASK_ON_RQ_MIGRATING;	/* dequeue_task() cleared it */
	set_task_cpu(p, (unsigned int)cpu_of(dst_rq));
	if (delayed) {
		enqueue_task(dst_rq, p, 0);
		return;
	}
	activate_task(dst_rq, p, 0);
	check_preempt_curr(dst_rq, p, 0);
}

void update_idle_cpu_scan(int cpu);

/*
 * The scheduler softirq's EEVDF steps before the (2.6.35) periodic
 * balance: age this CPU's blocked load (6.12's
 * sched_balance_update_blocked_averages()) and, from the LLC's
 * utilisation, SIS_UTIL's scan depth (update_idle_cpu_scan()).
 */
void sched_balance_softirq_eevdf(int cpu)
{
	sched_balance_update_blocked_averages(cpu);
	update_idle_cpu_scan(cpu);
}

/* **************************************************************************
 * Wakeup placement (6.12's select_task_rq_fair() fast path)
 *
 * The topology 6.12 reads, from Granule's 2.6.35 domains: the last-level
 * cache domain (sd_llc) is the highest with SD_SHARE_PKG_RESOURCES (MC
 * under QEMU's -smp N: one package, N cores), its id the span's first
 * CPU.  QEMU shows no SMT siblings (no SIBLING level), so select_idle_core()
 * and select_idle_smt() are moot; no clusters, no asymmetric capacities,
 * no energy model (find_energy_efficient_cpu() is never reached).
 */

/* The LLC domain of CPU, or NULL (6.12's per_cpu(sd_llc, cpu)). */
struct sched_domain *eevdf_sd_llc(int cpu)
{
	struct sched_domain *sd, *llc = NULL;

	for_each_domain(cpu, sd) {
		if (!(sd->flags & SD_SHARE_PKG_RESOURCES))
			break;
		llc = sd;
	}
	return llc;
}

static int sd_llc_id(int cpu)
{
	struct sched_domain *sd = eevdf_sd_llc(cpu);

	return sd ? (int)cpumask_first(sched_domain_span(sd)) : cpu;
}

static int sd_llc_size(int cpu)
{
	struct sched_domain *sd = eevdf_sd_llc(cpu);

	return sd ? (int)sd->span_weight : 1;
}

int cpus_share_cache(int this_cpu, int that_cpu)
{
	if (this_cpu == that_cpu)
		return 1;
	return sd_llc_id(this_cpu) == sd_llc_id(that_cpu);
}

/*
 * 6.12's available_idle_cpu() = idle_cpu(): the idle task runs and
 * nothing is queued (a wakeup may have queued a task it has not yet
 * switched to).  No vCPU preemption to ask the hypervisor about.
 */
int available_idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return rq->curr == rq->idle && !rq->nr_running;
}

/* PELT's view of a CPU (no groups: the root cfs_rq's averages). */
static inline unsigned long cpu_load(int cpu)
{
	return eevdf_rq(&cpu_rq(cpu)->cfs)->avg.load_avg;
}

/* task_h_load() without groups: the task's own load_avg. */
static inline unsigned long task_h_load(struct task *p)
{
	return p->se.avg.load_avg;
}

/* capacity_of(): 1024 for each of QEMU's identical CPUs (no rt/irq
 * pressure is tracked to subtract: 6.12's scale_rt_capacity()). */
#define capacity_of(cpu)	SCHED_CAPACITY_SCALE

/*
 * The waker's record of whom it wakes: a flip each time the wakee
 * changes, halved once a second (jiffies > stamp + HZ).
 */
static void record_wakee(struct task *p)
{
	if ((s64)(jiffies - (current->wakee_flip_decay_ts + HZ)) > 0) {
		current->wakee_flips >>= 1;
		current->wakee_flip_decay_ts = jiffies;
	}
	if (current->last_wakee != p) {
		current->last_wakee = p;
		current->wakee_flips++;
	}
}

/*
 * A waker that flips among many wakees (a dispatcher), or wakees that
 * flip among many wakers, should not pull them all onto one cache: wide
 * if the lesser count is at least the LLC's size and the greater at least
 * that many times the lesser.
 */
int wake_wide(struct task *p)
{
	unsigned int master = current->wakee_flips, slave = p->wakee_flips;
	unsigned int factor = (unsigned int)sd_llc_size(raw_smp_processor_id());

	if (master < slave) {
		unsigned int t = master;

		master = slave;
		slave = t;
	}
	if (slave < factor || master < slave * factor)
		return 0;
	return 1;
}

/*
 * WA_IDLE: an idle waking CPU sharing the cache takes the wakee, unless
 * the previous CPU is idle too; a sync waker alone on its CPU gives it
 * up; an idle previous CPU keeps it.  NR_CPUS: no opinion.
 */
int wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{	/* LAB(wake_affine) BEGIN */
	if (available_idle_cpu(this_cpu) && cpus_share_cache(this_cpu, prev_cpu))
		return available_idle_cpu(prev_cpu) ? prev_cpu : this_cpu;

	if (sync && cpu_rq(this_cpu)->nr_running == 1)
		return this_cpu;

	if (available_idle_cpu(prev_cpu))
		return prev_cpu;

	return NR_CPUS;
}	/* LAB(wake_affine) END */

/*
 * WA_WEIGHT: this CPU if, with P moved here (and a sync waker's load
 * taken off), its PELT load is below the previous CPU's, the latter
 * favoured by half the domain's imbalance_pct (WA_BIAS):
 *	100 * cap(prev) * (load(this) + task)
 *	  < (100 + (pct - 100) / 2) * cap(this) * (load(prev) - task)
 * A sync waker heavier than its CPU's load makes this CPU win outright;
 * sync adds 1 to the right so that a tie stacks the wakee on the waker.
 */
int wake_affine_weight(struct sched_domain *sd, struct task *p,
		       int this_cpu, int prev_cpu, int sync)
{	/* LAB(wake_affine) BEGIN */
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	this_eff_load = (s64)cpu_load(this_cpu);

	if (sync) {
		unsigned long current_load = task_h_load(current);

		if ((s64)current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= (s64)current_load;
	}

	task_load = task_h_load(p);

	this_eff_load += (s64)task_load;
	if (sched_feat(WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= capacity_of(prev_cpu);

	prev_eff_load = (s64)cpu_load(prev_cpu);
	prev_eff_load -= (s64)task_load;
	if (sched_feat(WA_BIAS))
		prev_eff_load *= 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff_load *= capacity_of(this_cpu);

	if (sync)
		prev_eff_load += 1;

	return this_eff_load < prev_eff_load ? this_cpu : NR_CPUS;
}	/* LAB(wake_affine) END */

/* This CPU or P's previous one (6.12 wake_affine()). */
int wake_affine_eevdf(struct sched_domain *sd, struct task *p,
		      int this_cpu, int prev_cpu, int sync)
{	/* LAB(wake_affine) BEGIN */
	int target = NR_CPUS;

	if (sched_feat(WA_IDLE))
		target = wake_affine_idle(this_cpu, prev_cpu, sync);

	if (sched_feat(WA_WEIGHT) && target == NR_CPUS)
		target = wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);

	if (target != this_cpu)
		return prev_cpu;

	if (schedstat_enabled())
		sd->ttwu_move_affine++;
	return target;
}	/* LAB(wake_affine) END */

/*
 * SIS_UTIL: how many CPUs of each LLC select_idle_cpu() may look at,
 * by LLC id; 0 until the first periodic balance sets it (6.12's
 * sd_llc_shared->nr_idle_scan starts zeroed).
 */
static int nr_idle_scan[NR_CPUS];

/*
 * 6.12's update_idle_cpu_scan(): the busier the LLC, the fewer CPUs worth
 * scanning, none from 85% (1/1.17, imbalance_pct 117) on.  With x the
 * LLC's mean utilisation (sum_util / llc_weight, 1024 = busy):
 *	y = 1024 - x^2 * pct^2 / (10000 * 1024),  nr = llc_weight * y / 1024
 * 6.12 computes it when balancing the LLC level with the groups' util
 * (cpu_util_cfs: max(util_avg, util_est), capped at capacity); here the
 * EEVDF softirq does it at each periodic balance of a CPU.
 */
void update_idle_cpu_scan(int cpu)
{	/* LAB(wake_affine) BEGIN */
	struct sched_domain *sd = eevdf_sd_llc(cpu);
	u64 x = 0, tmp, y;
	unsigned int i;
	u32 pct;

	if (!sched_feat(SIS_UTIL) || !sd)
		return;

	for_each_cpu(i, sched_domain_span(sd)) {
		struct sched_avg *sa = &eevdf_rq(&cpu_rq((int)i)->cfs)->avg;
		u32 util = sa->util_avg;

		if (sched_feat(UTIL_EST))
			util = max(util, sa->util_est);
		x += min(util, (u32)SCHED_CAPACITY_SCALE);
	}
	x = div_u64(x, sd->span_weight);

	pct = sd->imbalance_pct;
	tmp = div_u64(x * x * pct * pct, 10000 * SCHED_CAPACITY_SCALE);
	tmp = min(tmp, (u64)SCHED_CAPACITY_SCALE);
	y = SCHED_CAPACITY_SCALE - tmp;

	y = div_u64(y * sd->span_weight, SCHED_CAPACITY_SCALE);
	nr_idle_scan[sd_llc_id(cpu)] = (int)y;
}	/* LAB(wake_affine) END */

/*
 * An idle CPU of SD allowed to P, from TARGET + 1 round the span, at
 * most nr_idle_scan of them (SIS_UTIL); -1 if none (6.12
 * select_idle_cpu() without SMT cores).  6.12 also takes a CPU running
 * only SCHED_IDLE tasks (sched_idle_cpu()): Granule does not count them.
 */
int select_idle_cpu(struct task *p, struct sched_domain *sd, int target)
{	/* LAB(wake_affine) BEGIN */
	struct cpumask cpus;
	int nr = 0x7fffffff;
	unsigned int k;

	cpumask_and(&cpus, sched_domain_span(sd), &p->cpus_allowed);

	if (sched_feat(SIS_UTIL)) {
		/* because !--nr is the condition to stop scan */
		nr = nr_idle_scan[sd_llc_id(target)] + 1;
		/* overloaded LLC is unlikely to have idle cpu/core */
		if (nr == 1)
			return -1;
	}

	for (k = 1; k <= NR_CPUS; k++) {		/* for_each_cpu_wrap */
		int cpu = (int)((unsigned int)target + k) % NR_CPUS;

		if (!cpumask_test_cpu((unsigned int)cpu, &cpus))
			continue;
		if (--nr <= 0)
			return -1;
		if (available_idle_cpu(cpu))
			return cpu;
	}
	return -1;
}	/* LAB(wake_affine) END */

/*
 * Where P, woken, should run: TARGET (wake_affine's choice) if idle; else
 * PREV if it shares TARGET's cache and is idle; else, for a per-CPU
 * kernel thread's wakee on the thread's own CPU, PREV; else P's
 * recently used CPU if it shares the cache and is idle; else an idle CPU
 * of TARGET's LLC (select_idle_cpu); else TARGET (6.12
 * select_idle_sibling()).
 */
int select_idle_sibling_eevdf(struct task *p, int prev, int target)
{	/* LAB(wake_affine) BEGIN */
	struct sched_domain *sd;
	int i, recent_used_cpu;

	if (available_idle_cpu(target))
		return target;

	/* If the previous CPU is cache affine and idle, don't be stupid */
	if (prev != target && cpus_share_cache(prev, target) && available_idle_cpu(prev))
		return prev;

	/* a per-CPU kthread's wakee, on that CPU: as a sync wakeup */
	if ((current->flags & PF_KTHREAD) && cpumask_weight(&current->cpus_allowed) == 1 &&
	    prev == raw_smp_processor_id() && this_rq()->nr_running <= 1)
		return prev;

	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent_used_cpu != prev && recent_used_cpu != target &&
	    cpus_share_cache(recent_used_cpu, target) &&
	    available_idle_cpu(recent_used_cpu) &&
	    cpumask_test_cpu((unsigned int)recent_used_cpu, &p->cpus_allowed))
		return recent_used_cpu;

	sd = eevdf_sd_llc(target);
	if (!sd)
		return target;

	i = select_idle_cpu(p, sd, target);
	if (i >= 0)
		return i;

	return target;
}	/* LAB(wake_affine) END */

/*
 * The CPU P should run on for SD_FLAG (6.12 select_task_rq_fair()).  A
 * wakeup (SD_BALANCE_WAKE; 6.12's WF_TTWU) records the wakee and, unless
 * wake_wide(), climbs this CPU's domains to the first SD_WAKE_AFFINE one
 * that spans P's previous CPU: wake_affine() chooses between the two,
 * select_idle_sibling() refines.  Fork and exec (and a wakeup whose
 * climb found a domain with its SD_BALANCE_* flag and no affine one) go
 * to the slow path, 6.12's sched_balance_find_dst_cpu(): its checks here,
 * then its walk over the balancer's group types (eevdf_find_dst.c).
 */
int select_task_rq_eevdf(struct task *p, int sd_flag, int wake_flags)
{
	int sync = (wake_flags & WF_SYNC) && !(current->flags & PF_EXITING);
	int cpu = raw_smp_processor_id(), prev_cpu = (int)task_cpu(p);
	struct sched_domain *tmp, *sd = NULL;
	int new_cpu = prev_cpu, want_affine = 0;

	if (sd_flag & SD_BALANCE_WAKE) {
		record_wakee(p);
		want_affine = !wake_wide(p) &&
			cpumask_test_cpu((unsigned int)cpu, &p->cpus_allowed);
	}

	for_each_domain(cpu, tmp) {
		/* both this CPU and prev_cpu in it: this CPU may take P */
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu((unsigned int)prev_cpu, sched_domain_span(tmp))) {
			if (cpu != prev_cpu)
				new_cpu = wake_affine_eevdf(tmp, p, cpu, prev_cpu, sync);
			sd = NULL;	/* prefer wake_affine over balance flags */
			break;
		}
		if (tmp->flags & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}

	if (unlikely(sd)) {		/* slow path: sched_balance_find_dst_cpu */
		if (!cpumask_intersects(sched_domain_span(sd), &p->cpus_allowed))
			return prev_cpu;
		if (!(sd_flag & SD_BALANCE_FORK))	/* a new task has no history */
			__update_load_avg_blocked_se(eevdf_rq(&task_rq(p)->cfs)->avg.last_update_time,
						     &p->se);	/* sync_entity_load_avg */
		return sched_balance_find_dst_cpu(sd, p, cpu, sd_flag);	/* eevdf_find_dst.c */
	}
	if (sd_flag & SD_BALANCE_WAKE)
		new_cpu = select_idle_sibling_eevdf(p, prev_cpu, new_cpu);
	return new_cpu;
}
