/*
 * kernel/tlbflush.h - TLB shootdown: make every CPU forget translations
 * that changed (Linux's flush_tlb_mm/flush_tlb_range/flush_tlb_all,
 * arch/x86/mm/tlb.c).
 *
 * Each call flushes this CPU if it has MM loaded and sends the others that
 * have it loaded an IPI (a call-function, kernel/mm/tlb.c) whose handler
 * flushes them, and returns once they all have.  A CPU that has not loaded
 * MM caches none of its translations and is left alone.  The caller has
 * changed the page tables before and holds interrupts on.
 */
#ifndef KERNEL_TLBFLUSH_H
#define KERNEL_TLBFLUSH_H

#include <kernel/types.h>

struct mm;

void flush_tlb_mm(struct mm *mm);
void flush_tlb_range(struct mm *mm, u32 start, u32 end);
void flush_tlb_all(void);

#endif
