/*
 * kernel/tlbflush.h - TLB shootdown: make every CPU forget translations
 * that changed (Linux's flush_tlb_mm/flush_tlb_range/flush_tlb_all,
 * arch/x86/mm/tlb.c).
 *
 * Each call flushes this CPU if it has MM loaded and sends the other CPUs
 * of mm_cpumask(MM) an IPI (a call-function, kernel/mm/tlb.c) whose handler
 * flushes them (or, on a CPU that holds MM lazily, leave_mm()s), and
 * returns once they all have.  A CPU outside the mask caches none of MM's
 * translations and is left alone.  The caller has changed the page tables
 * before and holds interrupts on.  flush_tlb_kernel_range() is for kernel
 * mappings that went away: every CPU's whole TLB, as 2.6.35's x86.
 */
#ifndef KERNEL_TLBFLUSH_H
#define KERNEL_TLBFLUSH_H

#include <kernel/types.h>

struct mm;

void flush_tlb_mm(struct mm *mm);
void flush_tlb_range(struct mm *mm, u32 start, u32 end);
void flush_tlb_page(struct mm *mm, u32 va);
void flush_tlb_all(void);
void flush_tlb_kernel_range(u32 start, u32 end);

#endif
