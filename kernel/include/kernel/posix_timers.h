/*
 * kernel/posix_timers.h - timer_create & co. (Linux's posix-timers.c,
 * CLOCK_MONOTONIC / CLOCK_REALTIME on the hrtimer queue).
 */
#ifndef KERNEL_POSIX_TIMERS_H
#define KERNEL_POSIX_TIMERS_H

#include <kernel/hrtimer.h>
#include <kernel/signal.h>

#define SIGEV_SIGNAL		0
#define SIGEV_NONE		1
#define SIGEV_THREAD		2	/* done in user space (glibc); the kernel: SIGEV_SIGNAL */
#define SIGEV_THREAD_ID		4
#define POSIX_TIMER_MAX		64	/* per process; more -> -EAGAIN */
#define DELAYTIMER_MAX		0x7fffffff

struct k_itimer {
	struct list_head list;		/* in signal_state->posix_timers */
	int id;
	int clock;
	struct hrtimer timer;		/* expires on the monotonic line */
	u64 interval;			/* ns, 0 = one-shot */
	int armed;
	int overrun;			/* expiries folded since the signal was queued */
	int overrun_last;		/* what timer_getoverrun() reports */
	int requeue_pending;		/* periodic, stopped: re-armed when its signal is dequeued */
	int notify, signo;
	u32 value;			/* sigev_value */
	struct task *leader;		/* process the timer belongs to: its leader
					 * outlives the timer (exit_itimers) */
	int target_tid;			/* SIGEV_THREAD_ID: thread id, else 0 */
	struct sigqueue sigq;		/* preallocated: one queued signal at most */
};

/* The timer's signal left the queue: fill si_overrun, reset the count. */
void posix_timer_dequeued(struct k_itimer *t, struct ksiginfo *info);
/* Delete the timers of LEADER's process from S, with their queued signals
 * (its last thread exits, or it execs); LEADER NULL: every timer of S. */
void exit_itimers(struct signal_state *s, struct task *leader);

struct sigevent32;
struct itimerspec32 {
	struct timespec32 it_interval, it_value;
};

long sys_timer_create(int clock, const void *usev, int *uid);
long sys_timer_settime(int id, int flags, const struct itimerspec32 *unew, struct itimerspec32 *uold);
long sys_timer_gettime(int id, struct itimerspec32 *ucur);
long sys_timer_getoverrun(int id);
long sys_timer_delete(int id);

#endif
