/*
 * kernel/proc/rtmutex_lock.c - the sleeping half of the rt_mutex (Linux
 * 2.6.35's rt_mutex_slowlock and __rt_mutex_slowlock in kernel/rtmutex.c):
 * queue a waiter (which boosts the owner, kernel/sched/rtmutex.c), sleep
 * until the lock is handed to us, the timeout expires or a signal comes,
 * and on failure take the waiter back (remove_waiter deboosts the owner).
 * Kept out of kernel/sched/ because it needs timers and signals, which the
 * scheduler's host tests do not have.
 *
 * One CPU, interrupts off from the first look at the owner to the sleep,
 * and wakeup_next_waiter() hands the lock over directly: a waiter only
 * has to ask "do I own it now?" when it wakes, and asks that first, so a
 * waiter handed the lock as its timeout fired still gets it (2.6.35's
 * futex_lock_pi: "we got the lock after all").
 */
#include <kernel/errno.h>
#include <kernel/hrtimer.h>
#include <kernel/rtmutex.h>
#include <kernel/sched.h>
#include <kernel/task.h>
#include <arch/irqflags.h>

/*
 * __rt_mutex_slowlock, in 2.6.35's order: is LOCK ours (handed to us)?  a
 * signal (-EINTR) or the timeout (-ETIMEDOUT)?  Only then queue WAITER,
 * the first time round (task_blocks_on_rt_mutex: the owner is boosted),
 * and sleep.  So a pending signal or a past timeout fails the lock before
 * any boost.  *QUEUED says whether WAITER was queued.
 */
static int __rt_mutex_slowlock(struct rt_mutex *lock, struct hrtimer_sleeper *timeout,
			       struct rt_mutex_waiter *waiter, int detect_deadlock, int *queued)
{
	int ret = 0;

	for (;;) {
		if (rt_mutex_owner(lock) == current)
			return 0;
		if (signal_pending(current))
			ret = -EINTR;
		if (timeout && timeout->expired)
			ret = -ETIMEDOUT;
		if (ret)
			return ret;
		if (!*queued) {
			*queued = 1;
			ret = task_blocks_on_rt_mutex(lock, waiter, current, detect_deadlock);
			if (ret)
				return ret;
		}
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
}

/*
 * rt_mutex_slowlock (TASK_INTERRUPTIBLE, as the futex's): the caller armed
 * TIMEOUT (or NULL) and cancels it.  DETECT_DEADLOCK: -EDEADLK if we own
 * LOCK already or the chain comes back to us.
 */
int rt_mutex_timed_lock(struct rt_mutex *lock, struct hrtimer_sleeper *timeout,
			int detect_deadlock)
{
	struct rt_mutex_waiter waiter;
	unsigned long flags;
	int ret, queued = 0;

	local_irq_save(flags);
	if (rt_mutex_owner(lock) == current) {
		local_irq_restore(flags);
		return -EDEADLK;
	}
	if (try_to_take_rt_mutex(lock, current)) {
		local_irq_restore(flags);
		return 0;
	}
	ret = __rt_mutex_slowlock(lock, timeout, &waiter, detect_deadlock, &queued);
	current->state = TASK_RUNNING;
	if (rt_mutex_owner(lock) == current)
		ret = 0;		/* handed to us, whatever woke us */
	else if (queued)
		remove_waiter(lock, &waiter);
	local_irq_restore(flags);
	return ret;
}

/* 1 if LOCK was free and is ours now, 0 if someone else holds it. */
int rt_mutex_trylock(struct rt_mutex *lock)
{
	unsigned long flags;
	int ret = 0;

	local_irq_save(flags);
	if (!rt_mutex_owner(lock))
		ret = try_to_take_rt_mutex(lock, current);
	local_irq_restore(flags);
	return ret;
}
