/*
 * arch/x86/mpparse.c - which CPUs the machine has (Linux 2.6.35's
 * acpi_boot_init() -> acpi_parse_madt_lapic_entries(), else
 * find_smp_config()/get_smp_config() of mpparse.c, then
 * generic_processor_info() and prefill_possible_map()).
 *
 *  1. ACPI's MADT, if ACPI is there and has one (arch/x86/madt.c parses
 *     it): one "ACPI: LAPIC (...)" line per entry, as Linux prints them.
 *  2. Else the Intel MP table: the floating pointer "_MP_" in the first
 *     KiB of the EBDA (its segment in the BIOS data area at 0x40e), the
 *     last KiB of base memory (KiB count at 0x413), or the BIOS ROM
 *     0xF0000-0xFFFFF (MP spec 1.4, section 4), then its configuration
 *     table or default configuration (arch/x86/mptable.c parses them).
 *  3. Else one CPU: "SMP motherboard not detected."
 * Each enabled processor becomes a present CPU number: the boot CPU (the
 * one whose APIC id this CPU reads) is CPU 0, the others 1, 2, ... in
 * table order.  Disabled entries are counted, not used.  Possible CPUs are
 * the present ones capped by maxcpus= (at least the boot CPU), as in
 * Linux without CPU hotplug, and nr_cpu_ids is their count:
 *	SMP: Allowing 2 CPUs, 0 hotplug CPUs
 * with "4 Processors exceeds max_cpus limit of 2" first when the cap bit.
 */
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <arch/acpi.h>
#include <arch/apic.h>
#include <arch/ioremap.h>
#include <arch/mpspec.h>
#include <arch/smp.h>

u32 boot_cpu_physical_apicid;
u32 x86_cpu_to_apicid[NR_CPUS];		/* Linux's early x86_cpu_to_apicid map */
u8 apic_version[MP_MAX_CPUS];		/* by APIC id, as Linux's */
static u32 phys_cpu_present[MP_MAX_CPUS / 32];	/* APIC ids registered */
static unsigned int num_processors = 1, disabled_cpus;
static struct mp_config mpc;		/* 3 KiB: static, read once */

/* Linux's generic_processor_info(): the CPU with APIC id APICID is present. */
static void generic_processor_info(u32 apicid, u32 version)
{
	unsigned int cpu;

	if (!version) {
		printk("BIOS bug, APIC version is 0 for CPU#%u! fixing up to 0x10. "
		       "(tell your hw vendor)\n", apicid);
		version = 0x10;
	}
	if (apicid >= MP_MAX_CPUS || (phys_cpu_present[apicid / 32] >> (apicid % 32)) & 1) {
		printk("smpboot: APIC id 0x%x listed twice or out of range: ignored\n", apicid);
		return;
	}
	phys_cpu_present[apicid / 32] |= 1u << (apicid % 32);
	apic_version[apicid] = (u8)version;
	if (apicid == boot_cpu_physical_apicid)
		return;		/* CPU 0, present and counted from the start */
	if (num_processors >= NR_CPUS) {
		printk("ACPI: NR_CPUS/possible_cpus limit of %d reached.  Processor %u/0x%x ignored.\n",
		       NR_CPUS, NR_CPUS + disabled_cpus, apicid);
		disabled_cpus++;
		return;
	}
	num_processors++;
	for (cpu = 1; cpumask_test_cpu(cpu, cpu_present_mask); cpu++)
		;
	x86_cpu_to_apicid[cpu] = apicid;
	set_cpu_present(cpu, 1);
}

/* The parsed list into present CPUs; MADT entries carry no APIC version:
 * every one is taken to be the boot CPU's (Linux reads APIC_LVR). */
static void register_cpus(u32 boot_version)
{
	for (unsigned int i = 0; i < mpc.nr_cpus && i < MP_MAX_CPUS; i++) {
		const struct mp_cpu *c = &mpc.cpus[i];

		if (!c->enabled) {
			disabled_cpus++;
			continue;
		}
		generic_processor_info(c->apicid, c->version ? c->version : boot_version);
	}
}

