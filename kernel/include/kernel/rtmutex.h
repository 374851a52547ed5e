/*
 * kernel/rtmutex.h - priority-inheriting mutexes (Linux 2.6.35's
 * include/linux/rtmutex.h and kernel/rtmutex_common.h), the kernel side
 * of PTHREAD_PRIO_INHERIT futexes (kernel/proc/futex_pi.c).
 *
 * A task blocked on an rt_mutex lends its priority to the owner: the
 * owner's pi_waiters holds the top waiter of each lock it owns, and
 *	rt_mutex_getprio(p) = min(p->normal_prio, top pi waiter's prio)
 * (a lower number is a higher priority).  When the owner is itself blocked
 * the boost travels down the chain (rt_mutex_adjust_prio_chain), at most
 * max_lock_depth (1024) locks deep.
 *
 * Locking: one CPU, a kernel that is not preempted (kernel/entry.c), and
 * interrupts off wherever a wait list, a pi_waiters list or a priority
 * changes (the callers of task_blocks_on_rt_mutex, remove_waiter and
 * try_to_take_rt_mutex hold them off; rt_mutex_unlock and
 * rt_mutex_adjust_pi take them off themselves).  That replaces 2.6.35's
 * lock->wait_lock and task->pi_lock spinlocks and their trylock/retry
 * dance: no interrupt handler touches an rt_mutex.
 *
 * Deliberate difference (as Linux since 2.6.39, "rtmutex: Simplify PI
 * algorithm and make highest prio task get lock"): no pending owner and
 * no lock stealing.  Unlock hands the lock straight to the top waiter
 * (wakeup_next_waiter makes it the owner), so a futex word can name the
 * new owner at once and the waiter never has to fix it up.
 */
#ifndef KERNEL_RTMUTEX_H
#define KERNEL_RTMUTEX_H

#include <kernel/plist.h>

struct task;
struct hrtimer_sleeper;

struct rt_mutex {
	struct plist_head wait_list;	/* waiters by prio */
	struct task *owner;		/* NULL: free */
};

struct rt_mutex_waiter {
	struct plist_node list_entry;	/* in lock->wait_list */
	struct plist_node pi_list_entry; /* in owner->pi_waiters if top waiter */
	struct task *task;
	struct rt_mutex *lock;
};

#define DEFAULT_MAX_LOCK_DEPTH	1024	/* 2.6.35's max_lock_depth default (rtmutex.c) */
extern int max_lock_depth;		/* kernel.max_lock_depth */
/* a PI change is under way: the invariant checker leaves the chains alone */
extern int rt_mutex_pi_busy;
/* sched_verify=1: every blocked task's waiter, lock and owner agree (the
 * chain invariant); returns the number of violations, printed */
int rt_mutex_verify_chains(void);

void rt_mutex_init(struct rt_mutex *lock);
/* fork: an empty pi_waiters, not blocked (2.6.35's rt_mutex_init_task) */
void rt_mutex_init_task(struct task *p);

static inline struct task *rt_mutex_owner(const struct rt_mutex *lock)
{
	return lock->owner;
}
static inline int rt_mutex_has_waiters(const struct rt_mutex *lock)
{
	return !plist_head_empty(&lock->wait_list);
}
static inline struct rt_mutex_waiter *rt_mutex_top_waiter(struct rt_mutex *lock)
{
	return plist_first_entry(&lock->wait_list, struct rt_mutex_waiter, list_entry);
}

int rt_mutex_getprio(struct task *p);
/* min(NEWPRIO, top pi waiter's prio): the prio a policy change will give */
int rt_mutex_get_effective_prio(struct task *p, int newprio);
int rt_mutex_adjust_prio_chain(struct task *task, int deadlock_detect,
			       struct rt_mutex *orig_lock,
			       struct rt_mutex_waiter *orig_waiter,
			       struct task *top_task);
/* 0, or -EDEADLK (DETECT_DEADLOCK) with WAITER still queued */
int task_blocks_on_rt_mutex(struct rt_mutex *lock, struct rt_mutex_waiter *waiter,
			    struct task *task, int detect_deadlock);
/* Take LOCK for TASK if it is free; 1 if TASK owns it now. */
int try_to_take_rt_mutex(struct rt_mutex *lock, struct task *task);
/* Hand LOCK to its top waiter and wake it. */
void wakeup_next_waiter(struct rt_mutex *lock);
void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter);
/* the owner lets go: to the top waiter, or free; then deboost */
void rt_mutex_unlock(struct rt_mutex *lock);
/* a blocked task's priority changed (sched_setscheduler): re-walk */
void rt_mutex_adjust_pi(struct task *task);
/* futex: LOCK created already owned by OWNER / released without a wake */
void rt_mutex_init_proxy_locked(struct rt_mutex *lock, struct task *owner);
void rt_mutex_proxy_unlock(struct rt_mutex *lock);

/*
 * kernel/proc/rtmutex_lock.c (the sleeping half, kept out of kernel/sched
 * so that the host tests need no timers or signals): block until LOCK is
 * ours, TIMEOUT (armed, absolute; NULL: none) expires (-ETIMEDOUT), a
 * signal comes (-EINTR) or the chain is a deadlock (-EDEADLK).
 */
int rt_mutex_timed_lock(struct rt_mutex *lock, struct hrtimer_sleeper *timeout,
			int detect_deadlock);
int rt_mutex_trylock(struct rt_mutex *lock);

#endif
