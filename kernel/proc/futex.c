/*
 * kernel/proc/futex.c - FUTEX_WAIT and FUTEX_WAKE, enough for thread join
 * (CLONE_CHILD_CLEARTID clears the tid word and wakes its waiters).
 *
 * Waiters sit on one global list keyed by (mm, address); a uniprocessor
 * with interrupts off between "value still equal" and "asleep" cannot lose
 * a wakeup.  FUTEX_WAIT's timeout is relative, on the monotonic clock, as
 * Linux's: -ETIMEDOUT when it runs out, -EINVAL for a bad timespec (checked
 * before the word is read).  No requeue.
 */
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/hrtimer.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

struct futex_waiter {
	struct list_head node;
	struct mm *mm;
	u32 uaddr;
	struct task *task;
	int woken;
};

static LIST_HEAD(futex_waiters);

int futex_wake(struct mm *mm, u32 uaddr, int nr)
{
	struct futex_waiter *w;
	unsigned long flags;
	int n = 0;

	local_irq_save(flags);
	list_for_each_entry(w, &futex_waiters, node) {
		if (n >= nr)
			break;
		if (w->mm == mm && w->uaddr == uaddr && !w->woken) {
			w->woken = 1;
			try_to_wake_up(w->task, TASK_NORMAL, 0);
			n++;
		}
	}
	local_irq_restore(flags);
	return n;
}

/* TIMEOUT: ns from now, or NO_FUTEX_TIMEOUT. */
#define NO_FUTEX_TIMEOUT	(~0ull)

static long futex_wait(u32 uaddr, u32 val, u64 timeout)
{
	struct futex_waiter w = { .mm = current->mm, .uaddr = uaddr, .task = current };
	struct hrtimer_sleeper sl;
	unsigned long flags;
	u32 cur;

	if (uaddr & 3)
		return -EINVAL;
	if (get_user(cur, (u32 *)uaddr))
		return -EFAULT;
	local_irq_save(flags);
	if (cur != val) {
		local_irq_restore(flags);
		return -EAGAIN;
	}
	sl.expired = 0;
	if (timeout != NO_FUTEX_TIMEOUT) {
		hrtimer_init_sleeper(&sl, current);
		hrtimer_start(&sl.timer, sched_clock() + timeout);
	}
	list_add_tail(&w.node, &futex_waiters);
	while (!w.woken && !signal_pending(current) && !sl.expired) {
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	list_del(&w.node);
	if (timeout != NO_FUTEX_TIMEOUT)
		hrtimer_cancel(&sl.timer);
	local_irq_restore(flags);
	return w.woken ? 0 : sl.expired ? -ETIMEDOUT : -EINTR;
}

/* KIND 0: UTIMEOUT is a timespec32 (futex), 1: a 64-bit one (futex_time64). */
static long do_futex(u32 uaddr, int op, u32 val, const void *utimeout, int kind)
{
	u64 timeout = NO_FUTEX_TIMEOUT;
	long err;

	switch (op & ~FUTEX_PRIVATE_FLAG) {
	case FUTEX_WAIT:
		if (utimeout && (err = kind ? get_timespec64(utimeout, &timeout) :
					      get_timespec(utimeout, &timeout)))
			return err;
		return futex_wait(uaddr, val, timeout);
	case FUTEX_WAKE:
		return futex_wake(current->mm, uaddr, (int)val);
	default:
		return -ENOSYS;
	}
}

long sys_futex(u32 uaddr, int op, u32 val, const struct timespec32 *utimeout)
{
	return do_futex(uaddr, op, val, utimeout, 0);
}

long sys_futex_time64(u32 uaddr, int op, u32 val, const struct kernel_timespec *utimeout)
{
	return do_futex(uaddr, op, val, utimeout, 1);
}
