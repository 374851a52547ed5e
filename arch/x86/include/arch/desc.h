/*
 * arch/desc.h - the two descriptor-table writes of every context switch
 * (Linux's load_sp0 and native_load_tls, asm/desc.h), inline: the TSS's
 * esp0 (the kernel stack a trap from ring 3 lands on) and the GDT's TLS
 * slots.  The tables themselves are arch/x86/gdt.c's.
 */
#ifndef ARCH_DESC_H
#define ARCH_DESC_H

#include <kernel/task.h>
#include <arch/segment.h>
#include <arch/tls.h>

struct tss {
	u32 link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	u32 eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, iomap_base;
} __attribute__((packed));

extern u64 gdt[GDT_ENTRIES];
extern struct tss tss;

static inline void tss_set_esp0(u32 esp0)
{
	tss.esp0 = esp0;
}

/* Write the GDT_ENTRY_TLS_ENTRIES descriptors TLS into the GDT's TLS slots. */
static inline void gdt_set_tls(const struct desc_struct *tls)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		gdt[GDT_ENTRY_TLS_MIN + i] = ((u64)tls[i].b << 32) | tls[i].a;
}

/* Copy T's TLS descriptors into the GDT (on every switch to T, and when
 * they change while T runs). */
static inline void load_TLS(const struct task *t)
{
	gdt_set_tls(t->thread.tls_array);
}

#endif
