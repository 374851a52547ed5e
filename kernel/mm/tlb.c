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
 */
#include <kernel/smp.h>
#include <kernel/tlbflush.h>
#include <kernel/vm.h>
#include <arch/barrier.h>
#include <arch/hardirq.h>
#include <arch/tlbflush.h>

#define TLB_FLUSH_ALL		0xffffffffu
#define TLB_FLUSH_CEILING	33	/* pages: more and the whole TLB goes */

struct flush_tlb_info {
	u32 pgdir;		/* 0: every translation, global ones too */
	u32 start, end;		/* [start, end) or TLB_FLUSH_ALL */
};

/* Flush what INFO names from this CPU's TLB. */
static void flush_tlb_func(void *arg)
{
	const struct flush_tlb_info *f = arg;

	if (!f->pgdir) {
		__flush_tlb_all();
	} else if (this_cpu_read(cpu_tlbstate.loaded_pgdir) != f->pgdir) {
		return;		/* switched away meanwhile: nothing of it cached */
	} else if (f->end == TLB_FLUSH_ALL || (f->end - f->start) >> 12 > TLB_FLUSH_CEILING) {
		local_flush_tlb();
	} else {
		for (u32 va = f->start; va < f->end; va += 4096)
			__flush_tlb_one(va);
	}
}

/* The IPI's side: a shootdown from another CPU. */
static void flush_tlb_ipi(void *arg)
{
	flush_tlb_func(arg);
	inc_irq_stat(irq_tlb_count);
}

/* Flush INFO here and on every other CPU that has its directory loaded. */
static void flush_tlb_cpus(struct flush_tlb_info *info)
{
	unsigned int self = smp_processor_id(), cpu;
	struct cpumask mask;

	smp_mb();	/* the PTE changes before reading the others' loaded_pgdir */
	cpumask_clear(&mask);
	for_each_online_cpu(cpu)
		if (cpu != self && per_cpu(cpu_tlbstate, cpu).loaded_pgdir == info->pgdir)
			cpumask_set_cpu(cpu, &mask);
	if (!cpumask_empty(&mask))
		smp_call_function_many(&mask, flush_tlb_ipi, info, 1);
	if (this_cpu_read(cpu_tlbstate.loaded_pgdir) == info->pgdir)
		flush_tlb_func(info);
}

void flush_tlb_mm(struct mm *mm)
{
	struct flush_tlb_info info = { mm->pgdir, 0, TLB_FLUSH_ALL };

	flush_tlb_cpus(&info);
}

void flush_tlb_range(struct mm *mm, u32 start, u32 end)
{
	struct flush_tlb_info info = { mm->pgdir, start & ~0xfffu, end };

	flush_tlb_cpus(&info);
}

/* Every CPU, every translation (kernel mappings changed). */
void flush_tlb_all(void)
{
	struct flush_tlb_info info = { 0, 0, TLB_FLUSH_ALL };

	smp_call_function(flush_tlb_ipi, &info, 1);
	flush_tlb_func(&info);
}
