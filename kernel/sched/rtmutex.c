/*
 * kernel/sched/rtmutex.c - priority inheritance: the rt_mutex wait lists,
 * the owner's pi_waiters, boosting, deboosting and the chain walk, as
 * Linux 2.6.35's kernel/rtmutex.c (same names, same steps).  The sleeping
 * half (rt_mutex_timed_lock) is kernel/proc/rtmutex_lock.c; the priority
 * change itself is core.c's rt_mutex_setprio().
 *
 * Invariants (checked by tests/host/sched/test_rtmutex.c):
 *  - lock->wait_list holds every waiter of LOCK, by waiter prio;
 *  - the owner's pi_waiters holds exactly the top waiter of each lock it
 *    owns that has waiters, by pi_list_entry.prio;
 *  - a task's prio == rt_mutex_getprio(task) between calls.
 * One CPU, interrupts off, no kernel preemption: no wait_lock, no pi_lock,
 * no task references (see <kernel/rtmutex.h>).
 */
#include "sched.h"
#include <kernel/rtmutex.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <arch/irqflags.h>

int max_lock_depth = DEFAULT_MAX_LOCK_DEPTH;
/*
 * PI changes under way: a chain walk passes through states where the next
 * step has not yet requeued a waiter or deboosted an owner, and
 * rt_mutex_setprio() and wake_up_process() run sched_verify_hook() on the
 * way.  The checker (rt_mutex_verify_chains) leaves the chains alone while
 * this is not 0.
 */
int rt_mutex_pi_busy;

void rt_mutex_init(struct rt_mutex *lock)
{
	plist_head_init(&lock->wait_list);
	lock->owner = NULL;
}

void rt_mutex_init_task(struct task *p)
{
	plist_head_init(&p->pi_waiters);
	p->pi_blocked_on = NULL;
}

static inline int task_has_pi_waiters(struct task *p)
{
	return !plist_head_empty(&p->pi_waiters);
}

static inline struct rt_mutex_waiter *task_top_pi_waiter(struct task *p)
{
	return plist_first_entry(&p->pi_waiters, struct rt_mutex_waiter, pi_list_entry);
}

/* The priority P runs at: its own, or its top waiter's if that is higher. */
int rt_mutex_getprio(struct task *p)
{
	return rt_mutex_get_effective_prio(p, p->normal_prio);
}

int rt_mutex_get_effective_prio(struct task *p, int newprio)
{
	if (!task_has_pi_waiters(p))
		return newprio;
	return min(task_top_pi_waiter(p)->pi_list_entry.prio, newprio);
}

/* LOCK's top waiter (if any) stands for LOCK in OWNER's pi_waiters. */
static void rt_mutex_enqueue_top_pi(struct rt_mutex *lock, struct task *owner)
{
	struct rt_mutex_waiter *top;

	if (!rt_mutex_has_waiters(lock))
		return;
	top = rt_mutex_top_waiter(lock);
	top->pi_list_entry.prio = top->list_entry.prio;
	plist_add(&top->pi_list_entry, &owner->pi_waiters);
}

/* Boost or deboost P to rt_mutex_getprio(P) if that differs from p->prio. */
static void __rt_mutex_adjust_prio(struct task *p)
{
	int prio = rt_mutex_getprio(p);

	if (p->prio != prio) {
		rt_mutex_pi_busy++;
		rt_mutex_setprio(p, prio);
		rt_mutex_pi_busy--;
	}
}

/*
 * *WAITER's prio changed (now TASK's): requeue it on LOCK and fix the
 * owner's pi_waiters - boost if *WAITER became the top waiter, deboost if
 * it was the top waiter (TOP_WAITER, the one before the requeue) and no
 * longer is.  After a deboost *WAITER is LOCK's new top waiter, the one
 * that now stands for LOCK in the owner's pi_waiters (2.6.35 reassigns
 * waiter there), so that the walk goes on with it.  Returns the owner.
 */
static struct task *requeue_and_adjust_owner(struct rt_mutex *lock, struct task *task,
					     struct rt_mutex_waiter **waiterp,
					     struct rt_mutex_waiter *top_waiter)
{
	struct rt_mutex_waiter *waiter = *waiterp;
	struct task *owner;

