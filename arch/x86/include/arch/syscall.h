/*
 * arch/syscall.h - the Linux i386 system call convention on a trap frame
 * (Linux's asm/syscall.h): eax = number, ebx ecx edx esi edi ebp =
 * arguments 1..6, the result in eax (-errno on failure).  The stub in
 * arch/x86/entry.asm also keeps the number in tf->error (orig_eax), so
 * arch/x86/signal.c can restart the call after a signal.
 */
#ifndef ARCH_SYSCALL_H
#define ARCH_SYSCALL_H

#include <arch/segment.h>

static inline u32 syscall_get_nr(const struct trap_frame *tf)
{
	return tf->eax;
}

static inline void syscall_set_return_value(struct trap_frame *tf, long v)
{
	tf->eax = (u32)v;
}

/* Declare a1..a6, the six raw argument registers of TF (unused ones cost nothing). */
#define SYSCALL_ARGS(tf)						\
	__attribute__((unused)) u32 a1 = (tf)->ebx, a2 = (tf)->ecx,	\
		a3 = (tf)->edx, a4 = (tf)->esi, a5 = (tf)->edi, a6 = (tf)->ebp

#endif
