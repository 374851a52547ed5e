/*
 * arch/x86/syscall.c - the int 0x80 gate with the Linux i386 convention:
 * eax = number, ebx ecx edx esi edi ebp = arguments 1..6, result in eax
 * (-errno on failure).  The number is kept in tf->error (orig_eax) for
 * syscall restart after a signal.
 */
#include <kernel/entry.h>
#include <arch/segment.h>

void syscall_dispatch(struct trap_frame *tf)
{
	tf->error = tf->eax;	/* orig_eax: lets arch/x86/signal.c restart the call */
	tf->eax = (u32)do_syscall(tf->eax, tf->ebx, tf->ecx, tf->edx,
				  tf->esi, tf->edi, tf->ebp, tf);
}
