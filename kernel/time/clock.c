/*
 * kernel/time/clock.c - clock_gettime, nanosleep, clock_nanosleep.
 *
 *   CLOCK_MONOTONIC           sched_clock(): ns since boot (also _RAW, _COARSE, BOOTTIME)
 *   CLOCK_REALTIME            boot_realtime_ns (RTC at boot) + monotonic (also _COARSE)
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
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		*ns = sched_clock();
		return 0;
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
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

static enum hrtimer_restart hrtimer_wakeup(struct hrtimer *t)
{
	struct hrtimer_sleeper *sl = container_of(t, struct hrtimer_sleeper, timer);

	sl->expired = 1;
	try_to_wake_up(sl->task, TASK_INTERRUPTIBLE, 0);
	return HRTIMER_NORESTART;
}

int hrtimer_sleeper_is(const struct hrtimer *t)
{
	return t->function == hrtimer_wakeup;
}

void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, struct task *task)
{
	hrtimer_init(&sl->timer, hrtimer_wakeup);
	sl->task = task;
	sl->expired = 0;
}

/* Sleep until CLOCK reads DEADLINE (absolute, ns).  0 or -EINTR. */
static long sleep_until(int clock, u64 deadline)
{
	struct hrtimer_sleeper s;
	/* Timers run on the monotonic line; realtime differs by a constant. */
	u64 mono = clock == CLOCK_REALTIME ? deadline - boot_realtime_ns : deadline;
	unsigned long flags;
	long ret = 0;

	if (clock == CLOCK_REALTIME && deadline < boot_realtime_ns)
		return 0;
	hrtimer_init_sleeper(&s, current);
	local_irq_save(flags);
	for (;;) {
		if (sched_clock() >= mono)
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		hrtimer_start(&s.timer, mono);
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	hrtimer_cancel(&s.timer);
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

/*
 * The sleep of clock_nanosleep (both ABIs): 0, -EINVAL, or -EINTR with
 * *REM (if REM) the time left of a relative sleep.
 */
static long do_clock_nanosleep(int clock, int flags, u64 req, u64 *rem)
{
	u64 now, deadline;
	long err;

	clock_read(clock, &now);
	deadline = (flags & TIMER_ABSTIME) ? req : now + req;
	err = sleep_until(clock, deadline);
	if (err == -EINTR && !(flags & TIMER_ABSTIME) && rem) {
		clock_read(clock, &now);
		*rem = deadline > now ? deadline - now : 0;
	}
	return err;
}

/*
 * Can CLOCK drive a timer (timer_create) or a sleep (clock_nanosleep)?  As
 * Linux's clockid_to_kclock() and its ->timer_create / ->nsleep: an unknown
 * id is -EINVAL, a clock that exists but has no timers -EOPNOTSUPP (the raw
 * and coarse ones; this said -EINVAL).  BOOTTIME is MONOTONIC here (nothing
 * suspends).  The CPU-time clocks have no timers or sleeps in Granule:
 * -EINVAL (on Linux, as for an unknown id, clock_nanosleep on the calling
 * thread's CPU clock).
 */
long clock_timer_check(int clock)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
		return 0;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

/* Flags other than TIMER_ABSTIME are not checked: Linux reads that bit alone. */
static long nanosleep_args(int clock, int flags)
{
	return clock_timer_check(clock);
}

long sys_clock_nanosleep(int clock, int flags, const struct timespec32 *ureq, struct timespec32 *urem)
{
	u64 req, rem = ~0ull;
	long err;

	if ((err = nanosleep_args(clock, flags)) || (err = get_timespec(ureq, &req)))
		return err;
	err = do_clock_nanosleep(clock, flags, req, urem ? &rem : NULL);
	if (rem != ~0ull) {
		struct timespec32 ts = ns_to_timespec(rem);
		if (copy_to_user(urem, &ts, sizeof(ts)))
			return -EFAULT;
	}
	return err;
}

/* Resolution: 1 ns in highres mode (the TSC), one tick otherwise. */
static long clock_res(int clock, u64 *ns)
{
	u64 dummy;

	if (clock_read(clock, &dummy))
		return -EINVAL;
	*ns = hrtimer_highres_active() || clock > CLOCK_MONOTONIC ? 1 : NSEC_PER_SEC / HZ;
	return 0;
}

long sys_clock_getres(int clock, struct timespec32 *ures)
{
	u64 ns;

	if (clock_res(clock, &ns))
		return -EINVAL;
	struct timespec32 ts = ns_to_timespec(ns);
	return ures ? copy_to_user(ures, &ts, sizeof(ts)) : 0;
}

long sys_nanosleep(const struct timespec32 *req, struct timespec32 *rem)
{
	return sys_clock_nanosleep(CLOCK_MONOTONIC, 0, req, rem);
}

/*
 * The 64-bit time ABI (Linux 5.1, "y2038"): the same calls with struct
 * __kernel_timespec { s64 tv_sec; s64 tv_nsec; }.  As on a 32-bit Linux
 * kernel, only the low 32 bits of tv_nsec are read (get_timespec64).
 * glibc 2.34+ calls these first and falls back to the 32-bit calls only
 * on ENOSYS.
 */
#define TIME64_SEC_MAX	9223372035ll	/* (2^63 - 1) / 10^9: later is "never" */

long put_timespec64(struct kernel_timespec *u, u64 ns)
{
	u32 rem;
	struct kernel_timespec ts;

	ts.tv_sec = (s64)div_u64_rem(ns, NSEC_PER_SEC, &rem);
	ts.tv_nsec = rem;
	return copy_to_user(u, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long get_timespec64(const struct kernel_timespec *u, u64 *ns)
{
	struct kernel_timespec ts;
	s32 nsec;

	if (copy_from_user(&ts, u, sizeof(ts)))
		return -EFAULT;
	nsec = (s32)(u32)ts.tv_nsec;
	if (ts.tv_sec < 0 || nsec < 0 || nsec >= (s32)NSEC_PER_SEC)
		return -EINVAL;
	*ns = ts.tv_sec > TIME64_SEC_MAX ? ~0ull >> 1 : (u64)ts.tv_sec * NSEC_PER_SEC + (u32)nsec;
	return 0;
}

long sys_clock_gettime64(int clock, struct kernel_timespec *uts)
{
	u64 ns;
	int err = clock_read(clock, &ns);

	return err ? err : put_timespec64(uts, ns);
}

long sys_clock_getres_time64(int clock, struct kernel_timespec *ures)
{
	u64 ns;

	if (clock_res(clock, &ns))
		return -EINVAL;
	return ures ? put_timespec64(ures, ns) : 0;
}

long sys_clock_nanosleep_time64(int clock, int flags, const struct kernel_timespec *ureq,
				struct kernel_timespec *urem)
{
	u64 req, rem = ~0ull;
	long err;

	if ((err = nanosleep_args(clock, flags)) || (err = get_timespec64(ureq, &req)))
		return err;
	err = do_clock_nanosleep(clock, flags, req, urem ? &rem : NULL);
	if (rem != ~0ull && put_timespec64(urem, rem))
		return -EFAULT;
	return err;
}
