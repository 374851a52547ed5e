/*
 * kernel/signal.c - generating, queueing and delivering signals
 * (see kernel/signal.h for the model).
 */
#include <kernel/errno.h>
#include <kernel/hrtimer.h>
#include <kernel/itimer.h>
#include <kernel/kmalloc.h>
#include <kernel/posix_timers.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>
#include <arch/syscall.h>

/* Default action "ignore" (POSIX).  The stop signals' default action is
 * to stop (kernel/jobctl.c). */
int sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

/*
 * RLIMIT_SIGPENDING: how many signals may wait in queues at once, counted
 * per user as Linux's user->sigpending (Granule has one user, so the count
 * is global) and checked, as 2.6.35's __sigqueue_alloc(), against the
 * receiving process's limit (task_rlimit; kernel/proc/rlimit.c: RLIMIT_NPROC's
 * value at boot, as fork_init sets it, and setrlimit may move it).  Beyond
 * it, as Linux's __sigqueue_alloc() + __send_signal(): a standard signal
 * still gets a queue entry (override: it coalesces, at most one per signal
 * and thread); a real-time one gets none.  Then, as 2.6.35: a kill()
 * (SI_USER) still sets the signal's pending bit - its siginfo is lost, so
 * repeated kills coalesce into one delivery - and returns 0; any other
 * sender (tgkill's SI_TKILL, a real-time exit signal) fails with -EAGAIN.
 * Either way the kernel's memory is bounded.  POSIX timers' entries are
 * preallocated and not counted.
 */
static int nr_sigpending;		/* allocated entries now queued */

void sigqueue_usage(const struct task *t, int *queued, unsigned int *limit)
{
	*queued = nr_sigpending;
	*limit = task_rlimit(t, RLIMIT_SIGPENDING);
}

/* Over T's RLIMIT_SIGPENDING if one more entry were queued? */
static int sigpending_full(const struct task *t)
{
	return (unsigned int)nr_sigpending >= task_rlimit(t, RLIMIT_SIGPENDING);
}

static struct sigqueue *sigqueue_alloc(struct task *t, int sig, const struct ksiginfo *info)
{
	int override = sig < SIGRTMIN && (!info || info->si_code >= 0);
	struct sigqueue *q;

	if (!override && sigpending_full(t))
		return NULL;
	q = kzalloc(sizeof(*q));
	if (q)
		nr_sigpending++;
	return q;
}

struct signal_state *signal_state_alloc(const struct signal_state *copy)
{
	struct signal_state *s = kzalloc(sizeof(*s));

	if (!s)
		return NULL;
	if (copy)
		memcpy(s->action, copy->action, sizeof(s->action));
	INIT_LIST_HEAD(&s->posix_timers);
	s->count = 1;
	return s;
}

void signal_state_put(struct signal_state *s)
{
	if (s && --s->count == 0) {
		exit_itimers(s, NULL);	/* none left: each process took its own */
		kfree(s);
	}
}

static u32 handler_of(struct task *t, int sig)
{
	return t->sig ? t->sig->action[sig - 1].handler : SIG_DFL;
}

/*
 * Is T's process init, which no signal it has no handler for may kill or
 * even reach (Linux's SIGNAL_UNKILLABLE, set for pid 1 before its exec:
 * kernel/init.c)?  Only the kernel's own SIGKILL (zap_thread: a group exit
 * or exec of init itself) and a fault's forced signal (force_sig, which
 * clears the flag as Linux's force_sig_info does) get through.
 */
static int unkillable(struct task *t)
{
	return t->group_leader->signal_flags & SIGNAL_UNKILLABLE;
}

/*
 * Linux's sig_ignored + sig_task_ignored: is SIG for T dropped when sent?
 * A signal T awaits in rt_sigtimedwait counts as blocked (real_blocked, as
 * Linux's sig_ignored checks it): the wait unblocks its set in sig_blocked
 * only so that an arrival wakes it, and a SIGCHLD or SIGURG left at SIG_DFL
 * must still reach "block SIGCHLD; fork; sigwaitinfo" - it used to be
 * dropped as ignored, and the wait slept on for ever.
 */
