/*
 * arch/thread.h - the whole architecture interface of task switching
 * (after LK's arch/thread.h): a small struct embedded in struct task and two
 * functions.  Host unit tests provide a recording shim with these names.
 */
#ifndef ARCH_THREAD_H
#define ARCH_THREAD_H

#include <kernel/types.h>
#include <arch/tls.h>

struct task;

struct arch_thread {
	u32 esp;		/* saved kernel stack pointer while switched out */
	u32 esp0;		/* top of the kernel stack: TSS.esp0 while running */
	u32 cr3;		/* physical page directory; 0 = kernel's */
	/* TLS descriptors for GDT entries GDT_ENTRY_TLS_MIN.. (set_thread_area,
	 * CLONE_SETTLS); inherited by fork/clone, cleared by exec, installed
	 * in the GDT by every switch to this task. */
	struct desc_struct tls_array[GDT_ENTRY_TLS_ENTRIES];
	/* x87/SSE register state while switched out (fxsave, or fnsave
	 * without FXSR); saved and restored on every switch (eager FPU, see
	 * arch/fpu.h: scratch while the task runs). */
	u8 fpu[512] __attribute__((aligned(16)));
};

/* The FPU state a new program starts with (after fninit). */
void arch_fpu_init_state(struct task *t);
/* Copy the running task's FPU registers into T (fork). */
void arch_fpu_copy_current(struct task *t);

/* Prepare T so that the first switch to it calls entry(arg) on its stack. */
void arch_thread_init(struct task *t, void (*entry)(void *), void *arg);

/* Save PREV's callee-saved state, load NEXT's (stack, esp0, cr3). */
void arch_switch_to(struct task *prev, struct task *next);

#endif
