/*
 * kernel/clockevent.h - the interrupt source timers run from, as the
 * portable time code sees it (Linux's clock_event_device, reduced).
 * arch/x86/time.c provides it with the local APIC timer (periodic or
 * one-shot) or the PIT (periodic only).
 */
#ifndef KERNEL_CLOCKEVENT_H
#define KERNEL_CLOCKEVENT_H

#include <kernel/math64.h>
#include <kernel/types.h>

/* 1 if the device can run in one-shot mode (local APIC). */
int clockevent_can_oneshot(void);
/* Switch to one-shot mode: the periodic interrupt stops. */
void clockevent_set_oneshot(void);
/* One-shot: interrupt once, DELTA_NS from now (clamped to the device range). */
void clockevent_program(u64 delta_ns);
/* The real period of the periodic tick in ns (e.g. 999847 on the PIT). */
u64 clockevent_tick_ns(void);

/*
 * A device counting COUNTS_PER_MS: ns -> counts as ns * mult >> shift
 * (Linux's clockevents mult/shift, clockevents_calc_mult_shift), a
 * multiplication instead of a 64-bit division at every programming.
 * mult = (counts_per_ms << shift) / 10^6 with the largest shift <= 32 that
 * keeps it in 32 bits: exact when the device counts whole counts per ns
 * (QEMU's 1 GHz APIC bus: shift 31, mult 2^31); otherwise at most one
 * count short of the division for any delta under 2^shift ns (over 1 s
 * for any device below 4 GHz; the emulated tick is never that far).
 */
struct clockevent_scale {
	u32 mult;
	unsigned shift;
};

static inline struct clockevent_scale clockevent_calc_mult_shift(u64 counts_per_ms)
{
	struct clockevent_scale sc = { 0, 32 };
	u64 mult;

	while ((mult = div_u64(counts_per_ms << sc.shift, 1000000u)) > 0xffffffffull)
		sc.shift--;
	sc.mult = (u32)mult;
	return sc;
}

static inline u64 clockevent_ns_to_counts(struct clockevent_scale sc, u64 ns)
{
	if (!(ns >> 32))	/* < 4.3 s, always in practice: one 32x32 multiply */
		return ((u64)(u32)ns * sc.mult) >> sc.shift;
	return mul_u64_u32_shr(ns, sc.mult, sc.shift);
}

#endif
