/*
 * kernel/mm/tlb.c - TLB shootdown (kernel/tlbflush.h), the generic half:
 * which CPUs, and the IPI; the flushing instructions and each CPU's loaded
 * page directory are <arch/tlbflush.h>'s.
 *
 * Linux 2.6.35's i386 sent its own INVALIDATE_TLB vectors with one
 * flush_state per sender (arch/x86/mm/tlb.c, flush_tlb_others_ipi);
 * Granule sends a call-function IPI (kernel/smp.c), as Linux does since
 * 3.6 ("x86/tlb: replace INVALIDATE_TLB_VECTOR by CALL_FUNCTION_VECTOR",
 * Alex Shi, 2012): the same targets and the same wait, one IPI path fewer.
 * A range of more than TLB_FLUSH_CEILING pages is flushed whole, as a CR3
 * reload costs less than that many invlpg (Linux 3.15's
 * tlb_single_page_flush_ceiling, 33).  irq_stat.irq_tlb_count counts the
 * shootdowns a CPU took from another (Linux's TLB row of /proc/interrupts).
 *
 * With more than one CPU online the targets are 2.6.35's: the CPUs in the
 * mm's mm_cpumask other than this one.  A CPU that holds the mm lazily (a
 * kernel thread runs there, <arch/mmu_context.h>) does not flush: it
 * leave_mm()s, as 2.6.35's flush_tlb_func does, and so drops out of the
 * mask.  At one CPU the mask is not kept: the call flushes this CPU if the
 * mm's directory is loaded, as before, and sends nothing.
 */
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/tlbflush.h>
#include <kernel/vm.h>
#include <arch/barrier.h>
#include <arch/hardirq.h>
#include <arch/mmu_context.h>
#include <arch/tlbflush.h>

#define TLB_FLUSH_ALL		0xffffffffu
#define TLB_FLUSH_CEILING	33	/* pages: more and the whole TLB goes */

struct flush_tlb_info {
	struct mm *mm;		/* NULL: every translation, global ones too */
	u32 start, end;		/* [start, end) or TLB_FLUSH_ALL */
};

/* Flush INFO's pages of the loaded directory from this CPU's TLB. */
static void flush_tlb_pages(const struct flush_tlb_info *f)
{
	if (f->end == TLB_FLUSH_ALL || (f->end - f->start) >> 12 > TLB_FLUSH_CEILING) {
		local_flush_tlb();
	} else {
		for (u32 va = f->start; va < f->end; va += 4096)
			__flush_tlb_one(va);
	}
}

/* Flush what INFO names from this CPU's TLB (2.6.35's flush_tlb_func and
 * do_flush_tlb_all): an mm held lazily is left instead of flushed. */
static void flush_tlb_func(void *arg)
{
	const struct flush_tlb_info *f = arg;

	if (!f->mm) {
		__flush_tlb_all();
		if (this_cpu_read(cpu_tlbstate.state) == TLBSTATE_LAZY)
			leave_mm();
	} else if (this_cpu_read(cpu_tlbstate.active_mm) != f->mm) {
		return;		/* switched away meanwhile: nothing of it cached */
	} else if (this_cpu_read(cpu_tlbstate.state) == TLBSTATE_OK) {
		flush_tlb_pages(f);
	} else {
		leave_mm();
	}
}

/* The IPI's side: a shootdown from another CPU. */
static void flush_tlb_ipi(void *arg)
{
	flush_tlb_func(arg);
	inc_irq_stat(irq_tlb_count);
}

/* Flush INFO here and on every other CPU of the mm's mask (2.6.35's
 * flush_tlb_mm/flush_tlb_page with flush_tlb_others). */
static void flush_tlb_cpus(struct flush_tlb_info *info)
{
	unsigned int self = smp_processor_id();
	struct cpumask mask;

	if (static_branch_on(&sched_up_key)) {
		if (this_cpu_read(cpu_tlbstate.loaded_pgdir) == info->mm->pgdir)
			flush_tlb_pages(info);
		return;
	}
	flush_tlb_func(info);
	smp_mb();	/* the PTE changes before reading the mask */
	cpumask_copy(&mask, mm_cpumask(info->mm));
	cpumask_clear_cpu(self, &mask);
	if (!cpumask_empty(&mask))
		smp_call_function_many(&mask, flush_tlb_ipi, info, 1);
}

void flush_tlb_mm(struct mm *mm)
{
	struct flush_tlb_info info = { mm, 0, TLB_FLUSH_ALL };

	flush_tlb_cpus(&info);
}

void flush_tlb_range(struct mm *mm, u32 start, u32 end)
{
	struct flush_tlb_info info = { mm, start & ~0xfffu, end };

	flush_tlb_cpus(&info);
}

void flush_tlb_page(struct mm *mm, u32 va)
{
	struct flush_tlb_info info = { mm, va & ~0xfffu, (va & ~0xfffu) + 4096 };

	flush_tlb_cpus(&info);
}

/* Every CPU, every translation (kernel mappings changed). */
void flush_tlb_all(void)
{
	struct flush_tlb_info info = { NULL, 0, TLB_FLUSH_ALL };

	smp_call_function(flush_tlb_ipi, &info, 1);
	flush_tlb_func(&info);
}

/*
 * Kernel mappings in [start, end) went away (a kernel stack freed).  At one
 * CPU, each page from this TLB; at more, every CPU's whole TLB, as 2.6.35's
 * x86 flush_tlb_kernel_range() is flush_tlb_all(): a CPU that ran on the
 * stack may cache it, and the next stack mapped there has other frames.
 */
void flush_tlb_kernel_range(u32 start, u32 end)
{
	if (static_branch_on(&sched_up_key)) {
		for (u32 va = start & ~0xfffu; va < end; va += 4096)
			__flush_tlb_one(va);
		return;
	}
	flush_tlb_all();
}
