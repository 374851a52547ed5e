/*
 * kernel/sched/rebalance.c - when and how a CPU balances its domains
 * (Linux 2.6.35's sched_fair.c: load_balance(), idle_balance(),
 * need_active_balance(); kernel/sched.c: rebalance_domains()).
 *
 *	rebalance_domains(cpu, idle)	from the tick's softirq when
 *		rq->next_balance is due: each domain bottom up whose
 *		balance_interval (ms; times busy_factor, 64, on a busy CPU)
 *		has passed since its last_balance
 *	idle_balance(cpu, rq)		from schedule() (its SMP copy) about
 *		to idle: each SD_BALANCE_NEWIDLE domain until a task comes,
 *		unless this CPU idled only briefly of late
 *		(avg_idle < sched_migration_cost)
 *	load_balance(cpu, rq, sd, idle)	one domain: busiest group, busiest
 *		queue, move_tasks(); the interval doubles (to max_interval)
 *		while balanced, resets to min_interval after a move
 *
 *	trigger_load_balance(rq, cpu)	from scheduler_tick(): raises
 *		SCHED_SOFTIRQ when rq->next_balance is due; the softirq
 *		(run_rebalance_domains) runs on the way out of the tick
 *
 *	active_load_balance_cpu_stop(busiest)	the active balance, in the
 *		busiest CPU's stopper (migration/N, kernel/stop_machine.c),
 *		which load_balance() asks after repeated failures: push one
 *		task from there to push_cpu *
 * Under sched_preset=linux-6.12 the softirq and idle_balance() hand the
 * work to Linux 6.12's balancer instead (eevdf_balance.c); CFS's path
 * is the one above, unchanged.
 */
#include "topology.h"
#include "stats.h"
#include <kernel/interrupt.h>

/* Backoff cap when pinned tasks make balancing fail (2.6.35). */
#define MAX_PINNED_INTERVAL	512

/* 2.6.35 msecs_to_jiffies() for HZ dividing 1000: rounded up. */
static unsigned long ms_to_jiffies(unsigned long ms)
{
	return (ms * HZ + 999) / 1000;
}

static int time_after_eq_ul(unsigned long a, unsigned long b)
{
	return (long)(a - b) >= 0;
}

/*
 * Kick the busiest CPU's running task over after repeated failures (the
 * only task of a CPU is never pulled).  A newly idle CPU never does: in
 * 2.6.35 only the power-savings level POWERSAVINGS_BALANCE_WAKEUP lets
 * it, and that level is 0 here (need_active_balance()).
 */
static int need_active_balance(struct sched_domain *sd, int idle)
{
	if (idle == CPU_NEWLY_IDLE)
		return 0;
	return sd->nr_balance_failed > sd->cache_nice_tries + 2;
}

/* An SMT domain of a busy CPU reports -1: its sibling balances instead. */
static int smt_busy(struct sched_domain *sd, int sd_idle)
{
	return !sd_idle && (sd->flags & SD_SHARE_CPUPOWER) &&
	       !test_sd_parent(sd, SD_POWERSAVINGS_BALANCE);
}

/* Nothing moved: count it, and after enough failures ask for a push. */
static int balance_failed(int this_cpu, struct rq *busiest, struct sched_domain *sd,
			  enum cpu_idle_type idle, int *all_pinned)
{
	unsigned long flags;
	int active_balance = 0;

	if (schedstat_enabled())
		sd->lb_failed[idle]++;
	sd->nr_balance_failed++;
	if (!need_active_balance(sd, idle))
		return 0;
	raw_spin_lock_irqsave(&busiest->lock, flags);
	/* the running task there may not come here: nothing to kick */
	if (!cpumask_test_cpu((unsigned int)this_cpu, &busiest->curr->cpus_allowed)) {
		raw_spin_unlock_irqrestore(&busiest->lock, flags);
		*all_pinned = 1;
		return -1;
	}
	if (!busiest->active_balance) {
		busiest->active_balance = 1;
		busiest->push_cpu = this_cpu;
		active_balance = 1;
	}
	raw_spin_unlock_irqrestore(&busiest->lock, flags);
	/* kicked: reset the failure counter */
	sd->nr_balance_failed = sd->cache_nice_tries + 1;
	return active_balance;
}

/*
 * The busiest CPU's stopper, asked by load_balance() (2.6.35
 * active_load_balance_cpu_stop()): if that CPU still has more than one
 * task, move one to push_cpu, in the lowest domain spanning both; its
 * running task, preempted by the stopper, is now just queued and may go.
 */
