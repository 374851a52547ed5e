/*
 * kernel/entry.c - the portable side of trap entry and exit.
 *
 * Until processes exist there is no user mode: every exception is a kernel
 * oops, every syscall -ENOSYS, and nothing is rescheduled on the way out.
 */
#include <kernel/entry.h>
#include <kernel/errno.h>

int user_exception(int vector, int signo, u32 ip, u32 addr, u32 error)
{
	return 0;
}

long do_syscall(u32 nr, u32 a1, u32 a2, u32 a3, u32 a4, u32 a5, u32 a6,
		struct trap_frame *tf)
{
	return -ENOSYS;
}

void exit_to_caller(struct trap_frame *tf, int to_user)
{
}
