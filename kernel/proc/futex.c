/*
 * kernel/proc/futex.c - FUTEX_WAIT and FUTEX_WAKE, enough for thread join
 * (CLONE_CHILD_CLEARTID clears the tid word and wakes its waiters), and
 * their _BITSET forms, which glibc's NPTL uses for every timed wait
 * (pthread_join, condition variables, semaphores): a waiter carries a
 * bitset and a wake matches it (FUTEX_BITSET_MATCH_ANY for the plain
 * forms), and WAIT_BITSET's timeout is absolute, on CLOCK_MONOTONIC or with
 * FUTEX_CLOCK_REALTIME on CLOCK_REALTIME, as Linux's futex_wait.
 *
 * Waiters sit on one global list keyed by (mm, address), in 2.6.35's
 * plist order: by min(normal_prio, MAX_RT_PRIO), first come first within a
 * priority, so a wake takes rt waiters first, the highest first, and every
 * other task in the order it came (futex_wait_setup's plist_node_init and
 * plist_add on the hash bucket); a uniprocessor
 * with interrupts off between "value still equal" and "asleep" cannot lose
 * a wakeup.  FUTEX_WAIT's timeout is relative, on the monotonic clock, as
 * Linux's: -ETIMEDOUT when it runs out, -EINVAL for a bad timespec (checked
 * before the word is read).  The priority-inheritance ops (FUTEX_LOCK_PI,
 * FUTEX_LOCK_PI2, FUTEX_UNLOCK_PI, FUTEX_TRYLOCK_PI) are futex_pi.c's;
 * do_futex() dispatches them.  No requeue.
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
	u32 bitset;
	struct task *task;
	int prio;		/* plist key: min(normal_prio, MAX_RT_PRIO) */
	int woken;
};

static LIST_HEAD(futex_waiters);

/*
 * Wake up to NR waiters on (MM, UADDR) whose bitset meets BITSET.  A word a
 * PI waiter waits on is -EINVAL, nobody woken: 2.6.35's futex_wake stops at
 * a futex_q with a pi_state or an rt_waiter (such a lock is handed on by
 * FUTEX_UNLOCK_PI).  The PI waiters sleep on their pi_state's rt_mutex, not
 * on this list, so they are asked for first (2.6.35 meets them in the hash
 * bucket's priority order: plain waiters queued before one would be woken).
 */
static int futex_wake_bitset(struct mm *mm, u32 uaddr, int nr, u32 bitset)
{
	struct futex_waiter *w;
	unsigned long flags;
	int n = 0;

	if (futex_pi_waiters(mm, uaddr))
		return -EINVAL;
	local_irq_save(flags);
	list_for_each_entry(w, &futex_waiters, node) {
		if (n >= nr)
			break;
		if (w->mm == mm && w->uaddr == uaddr && !w->woken && (w->bitset & bitset)) {
			w->woken = 1;
			try_to_wake_up(w->task, TASK_NORMAL, 0);
			n++;
		}
	}
	local_irq_restore(flags);
	return n;
}

int futex_wake(struct mm *mm, u32 uaddr, int nr)
{
	return futex_wake_bitset(mm, uaddr, nr, FUTEX_BITSET_MATCH_ANY);
}

/* Queue W behind every waiter of its priority or a higher one (2.6.35's
 * queue_me: plist_add).  The key is the normal priority, so a boost by PI
 * does not move a waiter; every SCHED_NORMAL/BATCH/IDLE task shares
 * MAX_RT_PRIO and is woken in the order it came. */
static void futex_queue(struct futex_waiter *w)
{
	struct futex_waiter *pos;

	w->prio = min(w->task->normal_prio, MAX_RT_PRIO);
	list_for_each_entry(pos, &futex_waiters, node)
		if (pos->prio > w->prio) {
			list_add_tail(&w->node, &pos->node);	/* just before POS */
			return;
		}
	list_add_tail(&w->node, &futex_waiters);
}

/* TIMEOUT: ns from now, or NO_FUTEX_TIMEOUT. */
#define NO_FUTEX_TIMEOUT	(~0ull)