static int active_load_balance_cpu_stop(void *data)
{
	struct rq *busiest_rq = data;
	int busiest_cpu = cpu_of(busiest_rq), target_cpu = busiest_rq->push_cpu;
	struct rq *target_rq = cpu_rq(target_cpu);
	struct sched_domain *sd;
	unsigned long flags;

	raw_spin_lock_irqsave(&busiest_rq->lock, flags);
	/* still asked for, and on this CPU; anything to move? */
	if (busiest_cpu != raw_smp_processor_id() || !busiest_rq->active_balance ||
	    busiest_rq->nr_running <= 1)
		goto out_unlock;
	double_lock_balance(busiest_rq, target_rq);
	for_each_domain(target_cpu, sd)
		if ((sd->flags & SD_LOAD_BALANCE) &&
		    cpumask_test_cpu((unsigned int)busiest_cpu, &sd->span))
			break;
	if (likely(sd)) {
		if (schedstat_enabled())
			sd->alb_count++;
		if (move_one_task(target_rq, target_cpu, busiest_rq, sd, CPU_IDLE)) {
			if (schedstat_enabled())
				sd->alb_pushed++;
		} else if (schedstat_enabled()) {
			sd->alb_failed++;
		}
	}
	double_unlock_balance(busiest_rq, target_rq);
out_unlock:
	busiest_rq->active_balance = 0;
	raw_spin_unlock_irqrestore(&busiest_rq->lock, flags);
	return 0;
}

/*
 * Balance THIS_CPU within SD: pull load from the busiest queue of the
 * busiest group.  Returns >0 if tasks moved, -1 for a busy SMT domain
 * (its idle sibling will balance), else 0; *BALANCE = 0 if another CPU of
 * our group should balance this level (2.6.35 load_balance()).
 */
int load_balance(int this_cpu, struct rq *this_rq, struct sched_domain *sd,
		 enum cpu_idle_type idle, int *balance)
{
	int ld_moved, all_pinned = 0, active_balance = 0, sd_idle = 0;
	struct cpumask cpus = *cpu_online_mask;	/* cpu_active_mask */
	struct sched_group *group;
	unsigned long imbalance, flags;
	struct rq *busiest;

	/* an idle sibling may pull from busy ones unless power savings say no */
	if (idle != CPU_NOT_IDLE && (sd->flags & SD_SHARE_CPUPOWER) &&
	    !test_sd_parent(sd, SD_POWERSAVINGS_BALANCE))
		sd_idle = 1;
	if (schedstat_enabled())
		sd->lb_count[idle]++;
redo:
	group = find_busiest_group(sd, this_cpu, &imbalance, idle, &sd_idle, &cpus, balance);
	if (*balance == 0)
		goto out_balanced;
	if (!group) {
		if (schedstat_enabled())
			sd->lb_nobusyg[idle]++;
		goto out_balanced;
	}
	busiest = find_busiest_queue(group, idle, imbalance, &cpus);
	if (!busiest) {
		if (schedstat_enabled())
			sd->lb_nobusyq[idle]++;
		goto out_balanced;
	}
	if (schedstat_enabled())
		sd->lb_imbalance[idle] += (unsigned int)imbalance;

	ld_moved = 0;
	if (busiest->nr_running > 1) {
		/* an imbalance with one task there stays one: ld_moved 0 */
		local_irq_save(flags);
		double_rq_lock(this_rq, busiest);
		ld_moved = move_tasks(this_rq, this_cpu, busiest, imbalance, sd, idle,
				      &all_pinned);
		double_rq_unlock(this_rq, busiest);
		local_irq_restore(flags);
		if (unlikely(all_pinned)) {	/* every task there is pinned */
			cpumask_clear_cpu((unsigned int)cpu_of(busiest), &cpus);
			if (!cpumask_empty(&cpus))
				goto redo;
			goto out_balanced;
		}
	}

	if (!ld_moved) {
		active_balance = balance_failed(this_cpu, busiest, sd, idle, &all_pinned);
		if (active_balance < 0)
			goto out_one_pinned;
		if (active_balance)	/* its stopper pushes, the rq unlocked */
			stop_one_cpu_nowait((unsigned int)cpu_of(busiest), active_load_balance_cpu_stop,
					    busiest, &busiest->active_balance_work);
	} else {
		sd->nr_balance_failed = 0;
	}

