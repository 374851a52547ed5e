/*
 * kernel/entry.h - what the architecture's trap code calls in portable code.
 *
 * arch/x86/traps.c decodes the trap; these functions decide what it means:
 *	user_page_fault() a ring-3 page fault: demand page, stack, COW
 *	user_exception()  any other (or unresolvable) ring-3 exception -> signal
 *	force_sig()       a signal the task cannot refuse, without a log line
 *	do_syscall()      the syscall gate: the table (Linux i386 numbers),
 *	                  the result, the return-to-user work
 *	exit_to_caller()  the last step of every trap: reschedule if
 *	                  need_resched is set and preemption is allowed here,
 *	                  deliver pending signals on the way back to user mode
 */
#ifndef KERNEL_ENTRY_H
#define KERNEL_ENTRY_H

#include <kernel/types.h>

struct trap_frame;

/* Resolve a ring-3 page fault at ADDR; 0 = retry the instruction (or die of
 * the SIGKILL or SIGBUS sent: out of memory, a page past a mapped file's
 * end), -EFAULT = bad access (SIGSEGV). */
int user_page_fault(u32 addr, int write);

/*
 * A ring-3 exception the kernel cannot resolve: log it the way Linux does
 * (e.g. "cc1[17]: segfault at 0 ip 0804812a sp bfffefc0 error 4") and send
 * SIGNO to the current task.  WHAT names the exception ("general
 * protection", "invalid opcode"...); for SIGSEGV page faults ADDR is the
 * faulting address and ERROR the x86 error code.
 */
void user_exception(int signo, const char *what, u32 ip, u32 sp, u32 addr, u32 error);

/* Linux force_sig(): send SIG to the current task, no message; a blocked
 * or ignored SIG is unblocked / reset to SIG_DFL so it gets through. */
void force_sig(int sig);

/*
 * The system call in TF (number and arguments as <arch/syscall.h> reads
 * them), called by the arch's stub with interrupts on: run it, store the
 * value or -errno in TF, and return with interrupts off and the
 * return-to-user work done (exit_to_caller(tf, 1) when any is pending).
 */
void do_syscall(struct trap_frame *tf);

void exit_to_caller(struct trap_frame *tf, int to_user);
/* The same at more than one CPU, from a call or trap that may not hold the
 * giant lock: it takes it for what needs it (kernel/entry.c). */
void exit_to_caller_smp(struct trap_frame *tf, int to_user);

#endif
