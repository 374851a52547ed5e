/*
 * kernel/tick.c - the periodic tick.
 *
 * timer_tick() runs in interrupt context HZ times a second: from the
 * periodic clock event, or (highres mode) from the emulated tick hrtimer.  It counts jiffies and lets the scheduler
 * account the running task (scheduler_tick: update_curr, check_preempt_tick).
 */
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/tick.h>
#include <kernel/hrtimer.h>

volatile u64 jiffies;

void timer_tick(void)
{
	jiffies++;
	hrtimer_run_queues();	/* highres=off: due timers run from the tick */
	scheduler_tick();	/* update_curr, check_preempt_tick */
}
