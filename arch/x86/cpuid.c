/*
 * arch/x86/cpuid.c - identify the boot CPU: vendor, family/model/stepping,
 * brand string (leaves 0x80000002..4 where present) and feature flags.
 * A CPU without CPUID (i386/early i486: EFLAGS.ID cannot be toggled) is
 * reported as such and treated as having no TSC and no APIC.
 */
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/cpu.h>
#include <arch/timer.h>
#include <kernel/procfs.h>

struct cpuinfo_x86 boot_cpu;

static int have_cpuid(void)
{
	u32 a, b;
	__asm__ __volatile__(
		"pushfl\n\tpopl %0\n\tmovl %0, %1\n\t"
		"xorl $0x200000, %0\n\tpushl %0\n\tpopfl\n\t"
		"pushfl\n\tpopl %0\n\tpushl %1\n\tpopfl"
		: "=&r"(a), "=&r"(b));
	return ((a ^ b) & 0x200000) != 0;
}

void cpu_probe(void)
{
	u32 a, b, c, d;

	if (!have_cpuid()) {
		strcpy(boot_cpu.vendor, "unknown");
		strcpy(boot_cpu.brand, "pre-CPUID i486-class");
		return;
	}
	boot_cpu.has_cpuid = 1;
	cpuid(0, &a, &b, &c, &d);
	boot_cpu.max_leaf = a;
	memcpy(boot_cpu.vendor + 0, &b, 4);
	memcpy(boot_cpu.vendor + 4, &d, 4);
	memcpy(boot_cpu.vendor + 8, &c, 4);
	boot_cpu.vendor[12] = 0;

	if (boot_cpu.max_leaf >= 1) {
		cpuid(1, &a, &b, &c, &d);
		boot_cpu.signature = a;
		boot_cpu.stepping = a & 0xf;
		boot_cpu.model = (a >> 4) & 0xf;
		boot_cpu.family = (a >> 8) & 0xf;
		if (boot_cpu.family == 0xf)
			boot_cpu.family += (a >> 20) & 0xff;
		if (boot_cpu.family == 0x6 || boot_cpu.family >= 0xf)
			boot_cpu.model |= ((a >> 16) & 0xf) << 4;
		boot_cpu.edx = d;
		boot_cpu.ecx = c;
	}

	cpuid(0x80000000, &a, &b, &c, &d);
	if (a >= 0x80000004 && a < 0x8000ffff) {
		u32 *p = (u32 *)boot_cpu.brand;
		for (u32 leaf = 0x80000002; leaf <= 0x80000004; leaf++, p += 4)
			cpuid(leaf, &p[0], &p[1], &p[2], &p[3]);
		boot_cpu.brand[48] = 0;
	}
}

static const struct { u32 bit; int ecx; const char *name; } flags[] = {
	{ X86_FEATURE_FPU, 0, "fpu" }, { X86_FEATURE_PSE, 0, "pse" },
	{ X86_FEATURE_TSC, 0, "tsc" }, { X86_FEATURE_MSR, 0, "msr" },
	{ X86_FEATURE_PAE, 0, "pae" }, { X86_FEATURE_APIC, 0, "apic" },
	{ X86_FEATURE_SEP, 0, "sep" },
	{ X86_FEATURE_PGE, 0, "pge" }, { X86_FEATURE_CMOV, 0, "cmov" },
	{ X86_FEATURE_MMX, 0, "mmx" }, { X86_FEATURE_FXSR, 0, "fxsr" },
	{ X86_FEATURE_SSE, 0, "sse" }, { X86_FEATURE_SSE2, 0, "sse2" },
	{ X86_FEATURE_SSE3, 1, "pni" }, { X86_FEATURE_TSC_DEADLINE, 1, "tsc_deadline_timer" },
};

/* " fpu pse ..." into BUF (SIZE >= 24). */
static size_t flags_snprint(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(flags) && n < size - 24; i++) {
		u32 word = flags[i].ecx ? boot_cpu.ecx : boot_cpu.edx;
		if (word & flags[i].bit)
			n += snprintf(buf + n, size - n, " %s", flags[i].name);
	}
	return n;
}

void cpu_print(void)
{
	char buf[160];
	const char *brand = boot_cpu.brand;

	while (*brand == ' ')
		brand++;
	printk("CPU: %s family %d model %d stepping %d (sig 0x%03x)%s%s\n",
	       boot_cpu.vendor, boot_cpu.family, boot_cpu.model, boot_cpu.stepping,
	       boot_cpu.signature, *brand ? ": " : "", brand);
	flags_snprint(buf, sizeof(buf));
	printk("CPU flags:%s\n", buf);
}

/* /proc/cpuinfo: Linux's show_cpuinfo (arch/x86/kernel/cpu/proc.c) fields
 * that the boot CPU's CPUID gives; cpu MHz from the TSC calibration. */
size_t arch_cpuinfo_show(char *buf, size_t size)
{
	char fl[160];
	const char *brand = boot_cpu.brand;

	while (*brand == ' ')
		brand++;
	flags_snprint(fl, sizeof(fl));
	return snprintf(buf, size,
			"processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
			"model name\t: %s\nstepping\t: %d\ncpu MHz\t\t: %u.%03u\n"
			"fpu\t\t: %s\nflags\t\t:%s\n\n",
			boot_cpu.vendor, boot_cpu.family, boot_cpu.model, *brand ? brand : "unknown",
			boot_cpu.stepping, tsc_khz / 1000, tsc_khz % 1000,
			(boot_cpu.edx & X86_FEATURE_FPU) ? "yes" : "no", fl);
}

/* AT_HWCAP for exec's auxiliary vector: CPUID.1 EDX, as Linux's ELF_HWCAP
 * on i386 (arch/x86/include/asm/elf.h). */
u32 elf_hwcap(void)
{
	return boot_cpu.edx;
}
