/*
 * kernel/time/tick_sched.h - the emulated tick of kernel/time/tick_sched.c,
 * as the hrtimer queue (kernel/time/hrtimer.c) sees it.
 */
#ifndef KERNEL_TIME_TICK_SCHED_H
#define KERNEL_TIME_TICK_SCHED_H

#include <kernel/hrtimer.h>
#include <kernel/types.h>

/* The period and the boot CPU's first tick (absolute sched_clock() ns). */
void tick_sched_init(u64 period_ns, u64 first_ns);
/* This CPU's emulated tick: queue its tick_sched_timer (highres, interrupts off). */
void tick_setup_sched_timer(void);
/* Whether T is a CPU's emulated tick (hrtimer_needs_kernel_lock()). */
int tick_sched_timer_is(const struct hrtimer *t);

#endif
