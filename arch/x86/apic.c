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
#include <arch/cpu.h>
#include <arch/segment.h>
#include <arch/timer.h>
#include <arch/tsc.h>

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_ENABLE	(1u << 11)
#define APIC_ID			0x020
#define APIC_VERSION		0x030
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_LVT_TIMER		0x320
#define APIC_LVT_LINT0		0x350
#define APIC_LVT_LINT1		0x360
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		0x3e0
#define LVT_MASKED		(1u << 16)
#define LVT_PERIODIC		(1u << 17)
#define DELIVERY_EXTINT		0x700
#define DELIVERY_NMI		0x400
#define CALIBRATE_MS		20

static volatile u32 *apic_regs;

static inline u32 apic_read(u32 reg) { return apic_regs[reg / 4]; }
static inline void apic_write(u32 reg, u32 v) { apic_regs[reg / 4] = v; }

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

void apic_init(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);
	u32 phys = (u32)base & 0xfffff000u;

	if (!(base & APIC_BASE_ENABLE))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
	apic_regs = ioremap(phys, 4096);
	apic_write(APIC_LVT_LINT0, DELIVERY_EXTINT);	/* 8259 through LINT0 */
	apic_write(APIC_LVT_LINT1, DELIVERY_NMI);
	apic_write(APIC_LVT_TIMER, LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_SVR, 0x100 | SPURIOUS_APIC_VECTOR);
	printk("APIC: local APIC id %u version 0x%08x at 0x%08x\n",
	       apic_read(APIC_ID) >> 24, apic_read(APIC_VERSION), phys);
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
	apic_write(APIC_TIMER_DIV, 0x3);
	apic_write(APIC_LVT_TIMER, LVT_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, counts_per_tick);
}

/* One-shot mode at divide-by-1 (the finest resolution the bus clock gives). */
void apic_timer_set_oneshot(void)
{
	apic_write(APIC_TIMER_INIT, 0);
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
