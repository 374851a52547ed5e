/*
 * arch/timer.h - the x86 time hardware: 8254 PIT, TSC, local APIC timer.
 */
#ifndef ARCH_TIMER_H
#define ARCH_TIMER_H

#include <kernel/types.h>

#define PIT_TICK_RATE	1193182u	/* Hz: the 8254's input clock */

/* PIT channel 0 as a periodic tick on IRQ 0; returns the real period in ns. */
u64 pit_start_periodic(unsigned hz);
/* Nanoseconds elapsed in the current PIT channel-0 period. */
u32 pit_elapsed_ns(void);
/* gdb_clock=1: channel 0 at ~10 kHz, IRQ 0 masked; returns its period (ns). */
u64 pit_start_guard(void);

/*
 * Calibration gate on PIT channel 2 (speaker gate, no IRQ): run FN(start=1),
 * wait MS milliseconds of PIT time, run FN(start=0).  Returns 0, or -1 if the
 * PIT never signalled within a bounded number of polls (no PIT / gated).
 */
int pit_gate(unsigned ms, void (*fn)(int start, void *arg), void *arg);
/* PIT input ticks in a gate of MS milliseconds (what pit_gate() really waits). */
#define PIT_GATE_LATCH(ms)	(PIT_TICK_RATE * (ms) / 1000)

/* TSC: calibrate against the PIT; returns kHz or 0. */
u32 tsc_calibrate(void);
void tsc_enable_sched_clock(u32 khz);
extern u32 tsc_khz;

/* Local APIC (see apic.c). */
int apic_probe(const char **why_not);	/* 1 if usable */
void apic_init(void);
u32 apic_timer_calibrate(void);		/* timer counts per ms at divide 16 */
void apic_timer_start_periodic(u32 counts_per_tick);
void apic_timer_start_secondary(u32 counts_per_tick);	/* an AP's tick, /16 */
void apic_timer_set_oneshot(void);	/* divide 1, one-shot */
void apic_timer_oneshot(u32 counts);	/* interrupt after COUNTS bus clocks */
void apic_eoi(void);

/* Map device memory uncached; returns a kernel virtual address. */
void *ioremap(u32 phys, u32 size);

#endif
