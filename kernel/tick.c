/*
 * kernel/tick.c - the periodic tick.
 *
 * timer_tick() runs in interrupt context HZ times a second from whichever
 * clock event device arch/ chose.  It counts jiffies and lets the scheduler
 * account the running task (scheduler_tick: update_curr, check_preempt_tick).
 */
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/tick.h>
#include <kernel/timer.h>

volatile u64 jiffies;

void timer_tick(void)
{
	jiffies++;
	run_timers();		/* expired kernel timers (sleeps) */
	scheduler_tick();	/* update_curr, check_preempt_tick */
}