static int sig_ignored(struct task *t, int sig)
{
	if ((t->sig_blocked | t->real_blocked) & sigmask(sig))
		return 0;	/* a blocked signal stays pending: it may be unignored */
	u32 h = handler_of(t, sig);
	if (h == SIG_DFL && unkillable(t))
		return 1;	/* SIGKILL and SIGTERM too: kill(1, SIGKILL) does nothing */
	if (sig == SIGKILL)
		return 0;
	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

/* Would SIG, delivered to T now, end T's process?  (Linux's sig_fatal;
 * complete_signal starts no group exit for an unkillable process.) */
static int sig_fatal(struct task *t, int sig)
{
	if (sig == SIGKILL)
		return 1;
	return !(t->sig_blocked & sigmask(sig)) && handler_of(t, sig) == SIG_DFL &&
	       !sig_default_ignored(sig) && !sig_kernel_stop(sig) && !unkillable(t);
}

int fatal_signal_pending(struct task *t)
{
	u64 p = t->sig_pending & ~(t->sig_blocked & ~UNBLOCKABLE);

	if (p & sigmask(SIGKILL))
		return SIGKILL;		/* do_signal() takes it first */
	for (int sig = 1; sig <= _NSIG; sig++)
		if ((p & sigmask(sig)) && sig_fatal(t, sig))
			return sig;
	return 0;
}

/*
 * The thread of LEADER's process waiting in de_thread() for the others to
 * die, or NULL.  (signal_state's group_exec_task may belong to another
 * process sharing the state: the exec'ing thread is the one it names.)
 */
static struct task *group_execer(struct task *leader)
{
	struct task *th;

	/* The threads of a process share one signal state (CLONE_THREAD
	 * needs CLONE_SIGHAND): no exec marked in it, no exec'ing thread. */
	if (leader->sig && !leader->sig->group_exec_task)
		return NULL;
	if (leader->sig && leader->sig->group_exec_task == leader)
		return leader;
	list_for_each_entry(th, &leader->thread_group, thread_group)
		if (th->sig && th->sig->group_exec_task == th)
			return th;
	return NULL;
}

/*
 * A signal for T's process (kill) or one of its threads (tgkill) while a
 * thread of it execs: in Linux a fatal signal starts a group exit that ends
 * the exec'ing thread too (complete_signal), so a fatal SIG goes to that
 * thread, whose de_thread() wait then gives up - not to a thread de_thread
 * killed, where it would be lost.  Returns the exec'ing thread, or NULL.
 */
static struct task *fatal_to_execer(struct task *t, int sig)
{
	struct task *ex;

	if (sig <= 0)
		return NULL;
	ex = group_execer(t->group_leader);
	return ex && sig_fatal(ex, sig) ? ex : NULL;
}

/* send_signal_info(); FORCE: the kernel's own SIGKILL, never ignored. */
static int __send_signal(struct task *t, int sig, const struct ksiginfo *info, struct sigqueue *q,
			 int force)
{
	unsigned long flags;
	int ret = 0;

	local_irq_save(flags);
	jobctl_prepare_signal(t, sig);	/* SIGCONT resumes, even if ignored */
	if (t->exit_state || (!force && sig_ignored(t, sig)) ||
	    (sig < SIGRTMIN && (t->sig_pending & sigmask(sig)))) {
		local_irq_restore(flags);
		return 1;	/* ignored, or a standard signal already pending */
	}
	if (!q) {
		q = sigqueue_alloc(t, sig, info);
		if (!q && sig >= SIGRTMIN && sigpending_full(t) &&
		    (!info || info->si_code != SI_USER)) {
			local_irq_restore(flags);
			return -EAGAIN;	/* queue overflow: nothing sent */
		}
		if (!q) {
			ret = -ENOMEM;	/* the bit below still records it */
		} else {
			if (info)
				memcpy(&q->info, info, sizeof(q->info));
			else
				q->info.si_code = SI_KERNEL;	/* the rest is kzalloc's zeroes */
			q->info.si_signo = sig;
		}
	}
	if (q) {
		q->queued = 1;
		q->owner = t;
		list_add_tail(&q->list, &t->sig_queue);
	}
	t->sig_pending |= sigmask(sig);
	/* A fatal signal also ends de_thread()'s uninterruptible wait (as a
	 * TASK_KILLABLE sleep). */
	if (sig == SIGKILL || (t->sig && t->sig->group_exec_task == t && sig_fatal(t, sig)))
		try_to_wake_up(t, TASK_NORMAL | TASK_STOPPED, 0);	/* a stopped task too */
	else if (!(t->sig_blocked & sigmask(sig)))
		try_to_wake_up(t, TASK_INTERRUPTIBLE, 0);
	local_irq_restore(flags);
	return ret;
}

int send_signal_info(struct task *t, int sig, const struct ksiginfo *info, struct sigqueue *q)
{
	return __send_signal(t, sig, info, q, 0);
}

void send_signal(struct task *t, int sig)
{
	send_signal_info(t, sig, NULL, NULL);
}

void zap_thread(struct task *t)
{
	__send_signal(t, SIGKILL, NULL, NULL, 1);
}

struct task *signal_target(struct task *t, int sig)
{
	struct task *leader = t->group_leader, *th;

	if ((th = fatal_to_execer(t, sig)))
		return th;
	if (!(leader->sig_blocked & sigmask(sig)) && !leader->exit_state)
		return leader;
	list_for_each_entry(th, &leader->thread_group, thread_group)
		if (!(th->sig_blocked & sigmask(sig)) && !th->exit_state)
			return th;
	if (!leader->exit_state)
		return leader;	/* all block it: pending on the leader */
	list_for_each_entry(th, &leader->thread_group, thread_group)
		if (!th->exit_state)
			return th;
	return NULL;
}

int kill_pid(int pid, int sig)
{
	struct task *t;
	struct ksiginfo info = { .si_code = SI_USER };

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	t = find_task_by_pid(pid);
	/* A kernel thread has no mm and never exits; a user task whose mm is
	 * gone has exit_state set (a zombie leader, maybe of live threads).
	 * An exited thread (EXIT_DEAD) lingers until reap_dead_tasks() frees
	 * it, its process perhaps reaped and freed already: its pid is gone,
	 * as in Linux (release_task), and its group_leader must not be used. */
	if (!t || t->pid == 0 || t->exit_state == EXIT_DEAD || (!t->mm && !t->exit_state))
		return -ESRCH;		/* no such process, or a kernel thread */
	/* As Linux's group_send_sig_info: the process, not the thread the
	 * pid names, takes the signal, so a process whose leader has exited
	 * is still killable by its pid.  A zombie with no live thread left is
	 * still there until reaped: the call succeeds and nothing happens. */
	t = signal_target(t, sig);
	if (!t || sig == 0)
		return 0;
	info.kill.pid = current->tgid;
	if (send_signal_info(t, sig, &info, NULL) == -EAGAIN)
		return -EAGAIN;		/* RLIMIT_SIGPENDING */
	return 0;
}

/* Every process but init and the caller (kill(-1, sig), Linux's
 * kill_something_info): 0 if one took it, else -ESRCH. */
static int kill_all(int sig)
{
	struct ksiginfo info = { .si_code = SI_USER };
	struct task *t;
	int ret = -ESRCH, ok = 0;

	info.kill.pid = current->tgid;
	list_for_each_entry(t, &task_list, tasks) {
		if (t->group_leader != t || t->pid <= 1 || t == current->group_leader ||
		    t->exit_state || !t->mm)
			continue;
		struct task *to = signal_target(t, sig);
		ret = 0;
		if (to && sig && send_signal_info(to, sig, &info, NULL) == -EAGAIN)
			ret = -EAGAIN;
		ok |= !ret;
	}
	return ok ? 0 : ret;
}

/* kill(pid, sig): pid > 0 a process, 0 the caller's process group, -1
 * every process it may signal, < -1 the process group -pid. */
long sys_kill(int pid, int sig)
{
	struct ksiginfo info = { .si_code = SI_USER };

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid > 0)
		return kill_pid(pid, sig);
	if (pid == -1)
		return kill_all(sig);
	if (pid == (int)0x80000000)
		return -ESRCH;		/* -INT_MIN does not exist (Linux 2.6.33+) */
	info.kill.pid = current->tgid;
	return kill_pgrp_info(pid ? -pid : current->group_leader->pgrp, sig, &info);
}

