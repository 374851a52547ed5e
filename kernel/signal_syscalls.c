/*
 * kernel/signal_syscalls.c - the rt_sig* system calls that set a thread's
 * actions and mask or wait for a signal: rt_sigaction, rt_sigprocmask,
 * rt_sigpending, rt_sigsuspend and rt_sigtimedwait, with the temporary
 * mask of ppoll and pselect6.  Sending, queueing and delivery are
 * kernel/signal.c's.
 */
#include <kernel/errno.h>
#include <kernel/hrtimer.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

/*
 * Swap in the mask a ppoll/pselect6/rt_sigsuspend caller gave for the
 * length of the call (SIGKILL and SIGSTOP stay unblocked); the old one is
 * kept in saved_sigmask.  The call ends with set_restore_sigmask(), which
 * leaves the swap to the return to user mode when a signal interrupted it
 * (so the handler runs under the temporary mask), or puts the old mask
 * back at once.
 */
void set_temporary_sigmask(u64 mask)
{
	current->saved_sigmask = current->sig_blocked;
	current->sig_blocked = mask & ~UNBLOCKABLE;
}

void end_temporary_sigmask(int interrupted)
{
	if (interrupted)
		current->restore_sigmask = 1;
	else
		current->sig_blocked = current->saved_sigmask;
}

/* rt_sigsuspend(mask, size): wait for a signal under MASK; always -EINTR
 * (-ERESTARTNOHAND, which becomes -EINTR once a handler runs; a signal
 * without a handler that does not end the process restarts it). */
long sys_rt_sigsuspend(const u64 *umask, u32 size)
{
	u64 mask;
	unsigned long flags;

	if (size != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	set_temporary_sigmask(mask);
	local_irq_save(flags);
	while (!signal_pending(current)) {
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	local_irq_restore(flags);
	end_temporary_sigmask(1);
	return -ERESTARTNOHAND;
}

/* pause(): the same wait under the mask in force (Linux's sys_pause,
 * which loops while no signal is pending since 3.x). */
long sys_pause(void)
{
	unsigned long flags;

	local_irq_save(flags);
	while (!signal_pending(current)) {
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	local_irq_restore(flags);
	return -ERESTARTNOHAND;
}

long sys_rt_sigaction(int sig, const struct k_sigaction *uact, struct k_sigaction *uoact, u32 size)
{
	struct k_sigaction act, old;

	if (size != sizeof(u64) || sig < 1 || sig > _NSIG)
		return -EINVAL;
	old = current->sig->action[sig - 1];
	if (uact) {
		if (sig == SIGKILL || sig == SIGSTOP)
			return -EINVAL;
		if (copy_from_user(&act, uact, sizeof(act)))
			return -EFAULT;
		act.mask &= ~UNBLOCKABLE;
	}
	if (uoact && copy_to_user(uoact, &old, sizeof(old)))
		return -EFAULT;
	if (uact) {
		current->sig->action[sig - 1] = act;
		/* POSIX: setting SIG_IGN discards pending instances. */
		if (act.handler == SIG_IGN || (act.handler == SIG_DFL && sig_default_ignored(sig))) {
			struct task *leader = current->group_leader, *th;
			discard_pending(leader, sig);
			list_for_each_entry(th, &leader->thread_group, thread_group)
				discard_pending(th, sig);
		}
	}
	return 0;
}

long sys_rt_sigprocmask(int how, const u64 *uset, u64 *uoset, u32 size)
{
	u64 set, old = current->sig_blocked;

	if (size != sizeof(u64))
		return -EINVAL;
	if (uset) {
		if (copy_from_user(&set, uset, sizeof(set)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:   current->sig_blocked |= set; break;
		case SIG_UNBLOCK: current->sig_blocked &= ~set; break;
		case SIG_SETMASK: current->sig_blocked = set; break;
		default: return -EINVAL;
		}
		current->sig_blocked &= ~UNBLOCKABLE;
	}
	if (uoset && copy_to_user(uoset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigpending(u64 *uset, u32 size)
{
	u64 p = current->sig_pending & current->sig_blocked;

	/* Linux: a smaller set is allowed (only a larger one is EINVAL), and
	 * gets the low SIZE bytes (little-endian: the low signals). */
	if (size > sizeof(u64))
		return -EINVAL;
	return copy_to_user(uset, &p, size);
}

/*
 * sigtimedwait: take a signal of SET (usually blocked) without running a
 * handler.  While waiting, SET is unblocked (real_blocked keeps the mask)
 * so that its arrival wakes us; another unblocked signal ends the wait with
 * -EINTR (its handler runs on the way out).  -EAGAIN on timeout.
 */
long sys_rt_sigtimedwait(const u64 *uset, struct ksiginfo *uinfo, const void *utimeout, u32 size)
{
	struct hrtimer_sleeper w;
	struct ksiginfo info;
	u64 set, timeout = 0;
	unsigned long flags;
	int sig;

	if (size != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	set &= ~UNBLOCKABLE;
	if (utimeout) {
		long err = get_timespec(utimeout, &timeout);
		if (err)
			return err;
	}
	w.expired = 0;			/* the sleeper is set up only for a timeout */
	local_irq_save(flags);
	sig = dequeue_signal(current, set, &info);
	if (!sig && !(utimeout && timeout == 0)) {
		current->real_blocked = current->sig_blocked;
		current->sig_blocked &= ~set;
		if (utimeout) {
			hrtimer_init_sleeper(&w, current);
			hrtimer_start(&w.timer, sched_clock() + timeout);
		}
		while (!signal_pending(current) && !w.expired) {
			current->state = TASK_INTERRUPTIBLE;
			schedule();
		}
		if (utimeout)
			hrtimer_cancel(&w.timer);
		current->sig_blocked = current->real_blocked;
		current->real_blocked = 0;	/* Linux: sigemptyset(&tsk->real_blocked) */
		sig = dequeue_signal(current, set, &info);
	}
	local_irq_restore(flags);
	if (!sig)
		return (utimeout && (timeout == 0 || w.expired)) ? -EAGAIN : -EINTR;
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return sig;
}
