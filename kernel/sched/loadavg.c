/*
 * kernel/sched/loadavg.c - the load average (Linux 2.6.35's calc_load,
 * calc_global_load and calc_load_account_active, kernel/sched.c).
 *
 * What is averaged: the number of "active" tasks, those running or
 * runnable (rq->nr_running, the running one included) plus those in
 * uninterruptible sleep (rq->nr_uninterruptible).  How, in two steps five
 * seconds apart, so that no CPU has to look at another's runqueue:
 *
 *  1. Fold: every LOAD_FREQ = 5 s + 1 tick, each CPU's tick adds the change
 *     of its own active count since its last fold to the global
 *     calc_load_tasks (calc_load_account_active, from update_cpu_load).
 *  2. Average: 10 ticks later, when every CPU has folded, the tick (do_timer
 *     in 2.6.35, kernel/tick.c here) moves each avenrun[i] towards
 *     calc_load_tasks by one step of an exponential decay:
 *	avenrun[i] = (avenrun[i] * EXP_i + n * FIXED_1 * (FIXED_1 - EXP_i)) >> FSHIFT
 *     EXP_1 = 1884 = 2048 / e^(5/60): after a minute of n tasks the 1-minute
 *     figure has moved 1 - 1/e = 63% of the way to n.
 *
 * The arithmetic truncates (2.6.35 rounds nothing), so a constant load of
 * n never quite reaches n: the step stops when the remaining distance times
 * (FIXED_1 - EXP) is below 2^FSHIFT (one hog: 2036/2048, printed 0.99).
 * Fixed point, 32 bits as Linux's
 * unsigned long on i686.  One CPU here: the per-CPU half lives in struct
 * rq (calc_load_active, calc_load_update), the global half below.
 */
#include "sched.h"
#include <kernel/loadavg.h>
#include <kernel/smp.h>

u32 avenrun[3];
u32 calc_load_update;
static s32 calc_load_tasks;		/* the folded active count of all CPUs */

void get_avenrun(u32 *loads, u32 offset, int shift)
{
	loads[0] = (avenrun[0] + offset) << shift;
	loads[1] = (avenrun[1] + offset) << shift;
	loads[2] = (avenrun[2] + offset) << shift;
}

u32 calc_load(u32 load, u32 exp, u32 active)
{
	load *= exp;
	load += active * (FIXED_1 - exp);
	return load >> FSHIFT;
}

/* The change of THIS_RQ's active count since its last fold. */
static s32 calc_load_fold_active(struct rq *this_rq)
{
	s32 nr_active, delta = 0;

	nr_active = (s32)this_rq->nr_running;
	nr_active += (s32)this_rq->nr_uninterruptible;

	if (nr_active != this_rq->calc_load_active) {
		delta = nr_active - this_rq->calc_load_active;
		this_rq->calc_load_active = nr_active;
	}
	return delta;
}

/* Step 1, due (calc_load_account_active in sched.h tested the time). */
void __calc_load_account_active(struct rq *this_rq)
{
	/* atomic_long_add(): every CPU's tick folds into it */
	__atomic_add_fetch(&calc_load_tasks, calc_load_fold_active(this_rq), __ATOMIC_RELAXED);
	this_rq->calc_load_update += LOAD_FREQ;
}

/* Step 2, due (calc_global_load in <kernel/loadavg.h> tested the time). */
void __calc_global_load(void)
{
	u32 active = calc_load_tasks > 0 ? (u32)calc_load_tasks * FIXED_1 : 0;

	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);

	calc_load_update += LOAD_FREQ;
}

u32 nr_running(void)
{
	u32 sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		sum += cpu_rq(cpu)->nr_running;
	return sum;
}

/* sched_init(): the first fold and average LOAD_FREQ from now. */
void calc_load_init(struct rq *rq)
{
	avenrun[0] = avenrun[1] = avenrun[2] = 0;
	calc_load_tasks = 0;
	rq->calc_load_active = 0;
	rq->calc_load_update = (u32)jiffies + LOAD_FREQ;
	calc_load_update = (u32)jiffies + LOAD_FREQ;
}
