/*
 * kernel/hrtimer.h - high-resolution kernel timers on the sched_clock()
 * time line (Linux's hrtimers, monotonic base only).
 *
 * Each CPU has its own queue, a struct hrtimer_cpu_base (Linux 2.6.35's
 * per-CPU hrtimer_bases, monotonic clock only): an rbtree ordered by expiry
 * (ties: arming order) with the earliest cached, under the base's raw
 * spinlock.  hrtimer_start() queues a timer on the CPU that arms it (its
 * local clock event then fires it), unless its callback is running right
 * now (it stays where it runs).  How timers expire depends on the mode
 * chosen at boot (highres= knob, see kernel/time/hrtimer.c):
 *   highres on   the clock event runs in one-shot mode, programmed for the
 *                earliest timer; the periodic scheduler tick is itself an
 *                hrtimer (tick emulation), so a timer fires at its own time
 *                to within the interrupt latency;
 *   highres off  the clock event ticks periodically at HZ and due timers
 *                run from the tick: expiry is quantised to the tick.
 * Callbacks run in interrupt context with interrupts off; returning
 * HRTIMER_RESTART re-queues the timer at its (updated) expires.
 */
#ifndef KERNEL_HRTIMER_H
#define KERNEL_HRTIMER_H

#include <kernel/rbtree.h>
#include <kernel/types.h>

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };

/* timer->state, 2.6.35's bits: queued on its base's tree, and/or its
 * callback running (it may be queued again meanwhile, from the callback or
 * from another CPU). */
#define HRTIMER_STATE_INACTIVE	0x00
#define HRTIMER_STATE_ENQUEUED	0x01
#define HRTIMER_STATE_CALLBACK	0x02

struct hrtimer_cpu_base;
struct hrtimer {
	struct rb_node node;
	u64 expires;			/* sched_clock() ns */
	u64 seq;			/* arming order, breaks expiry ties */
	enum hrtimer_restart (*function)(struct hrtimer *t);
	struct hrtimer_cpu_base *base;	/* the CPU's queue it is (or was last) on */
	unsigned long state;		/* HRTIMER_STATE_* */
};

static inline int hrtimer_is_queued(const struct hrtimer *t)
{
	return t->state & HRTIMER_STATE_ENQUEUED;
}

static inline int hrtimer_callback_running(const struct hrtimer *t)
{
	return t->state & HRTIMER_STATE_CALLBACK;
}

/* Every timer is initialised before its first start: it gets this CPU's base. */
void hrtimer_init(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *));
void hrtimer_start(struct hrtimer *t, u64 expires);	/* (re)arm, absolute */

/* A timer that wakes TASK (TASK_INTERRUPTIBLE) and sets EXPIRED: the
 * timeout of a sleep (Linux's hrtimer_sleeper). */
struct task;
struct hrtimer_sleeper {
	struct hrtimer timer;
	struct task *task;
	int expired;
};
void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, struct task *task);
/* Whether T is a sleeper's timer (its callback needs no giant lock). */
int hrtimer_sleeper_is(const struct hrtimer *t);
/* Whether T is a CPU's hrtick timer (kernel/time/hrtick.c; the same). */
int hrtick_timer_is(const struct hrtimer *t);
/* 1 if it was queued, 0 if not, -1 if its callback is running (on another
 * CPU: then nothing changed). */
int hrtimer_try_to_cancel(struct hrtimer *t);
/* The same, waiting for a running callback to end: 1 if it was queued. */
int hrtimer_cancel(struct hrtimer *t);
/* Push EXPIRES forward by whole INTERVALs past NOW; returns how many. */
u64 hrtimer_forward(struct hrtimer *t, u64 now, u64 interval);

/* This CPU's due timers.  highres off: from its periodic tick.  highres on:
 * from its clock event, which is then programmed for the next one. */
void hrtimer_run_queues(void);
void hrtimer_interrupt(void);
/* Whether this CPU's queue runs in high-resolution mode. */
int hrtimer_highres_active(void);
/* Decide the mode (after time_init()): in highres mode the boot CPU's clock
 * event goes one-shot and its first tick is set; no timer is queued yet. */
void hrtimers_init(void);
/* This CPU has a tick (its clock event is set up): timers armed here are
 * queued here from now on, and in highres mode its queue switches to
 * high-resolution and its emulated tick starts (hrtimer_switch_to_hres(),
 * tick_setup_sched_timer()).  The boot CPU once it is on its per-CPU area,
 * each other CPU once its local APIC timer runs; never an AP without one
 * (clockevent=pit): its timers go to the boot CPU's queue. */
void init_hrtimers_cpu(void);
/* The CPU that runs do_timer() (jiffies, the load average): the boot CPU. */
extern int tick_do_timer_cpu;

/* Kernel timespec as Linux i386 lays it out (32-bit fields). */
struct timespec32 {
	s32 tv_sec;
	s32 tv_nsec;
};

#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3
/* Read-only aliases (clock_gettime/getres only): no coarse or raw clock
 * here, they read the exact ones; nothing suspends, so BOOTTIME is MONOTONIC. */
#define CLOCK_MONOTONIC_RAW		4
#define CLOCK_REALTIME_COARSE		5
#define CLOCK_MONOTONIC_COARSE		6
#define CLOCK_BOOTTIME			7
#define TIMER_ABSTIME			1

/* Realtime at boot in ns since the epoch (the RTC), 0 if unknown. */
extern u64 boot_realtime_ns;

int clock_read(int clock, u64 *ns);
/* Whether CLOCK drives timers and sleeps: 0, -EINVAL (unknown), -EOPNOTSUPP. */
long clock_timer_check(int clock);
struct timespec32 ns_to_timespec(u64 ns);
/* Validate a timespec (0 <= nsec < 1e9, sec >= 0) into ns: 0 or -EINVAL. */
long timespec_to_ns(const struct timespec32 *ts, u64 *ns);
/* The same for a user pointer (-EFAULT too). */
long get_timespec(const struct timespec32 *uts, u64 *ns);

long sys_clock_gettime(int clock, struct timespec32 *ts);
long sys_clock_getres(int clock, struct timespec32 *ts);
long sys_nanosleep(const struct timespec32 *req, struct timespec32 *rem);
/* Sleep NS nanoseconds of CLOCK_MONOTONIC in the kernel: 0, or -EINTR if a
 * signal is pending (Linux's schedule_timeout_interruptible). */
long sleep_ns(u64 ns);
long sys_clock_nanosleep(int clock, int flags, const struct timespec32 *req, struct timespec32 *rem);
/* The 64-bit time ABI (struct __kernel_timespec), kernel/time/clock.c. */
struct kernel_timespec { s64 tv_sec, tv_nsec; };
/* Read one from user memory into ns (0, -EFAULT, -EINVAL), write NS back. */
long get_timespec64(const struct kernel_timespec *u, u64 *ns);
long put_timespec64(struct kernel_timespec *u, u64 ns);
long sys_clock_gettime64(int clock, struct kernel_timespec *ts);
long sys_clock_getres_time64(int clock, struct kernel_timespec *ts);
long sys_clock_nanosleep_time64(int clock, int flags, const struct kernel_timespec *req,
				struct kernel_timespec *rem);

#endif
