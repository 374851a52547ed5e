/*
 * kernel/jobctl.c - stopping and continuing a process (the stop signals'
 * default action, SIGCONT), after Linux 2.6.35 kernel/signal.c
 * (do_signal_stop, prepare_signal, do_notify_parent_cldstop).
 *
 *  - A stop signal (SIGSTOP; SIGTSTP, SIGTTIN, SIGTTOU unless their process
 *    group is orphaned) taken with the default action stops the whole
 *    process: the group leader's group_stop is set, every other thread is
 *    woken so that it notices (signal_pending() is true during a group
 *    stop) and each thread, on its way back to user mode, sleeps in
 *    TASK_STOPPED.  schedule() dequeues a task whose state is not
 *    TASK_RUNNING through deactivate_task(), whatever its class (CFS or
 *    EEVDF), exactly as for any sleep.
 *  - The parent is told: SIGCHLD (unless its SIGCHLD action has
 *    SA_NOCLDSTOP) and a wakeup of wait4, which reports the stop to
 *    WUNTRACED as the status (sig << 8) | 0x7f.
 *  - SIGCONT, when sent (even if ignored or blocked), discards pending stop
 *    signals and, if the process is stopped, wakes its threads (they go on
 *    with what they were doing; interrupted system calls restart) and tells
 *    the parent: SIGCHLD and status 0xffff for WCONTINUED.  A stop signal,
 *    when sent, discards a pending SIGCONT.
 *  - SIGKILL wakes a stopped thread (TASK_STOPPED is in its wakeup mask)
 *    and the process dies.
 *  - An exit that orphans a process group with a stopped member sends the
 *    group SIGHUP and SIGCONT (kill_orphaned_pgrp): nobody else could ever
 *    continue it.
 */
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <arch/irqflags.h>

#define SA_NOCLDSTOP	0x00000001u
#define STOP_MASK	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

static void for_each_thread_discard(struct task *leader, u64 mask)
{
	struct task *th;

	for (int sig = 1; sig <= _NSIG; sig++) {
		if (!(mask & sigmask(sig)))
			continue;
		discard_pending(leader, sig);
		list_for_each_entry(th, &leader->thread_group, thread_group)
			discard_pending(th, sig);
	}
}

/* Tell LEADER's parent that it stopped or continued (stop_notify). */
static void notify_parent(struct task *leader)
{
	struct task *parent = leader->parent;

	if (!parent || !parent->sig)
		return;
	struct task *to = signal_target(parent, SIGCHLD);
	/* Linux's do_notify_parent_cldstop: who, and the stop signal or
	 * SIGCONT (this sent SI_KERNEL and no pid). */
	struct ksiginfo info = { .si_code = leader->stop_notify == 1 ? CLD_STOPPED : CLD_CONTINUED };

	info.chld.pid = leader->tgid;
	info.chld.status = leader->stop_notify == 1 ? leader->stop_sig : SIGCONT;
	if (to && !(parent->sig->action[SIGCHLD - 1].flags & SA_NOCLDSTOP))
		send_signal_info(to, SIGCHLD, &info, NULL);
	wake_up_all(&parent->wait_chldexit);
}

void jobctl_prepare_signal(struct task *t, int sig)
{
	struct task *leader = t->group_leader, *th;

	if (sig_kernel_stop(sig)) {
		for_each_thread_discard(leader, sigmask(SIGCONT));
		return;
	}
	if (sig != SIGCONT)
		return;
	for_each_thread_discard(leader, STOP_MASK);
	if (!leader->group_stop)
		return;
	leader->group_stop = 0;
	leader->stop_notify = 2;
	try_to_wake_up(leader, TASK_STOPPED, 0);
	list_for_each_entry(th, &leader->thread_group, thread_group)
		try_to_wake_up(th, TASK_STOPPED, 0);
	notify_parent(leader);
}

/* Is PGRP orphaned once IGNORED (NULL: nobody) is gone - no other member
 * has a parent in another group of the same session (Linux's
 * will_become_orphaned_pgrp)? */
static int will_become_orphaned(int pgrp, const struct task *ignored)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks) {
		if (t->group_leader != t || t->pgrp != pgrp || t->exit_state || !t->parent ||
		    t == ignored)
			continue;
		if (t->parent->pgrp != pgrp && t->parent->session == t->session)
			return 0;
	}
	return 1;
}

/* Is PGRP orphaned?  Then the terminal's stop signals do not stop it:
 * nobody is left to continue it. */
int pgrp_orphaned(int pgrp)
{
	return will_become_orphaned(pgrp, NULL);
}

static int has_stopped_jobs(int pgrp)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->group_leader == t && t->pgrp == pgrp && !t->exit_state && t->group_stop)
			return 1;
	return 0;
}

/*
 * Linux's kill_orphaned_pgrp (exit_notify, reparent_leader): an exit that
 * leaves TSK's process group orphaned while a member of it is stopped would
 * leave that member stopped for ever - nobody is left to continue it, and
 * init does not - so the group gets SIGHUP, then SIGCONT (POSIX.1).  PARENT
 * is the exiting parent TSK was just taken from (TSK's group loses it), or
 * NULL when TSK's own process exits (its group loses TSK's outside link).
 */
void kill_orphaned_pgrp(struct task *tsk, struct task *parent)
{
	const struct task *ignored = tsk;

	if (!parent)
		parent = tsk->parent;
	else
		ignored = NULL;
	if (!parent || parent->pgrp == tsk->pgrp || parent->session != tsk->session)
		return;		/* TSK's group had no link outside through PARENT */
	if (will_become_orphaned(tsk->pgrp, ignored) && has_stopped_jobs(tsk->pgrp)) {
		kill_pgrp(tsk->pgrp, SIGHUP);
		kill_pgrp(tsk->pgrp, SIGCONT);
	}
}

void jobctl_stop_wait(struct task *t)
{
	unsigned long flags;

	local_irq_save(flags);
	while (t->group_leader->group_stop && !(t->sig_pending & sigmask(SIGKILL))) {
		t->state = TASK_STOPPED;
		schedule();
	}
	local_irq_restore(flags);
}

void do_signal_stop(struct task *t, int sig)
{
	struct task *leader = t->group_leader, *th;

	if (leader->pid == 1 || leader->signal_flags & SIGNAL_UNKILLABLE)
		return;		/* init does not stop */
	if (sig != SIGSTOP && pgrp_orphaned(leader->pgrp))
		return;
	if (!leader->group_stop) {
		leader->group_stop = 1;
		leader->stop_sig = sig;
		leader->stop_notify = 1;
		if (leader != t)
			try_to_wake_up(leader, TASK_INTERRUPTIBLE, 0);
		list_for_each_entry(th, &leader->thread_group, thread_group)
			if (th != t)
				try_to_wake_up(th, TASK_INTERRUPTIBLE, 0);
		notify_parent(leader);
	}
	jobctl_stop_wait(t);
}
