/*
 * arch/x86/pit.c - Intel 8254 programmable interval timer.
 *
 * Channel 0 (IRQ 0) gives the periodic tick when there is no local APIC
 * (or clockevent=pit): mode 2 with divisor round(1193182 / HZ), so 1000 HZ
 * is really 999.847 us.  Channel 2, gated through port 0x61 and read back
 * through OUT2 (port 0x61 bit 5), is the calibration reference for the TSC
 * and the APIC timer, as in Linux's pit_calibrate_tsc().
 */
#include <kernel/printk.h>
#include <arch/cpu.h>
#include <arch/timer.h>

#define PIT_CH0		0x40
#define PIT_CH2		0x42
#define PIT_MODE	0x43
#define PORT_B		0x61	/* bit0: ch2 gate, bit1: speaker, bit5: OUT2 */
#define GATE_POLL_LIMIT	50000000u	/* polls before we call the PIT absent */

static u32 ch0_divisor;

u64 pit_start_periodic(unsigned hz)
{
	ch0_divisor = (PIT_TICK_RATE + hz / 2) / hz;
	outb(PIT_MODE, 0x34);		/* ch0, lo/hi, mode 2 (rate generator), binary */
	outb(PIT_CH0, ch0_divisor & 0xff);
	outb(PIT_CH0, ch0_divisor >> 8);
	return (u64)ch0_divisor * 1000000000ull / PIT_TICK_RATE;
}

/* gdb_clock=1 (make gdb): channel 0 as a rate generator at ~10 kHz with
 * IRQ 0 left masked, so it never interrupts the guest.  Under
 * -icount shift=0,sleep=off a stop (a gdb breakpoint) lets QEMU warp the
 * virtual clock to the next pending virtual-clock timer.  Stopped in the
 * tick handler, the one-shot APIC timer is not armed yet, and the next
 * timer is the firmware's 18.2 Hz channel 0 edge (up to 27.5 ms away) or,
 * without it, hours away.  This guard keeps an edge at most
 * PIT_GUARD_DIVISOR / 1193182 Hz = 99.7 us ahead: a stop costs the guest
 * clock less than 0.1 ms. */
#define PIT_GUARD_DIVISOR	119

u64 pit_start_guard(void)
{
	outb(PIT_MODE, 0x34);		/* ch0, lo/hi, mode 2 (rate generator), binary */
	outb(PIT_CH0, PIT_GUARD_DIVISOR & 0xff);
	outb(PIT_CH0, PIT_GUARD_DIVISOR >> 8);
	return (u64)PIT_GUARD_DIVISOR * 1000000000ull / PIT_TICK_RATE;
}

u32 pit_elapsed_ns(void)
{
	u32 count;

	if (!ch0_divisor)
		return 0;
	outb(PIT_MODE, 0x00);		/* latch ch0 */
	count = inb(PIT_CH0);
	count |= (u32)inb(PIT_CH0) << 8;
	if (count > ch0_divisor)
		count = ch0_divisor;
	return (u32)((u64)(ch0_divisor - count) * 1000000000ull / PIT_TICK_RATE);
}

int pit_gate(unsigned ms, void (*fn)(int start, void *arg), void *arg)
{
	u32 latch = PIT_GATE_LATCH(ms);	/* ms <= 54 keeps latch < 65536 */
	u32 polls = 0;

	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);	/* gate high, speaker off */
	outb(PIT_MODE, 0xb0);		/* ch2, lo/hi, mode 0 (terminal count), binary */
	outb(PIT_CH2, latch & 0xff);
	outb(PIT_CH2, latch >> 8);
	fn(1, arg);
	while (!(inb(PORT_B) & 0x20))
		if (++polls > GATE_POLL_LIMIT)
			return -1;
	fn(0, arg);
	return 0;
}
