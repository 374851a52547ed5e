/*
 * arch/segment.h - GDT selectors and the trap frame layout.
 *
 * Flat segments only (base 0, limit 4 GiB); protection comes from paging.
 * The exceptions: the three per-task TLS entries (arch/tls.h), whose bases
 * user space chooses with set_thread_area, and __KERNEL_PERCPU, whose base
 * is the CPU's per-CPU area (each CPU has a GDT of its own, arch/x86/gdt.c).
 */
#ifndef ARCH_SEGMENT_H
#define ARCH_SEGMENT_H

#include <kernel/types.h>

#define GDT_KERNEL_CS	1
#define GDT_KERNEL_DS	2
#define GDT_USER_CS	3
#define GDT_USER_DS	4
#define GDT_TSS		5
/* 6, 7, 8: the running task's TLS segments (GDT_ENTRY_TLS_*, arch/tls.h) */
#define GDT_PERCPU	9	/* this CPU's per-CPU area (arch/percpu.h) */
#define GDT_ENTRIES	10

#define __KERNEL_CS	(GDT_KERNEL_CS << 3)		/* 0x08 */
#define __KERNEL_DS	(GDT_KERNEL_DS << 3)		/* 0x10 */
#define __USER_CS	((GDT_USER_CS << 3) | 3)	/* 0x1b */
#define __USER_DS	((GDT_USER_DS << 3) | 3)	/* 0x23 */
#define __TSS		(GDT_TSS << 3)			/* 0x28 */
#define __KERNEL_PERCPU	(GDT_PERCPU << 3)		/* 0x48, in %fs in the kernel */

/* Selector bits (Linux's SEGMENT_RPL_MASK / SEGMENT_TI_MASK): TI=1 names
 * the LDT, which Granule never has (LDTR is null: gdt.c). */
#define SEGMENT_RPL_MASK	0x3
#define SEGMENT_TI_MASK		0x4

/*
 * What arch/x86/entry.asm pushes on every trap, interrupt and syscall,
 * lowest address first (pusha last, so it is at the bottom).  useresp/ss exist only when cs has RPL 3.
 */
struct trap_frame {
	u32 edi, esi, ebp, esp_dummy, ebx, edx, ecx, eax;	/* pusha */
	u32 gs, fs, es, ds;
	u32 vector, error;
	u32 eip, cs, eflags;
	u32 useresp, ss;
};

static inline int user_mode(const struct trap_frame *tf) { return (tf->cs & 3) == 3; }

/* The boot CPU's first GDT and TSS (the per-CPU template's), loaded. */
void gdt_init(void);
/* tss_set_esp0, gdt_set_tls, load_TLS, the per-CPU tables: arch/desc.h. */

/* Interrupt vectors. */
#define IRQ0_VECTOR		0x20	/* 8259 IRQ 0..15 -> 0x20..0x2f */
#define SYSCALL_VECTOR		0x80
#define LOCAL_TIMER_VECTOR	0xef	/* as in Linux */
#define SPURIOUS_APIC_VECTOR	0xff

void idt_init(void);
void idt_load(void);	/* this CPU's IDTR: the one IDT */

#endif
