/*
 * kernel/clockevent.h - the interrupt source timers run from, as the
 * portable time code sees it (Linux's clock_event_device, reduced).
 * arch/x86/time.c provides it with the local APIC timer (periodic or
 * one-shot) or the PIT (periodic only).
 */
#ifndef KERNEL_CLOCKEVENT_H
#define KERNEL_CLOCKEVENT_H

#include <kernel/types.h>

/* 1 if the device can run in one-shot mode (local APIC). */
int clockevent_can_oneshot(void);
/* Switch to one-shot mode: the periodic interrupt stops. */
void clockevent_set_oneshot(void);
/* One-shot: interrupt once, DELTA_NS from now (clamped to the device range). */
void clockevent_program(u64 delta_ns);
/* The real period of the periodic tick in ns (e.g. 999847 on the PIT). */
u64 clockevent_tick_ns(void);

#endif
