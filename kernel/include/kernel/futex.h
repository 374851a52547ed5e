/*
 * kernel/futex.h - the two futex operations thread join needs
 * (FUTEX_WAIT / FUTEX_WAKE on a 32-bit word of an address space).
 */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <kernel/types.h>

struct mm;
struct timespec32;
struct kernel_timespec;

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_PRIVATE_FLAG	128

/* Wake up to NR waiters on (MM, UADDR); returns how many were woken. */
int futex_wake(struct mm *mm, u32 uaddr, int nr);
/* FUTEX_WAIT (with an optional relative timeout) and FUTEX_WAKE. */
long sys_futex(u32 uaddr, int op, u32 val, const struct timespec32 *utimeout);
long sys_futex_time64(u32 uaddr, int op, u32 val, const struct kernel_timespec *utimeout);

#endif
