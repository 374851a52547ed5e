/*
 * arch/x86/time.c - choose the clock source and the clock event device.
 *
 *   clock source (sched_clock):  tsc  - calibrated TSC (default when present)
 *                                pit  - jiffies * tick + PIT interpolation
 *   clock event (the HZ tick):   apic - local APIC timer (default): one-shot with
 *                                       highres=on (the default; the tick is an hrtimer,
 *                                       kernel/time/hrtimer.c), periodic with highres=off
 *                                pit  - 8254 channel 0 on IRQ 0
 * Boot knobs: hz=100|250|300|1000 (default 1000), clockevent=apic|pit,
 * clocksource=tsc|pit.  The boot log says what was chosen and why.
 */
#include <kernel/clockevent.h>
#include <kernel/cmdline.h>
#include <kernel/hrtimer.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <kernel/smp.h>
#include <kernel/tick.h>
#include <kernel/math64.h>
#include <arch/cpu.h>
#include <arch/hardirq.h>
#include <arch/irq.h>
#include <arch/irq_regs.h>
#include <arch/irqflags.h>
#include <arch/timer.h>
#include <arch/tsc.h>

static const char *const hz_names[] = { "100", "250", "300", "1000", NULL };
static const unsigned hz_values[] = { 100, 250, 300, 1000 };
static int hz_index;
DEFINE_KNOB_ENUM(hz, hz_index, 3, hz_names, "periodic tick rate (Hz)");

static const char *const clockevent_names[] = { "apic", "pit", NULL };
enum { CE_APIC, CE_PIT };
static int clockevent_choice;
DEFINE_KNOB_ENUM(clockevent, clockevent_choice, CE_APIC, clockevent_names,
		 "tick device: local APIC timer or 8254 PIT");

static const char *const clocksource_names[] = { "tsc", "pit", NULL };
enum { CS_TSC, CS_PIT };
static int clocksource_choice;
DEFINE_KNOB_ENUM(clocksource, clocksource_choice, CS_TSC, clocksource_names,
		 "sched_clock source: TSC or PIT tick count");

unsigned int HZ = 1000;
static u64 tick_ns;		/* real tick period in ns */
int use_tsc;			/* sched_clock() reads the TSC (arch/x86/sched_clock.asm) */
static int gdb_clock;
DEFINE_KNOB_BOOL(gdb_clock, gdb_clock, 0,
		 "make gdb: bound the -icount clock warp of a debugger stop (PIT guard, IRQ masked)");

static int use_apic;
static int apic_oneshot;		/* highres: one-shot mode */
static u64 last_pit_clock;	/* keeps the PIT clock monotonic */

u64 sched_clock_pit(void);

/* sched_clock() without the TSC: whole ticks plus the position inside the
 * current one (arch/x86/sched_clock.asm jumps here). */
u64 sched_clock_pit(void)
{
	unsigned long flags;
	local_irq_save(flags);
	u64 ns = jiffies * tick_ns + pit_elapsed_ns();
	if (ns < last_pit_clock)	/* the PIT wrapped before its IRQ ran */
		ns = last_pit_clock;
	last_pit_clock = ns;
	local_irq_restore(flags);
	return ns;
}

static void pit_tick_irq(struct trap_frame *tf)
{
	set_irq_regs(tf);	/* the tick asks whether it interrupted user mode */
	timer_tick();
}

static void apic_tick_irq(struct trap_frame *tf)
{
	set_irq_regs(tf);
	inc_irq_stat(apic_timer_irqs);	/* LOC, /proc/stat's intr total */
	apic_eoi();
	if (apic_oneshot)
		hrtimer_interrupt();
	else
		timer_tick();
}

/*
 * An AP's tick (start_secondary()), with the boot CPU's calibration (every
 * CPU's timer runs from the same bus clock).  If the boot CPU went
 * high-resolution, the AP's local APIC goes one-shot too and its tick is
 * emulated on its own hrtimer queue (init_hrtimers_cpu(),
 * kernel/time/tick_sched.c); otherwise its timer is periodic at HZ and its
 * interrupt is the tick, which runs its due timers.  With the PIT as clock
 * event there is no calibration: the AP has no tick, as before, and timers
 * armed on it are queued on the boot CPU's queue.  The vector's handler
 * becomes one that tells the CPUs apart, so that at one CPU the boot CPU's
 * tick is the instructions it was.
 */