	plist_del(&waiter->list_entry, &lock->wait_list);
	waiter->list_entry.prio = task->prio;
	plist_add(&waiter->list_entry, &lock->wait_list);

	owner = rt_mutex_owner(lock);
	if (!owner)
		return NULL;
	if (waiter == rt_mutex_top_waiter(lock)) {
		/* boost the owner */
		plist_del(&top_waiter->pi_list_entry, &owner->pi_waiters);
		waiter->pi_list_entry.prio = waiter->list_entry.prio;
		plist_add(&waiter->pi_list_entry, &owner->pi_waiters);
		__rt_mutex_adjust_prio(owner);
	} else if (top_waiter == waiter) {
		/* deboost the owner: the new top waiter stands for LOCK */
		plist_del(&waiter->pi_list_entry, &owner->pi_waiters);
		rt_mutex_enqueue_top_pi(lock, owner);
		*waiterp = rt_mutex_top_waiter(lock);
		__rt_mutex_adjust_prio(owner);
	}
	return owner;
}

/*
 * The chain walk: TASK's priority changed (or TASK got a new top waiter,
 * ORIG_WAITER on ORIG_LOCK, from TOP_TASK); if TASK is blocked, requeue
 * its waiter on that lock and pass the change to that lock's owner, and
 * so on down the chain.  Stops when nothing changes (unless
 * DEADLOCK_DETECT), at a task that is not blocked, or after
 * max_lock_depth locks.  -EDEADLK (with DEADLOCK_DETECT) when the chain
 * comes back to ORIG_LOCK or to a lock TOP_TASK owns.
 *
 * Deliberate difference: when TASK's top waiter is no longer the one that
 * started the walk, 2.6.35 stops; with DEADLOCK_DETECT the walk goes on
 * without requeueing, only looking for the cycle (as Linux since v3.16,
 * "rtmutex: Detect changes in the pi lock chain"), so a cycle closed by a
 * waiter that is not its owner's top waiter is still -EDEADLK.
 */
int rt_mutex_adjust_prio_chain(struct task *task, int deadlock_detect,
			       struct rt_mutex *orig_lock,
			       struct rt_mutex_waiter *orig_waiter,
			       struct task *top_task)
{
	struct rt_mutex_waiter *waiter, *top_waiter = orig_waiter;
	struct rt_mutex *lock;
	int depth = 0, requeue = 1;

again:
	if (++depth > max_lock_depth) {
		static int prev_max;

		if (prev_max != max_lock_depth) {
			prev_max = max_lock_depth;
			printk("Maximum lock depth %d reached task: %s (%d)\n",
			       max_lock_depth, top_task->comm, top_task->pid);
		}
		return deadlock_detect ? -EDEADLK : 0;
	}
	waiter = task->pi_blocked_on;
	if (!waiter)
		return 0;			/* the end of the chain */
	/* the waiter that started the walk got its lock meanwhile */
	if (orig_waiter && orig_waiter->task->pi_blocked_on != orig_waiter)
		return 0;
	if (top_waiter && (!task_has_pi_waiters(task) ||
			   top_waiter != task_top_pi_waiter(task))) {
		if (!deadlock_detect)
			return 0;
		requeue = 0;		/* only look for the cycle */
	}
	if (!deadlock_detect && waiter->list_entry.prio == task->prio)
		return 0;			/* nothing to pass on */

	lock = waiter->lock;
	if (lock == orig_lock || rt_mutex_owner(lock) == top_task)
		return deadlock_detect ? -EDEADLK : 0;

	top_waiter = rt_mutex_top_waiter(lock);
	if (!requeue) {
		task = rt_mutex_owner(lock);
		top_waiter = NULL;
		if (!task)
			return 0;
		goto again;
	}
	task = requeue_and_adjust_owner(lock, task, &waiter, top_waiter);
	if (!task)
		return 0;
	top_waiter = rt_mutex_top_waiter(lock);
	/* WAITER is LOCK's top waiter (requeued to the top, or the new one
	 * after a deboost): the owner's prio may have moved, walk on */
	if (!deadlock_detect && waiter != top_waiter)
		return 0;		/* the owner's boost did not change */
	goto again;
}

