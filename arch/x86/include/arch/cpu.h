/*
 * arch/cpu.h - i686 instructions as inline functions: port I/O, control
 * registers, MSRs, CPUID, TSC.  Only arch/x86/ includes this header.
 */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <kernel/types.h>

static inline void outb(u16 port, u8 v)  { __asm__ __volatile__("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ __volatile__("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ __volatile__("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port)  { u8 v;  __asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port) { u16 v; __asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u32 inl(u16 port) { u32 v; __asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }
/* A write to the unused port 0x80 takes about 1 us on ISA-era hardware. */
static inline void io_delay(void) { outb(0x80, 0); }

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

#define DEFINE_CR(n) \
	static inline u32 read_cr##n(void) { u32 v; __asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v)); return v; } \
	static inline void write_cr##n(u32 v) { __asm__ __volatile__("mov %0, %%cr" #n :: "r"(v) : "memory"); }
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline void invlpg(u32 va) { __asm__ __volatile__("invlpg (%0)" :: "r"(va) : "memory"); }
static inline void hlt(void) { __asm__ __volatile__("hlt" ::: "memory"); }
/* Enable interrupts and halt atomically (sti's one-instruction shadow). */
static inline void safe_halt(void) { __asm__ __volatile__("sti; hlt" ::: "memory"); }

/* CPUID.1:EDX feature bits we care about. */
#define X86_FEATURE_FPU		(1u << 0)
#define X86_FEATURE_PSE		(1u << 3)
#define X86_FEATURE_TSC		(1u << 4)
#define X86_FEATURE_MSR		(1u << 5)
#define X86_FEATURE_PAE		(1u << 6)
#define X86_FEATURE_APIC	(1u << 9)
#define X86_FEATURE_HT		(1u << 28)	/* CPUID.1:EBX[23:16] is valid */
#define X86_FEATURE_SEP		(1u << 11)	/* SYSENTER/SYSEXIT (unused: docs/FASTPATHS.md) */
#define X86_FEATURE_PGE		(1u << 13)
#define X86_FEATURE_CMOV	(1u << 15)
#define X86_FEATURE_MMX		(1u << 23)
#define X86_FEATURE_FXSR	(1u << 24)
#define X86_FEATURE_SSE		(1u << 25)
#define X86_FEATURE_SSE2	(1u << 26)
/* CPUID.1:ECX */
#define X86_FEATURE_SSE3	(1u << 0)
#define X86_FEATURE_TSC_DEADLINE (1u << 24)
#define X86_FEATURE_HYPERVISOR	(1u << 31)	/* set by QEMU, KVM, Xen...: never by real CPUs */

struct cpuinfo_x86 {
	int has_cpuid;
	char vendor[13];
	char brand[49];
	u32 signature;		/* CPUID.1:EAX */
	int family, model, stepping;
	u32 edx, ecx;		/* CPUID.1 feature words */
	u32 max_leaf;
};
extern struct cpuinfo_x86 boot_cpu;

static inline int cpu_has(u32 edx_bit) { return (boot_cpu.edx & edx_bit) != 0; }

void cpu_probe(void);
void detect_ht(unsigned int cpu);	/* topology.c: this CPU's package and core */
void cpu_print(void);

#endif
