/*
 * arch/x86/topology.c - which package and core each CPU is, from CPUID and
 * its initial APIC id (Linux 2.6.35's detect_ht() in
 * arch/x86/kernel/cpu/common.c, with the core count of intel.c's
 * intel_num_cpu_cores() and amd.c's amd_detect_cmp(), and the default
 * phys_pkg_id(apicid, shift) = apicid >> shift).
 *
 *   CPUID 1:	EBX[31:24] the initial APIC id; if EDX.HTT, EBX[23:16] the
 *		logical processors per package (smp_num_siblings)
 *   CPUID 4:	(Intel) EAX[31:26] + 1 cores per package (x86_max_cores)
 *   0x80000008: (AMD) ECX[7:0] + 1 cores per package
 *
 * With order(n) = ceil(log2 n) (get_count_order) and threads = siblings /
 * cores:
 *	package = apicid >> order(siblings)
 *	core	= (apicid >> order(threads)) & ((1 << order(cores)) - 1)
 * One logical processor per package (no HTT): package = apicid, core 0,
 * as 2.6.35's generic_identify() leaves them.  Every CPU runs this on
 * itself as it comes up (the boot CPU from smp_prepare_cpus(), an AP from
 * start_secondary()), since CPUID answers for the CPU that executes it.
 */
#include <kernel/percpu.h>
#include <kernel/string.h>
#include <kernel/topology.h>
#include <arch/cpu.h>

struct cpu_topo {
	u32 initial_apicid, phys_proc_id, cpu_core_id;
};
static DEFINE_PER_CPU(struct cpu_topo, cpu_topo);

/* ceil(log2 n); 0 for n <= 1 (Linux's get_count_order). */
static unsigned int get_count_order(u32 n)
{
	unsigned int order = 0;

	while ((1u << order) < n)
		order++;
	return order;
}

/* Cores per package (x86_max_cores): leaf 4 on Intel, 0x80000008 on AMD. */
static u32 max_cores(void)
{
	u32 a, b, c, d;

	if (!strcmp(boot_cpu.vendor, "GenuineIntel") && boot_cpu.max_leaf >= 4) {
		cpuid(4, &a, &b, &c, &d);	/* ECX = 0: the first cache */
		if (a & 0x1f)			/* a cache is described */
			return (a >> 26) + 1;
		return 1;
	}
	if (!strcmp(boot_cpu.vendor, "AuthenticAMD")) {
		cpuid(0x80000000, &a, &b, &c, &d);
		if (a >= 0x80000008) {
			cpuid(0x80000008, &a, &b, &c, &d);
			return (c & 0xff) + 1;
		}
	}
	return 1;
}

/* This CPU's ids (detect_ht()); CPU is the running CPU's number. */
void detect_ht(unsigned int cpu)
{
	struct cpu_topo *t = &per_cpu(cpu_topo, cpu);
	u32 a, b, c, d, siblings, cores;

	if (!boot_cpu.has_cpuid || boot_cpu.max_leaf < 1)
		return;				/* one package of one core: 0, 0 */
	cpuid(1, &a, &b, &c, &d);
	t->initial_apicid = b >> 24;
	t->phys_proc_id = t->initial_apicid;
	t->cpu_core_id = 0;
	siblings = (b >> 16) & 0xff;
	if (!(d & X86_FEATURE_HT) || siblings <= 1)
		return;
	cores = max_cores();
	t->phys_proc_id = t->initial_apicid >> get_count_order(siblings);
	siblings /= cores;			/* threads per core */
	t->cpu_core_id = (t->initial_apicid >> get_count_order(siblings)) &
			 ((1u << get_count_order(cores)) - 1);
}

unsigned int topology_physical_package_id(unsigned int cpu)
{
	return per_cpu(cpu_topo, cpu).phys_proc_id;
}

unsigned int topology_core_id(unsigned int cpu)
{
	return per_cpu(cpu_topo, cpu).cpu_core_id;
}
