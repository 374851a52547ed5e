/*
 * arch/desc.h - each CPU's GDT and TSS (per-CPU variables, as Linux's
 * gdt_page and init_tss), and the two descriptor-table writes of every
 * context switch (Linux's load_sp0 and native_load_tls, asm/desc.h),
 * inline: the TSS's esp0 (the kernel stack a trap from ring 3 lands on)
 * and the GDT's TLS slots.  Both go through %fs to the running CPU's own
 * tables, one store each, the cost of the uniprocessor's global tables.
 * The tables themselves are built by arch/x86/gdt.c.
 */
#ifndef ARCH_DESC_H
#define ARCH_DESC_H

#include <kernel/task.h>
#include <kernel/percpu.h>
#include <arch/segment.h>
#include <arch/tls.h>

struct tss {
	u32 link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	u32 eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, iomap_base;
} __attribute__((packed));

struct gdt_page {
	struct desc_struct gdt[GDT_ENTRIES];
} __attribute__((aligned(8)));

DECLARE_PER_CPU(struct gdt_page, gdt_page);
DECLARE_PER_CPU(struct tss, init_tss);

static inline void tss_set_esp0(u32 esp0)
{
	this_cpu_write(init_tss.esp0, esp0);
}

/* Write the GDT_ENTRY_TLS_ENTRIES descriptors TLS into this CPU's GDT's TLS slots. */
static inline void gdt_set_tls(const struct desc_struct *tls)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++) {
		this_cpu_write(gdt_page.gdt[GDT_ENTRY_TLS_MIN + i].a, tls[i].a);
		this_cpu_write(gdt_page.gdt[GDT_ENTRY_TLS_MIN + i].b, tls[i].b);
	}
}

/* Copy T's TLS descriptors into the GDT (on every switch to T, and when
 * they change while T runs). */
static inline void load_TLS(const struct task *t)
{
	gdt_set_tls(t->thread.tls_array);
}

/* CPU's GDT: its TSS and per-CPU descriptors pointed at its own area
 * (setup_per_cpu_areas(), once the area exists). */
void gdt_setup_cpu(unsigned int cpu);
/* Load CPU's own GDT, %fs and TSS on the CPU running this (the boot CPU
 * leaving the template: Linux's switch_to_new_gdt()). */
void switch_to_new_gdt(unsigned int cpu);
/* This CPU's TR, LDTR and IDT, after its own GDT is loaded (non-boot
 * CPUs: the trampoline loaded the GDT). */
void load_cpu_tables(void);

#endif
