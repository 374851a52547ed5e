/*
 * kernel/time/clock.c - clock_gettime, nanosleep, clock_nanosleep.
 *
 *   CLOCK_MONOTONIC           sched_clock(): ns since boot
 *   CLOCK_REALTIME            boot_realtime_ns (RTC at boot) + monotonic
 *   CLOCK_PROCESS_CPUTIME_ID  the CFS runtime of the process's threads,
 *                             exited ones included (thread_group_runtime)
 *   CLOCK_THREAD_CPUTIME_ID   the calling thread's sum_exec_runtime
 * A sleep is interrupted by a signal with -EINTR and the remaining time.
 */
#include <kernel/errno.h>
#include <kernel/math64.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/hrtimer.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

u64 boot_realtime_ns;

int clock_read(int clock, u64 *ns)
{
	switch (clock) {
	case CLOCK_MONOTONIC:
		*ns = sched_clock();
		return 0;
	case CLOCK_REALTIME:
		*ns = boot_realtime_ns + sched_clock();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
		*ns = thread_group_runtime(current);
		return 0;
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = task_sched_runtime(current);
		return 0;
	}
	return -EINVAL;
}

struct timespec32 ns_to_timespec(u64 ns)
{
	u32 rem;
	u64 sec = div_u64_rem(ns, NSEC_PER_SEC, &rem);
	return (struct timespec32){ (s32)sec, (s32)rem };
}

long sys_clock_gettime(int clock, struct timespec32 *uts)
{
	u64 ns;
	int err = clock_read(clock, &ns);

	if (err)
		return err;
	struct timespec32 ts = ns_to_timespec(ns);
	return copy_to_user(uts, &ts, sizeof(ts));
}

struct sleeper {
	struct hrtimer t;
	struct task *task;
};

static enum hrtimer_restart sleep_timer_fn(struct hrtimer *t)
{
	try_to_wake_up(container_of(t, struct sleeper, t)->task, TASK_INTERRUPTIBLE, 0);
	return HRTIMER_NORESTART;
}

/* Sleep until CLOCK reads DEADLINE (absolute, ns).  0 or -EINTR. */
static long sleep_until(int clock, u64 deadline)
{
	struct sleeper s = { .task = current };
	/* Timers run on the monotonic line; realtime differs by a constant. */
	u64 mono = clock == CLOCK_REALTIME ? deadline - boot_realtime_ns : deadline;
	unsigned long flags;
	long ret = 0;

	if (clock == CLOCK_REALTIME && deadline < boot_realtime_ns)
		return 0;
	hrtimer_init(&s.t, sleep_timer_fn);
	local_irq_save(flags);
	for (;;) {
		if (sched_clock() >= mono)
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		hrtimer_start(&s.t, mono);
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	hrtimer_cancel(&s.t);
	local_irq_restore(flags);
	return ret;
}

long sleep_ns(u64 ns)
{
	return sleep_until(CLOCK_MONOTONIC, sched_clock() + ns);
}

long timespec_to_ns(const struct timespec32 *ts, u64 *ns)
{
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= (s32)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (u64)ts->tv_sec * NSEC_PER_SEC + (u32)ts->tv_nsec;
	return 0;
}

long get_timespec(const struct timespec32 *uts, u64 *ns)
{
	struct timespec32 ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return timespec_to_ns(&ts, ns);
}

long sys_clock_nanosleep(int clock, int flags, const struct timespec32 *ureq, struct timespec32 *urem)
{
	u64 req, now, deadline;
	long err;

	if (clock != CLOCK_MONOTONIC && clock != CLOCK_REALTIME)
		return -EINVAL;
	if (flags & ~TIMER_ABSTIME)
		return -EINVAL;
	if ((err = get_timespec(ureq, &req)))
		return err;
	clock_read(clock, &now);
	deadline = (flags & TIMER_ABSTIME) ? req : now + req;
	err = sleep_until(clock, deadline);
	if (err == -EINTR && !(flags & TIMER_ABSTIME) && urem) {
		clock_read(clock, &now);
		struct timespec32 rem = ns_to_timespec(deadline > now ? deadline - now : 0);
		if (copy_to_user(urem, &rem, sizeof(rem)))
			return -EFAULT;
	}
	return err;
}

/* Resolution: 1 ns in highres mode (the TSC), one tick otherwise. */
long sys_clock_getres(int clock, struct timespec32 *ures)
{
	u64 dummy;

	if (clock_read(clock, &dummy))
		return -EINVAL;
	struct timespec32 ts = ns_to_timespec(hrtimer_highres_active() || clock > CLOCK_MONOTONIC
					      ? 1 : NSEC_PER_SEC / HZ);
	return ures ? copy_to_user(ures, &ts, sizeof(ts)) : 0;
}

long sys_nanosleep(const struct timespec32 *req, struct timespec32 *rem)
{
	return sys_clock_nanosleep(CLOCK_MONOTONIC, 0, req, rem);
}
