/*
 * kernel/time.h - the clock interface portable code may use.
 *
 * sched_clock() is the only time source of kernel/sched/: nanoseconds since
 * boot, monotonic, from the calibrated TSC (or the PIT tick count when the
 * CPU has no TSC).  Host unit tests provide a fake one.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <kernel/types.h>

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

u64 sched_clock(void);

/* The periodic tick rate (boot knob hz=, default 1000). */
extern unsigned int HZ;
/* Ticks since boot. */
extern volatile u64 jiffies;

#endif
