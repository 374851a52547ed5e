/*
 * arch/x86/apic.c - the local APIC and its timer.
 *
 * Present when CPUID.1:EDX.APIC is set; its registers live at the base in
 * MSR IA32_APIC_BASE (0x1b, default 0xfee00000), mapped uncached with
 * ioremap().  We software-enable it (SVR bit 8), keep LINT0 as ExtINT so the
 * 8259 still delivers the UART, and run the timer at divide-by-16:
 * counts_per_ms is measured across a CALIBRATE_MS gate timed by the
 * calibrated TSC (tsc_gate(), so the same reference as the clocksource:
 * CPUID, the ACPI PM timer or the PIT; no PIT needed), and the periodic
 * initial count is counts_per_ms * 1000 / HZ.  Under -icount the bus clock
 * is 1 GHz: 62500 counts/ms at /16.
 */
#include <kernel/printk.h>
#include <kernel/math64.h>
#include <arch/apic.h>
#include <arch/cpu.h>
#include <arch/segment.h>
#include <arch/timer.h>
#include <arch/tsc.h>

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_ENABLE	(1u << 11)
#define APIC_VERSION		APIC_LVR
#define APIC_SVR		APIC_SPIV
#define APIC_LVT_TIMER		APIC_LVTT
#define APIC_LVT_LINT0		APIC_LVT0
#define APIC_LVT_LINT1		APIC_LVT1
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		APIC_TDCR
#define LVT_MASKED		APIC_LVT_MASKED
#define LVT_PERIODIC		(1u << 17)
#define DELIVERY_EXTINT		APIC_DM_EXTINT
#define DELIVERY_NMI		APIC_DM_NMI
#define CALIBRATE_MS		20

volatile u32 *apic_regs;
static int apic_setup_done;
static u32 timer_div = 0x3;	/* the boot CPU's divider: /16, or /1 one-shot */

int apic_probe(const char **why_not)
{
	if (!cpu_has(X86_FEATURE_APIC)) {
		*why_not = "no local APIC: CPUID.1:EDX.APIC clear";
		return 0;
	}
	if (!cpu_has(X86_FEATURE_MSR)) {
		*why_not = "no MSRs to find the local APIC";
		return 0;
	}
	return 1;
}

int apic_map(void)
{
	const char *why;
	u64 base;

	if (apic_regs)
		return 0;
	if (!apic_probe(&why))
		return -1;
	base = rdmsr(MSR_APIC_BASE);
	if (!(base & APIC_BASE_ENABLE))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
	apic_regs = ioremap((u32)base & 0xfffff000u, 4096);
	return 0;
}

u32 read_apic_id(void)
{
	u32 a, b, c, d;

	if (apic_regs)
		return apic_read(APIC_ID) >> 24;
	cpuid(1, &a, &b, &c, &d);
	return b >> 24;		/* the initial APIC id */
}

int apic_is_setup(void)
{
	return apic_setup_done;
}

/* The boot CPU's local APIC (Linux's setup_local_APIC() for CPU 0): the
 * 8259 through LINT0 (virtual wire), NMIs through LINT1. */
void apic_init(void)
{
	u32 phys = (u32)rdmsr(MSR_APIC_BASE) & 0xfffff000u;

	apic_map();
	apic_setup_done = 1;
	apic_write(APIC_LVT_LINT0, DELIVERY_EXTINT);	/* 8259 through LINT0 */
	apic_write(APIC_LVT_LINT1, DELIVERY_NMI);
	apic_write(APIC_LVT_TIMER, LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_SVR, 0x100 | SPURIOUS_APIC_VECTOR);
	printk("APIC: local APIC id %u version 0x%08x at 0x%08x\n",
	       apic_read(APIC_ID) >> 24, apic_read(APIC_VERSION), phys);
}

/*
 * A non-boot CPU's local APIC (setup_local_APIC() for cpu != 0): LINT0 and
 * LINT1 masked, as Linux masks them on every CPU but the boot CPU, so the
 * 8259's interrupts and NMIs stay on CPU 0.  The timer gets its vector and
 * the boot CPU's divider, masked until the CPU is online and starts its
 * tick (apic_timer_start_secondary(); the boot CPU's calibration holds
 * for every CPU's timer, which all run from the same bus clock).
 */
void setup_secondary_APIC(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	if (!(base & APIC_BASE_ENABLE))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
	apic_write(APIC_LVT_LINT0, LVT_MASKED | DELIVERY_EXTINT);
	apic_write(APIC_LVT_LINT1, LVT_MASKED | DELIVERY_NMI);
	apic_write(APIC_TIMER_DIV, timer_div);
	apic_write(APIC_LVT_TIMER, LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_SVR, 0x100 | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
}

static void apic_gate_fn(int start, void *arg)
{
	u32 *c = arg;
	c[start ? 0 : 1] = apic_read(APIC_TIMER_CUR);
}

u32 apic_timer_calibrate(void)
{
	u32 c[2];

	apic_write(APIC_TIMER_DIV, 0x3);		/* divide by 16 */
	apic_write(APIC_LVT_TIMER, LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, 0xffffffffu);	/* one-shot, masked */
	/* Same reference as the TSC (CPUID/PM timer/PIT); works without a PIT. */
	if (tsc_gate(CALIBRATE_MS, apic_gate_fn, c) < 0)
		return 0;
	apic_write(APIC_TIMER_INIT, 0);
	/* The gate lasted exactly tsc_khz * CALIBRATE_MS TSC cycles, i.e.
	 * CALIBRATE_MS ms: counts per ms = delta / CALIBRATE_MS, rounded. */
	return (c[0] - c[1] + CALIBRATE_MS / 2) / CALIBRATE_MS;
}

void apic_timer_start_periodic(u32 counts_per_tick)
{
	timer_div = 0x3;
	apic_write(APIC_TIMER_DIV, 0x3);
	apic_write(APIC_LVT_TIMER, LVT_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, counts_per_tick);
}

/* An AP's periodic tick at divide-by-16 (the boot CPU's timer_div stays:
 * the next AP's setup_secondary_APIC() reads it). */
void apic_timer_start_secondary(u32 counts_per_tick)
{
	apic_write(APIC_TIMER_DIV, 0x3);
	apic_write(APIC_LVT_TIMER, LVT_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, counts_per_tick);
}

/* One-shot mode at divide-by-1 (the finest resolution the bus clock gives). */
void apic_timer_set_oneshot(void)
{
	apic_write(APIC_TIMER_INIT, 0);
	timer_div = 0xb;
	apic_write(APIC_TIMER_DIV, 0xb);		/* divide by 1 */
	apic_write(APIC_LVT_TIMER, LOCAL_TIMER_VECTOR);	/* one-shot, unmasked */
}

void apic_timer_oneshot(u32 counts)
{
	apic_write(APIC_TIMER_INIT, counts ? counts : 1);
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}
