/*
 * kernel/itimer.h - alarm(2), setitimer(2), getitimer(2): the per-process
 * ITIMER_REAL timer of Linux 2.6.35's kernel/itimer.c (kernel/time/itimer.c).
 *
 * The timer is the group leader's real_timer (<kernel/task.h>): Linux keeps
 * it in signal_struct, one per thread group; Granule's signal_state may be
 * shared by several processes (CLONE_SIGHAND without CLONE_THREAD), so the
 * per-process state lives on the leader, as group_exit and pgrp do.
 *
 * The conversions below are inline so that the host tests
 * (tests/host/time/test_itimer.c) check the very code the kernel runs.
 */
#ifndef KERNEL_ITIMER_H
#define KERNEL_ITIMER_H

#include <kernel/math64.h>
#include <kernel/time.h>
#include <kernel/types.h>

#define ITIMER_REAL	0
#define ITIMER_VIRTUAL	1	/* -EINVAL here: no per-process user CPU timer */
#define ITIMER_PROF	2	/* -EINVAL here: likewise */

#define USEC_PER_SEC	1000000u

/* struct timeval and struct itimerval as Linux i386 lays them out. */
struct timeval32 {
	s32 tv_sec;
	s32 tv_usec;
};

struct itimerval32 {
	struct timeval32 it_interval;	/* re-armed by this much, 0 = one-shot */
	struct timeval32 it_value;	/* time left, 0 = disarmed */
};

/* Linux's timeval_valid: sec >= 0 and 0 <= usec < 1e6 (usec compared
 * unsigned, so a negative one fails too). */
static inline int timeval_valid(const struct timeval32 *tv)
{
	return tv->tv_sec >= 0 && (u32)tv->tv_usec < USEC_PER_SEC;
}

/* timeval_to_ktime: ns = sec * 1e9 + usec * 1e3 (valid timevals only:
 * at most INT_MAX s, 2.1e18 ns, fits). */
static inline u64 timeval_to_ns(const struct timeval32 *tv)
{
	return (u64)tv->tv_sec * NSEC_PER_SEC + (u64)tv->tv_usec * NSEC_PER_USEC;
}

/* ktime_to_timeval: usec truncated, as Linux's ns_to_timeval. */
static inline struct timeval32 ns_to_timeval(u64 ns)
{
	u32 rem;
	u64 sec = div_u64_rem(ns, NSEC_PER_SEC, &rem);

	return (struct timeval32){ (s32)sec, (s32)(rem / NSEC_PER_USEC) };
}

/*
 * alarm()'s return value from the old timer's remaining time, as 2.6.35's
 * alarm_setitimer: "we can't return 0 if we have an alarm pending ... and
 * we'd better return too much than too little": whole seconds, rounded to
 * nearest (usec >= 500000 rounds up), except that less than a second left
 * counts as 1.  0 only if nothing was left.
 */
static inline unsigned int alarm_seconds_left(const struct timeval32 *old)
{
	unsigned int sec = (unsigned int)old->tv_sec;

	if ((!old->tv_sec && old->tv_usec) || old->tv_usec >= 500000)
		sec++;
	return sec;
}

struct task;
struct hrtimer;

/* it_real_fn: the leader's real_timer expired: SIGALRM to its process. */
enum hrtimer_restart it_real_fn(struct hrtimer *timer);
/* A process-directed SIGALRM was dequeued by T: re-arm T's process's
 * periodic ITIMER_REAL by its interval (2.6.35's dequeue_signal).
 * Interrupts off. */
void posixtimer_rearm_itimer(struct task *t);
/* exec by a non-leader: the alarm (pending time and interval) passes from
 * the old leader FROM to the thread TO that takes its place.  Interrupts off. */
void itimer_real_move(struct task *from, struct task *to);

long sys_alarm(unsigned int seconds);
long sys_getitimer(int which, struct itimerval32 *value);
long sys_setitimer(int which, const struct itimerval32 *value, struct itimerval32 *ovalue);

#endif
