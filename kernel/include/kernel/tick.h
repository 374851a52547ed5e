/* kernel/tick.h - the periodic tick, called by the clock event device. */
#ifndef KERNEL_TICK_H
#define KERNEL_TICK_H

/* Called at HZ from interrupt context: jiffies, scheduler_tick(), timers. */
void timer_tick(void);

/* arch: pick and start the clock source and clock event (arch/x86/time.c). */
void time_init(void);

#endif
