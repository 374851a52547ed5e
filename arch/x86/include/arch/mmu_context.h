/*
 * arch/mmu_context.h - which address space each CPU has loaded, with more
 * than one CPU online (2.6.35's arch/x86/include/asm/mmu_context.h and
 * arch/x86/mm/tlb.c's leave_mm).
 *
 * switch_mm(prev, next) loads NEXT's page directory and moves this CPU's
 * bit from PREV's mm_cpumask to NEXT's: the bit is set before the CR3
 * write, so a CPU that changes NEXT's page tables and then (after a full
 * barrier) reads the mask either sees the bit or this load comes after the
 * change.  A kernel thread, the idle task among them, has no mm: switching
 * to it keeps the previous one loaded (enter_lazy_tlb(): no CR3 write, and
 * back to the same mm none either), and the first shootdown of that mm that
 * reaches the CPU makes it leave_mm(): the kernel's page directory loaded
 * and its bit cleared, so that later shootdowns pass it by.
 *
 * Deliberate difference: 2.6.35 keeps a lazy CPU's mm alive by a reference
 * (mm_count, dropped by finish_task_switch's mmdrop); Granule's mm has no
 * second count, and the last mm_put() shoots the mm down before it frees
 * anything (kernel/mm/vm.c), so every lazy CPU has left it by then and
 * active_mm is set to NULL, never left dangling.
 */
#ifndef ARCH_MMU_CONTEXT_H
#define ARCH_MMU_CONTEXT_H

#include <kernel/smp.h>
#include <kernel/vm.h>
#include <arch/pgtable.h>
#include <arch/tlbflush.h>

/* A kernel thread runs on whatever mm is loaded. */
static inline void enter_lazy_tlb(void)
{
	if (this_cpu_read(cpu_tlbstate.state) == TLBSTATE_OK)
		this_cpu_write(cpu_tlbstate.state, TLBSTATE_LAZY);
}

/* Load NEXT (PREV: this CPU's active_mm, NULL for the kernel's own). */
static inline void switch_mm(struct mm *prev, struct mm *next)
{
	unsigned int cpu = smp_processor_id();

	this_cpu_write(cpu_tlbstate.state, TLBSTATE_OK);
	if (prev != next) {
		this_cpu_write(cpu_tlbstate.active_mm, next);
		cpumask_set_cpu(cpu, mm_cpumask(next));
		load_pgdir(next->pgdir);
		if (prev)
			cpumask_clear_cpu(cpu, mm_cpumask(prev));
	} else if (!cpumask_test_and_set_cpu(cpu, mm_cpumask(next))) {
		/* lazy, and a shootdown made us leave: it was not flushed here */
		load_pgdir(next->pgdir);
	}
}

/* Drop the lazily kept mm: the kernel's page directory, out of its mask. */
static inline void leave_mm(void)
{
	struct mm *mm = this_cpu_read(cpu_tlbstate.active_mm);

	this_cpu_write(cpu_tlbstate.active_mm, NULL);
	this_cpu_write(cpu_tlbstate.state, 0);
	load_pgdir(kernel_pgdir);
	if (mm)
		cpumask_clear_cpu(smp_processor_id(), mm_cpumask(mm));
}

#endif
