/*
 * kernel/proc/futex_pi.c - priority-inheritance futexes and the robust
 * list, as Linux 2.6.35's kernel/futex.c: FUTEX_LOCK_PI, FUTEX_UNLOCK_PI,
 * FUTEX_TRYLOCK_PI (and 5.14's FUTEX_LOCK_PI2), exit_pi_state_list and
 * exit_robust_list / handle_futex_death.
 *
 * The word: the owner's TID, | FUTEX_WAITERS when the owner must unlock
 * through the kernel, | FUTEX_OWNER_DIED when the owner died holding it.
 * User space takes a free lock (0 -> TID) and drops an uncontended one
 * (TID -> 0) with cmpxchg; the kernel is asked only when that fails.
 *
 * A pi_state per (mm, uaddr) holds the rt_mutex (kernel/sched/rtmutex.c)
 * that the waiters queue on, and its owner: created by the first waiter
 * for the owner the word names (lookup_pi_state: -ESRCH for a TID that is
 * no task of this address space), dropped when its last waiter leaves
 * (refcount = waiters in futex_lock_pi).  Unlock hands the rt_mutex to
 * the top waiter and writes its TID | FUTEX_WAITERS into the word, so the
 * waiter wakes owning both.
 *
 * Concurrency: only process context touches the pi_states, in a kernel
 * that is never preempted (kernel/entry.c), so between two user accesses
 * nothing else runs: a read-modify-write of the word is the cmpxchg.
 *
 * Deliberate differences: no futex hash (one list, as futex.c's waiters);
 * no pending owner to fix up (see <kernel/rtmutex.h>); UNLOCK_PI always
 * writes the word (2.6.35 left a FUTEX_OWNER_DIED word as it was: the
 * unlocker's TID stayed in a word it no longer owned, until Linux 3.15,
 * LKML "futex: Always cleanup owner tid in unlock_pi", 2014); a word names
 * an owner of this address space only (futexes are keyed by address space
 * and address, and no memory is shared between address spaces: 2.6.35
 * looks the TID up system-wide, and the waiter would boost a task that
 * cannot unlock this word).
 */
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/hrtimer.h>
#include <kernel/kmalloc.h>
#include <kernel/proc.h>
#include <kernel/rtmutex.h>
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>

struct futex_pi_state {
	struct list_head list;		/* in owner->pi_state_list */
	struct list_head hash;		/* in futex_pi_states */
	struct rt_mutex pi_mutex;
	struct task *owner;
	struct mm *mm;			/* the key: (mm, uaddr) */
	u32 uaddr;
	int refcount;			/* waiters inside futex_lock_pi */
};

static LIST_HEAD(futex_pi_states);

static struct futex_pi_state *find_pi_state(struct mm *mm, u32 uaddr)
{
	struct futex_pi_state *ps;

	list_for_each_entry(ps, &futex_pi_states, hash)
		if (ps->mm == mm && ps->uaddr == uaddr)
			return ps;
	return NULL;
}

/* Drop a waiter's reference; the last one frees it (and its ownership). */
static void free_pi_state(struct futex_pi_state *ps)
{
	if (--ps->refcount)
		return;
	if (ps->owner)
		list_del(&ps->list);
	rt_mutex_proxy_unlock(&ps->pi_mutex);
	list_del(&ps->hash);
	kfree(ps);
}

/*
 * The pi_state of (current->mm, UADDR), whose word holds UVAL: the one
 * that exists (its owner must be the word's TID: else -EINVAL), or a new
 * one owned by the task of that TID - -ESRCH if there is none in this
 * address space (or it is exiting).  The caller holds a reference.
 */
