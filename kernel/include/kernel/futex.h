/*
 * kernel/futex.h - the futex operations thread join and glibc's NPTL need
 * (FUTEX_WAIT / FUTEX_WAKE and their _BITSET forms on a 32-bit word of an
 * address space).
 */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <kernel/types.h>

struct mm;
struct timespec32;
struct kernel_timespec;

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_WAIT_BITSET	9	/* absolute timeout; waiters tagged with a bitset */
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256	/* WAIT_BITSET's timeout is on CLOCK_REALTIME */
#define FUTEX_BITSET_MATCH_ANY	0xffffffffu

/* Wake up to NR waiters on (MM, UADDR); returns how many were woken. */
int futex_wake(struct mm *mm, u32 uaddr, int nr);
/* FUTEX_WAIT (an optional relative timeout), FUTEX_WAKE, FUTEX_WAIT_BITSET (an
 * optional absolute one) and FUTEX_WAKE_BITSET; VAL3 is the bitset. */
long sys_futex(u32 uaddr, int op, u32 val, const struct timespec32 *utimeout, u32 val3);
long sys_futex_time64(u32 uaddr, int op, u32 val, const struct kernel_timespec *utimeout, u32 val3);

#endif
