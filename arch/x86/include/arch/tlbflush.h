/*
 * arch/tlbflush.h - this CPU's TLB, and which page directory each CPU has
 * loaded (Linux's asm/tlbflush.h and cpu_tlbstate).
 *
 * A CPU caches translations of the page directory in its CR3; a change to
 * a page table reaches only the CPU that flushes.  cpu_tlbstate.loaded_pgdir
 * is the directory each CPU last loaded, written before the CR3 write that
 * loads it (switch_pgdir, arch/x86/process.c; a CR3 write is serialising),
 * so that a flush at one CPU can tell whether the directory is loaded.  With
 * more than one CPU online the shootdown's targets are the mm's
 * mm_cpumask instead, kept by switch_mm() (<arch/mmu_context.h>).
 * Portable code includes this header (not <arch/cpu.h>), so the few
 * control-register instructions are written out here.
 */
#ifndef ARCH_TLBFLUSH_H
#define ARCH_TLBFLUSH_H

#include <kernel/percpu.h>

struct mm;

/*
 * 2.6.35's cpu_tlbstate.state: OK while a task of active_mm runs here;
 * LAZY while a kernel thread (the idle task) borrows it (enter_lazy_tlb():
 * its translations stay loaded, unused, and the first shootdown that
 * reaches this CPU makes it leave_mm() instead of flushing).
 */
#define TLBSTATE_OK	1
#define TLBSTATE_LAZY	2

struct tlb_state {
	u32 loaded_pgdir;	/* physical page directory in this CPU's CR3 */
	struct mm *active_mm;	/* the mm loaded there (NULL: the kernel's own) */
	int state;		/* TLBSTATE_*, with more than one CPU online */
};
DECLARE_PER_CPU(struct tlb_state, cpu_tlbstate);

/* Load PGDIR into CR3 and say so. */
static inline void load_pgdir(u32 pgdir)
{
	this_cpu_write(cpu_tlbstate.loaded_pgdir, pgdir);
	__asm__ __volatile__("mov %0, %%cr3" :: "r"(pgdir) : "memory");
}

/* Drop this CPU's non-global translations (a CR3 reload). */
static inline void local_flush_tlb(void)
{
	u32 cr3;

	__asm__ __volatile__("mov %%cr3, %0\n\tmov %0, %%cr3" : "=r"(cr3) :: "memory");
}

/* Drop one page's translation on this CPU. */
static inline void __flush_tlb_one(u32 va)
{
	__asm__ __volatile__("invlpg (%0)" :: "r"(va) : "memory");
}

/* Drop every translation, the global (kernel) ones too: CR4.PGE off and on. */
static inline void __flush_tlb_all(void)
{
	u32 cr4;

	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	if (cr4 & (1u << 7))
		__asm__ __volatile__("mov %0, %%cr4\n\tmov %1, %%cr4"
				     :: "r"(cr4 & ~(1u << 7)), "r"(cr4) : "memory");
	else
		local_flush_tlb();
}

#endif
