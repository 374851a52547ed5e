/*
 * arch/x86/tsc.c - the time-stamp counter as the scheduler clock.
 *
 * Calibration sources, tried in this order from the one the boot knob
 * tsc_calibration=auto|cpuid|pmtimer|pit names (auto = cpuid); a source that
 * is missing falls through to the next, with one line saying why:
 *
 *  cpuid    CPUID leaf 0x15: tsc_hz = crystal_hz * EBX / EAX (ECX = crystal
 *           Hz; 0 on some models: then 24 MHz for Skylake/Kaby Lake client
 *           parts, 19.2 MHz for Goldmont), else leaf 0x16 EAX = the base
 *           frequency in MHz.  Intel only, and only where max leaf >= 0x15.
 *  pmtimer  count TSC cycles across PM_GATE_MS of the ACPI PM timer (found
 *           through the RSDP and the FADT, arch/x86/acpi.c), edge to edge:
 *           tsc_khz = cycles * 3579545 / (pm_ticks * 1000), rounded.
 *  pit      count TSC cycles across a CALIBRATE_MS gate of PIT channel 2
 *           (latch L = 1193182 * ms / 1000 PIT ticks): tsc_khz = cycles *
 *           1193182 / (L * 1000).  Bounded: a missing PIT gives 0.
 * A result outside 10 MHz..20 GHz is refused as implausible (a gate that
 * never really waited) and the next source is tried.
 *
 * Under QEMU -icount the TSC, the PM timer and the PIT all follow virtual
 * time (1 instruction = 1 ns, TSC 1 GHz), so each gives 1000.000 MHz on
 * every run.  Machines without a PIT (or with it gated off) still calibrate
 * from CPUID or ACPI.
 *
 * sched_clock() = (rdtsc() - tsc_base) * mult >> CYC2NS_SHIFT, with
 * mult = (10^6 << CYC2NS_SHIFT) / tsc_khz; the product is formed in 96 bits
 * (as mul_u64_u32_shr), so it never overflows: arch/x86/sched_clock.asm.
 */
#include <kernel/cmdline.h>
#include <kernel/delay.h>
#include <kernel/printk.h>
#include <kernel/math64.h>
#include <kernel/string.h>
#include <arch/acpi.h>
#include <arch/cpu.h>
#include <arch/timer.h>
#include <arch/tsc.h>
#include <arch/vdso.h>

#define CALIBRATE_MS	20
#define PM_GATE_MS	50	/* 178977 PM ticks: edge jitter of ~10 ns is 0.2 ppm */
#define PM_GATE_TICKS	(ACPI_PM_TIMER_HZ / 1000 * PM_GATE_MS)
#define PM_POLL_LIMIT	100000000u	/* reads before the PM gate is declared stuck */
#define CYC2NS_SHIFT	22
/* Plausible TSC rates, kHz: every CPU with a TSC runs at 60 MHz or more.  A
 * gate that "ends" at once (pit=off: port 0x61 OUT2 reads high) gives ~0. */
#define TSC_KHZ_MIN	10000u
#define TSC_KHZ_MAX	20000000u

static const char *const tsc_calibration_names[] = { "auto", "cpuid", "pmtimer", "pit", NULL };
enum { CAL_AUTO, CAL_CPUID, CAL_PMTIMER, CAL_PIT };
static int tsc_calibration_choice;
DEFINE_KNOB_ENUM(tsc_calibration, tsc_calibration_choice, CAL_AUTO, tsc_calibration_names,
		 "TSC calibration source, falling back in this order: cpuid, pmtimer, pit");

u32 tsc_khz;
const char *tsc_calibration_source = "none";
/* sched_clock()'s conversion, read by arch/x86/sched_clock.asm. */
u64 tsc_base;
u32 cyc2ns_mult;

/* ---- CPUID leaves 0x15 / 0x16 ------------------------------------------ */

static u32 calibrate_cpuid(char *why, size_t len)
{
	u32 den, num, crystal_hz, d, base_mhz = 0;

	if (!boot_cpu.has_cpuid || strcmp(boot_cpu.vendor, "GenuineIntel")) {
		snprintf(why, len, "not an Intel CPU (%s)", boot_cpu.vendor);
		return 0;
	}
	if (boot_cpu.max_leaf < 0x15) {
		snprintf(why, len, "CPUID leaf 0x15 absent (max leaf 0x%x)", boot_cpu.max_leaf);
		return 0;
	}
	cpuid(0x15, &den, &num, &crystal_hz, &d);
	if (boot_cpu.max_leaf >= 0x16)
		cpuid(0x16, &base_mhz, &d, &d, &d);
	base_mhz &= 0xffff;
	if (!crystal_hz && boot_cpu.family == 6) {
		switch (boot_cpu.model) {
		case 0x4e: case 0x5e: case 0x8e: case 0x9e:	/* Skylake, Kaby Lake */
			crystal_hz = 24000000;
			break;
		case 0x5c:					/* Goldmont */
			crystal_hz = 19200000;
			break;
		}
	}
	if (den && num && crystal_hz) {
		printk("tsc: CPUID leaf 0x15: crystal %u Hz * %u / %u\n", crystal_hz, num, den);
		return (u32)div_u64((u64)crystal_hz * num + den * 500u, den * 1000u);
	}
	if (base_mhz) {
		printk("tsc: CPUID leaf 0x16: base frequency %u MHz\n", base_mhz);
		return base_mhz * 1000;
	}
	snprintf(why, len, "CPUID leaf 0x15 gives no frequency (eax=%u ebx=%u ecx=%u)", den, num, crystal_hz);
	return 0;
}

