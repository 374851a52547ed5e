/*
 * kernel/futex.h - the futex operations thread join and glibc's NPTL need
 * (FUTEX_WAIT / FUTEX_WAKE and their _BITSET forms on a 32-bit word of an
 * address space; the PI ops and the robust list, futex_pi.c and
 * futex_robust.c).
 */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <kernel/types.h>

struct mm;
struct timespec32;
struct kernel_timespec;

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_LOCK_PI		6	/* futex_pi.c: absolute CLOCK_REALTIME timeout */
#define FUTEX_UNLOCK_PI		7
#define FUTEX_TRYLOCK_PI	8
#define FUTEX_WAIT_BITSET	9	/* absolute timeout; waiters tagged with a bitset */
#define FUTEX_WAKE_BITSET	10
#define FUTEX_LOCK_PI2		13	/* Linux 5.14: LOCK_PI on CLOCK_MONOTONIC */
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256	/* WAIT_BITSET's timeout is on CLOCK_REALTIME */
#define FUTEX_BITSET_MATCH_ANY	0xffffffffu

/* The PI and robust futex word: owner TID | these bits. */
#define FUTEX_WAITERS		0x80000000u	/* unlock through the kernel */
#define FUTEX_OWNER_DIED	0x40000000u	/* the owner died holding it */
#define FUTEX_TID_MASK		0x3fffffffu

/* Wake up to NR waiters on (MM, UADDR); returns how many were woken, or
 * -EINVAL if a PI waiter waits on the word (2.6.35's futex_wake). */
int futex_wake(struct mm *mm, u32 uaddr, int nr);
/* futex_pi.c: 1 if a FUTEX_LOCK_PI waiter is queued on (MM, UADDR). */
int futex_pi_waiters(struct mm *mm, u32 uaddr);
/* FUTEX_WAIT (an optional relative timeout), FUTEX_WAKE, FUTEX_WAIT_BITSET (an
 * optional absolute one) and FUTEX_WAKE_BITSET; VAL3 is the bitset. */
/* An absolute timeout (KIND 0: timespec32, 1: 64-bit) on CLOCK_REALTIME or
 * CLOCK_MONOTONIC as the sched_clock() ns it expires at: 0, -EFAULT, -EINVAL */
long futex_get_expiry(const void *utimeout, int kind, int realtime, u64 *expires);
/* futex_pi.c: the PI ops (KIND 0: timespec32, 1: 64-bit), exit's hand-on */
long futex_lock_pi(u32 uaddr, const void *utimeout, int kind, int realtime, int trylock);
long futex_unlock_pi(u32 uaddr);
struct task;
void exit_pi_state_list(struct task *curr);
/* futex_robust.c: the robust list at exit, get_robust_list(2) */
void exit_robust_list(struct task *curr);
long sys_get_robust_list(int pid, u32 *head_ptr, u32 *len_ptr);
long sys_futex(u32 uaddr, int op, u32 val, const struct timespec32 *utimeout, u32 val3);
long sys_futex_time64(u32 uaddr, int op, u32 val, const struct kernel_timespec *utimeout, u32 val3);

#endif
