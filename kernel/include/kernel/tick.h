/* kernel/tick.h - the periodic tick, called by the clock event device. */
#ifndef KERNEL_TICK_H
#define KERNEL_TICK_H

/* Called at HZ from interrupt context: jiffies, scheduler_tick(), timers. */
void timer_tick(void);
/*
 * The tick of a CPU other than the boot CPU (its emulated tick in highres
 * mode, its local APIC timer's periodic interrupt otherwise): only
 * update_process_times(): the CPU-time sample, this CPU's due timers
 * (highres=off) and scheduler_tick() on its own runqueue; jiffies and the
 * load average's global step stay the boot CPU's (2.6.35's
 * tick_do_timer_cpu).
 */
void timer_tick_secondary(void);
/* arch: start this (non-boot) CPU's tick with the boot CPU's calibration. */
void secondary_tick_start(void);

/* arch: pick and start the clock source and clock event (arch/x86/time.c). */
void time_init(void);

#endif
