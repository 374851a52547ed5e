/*
 * user/lib/tls.c - the main thread's TCB, %gs setup and __errno_location.
 *
 * At startup set_thread_area(entry_number = -1) installs a flat 4 GiB
 * data segment based at the main TCB; the kernel picks a free GDT TLS
 * entry (6 on Granule, 12 on an x86-64 Linux host) and writes its number
 * back, and %gs gets (entry << 3) | 3.  Threads use the same entry number
 * with their own base (clone's CLONE_SETTLS, user/lib/thread.c): the
 * kernel switches the descriptor with the thread.  fork keeps the TLS
 * (the child's copy of the TCB sits at the same address); exec starts
 * over here.
 */
#include <errno.h>
#include <stddef.h>
#include "tls.h"
#include "ulib.h"

int __tls_entry = -1;
static struct tcb main_tcb;
static int errno_global;	/* errno when the kernel has no TLS for us */

void __tls_init_tcb(struct tcb *tcb, struct thread *t, struct user_desc *u)
{
	tcb->self = tcb;
	tcb->errno_val = 0;
	tcb->thread = t;
	*u = (struct user_desc){
		.entry_number = (unsigned)__tls_entry,
		.base_addr = (unsigned)tcb,
		.limit = 0xfffff,		/* 4 GiB in pages: any offset */
		.seg_32bit = 1,
		.limit_in_pages = 1,
	};
}

void __libc_tls_init(void)
{
	struct user_desc u;

	__tls_entry = -1;
	__tls_init_tcb(&main_tcb, NULL, &u);
	if (sys_set_thread_area(L(&u)) < 0)
		return;		/* errno stays process-wide */
	__asm__ __volatile__("movw %w0, %%gs" :: "q"(u.entry_number * 8 + 3) : "memory");
	__tls_entry = (int)u.entry_number;
}

int *__errno_location(void)
{
	struct tcb *t;

	if (__tls_entry < 0)
		return &errno_global;
	__asm__("movl %%gs:0, %0" : "=r"(t));
	return &t->errno_val;
}
