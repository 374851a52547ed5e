/*
 * kernel/entry.h - what the architecture's trap code calls in portable code.
 *
 * arch/x86/traps.c decodes the trap; these functions decide what it means:
 *	user_exception()  a CPU exception raised in ring 3 -> signal or kill
 *	do_syscall()      the syscall table (Linux i386 numbers)
 *	exit_to_caller()  the last step of every trap: reschedule if
 *	                  need_resched is set and preemption is allowed here,
 *	                  deliver pending signals on the way back to user mode
 */
#ifndef KERNEL_ENTRY_H
#define KERNEL_ENTRY_H

#include <kernel/types.h>

struct trap_frame;

/* Return 1 if handled (the task got the signal or was killed), 0 to oops. */
int user_exception(int vector, int signo, u32 ip, u32 addr, u32 error);

/* Dispatch syscall NR with up to six arguments; returns the value or -errno. */
long do_syscall(u32 nr, u32 a1, u32 a2, u32 a3, u32 a4, u32 a5, u32 a6,
		struct trap_frame *tf);

/* arch: read the syscall registers from TF, call do_syscall, store eax. */
void syscall_dispatch(struct trap_frame *tf);

void exit_to_caller(struct trap_frame *tf, int to_user);

#endif