long sys_tgkill(int tgid, int tid, int sig)
{
	struct task *t = find_task_by_pid(tid);
	struct ksiginfo info = { .si_code = SI_TKILL };

	if (sig < 0 || sig > _NSIG || tid <= 0 || tgid <= 0)
		return -EINVAL;
	if (!t || t->tgid != tgid || t->exit_state || !t->mm)
		return -ESRCH;
	info.kill.pid = current->tgid;
	if (sig) {
		struct task *ex = fatal_to_execer(t, sig);
		if (send_signal_info(ex ? ex : t, sig, &info, NULL) == -EAGAIN)
			return -EAGAIN;	/* RLIMIT_SIGPENDING, as Linux's do_tkill */
	}
	return 0;
}

static void sigqueue_release(struct sigqueue *q)
{
	list_del(&q->list);
	q->queued = 0;
	if (!q->timer) {
		nr_sigpending--;
		kfree(q);
	}
}

/* Recompute SIG's pending bit after removing an instance. */
static void recalc_bit(struct task *t, int sig)
{
	struct sigqueue *q;

	list_for_each_entry(q, &t->sig_queue, list)
		if (q->info.si_signo == sig)
			return;
	t->sig_pending &= ~sigmask(sig);
}

void sigqueue_cancel(struct sigqueue *q)
{
	unsigned long flags;

	local_irq_save(flags);
	if (q->queued) {
		int sig = q->info.si_signo;
		struct task *t = q->owner;
		sigqueue_release(q);
		recalc_bit(t, sig);
	}
	local_irq_restore(flags);
}