/* Take LOCK for TASK if it has no owner (direct hand-off: no stealing). */
int try_to_take_rt_mutex(struct rt_mutex *lock, struct task *task)
{
	if (rt_mutex_owner(lock))
		return rt_mutex_owner(lock) == task;
	lock->owner = task;
	/* waiters left behind a proxy unlock now boost TASK */
	rt_mutex_enqueue_top_pi(lock, task);
	__rt_mutex_adjust_prio(task);
	return 1;
}

/*
 * TASK blocks on LOCK (owned by someone else): queue WAITER by TASK's
 * prio; if it is the new top waiter, it replaces the old one in the
 * owner's pi_waiters and the owner is boosted, and if the owner is itself
 * blocked the boost walks down the chain.
 */
int task_blocks_on_rt_mutex(struct rt_mutex *lock, struct rt_mutex_waiter *waiter,
			    struct task *task, int detect_deadlock)
{
	struct task *owner = rt_mutex_owner(lock);
	struct rt_mutex_waiter *top_waiter = waiter;
	int chain_walk = 0;

	waiter->task = task;
	waiter->lock = lock;
	plist_node_init(&waiter->list_entry, task->prio);
	plist_node_init(&waiter->pi_list_entry, task->prio);

	if (rt_mutex_has_waiters(lock))
		top_waiter = rt_mutex_top_waiter(lock);
	plist_add(&waiter->list_entry, &lock->wait_list);
	task->pi_blocked_on = waiter;

	if (waiter == rt_mutex_top_waiter(lock)) {
		if (top_waiter != waiter)
			plist_del(&top_waiter->pi_list_entry, &owner->pi_waiters);
		plist_add(&waiter->pi_list_entry, &owner->pi_waiters);
		__rt_mutex_adjust_prio(owner);
		if (owner->pi_blocked_on)
			chain_walk = 1;
	} else if (detect_deadlock) {
		chain_walk = 1;
	}
	if (!chain_walk)
		return 0;
	return rt_mutex_adjust_prio_chain(owner, detect_deadlock, lock, waiter, task);
}

/*
 * The owner of LOCK lets go and LOCK has waiters: the top waiter leaves
 * the wait list, is no longer blocked, owns LOCK (its pi_waiters gets
 * LOCK's next waiter, which may boost it) and is woken.  The old owner's
 * deboost is the caller's (rt_mutex_unlock).
 */
void wakeup_next_waiter(struct rt_mutex *lock)
{
	struct rt_mutex_waiter *waiter = rt_mutex_top_waiter(lock);
	struct task *owner = rt_mutex_owner(lock), *pendowner = waiter->task;

	plist_del(&waiter->list_entry, &lock->wait_list);
	if (owner)
		plist_del(&waiter->pi_list_entry, &owner->pi_waiters);
	plist_node_init(&waiter->pi_list_entry, waiter->list_entry.prio);
	pendowner->pi_blocked_on = NULL;
	lock->owner = pendowner;
	rt_mutex_enqueue_top_pi(lock, pendowner);
	__rt_mutex_adjust_prio(pendowner);
	rt_mutex_pi_busy++;		/* the old owner is deboosted after this */
	wake_up_process(pendowner);
	rt_mutex_pi_busy--;
}

/*
 * WAITER gives up (timeout, signal, deadlock): off LOCK's wait list; if it
 * was the top waiter the owner's pi_waiters gets the next one and the
 * owner is deboosted, and down the chain if the owner is blocked.
 */
void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter)
{
	int first = (waiter == rt_mutex_top_waiter(lock));
	struct task *owner = rt_mutex_owner(lock);
	int chain_walk = 0;

	plist_del(&waiter->list_entry, &lock->wait_list);
	waiter->task->pi_blocked_on = NULL;

	if (first && owner && owner != waiter->task) {
		plist_del(&waiter->pi_list_entry, &owner->pi_waiters);
		plist_node_init(&waiter->pi_list_entry, waiter->list_entry.prio);
		rt_mutex_enqueue_top_pi(lock, owner);
		__rt_mutex_adjust_prio(owner);
		if (owner->pi_blocked_on)
			chain_walk = 1;
	}
	if (chain_walk)
		rt_mutex_adjust_prio_chain(owner, 0, lock, NULL, waiter->task);
}

