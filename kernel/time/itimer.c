/*
 * kernel/time/itimer.c - alarm(2), setitimer(2), getitimer(2), after Linux
 * 2.6.35's kernel/itimer.c (and sys_alarm from its kernel/timer.c).
 *
 * ITIMER_REAL is one hrtimer per process, the group leader's real_timer
 * (<kernel/itimer.h> says why the leader's), on the monotonic line.  At
 * expiry it_real_fn sends SIGALRM to the process and does NOT re-arm:
 * a periodic timer is restarted when its SIGALRM is dequeued
 * (posixtimer_rearm_itimer, from dequeue_signal), forwarded past "now" by
 * whole intervals - the expiries missed meanwhile are skipped, not queued.
 * Linux's motive: "restart periodic itimers in the signal delivery path to
 * prevent DoS attacks in the high resolution timer case"; a 1 us interval
 * costs one expiry per signal the process takes.  As in 2.6.35, a SIGALRM
 * that is ignored (not queued) therefore stops a periodic timer.
 *
 * Lifetime (Linux's copy_signal / de_thread / do_exit):
 *   fork      a new process starts with no timer (alloc_task initialises
 *             every task's real_timer inactive, it_real_incr 0);
 *   exec      the timer survives (POSIX); a non-leader exec'ing takes the
 *             leader's place and the timer with it (itimer_real_move);
 *   exit      the last thread's do_exit cancels it before the signal state
 *             goes, so no expiry finds a dead (or freed) process.
 *
 * ITIMER_VIRTUAL and ITIMER_PROF are -EINVAL: Linux runs them from the
 * tick through posix-cpu-timers on the process's utime/stime, and Granule
 * has neither the user/system split nor a per-process CPU timer in its
 * tick (a deliberate difference, docs/ARCHITECTURE.md).
 */
#include <kernel/errno.h>
#include <kernel/itimer.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

/*
 * Linux's itimer_get_remtime: time to expiry; a timer that is queued but
 * already due reads as 1 us (it is still pending), an inactive one as 0.
 * (Callbacks run with interrupts off, so "active" is just "queued".)
 * Interrupts off.
 */
static struct timeval32 itimer_get_remtime(struct hrtimer *timer)
{
	u64 now, rem = 0;

	if (hrtimer_is_queued(timer)) {
		now = sched_clock();
		rem = timer->expires > now ? timer->expires - now : NSEC_PER_USEC;
	}
	return ns_to_timeval(rem);
}

/* do_getitimer: ITIMER_REAL of the current process into VALUE. */
static long do_getitimer(int which, struct itimerval32 *value)
{
	struct task *leader = current->group_leader;
	unsigned long flags;

	if (which != ITIMER_REAL)
		return -EINVAL;		/* ITIMER_VIRTUAL, ITIMER_PROF: see the top */
	local_irq_save(flags);
	value->it_value = itimer_get_remtime(&leader->real_timer);
	value->it_interval = ns_to_timeval(leader->it_real_incr);
	local_irq_restore(flags);
	return 0;
}

long sys_getitimer(int which, struct itimerval32 *uvalue)
{
	struct itimerval32 v;
	long err;

	if (!uvalue)
		return -EFAULT;		/* 2.6.35: checked before WHICH */
	err = do_getitimer(which, &v);
	if (!err && copy_to_user(uvalue, &v, sizeof(v)))
		err = -EFAULT;
	return err;
}

enum hrtimer_restart it_real_fn(struct hrtimer *timer)
{
	struct task *leader = container_of(timer, struct task, real_timer);
	struct task *to = signal_target(leader, SIGALRM);

	/* kill_pid_info(SIGALRM, SEND_SIG_PRIV, leader_pid): si_code
	 * SI_KERNEL (NULL info); no live thread: nobody to tell. */
	if (to)
		send_signal_info(to, SIGALRM, NULL, NULL);
	return HRTIMER_NORESTART;	/* the dequeue re-arms a periodic one */
}

void posixtimer_rearm_itimer(struct task *t)
{
	struct task *leader = t->group_leader;
	struct hrtimer *tmr = &leader->real_timer;

	if (!hrtimer_is_queued(tmr) && leader->it_real_incr) {
		hrtimer_forward(tmr, sched_clock(), leader->it_real_incr);
		hrtimer_start(tmr, tmr->expires);
	}
}

void itimer_real_move(struct task *from, struct task *to)
{
	to->it_real_incr = from->it_real_incr;
	from->it_real_incr = 0;
	if (hrtimer_cancel(&from->real_timer))
		hrtimer_start(&to->real_timer, from->real_timer.expires);
}

/*
 * do_setitimer: validate VALUE, report the old timer in OVALUE (if
 * given), then re-arm: a zero it_value disarms (and zeroes the interval),
 * else the timer fires it_value from now and every it_interval after.
 */
static long do_setitimer(int which, const struct itimerval32 *value, struct itimerval32 *ovalue)
{
	struct task *leader = current->group_leader;
	struct hrtimer *timer = &leader->real_timer;
	unsigned long flags;
	u64 expires;

	if (!timeval_valid(&value->it_value) || !timeval_valid(&value->it_interval))
		return -EINVAL;
	if (which != ITIMER_REAL)
		return -EINVAL;		/* ITIMER_VIRTUAL, ITIMER_PROF: see the top */
	local_irq_save(flags);
	if (ovalue) {
		ovalue->it_value = itimer_get_remtime(timer);
		ovalue->it_interval = ns_to_timeval(leader->it_real_incr);
	}
	hrtimer_cancel(timer);	/* a SIGALRM already queued stays queued (Linux) */
	expires = timeval_to_ns(&value->it_value);
	if (expires) {
		leader->it_real_incr = timeval_to_ns(&value->it_interval);
		hrtimer_start(timer, sched_clock() + expires);	/* HRTIMER_MODE_REL */
	} else {
		leader->it_real_incr = 0;
	}
	local_irq_restore(flags);
	return 0;
}

/*
 * setitimer(2).  A NULL VALUE is a zero one (2.6.35 memsets it: the timer
 * is disarmed, no error, no warning - the warning came in later Linux).  A
 * bad OVALUE is -EFAULT after the new timer is set, as in Linux.
 */
long sys_setitimer(int which, const struct itimerval32 *uvalue, struct itimerval32 *uovalue)
{
	struct itimerval32 set, get;
	long err;

	if (uvalue) {
		if (copy_from_user(&set, uvalue, sizeof(set)))
			return -EFAULT;
	} else {
		memset(&set, 0, sizeof(set));
	}
	err = do_setitimer(which, &set, uovalue ? &get : NULL);
	if (err || !uovalue)
		return err;
	return copy_to_user(uovalue, &get, sizeof(get)) ? -EFAULT : 0;
}

/*
 * alarm(2) (i386 syscall 27): alarm_setitimer.  SECONDS is capped at
 * INT_MAX on 32-bit machines ("to avoid negative timeval settings which
 * would cause immediate expiry"); 0 cancels.  Returns the old alarm's
 * seconds left, rounded by alarm_seconds_left().  Never fails.
 */
long sys_alarm(unsigned int seconds)
{
	struct itimerval32 it_new = { { 0, 0 }, { 0, 0 } }, it_old;

	if (seconds > 0x7fffffffu)
		seconds = 0x7fffffffu;
	it_new.it_value.tv_sec = (s32)seconds;
	do_setitimer(ITIMER_REAL, &it_new, &it_old);
	return alarm_seconds_left(&it_old.it_value);
}