static long futex_wait(u32 uaddr, u32 val, u64 timeout, u32 bitset)
{
	struct futex_waiter w = { .mm = current->mm, .uaddr = uaddr, .bitset = bitset,
				  .task = current };
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
	futex_queue(&w);
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

/* The timespec at UTIMEOUT, a timespec32 (KIND 0: futex) or a 64-bit one
 * (KIND 1: futex_time64), in ns; -EFAULT, or -EINVAL for a bad one. */
static long futex_get_timespec(const void *utimeout, int kind, u64 *ns)
{
	return kind ? get_timespec64(utimeout, ns) : get_timespec(utimeout, ns);
}

/*
 * An absolute timeout at UTIMEOUT, on CLOCK_REALTIME (REALTIME: ns since
 * the epoch) or CLOCK_MONOTONIC (ns since boot), as the sched_clock() time
 * *EXPIRES it falls at (0 for a time before the boot).  FUTEX_WAIT_BITSET
 * and the PI locks (futex_pi.c) take their timeouts so.
 */
long futex_get_expiry(const void *utimeout, int kind, int realtime, u64 *expires)
{
	long err = futex_get_timespec(utimeout, kind, expires);

	if (err)
		return err;
	if (realtime)
		*expires = *expires > boot_realtime_ns ? *expires - boot_realtime_ns : 0;
	return 0;
}

/* *TIMEOUT (ns from now) from UTIMEOUT: relative for FUTEX_WAIT, absolute
 * (futex_get_expiry) when ABS, made relative here (0 if past). */
static long get_timeout(const void *utimeout, int kind, int abs, int realtime, u64 *timeout)
{
	long err;
	u64 now;

	if (!abs)
		return futex_get_timespec(utimeout, kind, timeout);
	err = futex_get_expiry(utimeout, kind, realtime, timeout);
	if (err)
		return err;
	now = sched_clock();
	*timeout = *timeout > now ? *timeout - now : 0;
	return 0;
}

static long do_futex(u32 uaddr, int op, u32 val, const void *utimeout, u32 val3, int kind)
{
	int cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	int realtime = op & FUTEX_CLOCK_REALTIME;
	u64 timeout = NO_FUTEX_TIMEOUT;
	long err;

	if (realtime && cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;		/* Linux: only the absolute waits take a clock */
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		if (cmd == FUTEX_WAIT_BITSET && !val3)
			return -EINVAL;
		if (utimeout && (err = get_timeout(utimeout, kind, cmd == FUTEX_WAIT_BITSET, realtime,
						   &timeout)))
			return err;
		return futex_wait(uaddr, val, timeout,
				  cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : val3);
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
		if (cmd == FUTEX_WAKE_BITSET && !val3)
			return -EINVAL;
		return futex_wake_bitset(current->mm, uaddr, (int)val,
					 cmd == FUTEX_WAKE ? FUTEX_BITSET_MATCH_ANY : val3);
	case FUTEX_LOCK_PI:		/* absolute, CLOCK_REALTIME */
		return futex_lock_pi(uaddr, utimeout, kind, 1, 0);
	case FUTEX_LOCK_PI2:		/* absolute, CLOCK_MONOTONIC unless told */
		return futex_lock_pi(uaddr, utimeout, kind, realtime, 0);
	case FUTEX_TRYLOCK_PI:
		return futex_lock_pi(uaddr, NULL, kind, 0, 1);
	case FUTEX_UNLOCK_PI:
		return futex_unlock_pi(uaddr);
	default:
		return -ENOSYS;
	}
}

long sys_futex(u32 uaddr, int op, u32 val, const struct timespec32 *utimeout, u32 val3)
{
	return do_futex(uaddr, op, val, utimeout, val3, 0);
}

long sys_futex_time64(u32 uaddr, int op, u32 val, const struct kernel_timespec *utimeout, u32 val3)
{
	return do_futex(uaddr, op, val, utimeout, val3, 1);
}
