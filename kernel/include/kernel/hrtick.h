/*
 * kernel/hrtick.h - the high-resolution preemption tick (Linux's HRTICK,
 * CONFIG_SCHED_HRTICK): a one-shot timer the fair class programs at pick
 * time to end the current slice exactly, instead of at the next periodic
 * tick (4 ms at HZ=250).  Used only when the HRTICK feature is set
 * (sched_features=HRTICK) and hrtick_available() says a one-shot timer
 * exists.
 *
 * The scheduler calls the first three; the timer code implements them
 * (in the kernel: the clock-event code; in host tests: a fake).  The
 * timer code calls hrtick_fire(), implemented by kernel/sched/core.c.
 */
#ifndef KERNEL_HRTICK_H
#define KERNEL_HRTICK_H

#include <kernel/types.h>

/* Nonzero if a one-shot timer with sub-tick resolution can be used. */
int hrtick_available(void);
/*
 * (Re)arm the one-shot timer to call hrtick_fire() DELAY_NS from now,
 * replacing any pending expiry.  Called with interrupts off.
 */
void hrtick_arm(u64 delay_ns);
/* Disarm it if pending.  Called with interrupts off. */
void hrtick_cancel(void);

/*
 * Called by the timer code (interrupt context) when the armed expiry is
 * reached: runs a "queued" task_tick, which reschedules current.
 */
void hrtick_fire(void);

#endif
