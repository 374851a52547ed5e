/*
 * kernel/sched/cputime.c - CPU time by tick sampling (Linux 2.6.35's
 * kernel/sched.c: account_user_time, account_system_time,
 * account_idle_time, account_process_tick, task_times), and the exact
 * clock read while a task runs (task_sched_runtime).
 *
 * Two clocks measure a task's CPU time.  The scheduler's is exact:
 * update_curr() adds every nanosecond a task runs to se.sum_exec_runtime.
 * The tick's is a sample: HZ times a second the timer interrupt charges one
 * whole tick to whatever it interrupted - the task's utime if it was in
 * user mode, its stime if in the kernel, the CPU's idle time if the idle
 * task ran.  A task that runs 0.3 ms between ticks is charged nothing; one
 * that happens to run at every tick is charged all of them.  The sample is
 * what splits user from system time (the scheduler's clock cannot tell
 * them apart); the exact clock gives the total: task_times() reports
 * sum_exec_runtime split in the ratio of the ticks (utime : stime), so
 * utime + stime equals the scheduler's figure and only the split is a
 * sample.  /proc/stat's per-CPU lines are the raw ticks.
 *
 * Units: task utime/stime and cpustat in ticks (2.6.35's cputime_t is
 * jiffies); task_times() returns ns.  Called from the tick with interrupts
 * off, so the counters need no other lock.
 */
#include "sched.h"
#include <kernel/kernel_stat.h>
#include <kernel/math64.h>
#include <arch/irqflags.h>

/* Each CPU's own, as 2.6.35's; updated with this_cpu_add() (Linux 3.x's
 * form), one add through %fs to this CPU's copy. */
DEFINE_PER_CPU(struct kernel_stat, kstat);

/*
 * CPUTIME ticks of user time to P: its utime, and this CPU's nice time if
 * P runs at a positive nice (it asked to be second), user time otherwise.
 */
void account_user_time(struct task *p, u32 cputime)
{
	p->utime += cputime;
	if (task_nice(p) > 0)
		this_cpu_add(kstat.cpustat.nice, cputime);
	else
		this_cpu_add(kstat.cpustat.user, cputime);
}

/*
 * CPUTIME ticks of system time to P.  2.6.35 puts a tick that interrupted
 * a hard interrupt into cpustat->irq and one in a softirq into ->softirq
 * (still charging P's stime); Granule's handlers and its one softirq run
 * with interrupts off, so the tick always finds plain kernel code here.
 */
void account_system_time(struct task *p, u32 cputime)
{
	p->stime += cputime;
	this_cpu_add(kstat.cpustat.system, cputime);
}

/*
 * CPUTIME ticks of idle time.  2.6.35 counts them as iowait while a task
 * of this CPU waits in io_schedule() (rq->nr_iowait); no task here ever
 * waits for block I/O, so idle it is.
 */
void account_idle_time(u32 cputime)
{
	this_cpu_add(kstat.cpustat.idle, cputime);
}

/*
 * The tick's charge (update_process_times -> account_process_tick): one
 * tick to user time if it interrupted user mode, else to system time if P
 * is not the idle task, else to idle time.  (2.6.35 also charges the idle
 * task's tick as system time when the idle task was itself inside an
 * interrupt, irq_count() != HARDIRQ_OFFSET; never the case here.)
 */
void account_process_tick(struct task *p, int user_tick)
{
	if (user_tick)
		account_user_time(p, 1);
	else if (p != this_rq()->idle)
		account_system_time(p, 1);
	else
		account_idle_time(1);
}

/* TICKS of cputime as clock_t: ticks * tick_nsec / (10^9 / USER_HZ). */
u64 cputime_to_clock_t(u64 ticks)
{
	return div_u64(ticks * tick_nsec, (u32)(NSEC_PER_SEC / USER_HZ));
}

/*
 * RTIME ns split in the ratio UTIME : STIME (ticks), as 2.6.35's
 * task_times() and thread_group_times():
 *	ut = rtime * utime / (utime + stime)	(rtime if no tick was seen)
 *	*prev_ut = max(*prev_ut, ut)
 *	*prev_st = max(*prev_st, rtime - *prev_ut)
 * The reported pair never goes down between two reads (a later tick may
 * move the ratio), at the price of summing to a little more than rtime
 * after such a move.  The product is exact on 96 bits (mul_u64_u32_div);
 * totals beyond 2^32 ticks (49 days at HZ=1000) are halved until they fit.
 */
void cputime_adjust(u64 rtime, u64 utime, u64 stime, u64 *prev_ut, u64 *prev_st,
		    u64 *ut, u64 *st)
{
	u64 total = utime + stime, u;

	while (total >> 32) {
		utime >>= 1;
		total >>= 1;
	}
	u = total ? mul_u64_u32_div(rtime, (u32)utime, (u32)total) : rtime;
	*prev_ut = max(*prev_ut, u);
	*prev_st = max(*prev_st, rtime > *prev_ut ? rtime - *prev_ut : 0);
	*ut = *prev_ut;
	*st = *prev_st;
}

void task_times(struct task *p, u64 *ut, u64 *st)
{
	cputime_adjust(task_sched_runtime(p), p->utime, p->stime, &p->prev_utime,
		       &p->prev_stime, ut, st);
}

/* ---- The exact clock of a running task ------------------------------------- */

/*
 * sum_exec_runtime plus, if P is running, the time since its exec_start:
 * Linux 2.6.35's task_sched_runtime (do_task_delta_exec), which charges
 * nothing.  task_sched_runtime points here under CFS.
 */
u64 task_sched_runtime_2635(struct task *p)
{
	struct rq *rq = task_rq(p);
	unsigned long flags;
	u64 ns;

	local_irq_save(flags);
	ns = p->se.sum_exec_runtime;
	if (task_current(rq, p)) {
		u64 delta;

		update_rq_clock(rq);
		delta = rq->clock - p->se.exec_start;
		if ((s64)delta > 0)
			ns += delta;
	}
	local_irq_restore(flags);
	return ns;
}

/*
 * Linux 6.12's task_sched_runtime(): a running, queued P is charged first
 * by its class's update_curr (since v3.18, commit 6e998916dfe3 "sched/
 * cputime: Fix clock_nanosleep()/clock_gettime() inconsistency").  Under
 * EEVDF that matters beyond accounting: update_curr() renews a passed
 * deadline and reschedules, so a thread that polls its CPU-time clock
 * (clock_gettime(CLOCK_THREAD_CPUTIME_ID), getrusage) is preempted when
 * its slice ends, between ticks, not at the next tick.
 */
u64 task_sched_runtime_612(struct task *p)
{
	struct rq *rq = task_rq(p);
	unsigned long flags;
	u64 ns;

	local_irq_save(flags);
	ns = p->se.sum_exec_runtime;
	if (task_current(rq, p)) {
		u64 delta;

		update_rq_clock(rq);
		if (p->on_rq && p->sched_class->update_curr) {
			p->sched_class->update_curr(rq);  /* exec_start = clock */
			ns = p->se.sum_exec_runtime;
		}
		delta = rq->clock - p->se.exec_start;	/* a class without it */
		if ((s64)delta > 0)
			ns += delta;
	}
	local_irq_restore(flags);
	return ns;
}

/*
 * The one the kernel calls: a pointer set with the fair class at boot
 * (sched_select_fair_class), not a test, so that CFS's clock_gettime path
 * is the instructions it was.
 */
u64 (*task_sched_runtime)(struct task *p) = task_sched_runtime_2635;