void flush_sigqueue(struct task *t)
{
	unsigned long flags;

	local_irq_save(flags);
	while (!list_empty(&t->sig_queue))
		sigqueue_release(list_first_entry(&t->sig_queue, struct sigqueue, list));
	t->sig_pending = 0;
	local_irq_restore(flags);
}

static int shared_entry(const struct sigqueue *q, int timers);

/*
 * Take the lowest-numbered signal in MASK off T's queue into INFO.
 * Returns the signal number, or 0 if none is pending.
 */
int dequeue_signal(struct task *t, u64 mask, struct ksiginfo *info)
{
	u64 p = t->sig_pending & mask;
	struct sigqueue *q;
	int sig;

	if (!p)
		return 0;
	/* the lowest set bit, on 32-bit halves (no libgcc __ctzdi2 call) */
	sig = (u32)p ? __builtin_ctz((u32)p) + 1 : __builtin_ctz((u32)(p >> 32)) + 33;
	list_for_each_entry(q, &t->sig_queue, list) {
		if (q->info.si_signo != sig)
			continue;
		memcpy(info, &q->info, sizeof(*info));	/* not gcc's word loop */
		if (q->timer)
			posix_timer_dequeued(q->timer, info);	/* si_overrun */
		/* A process-directed SIGALRM restarts a periodic ITIMER_REAL
		 * (2.6.35's dequeue_signal, from the shared pending set: "to
		 * prevent DoS attacks in the high resolution timer case"); a
		 * tgkill's, thread-private in Linux, does not. */
		if (sig == SIGALRM && shared_entry(q, 1))
			posixtimer_rearm_itimer(t);
		sigqueue_release(q);
		recalc_bit(t, sig);
		return sig;
	}
	/* A bit without an entry (no queue space): as 2.6.35's collect_signal,
	 * the siginfo is lost and reads as a kill() from nobody. */
	memset(info, 0, sizeof(*info));
	info->si_signo = sig;
	info->si_code = SI_USER;
	t->sig_pending &= ~sigmask(sig);
	if (sig == SIGALRM)
		posixtimer_rearm_itimer(t);	/* as above: counted as a kill() */
	return sig;
}