static u32 apic_tick_counts;	/* per tick at divide 16; 0: no APIC tick */

static void apic_tick_irq_smp(struct trap_frame *tf)
{
	if (!smp_processor_id()) {
		apic_tick_irq(tf);
		return;
	}
	set_irq_regs(tf);
	inc_irq_stat(apic_timer_irqs);
	apic_eoi();
	if (apic_oneshot)
		hrtimer_interrupt();	/* this CPU's queue, its emulated tick among them */
	else
		timer_tick_secondary();	/* periodic, its own runqueue and timers */
}

void secondary_tick_start(void)
{
	if (!apic_tick_counts)
		return;
	set_vector_handler(LOCAL_TIMER_VECTOR, apic_tick_irq_smp);	/* one store */
	if (apic_oneshot)
		apic_timer_set_oneshot();
	else
		apic_timer_start_secondary(apic_tick_counts);
	init_hrtimers_cpu();		/* its timers are its own from now on */
}

/* ---- clock event interface (kernel/clockevent.h) ---- */

int clockevent_can_oneshot(void)
{
	return use_apic;
}

void clockevent_set_oneshot(void)
{
	apic_oneshot = 1;
	apic_timer_set_oneshot();
}

/* counts at divide 1 = delta_ns * (per_ms * 16) / 10^6 by the scale made at
 * boot (kernel/clockevent.h), clamped to 32 bits. */
static struct clockevent_scale apic_scale;

/* This CPU's local APIC: each CPU's hrtimer queue programs its own
 * (2.6.35's per-CPU tick device; kernel/time/hrtimer.c). */
void clockevent_program(u64 delta_ns)
{
	u64 counts = clockevent_ns_to_counts(apic_scale, delta_ns);

	apic_timer_oneshot(counts > 0xffffffffull ? 0xffffffffu : (u32)counts);
}

u64 clockevent_tick_ns(void)
{
	return tick_ns;
}

void time_init(void)
{
	const char *why = NULL;
	u32 khz = 0;

	HZ = hz_values[hz_index];

	/* Clock source. */
	if (!cpu_has(X86_FEATURE_TSC))
		why = "CPU has no TSC";
	else if (clocksource_choice == CS_PIT)
		why = "clocksource=pit";
	else if (!(khz = tsc_calibrate()))
		why = "PIT calibration gate timed out";
	if (!why) {
		tsc_enable_sched_clock(khz);
		use_tsc = 1;
		printk("clocksource: tsc, %u.%03u MHz (calibrated by %s)\n",
		       khz / 1000, khz % 1000, tsc_calibration_source);
	} else {
		printk("clocksource: pit tick count (%s)\n", why);
	}

	/* Clock event. */
	why = NULL;
	if (!use_tsc)
		why = "no TSC clock: the PIT drives both the tick and the clock";
	else if (clockevent_choice == CE_PIT)
		why = "clockevent=pit";
	else
		apic_probe(&why);	/* sets why when there is no usable APIC */
	if (!why) {
		apic_init();
		u32 per_ms = apic_timer_calibrate();
		if (!per_ms) {
			why = "APIC timer calibration gate timed out";
		} else {
			u32 count = (u32)div_u64((u64)per_ms * 1000u, HZ);
			apic_scale = clockevent_calc_mult_shift(per_ms * 16ull);
			tick_ns = div_u64((u64)count * 1000000u, per_ms);
			set_vector_handler(LOCAL_TIMER_VECTOR, apic_tick_irq);
			apic_timer_start_periodic(count);
			apic_tick_counts = count;
			use_apic = 1;
			printk("clockevent: lapic timer, periodic %u HZ (%u counts/ms at /16, %u per tick)\n",
			       HZ, per_ms, count);
		}
	}
	if (!use_apic) {
		tick_ns = pit_start_periodic(HZ);
		request_irq(0, pit_tick_irq);
		printk("clockevent: pit, periodic %u HZ, tick %llu ns (%s)\n", HZ, tick_ns, why);
	}
	if (gdb_clock && use_apic)
		printk("gdb_clock: PIT channel 0 guard every %llu ns (IRQ 0 masked): "
		       "a debugger stop moves the clock by less than that\n", pit_start_guard());
	printk_set_clock(sched_clock);
}
