/*
 * kernel/sched/sched_tick.c - the scheduler's tick: scheduler_tick() (Linux
 * 6.12's sched_tick()) with the decaying cpu_load[] averages, and the
 * hrtick glue (hrtick_start, hrtick_fire; core.c's schedule() clears
 * it).  Linux 2.6.35's kernel/sched.c
 * under the same names; the locking is core.c's (rq_lock(): a jump over
 * it at one CPU).
 */
#include "sched.h"
#include "topology.h"
#include <kernel/hrtick.h>
#include <arch/irqflags.h>

/*
 * Decaying averages of the load, one per index i, updated every tick:
 *	cpu_load[i] = (old * (2^i - 1) + new) / 2^i
 * rounding up while the load rises (so 10 is reached, not stuck at 9).
 * For i = 0 that is the load itself: stored directly, as later Linux's
 * __update_cpu_load does ("Fasttrack for idx 0"; the same value).
 */
static void update_cpu_load(struct rq *this_rq)
{
	u32 this_load = this_rq->load.weight;
	u32 i, scale;

	this_rq->nr_load_updates++;

	this_rq->cpu_load[0] = this_load;
	for (i = 1, scale = 2; i < CPU_LOAD_IDX_MAX; i++, scale += scale) {
		u32 old_load = this_rq->cpu_load[i];
		u32 new_load = this_load;

		if (new_load > old_load)
			new_load += scale - 1;

		this_rq->cpu_load[i] = (old_load * (scale - 1) + new_load) >> i;
	}

	calc_load_account_active(this_rq);	/* the load average (loadavg.c) */
}

/* ---- HRTICK glue (the fair class decides, <kernel/hrtick.h> does) -------- */

/* Arm the hrtick DELAY ns from now (replacing a pending one). */
void hrtick_start(struct rq *rq, u64 delay)
{
	hrtick_arm(delay);
	rq->hrtick_active = 1;
}

/* The armed hrtick expired: a "queued" tick, which reschedules current. */
void hrtick_fire(void)
{
	struct rq *rq = this_rq();
	unsigned long flags;

	local_irq_save(flags);
	rq_lock(rq);
	rq->hrtick_active = 0;
	update_rq_clock(rq);
	rq->curr->sched_class->task_tick(rq, rq->curr, 1);
	sched_verify_hook(rq);
	rq_unlock(rq);
	local_irq_restore(flags);
}

/* ---- The tick ------------------------------------------------------------------ */

/*
 * The tick's SMP half (2.6.35, rq->lock held): note whether the CPU idles,
 * for the balance the softirq runs, and raise it if it is due.  Behind
 * smp_key: at one CPU there are no domains and the site is a jump over it.
 */
static noinline void scheduler_tick_smp(struct rq *rq)
{
	rq->idle_at_tick = idle_cpu(rq->cpu);
	trigger_load_balance(rq, rq->cpu);
}

/*
 * Called from the timer interrupt HZ times a second: refresh the clock,
 * update the load averages, and let current's class account the time and
 * decide on preemption (task_tick_fair -> entity_tick).
 */
void scheduler_tick(void)
{
	struct rq *rq = this_rq();
	struct task *curr = rq->curr;
	unsigned long flags;

	local_irq_save(flags);
	rq_lock(rq);
	update_rq_clock(rq);
	update_cpu_load(rq);
	sched_rt_period_tick(rq);		/* rt throttling's period timer */
	curr->sched_class->task_tick(rq, curr, 0);
	sched_verify_hook(rq);
	if (static_branch_on(&smp_key))
		scheduler_tick_smp(rq);
	rq_unlock(rq);
	local_irq_restore(flags);
}