/*
 * execve: caught signals go back to SIG_DFL, ignored ones stay ignored
 * (POSIX); as Linux's flush_signal_handlers(t, 0), every action also loses
 * its flags and mask - they belonged to the old image.
 */
void flush_signal_handlers(struct task *t)
{
	for (int i = 0; i < _NSIG; i++) {
		u32 h = t->sig->action[i].handler == SIG_IGN ? SIG_IGN : SIG_DFL;
		t->sig->action[i] = (struct k_sigaction){ .handler = h };
	}
}

/*
 * Is Q a process-directed signal (one Linux keeps in the shared pending
 * set)?  Not SIGKILL (a kill of this thread), not tgkill's (SI_TKILL), not
 * a SIGEV_THREAD_ID timer's; TIMERS: whether process timers' count.
 */
static int shared_entry(const struct sigqueue *q, int timers)
{
	if (q->info.si_signo == SIGKILL || q->info.si_code == SI_TKILL)
		return 0;
	return !q->timer || (timers && !q->timer->target_tid);
}

/* Move Q from T's queue to TO's.  Interrupts off. */
static void move_entry(struct sigqueue *q, struct task *t, struct task *to)
{
	int sig = q->info.si_signo;

	list_del(&q->list);
	q->owner = to;
	list_add_tail(&q->list, &to->sig_queue);
	to->sig_pending |= sigmask(sig);
	recalc_bit(t, sig);
}

/*
 * de_thread (kernel/proc/exec.c) killed T so that TO can exec.  Linux
 * keeps the process-wide pending set (shared_pending) across the exec and
 * drops what was pending for the dead threads alone.  Granule queues a
 * process-directed signal on one thread of the process, so T's entries
 * move to TO except: SIGKILL (the kill itself: a SIGKILL from elsewhere
 * goes to TO directly, see fatal_to_execer()), tgkill's (SI_TKILL: for T
 * only) and POSIX timers' (the exec deletes the timers).  A standard
 * signal already pending on TO coalesces (the entry stays on T and is
 * freed with T's queue).  Interrupts off; T is dying and never runs user
 * code again.
 */
void signal_transfer_shared(struct task *t, struct task *to)
{
	struct sigqueue *q, *n;
	unsigned long flags;

	local_irq_save(flags);
	list_for_each_entry_safe(q, n, &t->sig_queue, list) {
		int sig = q->info.si_signo;
		if (!shared_entry(q, 0))
			continue;
		if (sig < SIGRTMIN && (to->sig_pending & sigmask(sig)))
			continue;
		move_entry(q, t, to);
	}
	local_irq_restore(flags);
}

/* A live thread of T's process other than T for SIG: one that does not
 * block it if there is one (Linux's wants_signal), or NULL. */
static struct task *other_thread(struct task *t, int sig)
{
	struct task *leader = t->group_leader, *th, *any = NULL;

	if (leader != t && !leader->exit_state) {
		if (!(leader->sig_blocked & sigmask(sig)))
			return leader;
		any = leader;
	}
	list_for_each_entry(th, &leader->thread_group, thread_group) {
		if (th == t || th->exit_state)
			continue;
		if (!(th->sig_blocked & sigmask(sig)))
			return th;
		if (!any)
			any = th;
	}
	return any;
}

/*
 * T, a thread whose process lives on, exits (do_exit).  Granule queues a
 * process-directed signal on one thread of the process, where Linux keeps
 * it in the process's shared pending set; T's such entries (kill's, a
 * SIGEV_SIGNAL timer's) go to another thread, which takes them.  Dropping
 * them with T's queue lost a kill() every thread blocked and, worse, a
 * periodic timer's one entry: the timer, re-armed only when that entry is
 * dequeued, never fired again.  A standard signal already pending there
 * coalesces.  Interrupts off.
 */