/* The owner releases LOCK: to the top waiter (woken), or free; deboost. */
void rt_mutex_unlock(struct rt_mutex *lock)
{
	struct task *owner = rt_mutex_owner(lock);
	unsigned long flags;

	local_irq_save(flags);
	if (!rt_mutex_has_waiters(lock))
		lock->owner = NULL;
	else
		wakeup_next_waiter(lock);
	if (owner)
		__rt_mutex_adjust_prio(owner);
	local_irq_restore(flags);
}

/*
 * sched_setscheduler() changed the priority of TASK: if it is blocked and
 * its waiter no longer carries its prio, requeue it and walk the chain.
 */
void rt_mutex_adjust_pi(struct task *task)
{
	struct rt_mutex_waiter *waiter;
	unsigned long flags;

	local_irq_save(flags);
	waiter = task->pi_blocked_on;
	if (waiter && waiter->list_entry.prio != task->prio)
		rt_mutex_adjust_prio_chain(task, 0, NULL, NULL, task);
	local_irq_restore(flags);
}

/* A futex's rt_mutex, created for an owner found by its TID. */
void rt_mutex_init_proxy_locked(struct rt_mutex *lock, struct task *owner)
{
	rt_mutex_init(lock);
	lock->owner = owner;
}

/* A futex's rt_mutex dropped with its pi_state: no waiters, no owner. */
void rt_mutex_proxy_unlock(struct rt_mutex *lock)
{
	lock->owner = NULL;
}

/* ---- the invariant checker's part (sched_verify=1) -------------------------- */

static int plist_holds(struct plist_head *head, struct plist_node *node)
{
	struct plist_node *n;

	list_for_each_entry(n, &head->node_list, node_list)
		if (n == node)
			return 1;
	return 0;
}

/*
 * The link of one blocked task P (its waiter W on LOCK, owned by OWNER),
 * and with every blocked task's link checked, every chain:
 *  - W is P's and queued on LOCK;
 *  - W is queued at P's prio (the chain walk requeues it whenever P's prio
 *    moves), unless both are fair prios: set_user_nice() does not requeue
 *    a blocked task (2.6.35), and a fair prio lends nothing CFS weighs;
 *  - LOCK's top waiter stands for LOCK in OWNER's pi_waiters, at its
 *    queued prio;
 *  - OWNER runs at rt_mutex_getprio() when that is an rt prio.
 */
static int verify_pi_link(struct task *p)
{
	struct rt_mutex_waiter *w = p->pi_blocked_on, *top;
	struct rt_mutex *lock = w->lock;
	struct task *owner;
	int bad = 0, prio;

	if (w->task != p || !lock || !plist_holds(&lock->wait_list, &w->list_entry)) {
		printk("sched_verify: %s/%d's pi waiter is not queued on its lock\n",
		       p->comm, p->pid);
		return 1;
	}
	if (w->list_entry.prio != p->prio &&
	    (rt_prio(w->list_entry.prio) || rt_prio(p->prio))) {
		printk("sched_verify: %s/%d waits at prio %d but runs at %d\n",
		       p->comm, p->pid, w->list_entry.prio, p->prio);
		bad++;
	}
	owner = rt_mutex_owner(lock);
	if (!owner)
		return bad;
	top = rt_mutex_top_waiter(lock);
	if (top->pi_list_entry.prio != top->list_entry.prio ||
	    !plist_holds(&owner->pi_waiters, &top->pi_list_entry)) {
		printk("sched_verify: the top waiter %s/%d does not boost the owner %s/%d\n",
		       top->task->comm, top->task->pid, owner->comm, owner->pid);
		bad++;
	}
	prio = rt_mutex_getprio(owner);
	if (rt_prio(prio) && owner->prio != prio) {
		printk("sched_verify: the owner %s/%d runs at prio %d, its waiters lend %d\n",
		       owner->comm, owner->pid, owner->prio, prio);
		bad++;
	}
	return bad;
}

/* Every blocked task's link (task_list); 0 while a PI change is under way. */
int rt_mutex_verify_chains(void)
{
	struct task *p;
	int bad = 0;

	if (rt_mutex_pi_busy)
		return 0;
	list_for_each_entry(p, &task_list, tasks)
		if (p->pi_blocked_on)
			bad += verify_pi_link(p);
	return bad;
}