static int find_madt(void)
{
	u32 len;
	const u8 *t = acpi_find_table("APIC", &len);

	if (!t || madt_parse(t, len, &mpc))
		return 0;
	for (unsigned int i = 0; i < mpc.nr_cpus && i < MP_MAX_CPUS; i++)
		printk("ACPI: LAPIC (acpi_id[0x%02x] lapic_id[0x%02x] %s)\n", mpc.cpus[i].acpi_id,
		       mpc.cpus[i].apicid, mpc.cpus[i].enabled ? "enabled" : "disabled");
	if (mpc.x2apic)
		printk("ACPI: %u x2APIC entries not used (an i686 kernel drives the xAPIC)\n",
		       mpc.x2apic);
	printk("Using ACPI (MADT) for SMP configuration information\n");
	return 1;
}

/* LEN bytes at physical PHYS, or NULL: the BIOS areas are in lowmem. */
static const u8 *map_bios(u32 phys, u32 len)
{
	if (phys < 0x100000 && len <= 0x100000 - phys)
		return __va(phys);
	return phys && len <= 0x10000 ? ioremap_nopanic(phys, len) : NULL;
}

static long scan_area(u32 base, u32 len)
{
	long off = base && len ? mpf_scan(__va(base), len) : -1;

	return off < 0 ? -1 : (long)(base + off);
}

static int find_mptable(void)
{
	u32 ebda = (u32)*(const u16 *)__va(0x40e) << 4;
	u32 basemem = ((u32)*(const u16 *)__va(0x413) << 10) & ~0x3ffu;
	long at = -1;

	if (ebda >= 0x80000 && ebda < 0xa0000)
		at = scan_area(ebda, 1024);
	if (at < 0 && basemem >= 0x80000 && basemem <= 0xa0000)
		at = scan_area(basemem - 1024, 1024);
	if (at < 0)
		at = scan_area(0xf0000, 0x10000);
	if (at < 0)
		return 0;

	const u8 *mpf = __va((u32)at);
	u32 phys;
	const u8 *t;

	printk("found SMP MP-table at [%p] %lx\n", mpf, (unsigned long)at);
	printk("Intel MultiProcessor Specification v1.%u\n", mpf[9]);
	printk("    %s compatibility mode.\n", mpf[12] & 0x80 ? "IMCR and PIC" : "Virtual Wire");
	if (mpf[11]) {
		printk("Default MP configuration #%u\n", mpf[11]);
		mp_default_config(mpf[11], &mpc);
	} else {
		memcpy(&phys, mpf + 4, 4);
		t = map_bios(phys, 44);
		if (!t || (t = map_bios(phys, t[4] | (u32)t[5] << 8)) == NULL ||
		    mpc_parse(t, t[4] | (u32)t[5] << 8, &mpc)) {
			printk("MPTABLE: bad configuration table at 0x%x: ignored\n", phys);
			return 0;
		}
		printk("MPTABLE: OEM ID: %s\n", mpc.oem);
		printk("MPTABLE: Product ID: %s\n", mpc.product);
		printk("MPTABLE: APIC at: 0x%X\n", mpc.lapic_addr);
	}
	for (unsigned int i = 0; i < mpc.nr_cpus && i < MP_MAX_CPUS; i++)
		if (mpc.cpus[i].enabled)
			printk("Processor #%u%s\n", mpc.cpus[i].apicid,
			       mpc.cpus[i].bsp ? " (Bootup-CPU)" : "");
	return 1;
}

/* Linux's prefill_possible_map() without CPU hotplug. */
static void prefill_possible_map(void)
{
	unsigned int cap = setup_max_cpus ? setup_max_cpus : 1, possible = num_processors;

	if (possible > cap) {
		printk("%u Processors exceeds max_cpus limit of %u\n", possible, setup_max_cpus);
		possible = cap;
	}
	printk("SMP: Allowing %u CPUs, 0 hotplug CPUs\n", possible);
	for (unsigned int cpu = 0; cpu < possible; cpu++)
		set_cpu_possible(cpu, 1);
	nr_cpu_ids = possible;
}

void arch_find_cpus(void)
{
	int found;

	if (apic_map() < 0) {
		printk("smpboot: no local APIC (CPUID.1:EDX.APIC clear): one CPU\n");
		prefill_possible_map();
		return;
	}
	boot_cpu_physical_apicid = read_apic_id();
	x86_cpu_to_apicid[0] = boot_cpu_physical_apicid;
	found = find_madt() || find_mptable();
	if (found)
		register_cpus(GET_APIC_VERSION(apic_read(APIC_LVR)));
	else
		printk("SMP motherboard not detected.\n");
	prefill_possible_map();
}
