/*
 * kernel/tick.c - the periodic tick.
 *
 * timer_tick() runs in interrupt context HZ times a second: from the
 * periodic clock event, or (highres mode) from the emulated tick hrtimer.
 * It is Linux 2.6.35's tick_periodic(): do_timer() (jiffies, the load
 * average) then update_process_times() (the tick's CPU-time sample, due
 * timers, scheduler_tick: update_curr, check_preempt_tick).
 */
#include <kernel/hrtimer.h>
#include <kernel/kernel_stat.h>
#include <kernel/loadavg.h>
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/tick.h>
#include <kernel/time.h>
#include <arch/irq_regs.h>

volatile u64 jiffies;
u32 tick_nsec;		/* set with the clock event (hrtimers_init) */

/* update_process_times() alone: another CPU's tick (tick_do_timer_cpu
 * runs do_timer()). */
void timer_tick_secondary(void)
{
	account_process_tick(current, user_mode(get_irq_regs()));
	hrtimer_run_queues();	/* run_local_timers(): this CPU's, highres=off */
	scheduler_tick();
}

void timer_tick(void)
{
	/* do_timer(1) */
	jiffies++;
	calc_global_load();	/* the load average, every LOAD_FREQ (loadavg.c) */

	/* update_process_times(user_tick) */
	account_process_tick(current, user_mode(get_irq_regs()));
	hrtimer_run_queues();	/* run_local_timers(): highres=off's due timers */
	scheduler_tick();	/* update_curr, check_preempt_tick, the load's fold */
}
