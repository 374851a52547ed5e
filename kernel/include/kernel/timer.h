/*
 * kernel/timer.h - kernel timers on the sched_clock() time line.
 *
 * A timer calls fn(t) in interrupt context once sched_clock() >= expires.
 * The queue is kept sorted by expiry; expired timers run from the periodic
 * tick (tick-quantised, like Linux with highres=off).
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <kernel/list.h>
#include <kernel/types.h>

struct timer {
	struct list_head node;
	u64 expires;			/* sched_clock() ns */
	void (*fn)(struct timer *t);
	int pending;
};

void timer_add(struct timer *t, u64 expires);	/* (re)arm */
int timer_del(struct timer *t);			/* 1 if it was pending */
void run_timers(void);				/* from the tick */

struct timespec32 {
	s32 tv_sec;
	s32 tv_nsec;
};

#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3
#define TIMER_ABSTIME			1

long sys_clock_gettime(int clock, struct timespec32 *ts);
long sys_nanosleep(const struct timespec32 *req, struct timespec32 *rem);
long sys_clock_nanosleep(int clock, int flags, const struct timespec32 *req, struct timespec32 *rem);

/* Realtime at boot (seconds since the epoch), from the RTC. */
extern u64 boot_realtime_ns;

#endif
