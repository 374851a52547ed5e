/*
 * arch/process.h - architecture hooks of fork, exec and the first entry to
 * user mode (the switching itself is arch/thread.h).
 *
 * Every task's kernel stack keeps its top sizeof(struct trap_frame) bytes
 * for the user register frame (Linux's task_pt_regs): a trap from ring 3
 * lands exactly there because TSS.esp0 = thread.esp0 = stack top.
 */
#ifndef ARCH_PROCESS_H
#define ARCH_PROCESS_H

#include <kernel/types.h>

struct task;
struct trap_frame;

struct trap_frame *task_pt_regs(struct task *t);
/* T's user stack and instruction pointers as its user frame saved them
 * (i386's KSTK_ESP and KSTK_EIP); meaningful for a task with an mm. */
u32 kstk_esp(struct task *t);
u32 kstk_eip(struct task *t);

/* Set the kernel stack of T: [base, base+size), esp0 = top. */
void arch_set_kstack(struct task *t, void *base, u32 size);

/* Child of fork/clone: its user frame is a copy of TF with eax = 0 (and the
 * user stack NEWSP if non-zero), its TLS descriptors the current task's;
 * its first switch resumes in user mode. */
void arch_fork_child(struct task *child, const struct trap_frame *tf, u32 newsp);
/* clone(CLONE_SETTLS): the user_desc at UINFO replaces one of CHILD's
 * inherited TLS descriptors; 0, -EFAULT or -EINVAL (child unchanged). */
int arch_fork_settls(struct task *child, u32 uinfo);

/* Point the user frame of the current task at a fresh program. */
void arch_exec_regs(struct trap_frame *tf, u32 entry, u32 sp);

/* From a kernel thread that just exec'ed: drop into ring 3 (no return). */
__attribute__((noreturn)) void arch_enter_user(struct task *t);

/* Address-space switch for T (its page directory, or the kernel's). */
void arch_set_pgdir(struct task *t, u32 pgdir);

#endif