/* ---- ACPI PM timer ------------------------------------------------------ */

static u32 calibrate_pmtimer(char *why, size_t len)
{
	const struct acpi_pm_timer *pm;
	u32 mask, p0, p, ticks = 0, polls = 0;
	u64 t0, t1;

	if (acpi_init() < 0 || !(pm = acpi_pm_timer())->port) {
		snprintf(why, len, "no ACPI PM timer");
		return 0;
	}
	mask = pm->bits == 32 ? 0xffffffffu : 0xffffffu;
	p0 = acpi_pm_read();
	while ((p = acpi_pm_read()) == p0)	/* start on a tick edge */
		if (++polls > PM_POLL_LIMIT)
			goto stuck;
	t0 = rdtsc();
	p0 = p;
	while (ticks < PM_GATE_TICKS) {
		p = acpi_pm_read();
		ticks = (p - p0) & mask;	/* wraps after 4.69 s (24-bit): far away */
		if (++polls > PM_POLL_LIMIT)
			goto stuck;
	}
	t1 = rdtsc();
	/* kHz = cycles * 3579545 / (ticks * 1000), rounded to nearest */
	return (u32)div_u64((t1 - t0) * ACPI_PM_TIMER_HZ + (u64)ticks * 500u, ticks * 1000u);
stuck:
	snprintf(why, len, "the ACPI PM timer at port 0x%x stopped moving", pm->port);
	return 0;
}

/* ---- PIT channel 2 ------------------------------------------------------ */

static void tsc_gate_fn(int start, void *arg)
{
	u64 *t = arg;
	t[start ? 0 : 1] = rdtsc();
}

#define IMPLAUSIBLE	"implausible result %u kHz (device missing?)"

static u32 calibrate_pit(char *why, size_t len)
{
	u64 t[2];
	u32 khz;

	if (pit_gate(CALIBRATE_MS, tsc_gate_fn, t) < 0) {
		snprintf(why, len, "the PIT channel 2 gate timed out (no PIT?)");
		return 0;
	}
	khz = (u32)div_u64((t[1] - t[0]) * PIT_TICK_RATE, PIT_GATE_LATCH(CALIBRATE_MS) * 1000u);
	/* a gate that "ends" at once (no 8254: OUT2 reads high) may not see
	 * even the 20 cycles that make 1 kHz; every 0 return says why */
	if (!khz)
		snprintf(why, len, IMPLAUSIBLE, khz);
	return khz;
}

/* Returns kHz, or 0 if no source worked; says which one did. */
u32 tsc_calibrate(void)
{
	static const struct {
		const char *name, *what;
		u32 (*fn)(char *why, size_t len);
	} src[] = {
		[CAL_CPUID] = { "cpuid", "CPUID leaf 0x15/0x16", calibrate_cpuid },
		[CAL_PMTIMER] = { "pmtimer", "the ACPI PM timer", calibrate_pmtimer },
		[CAL_PIT] = { "pit", "the PIT", calibrate_pit },
	};
	int first = tsc_calibration_choice == CAL_AUTO ? CAL_CPUID : tsc_calibration_choice;

	char why[96];

	for (int i = first; i <= CAL_PIT; i++) {
		u32 khz = src[i].fn(why, sizeof(why));
		if (khz && (khz < TSC_KHZ_MIN || khz > TSC_KHZ_MAX)) {
			snprintf(why, sizeof(why), IMPLAUSIBLE, khz);
			khz = 0;
		}
		if (khz) {
			tsc_calibration_source = src[i].name;
			printk("tsc: calibrated by %s (tsc_calibration=%s): %u.%03u MHz\n", src[i].what,
			       tsc_calibration_names[tsc_calibration_choice], khz / 1000, khz % 1000);
			return khz;
		}
		printk("tsc: %s: %s; %s%s\n", src[i].name, why,
		       i < CAL_PIT ? "trying " : "no calibration source left",
		       i < CAL_PIT ? src[i + 1].name : "");
	}
	return 0;
}

void tsc_enable_sched_clock(u32 khz)
{
	tsc_khz = khz;
	cyc2ns_mult = (u32)div_u64(1000000ull << CYC2NS_SHIFT, khz);
	tsc_base = rdtsc();
}

/* The vDSO's copy of the conversion (arch/x86/vdso.c); 0 without the TSC clock. */
int tsc_vclock(u64 *base, u32 *mult)
{
	_Static_assert(CYC2NS_SHIFT == VDSO_CYC2NS_SHIFT, "the vDSO's shift");
	if (!tsc_khz)
		return 0;
	*base = tsc_base;
	*mult = cyc2ns_mult;
	return 1;
}

/* kernel/delay.h: USECS of TSC time, or as many ~1 us port writes
 * before the TSC is calibrated (or without one). */
void udelay(u32 usecs)
{
	u64 end;

	if (!tsc_khz) {
		while (usecs--)
			io_delay();
		return;
	}
	end = rdtsc() + div_u64((u64)tsc_khz * usecs + 999, 1000);
	while (rdtsc() < end)
		__asm__ __volatile__("rep; nop");
}

int tsc_gate(unsigned ms, void (*fn)(int start, void *arg), void *arg)
{
	u64 end;

	if (!tsc_khz)
		return -1;
	fn(1, arg);
	end = rdtsc() + (u64)tsc_khz * ms;
	while (rdtsc() < end)
		;
	fn(0, arg);
	return 0;
}