	if (likely(!active_balance))
		sd->balance_interval = (unsigned int)sd->min_interval;	/* unbalanced: reset */
	else if (sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;	/* a push is under way: back off */

	if (!ld_moved && smt_busy(sd, sd_idle))
		ld_moved = -1;
	return ld_moved;

out_balanced:
	if (schedstat_enabled())
		sd->lb_balanced[idle]++;
	sd->nr_balance_failed = 0;
out_one_pinned:
	/* tune up the balancing interval */
	if ((all_pinned && sd->balance_interval < MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
	return smt_busy(sd, sd_idle) ? -1 : 0;
}

/*
 * THIS_CPU is about to idle (its rq lock held): pull from the domains
 * that balance when newly idle, lowest first, until something came
 * (2.6.35 idle_balance()).  The lock is dropped meanwhile, interrupts
 * stay off.  Sets rq->next_balance from the domains' intervals.
 */
void idle_balance(int this_cpu, struct rq *this_rq)
{
	unsigned long next_balance = jiffies + HZ;
	struct sched_domain *sd;
	int pulled_task = 0;

	if (sched_eevdf()) {		/* Linux 6.12's (eevdf_balance.c) */
		sched_balance_newidle(this_cpu, this_rq);
		return;
	}
	this_rq->idle_stamp = this_rq->clock;
	if (this_rq->avg_idle < sysctl_sched_migration_cost)
		return;		/* it idles too briefly to be worth it */

	raw_spin_unlock(&this_rq->lock);
	for_each_domain(this_cpu, sd) {
		unsigned long interval;
		int balance = 1;

		if (!(sd->flags & SD_LOAD_BALANCE))
			continue;
		if (sd->flags & SD_BALANCE_NEWIDLE)
			pulled_task = load_balance(this_cpu, this_rq, sd, CPU_NEWLY_IDLE,
						   &balance);
		interval = ms_to_jiffies(sd->balance_interval);
		if ((long)(next_balance - (sd->last_balance + interval)) > 0)
			next_balance = sd->last_balance + interval;
		if (pulled_task) {
			this_rq->idle_stamp = 0;
			break;
		}
	}
	raw_spin_lock(&this_rq->lock);

	/* going idle: next_balance may have been set for a busy CPU */
	if (pulled_task || (long)(jiffies - this_rq->next_balance) > 0)
		this_rq->next_balance = next_balance;
}

/*
 * The periodic balance of CPU (the scheduler softirq's work, 2.6.35
 * rebalance_domains()): each domain whose interval has passed, bottom up;
 * a pull makes the CPU busy for the levels above; stop where another CPU
 * of our group balances.  rq->next_balance: the earliest next due time.
 */
void rebalance_domains(int cpu, enum cpu_idle_type idle)
{
	unsigned long next_balance = jiffies + 60 * HZ, interval;
	struct rq *rq = cpu_rq(cpu);
	int update_next_balance = 0, balance = 1;
	struct sched_domain *sd;

	for_each_domain(cpu, sd) {
		if (!(sd->flags & SD_LOAD_BALANCE))
			continue;
		interval = sd->balance_interval;
		if (idle != CPU_IDLE)
			interval *= sd->busy_factor;
		interval = ms_to_jiffies(interval);
		if (unlikely(!interval))
			interval = 1;
		if (interval > HZ * NR_CPUS / 10)
			interval = HZ * NR_CPUS / 10;
		/* SD_SERIALIZE (NUMA levels only) never set here: no lock */
		if (time_after_eq_ul(jiffies, sd->last_balance + interval)) {
			if (load_balance(cpu, rq, sd, idle, &balance))
				idle = CPU_NOT_IDLE;	/* we pulled: no longer idle */
			sd->last_balance = jiffies;
		}
		if ((long)(next_balance - (sd->last_balance + interval)) > 0) {
			next_balance = sd->last_balance + interval;
			update_next_balance = 1;
		}
		if (!balance)	/* another CPU of our group balances more actively */
			break;
	}
	if (likely(update_next_balance))
		rq->next_balance = next_balance;
}

/*
 * The scheduler softirq (2.6.35 run_rebalance_domains()): on the way out
 * of the tick that raised it, balance this CPU's domains as idle if the
 * tick found it idle.  Nohz idle balancing (the idle load balancer that
 * balances for CPUs whose tick is stopped) is not here: every Granule CPU
 * keeps ticking while idle, so each balances for itself.  Under EEVDF
 * the queue's blocked PELT load is aged first, as 6.12's softirq does.
 */
static void run_rebalance_domains(struct softirq_action *h)
{
	int this_cpu = raw_smp_processor_id();
	struct rq *this_rq = cpu_rq(this_cpu);

	(void)h;
	if (sched_eevdf()) {	/* 6.12's sched_balance_softirq(): PELT first */
		sched_balance_softirq_eevdf(this_cpu);
		sched_balance_domains(this_rq, this_rq->idle_at_tick ? CPU_IDLE : CPU_NOT_IDLE);
		return;
	}
	rebalance_domains(this_cpu, this_rq->idle_at_tick ? CPU_IDLE : CPU_NOT_IDLE);
}

/* sched_init(): the softirq's handler (2.6.35 open_softirq() there). */
void init_sched_softirq(void)
{
	open_softirq(SCHED_SOFTIRQ, run_rebalance_domains);
}

/*
 * From scheduler_tick(): raise the scheduler softirq when CPU's periodic
 * balance is due (2.6.35 trigger_load_balance(), without nohz); a CPU on
 * no domain (one CPU online, or before sched_init_smp()) never raises it.
 */
void trigger_load_balance(struct rq *rq, int cpu)
{
	if (time_after_eq_ul(jiffies, rq->next_balance) && likely(cpu_rq(cpu)->sd))
		raise_softirq(SCHED_SOFTIRQ);
}
