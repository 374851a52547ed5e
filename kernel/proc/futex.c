/*
 * kernel/proc/futex.c - FUTEX_WAIT and FUTEX_WAKE, enough for thread join
 * (CLONE_CHILD_CLEARTID clears the tid word and wakes its waiters).
 *
 * Waiters sit on one global list keyed by (mm, address); a uniprocessor
 * with interrupts off between "value still equal" and "asleep" cannot lose
 * a wakeup.  No timeouts, no requeue.
 */
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/task.h>
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

static long futex_wait(u32 uaddr, u32 val)
{
	struct futex_waiter w = { .mm = current->mm, .uaddr = uaddr, .task = current };
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
	list_add_tail(&w.node, &futex_waiters);
	while (!w.woken && !signal_pending(current)) {
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	list_del(&w.node);
	local_irq_restore(flags);
	return w.woken ? 0 : -EINTR;
}

long sys_futex(u32 uaddr, int op, u32 val)
{
	switch (op & ~FUTEX_PRIVATE_FLAG) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, val);
	case FUTEX_WAKE:
		return futex_wake(current->mm, uaddr, (int)val);
	default:
		return -ENOSYS;
	}
}