void signal_transfer_exiting(struct task *t)
{
	struct sigqueue *q, *n;
	struct task *to;
	unsigned long flags;

	local_irq_save(flags);
	list_for_each_entry_safe(q, n, &t->sig_queue, list) {
		int sig = q->info.si_signo;
		if (!shared_entry(q, 1) || !(to = other_thread(t, sig)))
			continue;
		if (sig < SIGRTMIN && (to->sig_pending & sigmask(sig)))
			continue;
		move_entry(q, t, to);
		if (!(to->sig_blocked & sigmask(sig)))
			try_to_wake_up(to, TASK_INTERRUPTIBLE, 0);
	}
	local_irq_restore(flags);
}

/* A syscall interrupted by a signal: restart it or make it fail with -EINTR. */
static void handle_restart(struct trap_frame *tf, const struct k_sigaction *ka)
{
	long r = syscall_return_value(tf);

	if (r == -ERESTARTNOINTR || (r == -ERESTARTSYS && (!ka || (ka->flags & SA_RESTART))) ||
	    (r == -ERESTARTNOHAND && !ka))
		syscall_restart(tf);
	else if (r == -ERESTARTSYS || r == -ERESTARTNOHAND)
		syscall_set_return_value(tf, -EINTR);
}

void do_signal(struct trap_frame *tf)
{
	struct task *t = current;
	struct ksiginfo info;
	int sig;

	/* SIGKILL before anything else: a thread killed by a group exit or by
	 * de_thread() must not run a handler of a lower-numbered signal first. */
	if (t->sig_pending & sigmask(SIGKILL))
		do_group_exit(SIGKILL);
	jobctl_stop_wait(t);		/* another thread stopped the group */
	if (t->sig_pending & sigmask(SIGKILL))
		do_group_exit(SIGKILL);
	while ((sig = dequeue_signal(t, ~(t->sig_blocked & ~UNBLOCKABLE), &info))) {
		struct k_sigaction *ka = &t->sig->action[sig - 1];

		if (sig != SIGKILL && ka->handler == SIG_IGN)
			continue;
		if (sig == SIGKILL || ka->handler == SIG_DFL) {
			if (sig_default_ignored(sig))
				continue;
			if (sig_kernel_stop(sig)) {
				do_signal_stop(t, sig);	/* returns when continued or killed */
				if (t->sig_pending & sigmask(SIGKILL))
					do_group_exit(SIGKILL);
				continue;
			}
			/* Init drops what was queued while blocked and has no
			 * handler now (Linux's get_signal_to_deliver); only the
			 * kernel's SIGKILL reaches it here (zap_thread). */
			if (sig != SIGKILL && unkillable(t))
				continue;
			do_group_exit(sig);	/* terminate (core dumps are plain terminations) */
		}
		handle_restart(tf, ka);
		/* After ppoll/pselect6/rt_sigsuspend the handler's frame saves
		 * the mask from before the call, so sigreturn restores that. */
		u64 oldmask = t->restore_sigmask ? t->saved_sigmask : t->sig_blocked;
		t->restore_sigmask = 0;
		if (setup_signal_frame(tf, sig, ka, &info, oldmask) < 0)
			do_group_exit(SIGSEGV);	/* Linux's force_sigsegv */
		t->sig_blocked |= ka->mask | (ka->flags & SA_NODEFER ? 0 : sigmask(sig));
		t->sig_blocked &= ~UNBLOCKABLE;
		if (ka->flags & SA_RESETHAND)
			ka->handler = SIG_DFL;
		return;		/* one handler frame per return to user */
	}
	handle_restart(tf, NULL);	/* nothing caught: transparent restart */
	restore_saved_sigmask(t);
}

/* No handler ran after a call that swapped the mask: put the old one back
 * (Linux's restore_saved_sigmask). */
void restore_saved_sigmask(struct task *t)
{
	if (t->restore_sigmask) {
		t->restore_sigmask = 0;
		t->sig_blocked = t->saved_sigmask;
	}
}

/* Drop pending SIG of thread T, its queue entries too (sigaction's
 * SIG_IGN, a stop or a SIGCONT). */
void discard_pending(struct task *t, int sig)
{
	struct sigqueue *q, *n;

	list_for_each_entry_safe(q, n, &t->sig_queue, list)
		if (q->info.si_signo == sig)
			sigqueue_release(q);
	t->sig_pending &= ~sigmask(sig);
}
