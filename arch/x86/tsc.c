/*
 * arch/x86/tsc.c - the time-stamp counter as the scheduler clock.
 *
 * Calibration: count TSC cycles across a CALIBRATE_MS gate of PIT channel 2
 * (latch L = 1193182 * ms / 1000 PIT ticks), tsc_khz = cycles * 1193182 /
 * (L * 1000).  Under QEMU -icount the TSC and the PIT both follow virtual
 * time, so the result is identical on every run.
 *
 * sched_clock() = (rdtsc() - tsc_base) * mult >> CYC2NS_SHIFT, with
 * mult = (10^6 << CYC2NS_SHIFT) / tsc_khz; the product is formed in 96 bits
 * (mul_u64_u32_shr), so it never overflows.
 */
#include <kernel/printk.h>
#include <kernel/math64.h>
#include <arch/cpu.h>
#include <arch/timer.h>

#define CALIBRATE_MS	20
#define CYC2NS_SHIFT	22

u32 tsc_khz;
static u64 tsc_base;
static u32 cyc2ns_mult;

static void tsc_gate_fn(int start, void *arg)
{
	u64 *t = arg;
	t[start ? 0 : 1] = rdtsc();
}

u32 tsc_calibrate(void)
{
	u64 t[2];

	if (pit_gate(CALIBRATE_MS, tsc_gate_fn, t) < 0)
		return 0;
	return (u32)div_u64((t[1] - t[0]) * PIT_TICK_RATE, PIT_GATE_LATCH(CALIBRATE_MS) * 1000u);
}

void tsc_enable_sched_clock(u32 khz)
{
	tsc_khz = khz;
	cyc2ns_mult = (u32)div_u64(1000000ull << CYC2NS_SHIFT, khz);
	tsc_base = rdtsc();
}

/* Nanoseconds since tsc_enable_sched_clock(). */
u64 tsc_sched_clock(void)
{
	return mul_u64_u32_shr(rdtsc() - tsc_base, cyc2ns_mult, CYC2NS_SHIFT);
}
