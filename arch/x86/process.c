/*
 * arch/x86/process.c - switching, and the stack frames that start tasks.
 */
#include <kernel/smp_lock.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <arch/cpu.h>
#include <arch/desc.h>
#include <arch/fpu.h>
#include <arch/mmu_context.h>
#include <arch/pgtable.h>
#include <arch/process.h>
#include <arch/segment.h>
#include <arch/thread.h>
#include <arch/tlbflush.h>
#include <arch/tls.h>

void __switch_stacks(u32 *prev_esp, u32 next_esp);
void ret_from_fork(void);
void kthread_trampoline(void);
__attribute__((noreturn)) void __enter_user(struct trap_frame *tf);


#define EFLAGS_IF	0x200
#define EFLAGS_RSVD	0x002	/* bit 1 always reads 1 */

struct trap_frame *task_pt_regs(struct task *t)
{
	return (struct trap_frame *)(t->thread.esp0 - sizeof(struct trap_frame));
}

u32 kstk_esp(struct task *t)
{
	return task_pt_regs(t)->useresp;
}

u32 kstk_eip(struct task *t)
{
	return task_pt_regs(t)->eip;
}

/* More than one CPU online: T's mm is switched to by switch_mm() (its
 * mm_cpumask kept), and a task without one (a kernel thread, the idle
 * task, an exiting task) borrows the loaded mm: enter_lazy_tlb(). */
static noinline void switch_pgdir_smp(struct task *t, u32 pgdir)
{
	if (t->mm && pgdir != kernel_pgdir)
		switch_mm(this_cpu_read(cpu_tlbstate.active_mm), t->mm);
	else
		enter_lazy_tlb();
}

/* Load PGDIR into CR3 (if it is not already there), noting it for the
 * TLB shootdown (arch/tlbflush.h): one %fs read in place of reading CR3.
 * At one CPU that is all (sched_up_key: a nop, then the compare). */
static inline void switch_pgdir(struct task *t, u32 pgdir)
{
	if (static_branch_on(&sched_up_key)) {
		if (this_cpu_read(cpu_tlbstate.loaded_pgdir) != pgdir)
			load_pgdir(pgdir);
		return;
	}
	switch_pgdir_smp(t, pgdir);
}

void arch_set_kstack(struct task *t, void *base, u32 size)
{
	t->kstack = base;
	t->thread.esp0 = (u32)base + size;
	t->thread.esp = 0;
	t->thread.cr3 = kernel_pgdir;
}

void arch_set_pgdir(struct task *t, u32 pgdir)
{
	t->thread.cr3 = pgdir ? pgdir : kernel_pgdir;
	if (t == current)
		switch_pgdir(t, t->thread.cr3);
}

/* Push the callee-saved switch frame returning to RET below SP. */
static u32 *push_switch_frame(u32 *sp, void (*ret)(void))
{
	*--sp = (u32)ret;	/* return address of __switch_stacks */
	*--sp = 0;		/* ebp */
	*--sp = 0;		/* ebx */
	*--sp = 0;		/* esi */
	*--sp = 0;		/* edi */
	return sp;
}

void arch_thread_init(struct task *t, void (*entry)(void *), void *arg)
{
	arch_fpu_init_state(t);
	u32 *sp = (u32 *)task_pt_regs(t);	/* keep the user frame slot free */

	*--sp = (u32)arg;
	*--sp = (u32)entry;
	t->thread.esp = (u32)push_switch_frame(sp, kthread_trampoline);
}

void arch_fork_child(struct task *child, const struct trap_frame *tf, u32 newsp)
{
	struct trap_frame *ctf = task_pt_regs(child);

	*ctf = *tf;
	ctf->eax = 0;			/* fork() returns 0 in the child */
	arch_fpu_copy_current(child);
	if (newsp)
		ctf->useresp = newsp;
	memcpy(child->thread.tls_array, current->thread.tls_array, sizeof(child->thread.tls_array));
	child->thread.esp = (u32)push_switch_frame((u32 *)ctf, ret_from_fork);
}

int arch_fork_settls(struct task *child, u32 uinfo)
{
	return tls_clone_settls(child, uinfo);
}

void arch_exec_regs(struct trap_frame *tf, u32 entry, u32 sp)
{
	memset(tf, 0, sizeof(*tf));
	tf->cs = __USER_CS;
	tf->ds = tf->es = tf->fs = tf->gs = tf->ss = __USER_DS;
	tf->eflags = EFLAGS_IF | EFLAGS_RSVD;
	tf->eip = entry;
	tf->useresp = sp;
	arch_fpu_init_state(current);	/* a new program starts with a clean FPU */
	tls_flush_current();		/* ... and without TLS segments */
}

void arch_enter_user(struct task *t)
{
	__asm__ __volatile__("cli");
	unlock_kernel();	/* user mode holds no giant lock */
	__enter_user(task_pt_regs(t));
}

/* The switch's steps before the address space, both copies' (inline). */
static __attribute__((always_inline)) inline void switch_to_regs(struct task *prev, struct task *next)
{
	fpu_switch(prev->thread.fpu, next->thread.fpu);	/* eager: arch/fpu.h */
	tss_set_esp0(next->thread.esp0);
	load_TLS(next);		/* before NEXT's "pop gs" reloads its selector */
}

/* More than one CPU online: the mm by switch_mm() or lazily (switch_pgdir_smp). */
static noinline void arch_switch_to_smp(struct task *prev, struct task *next)
{
	switch_to_regs(prev, next);
	switch_pgdir_smp(next, next->thread.cr3);
	__switch_stacks(&prev->thread.esp, next->thread.esp);
}

/*
 * The one function of the switch (probed: sched_switch); the steps inline.
 * At one CPU (sched_up_key: a nop) the uniprocessor body, whose registers
 * no call in the middle disturbs; else a jump to the SMP copy.  A task's
 * saved stack holds its own way back through either.
 */
noinline void arch_switch_to(struct task *prev, struct task *next)
{
	if (!static_branch_on(&sched_up_key)) {
		arch_switch_to_smp(prev, next);
		return;
	}
	switch_to_regs(prev, next);
	if (this_cpu_read(cpu_tlbstate.loaded_pgdir) != next->thread.cr3)
		load_pgdir(next->thread.cr3);
	__switch_stacks(&prev->thread.esp, next->thread.esp);
}