static int lookup_pi_state(u32 uval, u32 uaddr, struct futex_pi_state **res)
{
	int pid = (int)(uval & FUTEX_TID_MASK);
	struct futex_pi_state *ps = find_pi_state(current->mm, uaddr);
	struct task *p;

	if (ps) {
		if (pid && ps->owner && ps->owner->pid != pid)
			return -EINVAL;
		ps->refcount++;
		*res = ps;
		return 0;
	}
	if (!pid)
		return -ESRCH;
	p = find_task_by_pid(pid);
	if (!p || p->mm != current->mm || p->exit_state || p->state == TASK_DEAD)
		return -ESRCH;
	ps = kzalloc(sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	rt_mutex_init_proxy_locked(&ps->pi_mutex, p);
	ps->owner = p;
	ps->mm = current->mm;
	ps->uaddr = uaddr;
	ps->refcount = 1;
	list_add(&ps->list, &p->pi_state_list);
	list_add(&ps->hash, &futex_pi_states);
	*res = ps;
	return 0;
}

/*
 * Hand PS's lock from its owner to the top waiter: the word becomes the
 * new owner's TID | FUTEX_WAITERS | KEEP (FUTEX_OWNER_DIED at exit), then
 * the rt_mutex follows (wakeup_next_waiter) and the old owner is
 * deboosted.  FUTEX_WAITERS stays even for the last waiter, as 2.6.35's
 * wake_futex_pi ("always kept enabled while there is PI state around"):
 * the new owner's unlock comes through the kernel.  -EFAULT (nothing
 * handed) if the word cannot be written.
 */
static int futex_pi_hand_on(struct futex_pi_state *ps, u32 keep, int force)
{
	struct rt_mutex *lock = &ps->pi_mutex;
	struct task *new_owner = rt_mutex_top_waiter(lock)->task;
	u32 newval = (u32)new_owner->pid | FUTEX_WAITERS | keep;

	if (put_user(newval, (u32 *)ps->uaddr) && !force)
		return -EFAULT;
	if (ps->owner)
		list_del(&ps->list);
	ps->owner = new_owner;
	list_add(&ps->list, &new_owner->pi_state_list);
	rt_mutex_unlock(lock);
	return 0;
}

/*
 * The word at UADDR is free (TID 0) or owned.  Take it, or with
 * FUTEX_WAITERS set find the pi_state to wait on (TRYLOCK_PI too, as
 * 2.6.35: a word naming no task is -ESRCH for it as well): 1 taken, 0 *PS
 * to wait on, or an error.
 */
static int futex_lock_pi_atomic(u32 uaddr, struct futex_pi_state **ps)
{
	u32 tid = (u32)current->pid, uval;
	int ret;

	if (get_user(uval, (u32 *)uaddr))
		return -EFAULT;
	if ((uval & FUTEX_TID_MASK) == tid)
		return -EDEADLK;
	if (!(uval & FUTEX_TID_MASK))		/* free, or its owner died */
		goto take;
	if (!(uval & FUTEX_WAITERS)) {
		uval |= FUTEX_WAITERS;
		if (put_user(uval, (u32 *)uaddr))
			return -EFAULT;
	}
	ret = lookup_pi_state(uval, uaddr, ps);
	/* the owner died and nobody cleaned up (no robust list): take over */
	if (ret == -ESRCH && (uval & FUTEX_OWNER_DIED))
		goto take;
	return ret;

take:
	if (put_user((uval & ~FUTEX_TID_MASK) | tid, (u32 *)uaddr))
		return -EFAULT;
	return 1;
}

/*
 * FUTEX_LOCK_PI / FUTEX_LOCK_PI2 / FUTEX_TRYLOCK_PI: take the lock at
 * UADDR, or wait for it on its pi_state's rt_mutex, lending our priority
 * to the owner, until it is handed to us, the absolute timeout passes
 * (-ETIMEDOUT) or a signal comes (restarted: -ERESTARTNOINTR, as 2.6.35).
 */
long futex_lock_pi(u32 uaddr, const void *utimeout, int kind, int realtime, int trylock)
{
	struct futex_pi_state *ps = NULL;
	struct hrtimer_sleeper sl, *to = NULL;
	u64 expires = 0;
	long ret;

	if (uaddr & 3)
		return -EINVAL;
	if (utimeout && !trylock && (ret = futex_get_expiry(utimeout, kind, realtime, &expires)))
		return ret;
	ret = futex_lock_pi_atomic(uaddr, &ps);
	if (ret)
		return ret == 1 ? 0 : ret;

	if (utimeout && !trylock) {
		to = &sl;
		hrtimer_init_sleeper(&sl, current);
		sl.expired = expires <= sched_clock();	/* already past */
		if (!sl.expired)
			hrtimer_start(&sl.timer, expires);
	}
	if (trylock)
		ret = rt_mutex_trylock(&ps->pi_mutex) ? 0 : -EWOULDBLOCK;
	else
		ret = rt_mutex_timed_lock(&ps->pi_mutex, to, 1);
	if (to)
		hrtimer_cancel(&sl.timer);
	if (!ret && ps->owner != current) {	/* fixup_owner: an ownerless pi_state */
		if (ps->owner)
			list_del(&ps->list);
		ps->owner = current;
		list_add(&ps->list, &current->pi_state_list);
	}
	free_pi_state(ps);
	return ret == -EINTR ? -ERESTARTNOINTR : ret;
}

/*
 * FUTEX_UNLOCK_PI: the owner (else -EPERM) lets go: to the top waiter
 * (wake_futex_pi), or, with nobody waiting, the word becomes 0.
 */
long futex_unlock_pi(u32 uaddr)
{
	struct futex_pi_state *ps;
	u32 uval;

	if (uaddr & 3)
		return -EINVAL;
	if (get_user(uval, (u32 *)uaddr))
		return -EFAULT;
	if ((uval & FUTEX_TID_MASK) != (u32)current->pid)
		return -EPERM;
	ps = find_pi_state(current->mm, uaddr);
	if (ps && rt_mutex_has_waiters(&ps->pi_mutex)) {
		if (ps->owner != current)
			return -EINVAL;
		return futex_pi_hand_on(ps, 0, 0);
	}
	return put_user((u32)0, (u32 *)uaddr) ? -EFAULT : 0;
}

/*
 * exit_pi_state_list (from mm_release, after the robust list): every PI
 * futex the dying task still owns goes to its top waiter, whose TID the
 * word gets with FUTEX_OWNER_DIED kept; one nobody waits for is only
 * disowned (its pi_state goes with its last waiter).
 */
void exit_pi_state_list(struct task *curr)
{
	while (!list_empty(&curr->pi_state_list)) {
		struct futex_pi_state *ps =
			list_first_entry(&curr->pi_state_list, struct futex_pi_state, list);
		u32 uval = 0;

		if (rt_mutex_has_waiters(&ps->pi_mutex)) {
			get_user(uval, (u32 *)ps->uaddr);	/* 0 if unreadable */
			futex_pi_hand_on(ps, uval & FUTEX_OWNER_DIED, 1);
			continue;
		}
		list_del(&ps->list);
		ps->owner = NULL;
		rt_mutex_proxy_unlock(&ps->pi_mutex);
	}
}

/* A pi_state lives exactly while waiters are inside futex_lock_pi on its
 * word (its refcount): futex.c's FUTEX_WAKE refuses such a word. */
int futex_pi_waiters(struct mm *mm, u32 uaddr)
{
	return find_pi_state(mm, uaddr) != NULL;
}
