/*
 * kernel/uaccess.h - the only way syscalls touch user memory.
 * All return 0 (or a length) on success and -EFAULT for any bad address.
 */
#ifndef KERNEL_UACCESS_H
#define KERNEL_UACCESS_H

#include <kernel/mm.h>
#include <kernel/types.h>

/* [addr, addr+len) lies in user space without wrapping.  Like Linux: an
 * empty range may end exactly at TASK_SIZE (exec copies a zero-length
 * string area to STACK_TOP when argv and envp are empty). */
static inline int access_ok(u32 addr, u32 len)
{
	return addr <= TASK_SIZE && len <= TASK_SIZE - addr;
}

/* Make every page of [addr, addr+len) present for the access (demand and
 * COW faults done now), as a syscall does before it blocks; 0 or -EFAULT. */
int fault_in_user(const void *uaddr, size_t len, int write);
int copy_from_user(void *dst, const void *usrc, size_t n);
int copy_to_user(void *udst, const void *src, size_t n);
/* Copy a NUL-terminated string of at most MAX-1 chars; returns its length,
 * -EFAULT, or -ENAMETOOLONG if no NUL within MAX bytes. */
long strncpy_from_user(char *dst, const char *usrc, long max);

#define get_user(x, p)	copy_from_user(&(x), (p), sizeof(x))
#define put_user(x, p)	({ __typeof__(x) __v = (x); copy_to_user((p), &__v, sizeof(__v)); })

#endif
