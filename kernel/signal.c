/*
 * kernel/signal.c - sending and default-delivering signals.
 */
#include <kernel/errno.h>
#include <kernel/kmalloc.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <arch/irqflags.h>

/* Default actions (POSIX / Linux signal(7)). */
static int sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH ||
	       sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

struct signal_state *signal_state_alloc(const struct signal_state *copy)
{
	struct signal_state *s = kzalloc(sizeof(*s));

	if (!s)
		return NULL;
	if (copy)
		memcpy(s->action, copy->action, sizeof(s->action));
	s->count = 1;
	return s;
}

void signal_state_put(struct signal_state *s)
{
	if (s && --s->count == 0)
		kfree(s);
}

static u64 unblockable(void)
{
	return sigmask(SIGKILL) | sigmask(SIGSTOP);
}

int signal_pending(struct task *t)
{
	return (t->sig_pending & ~(t->sig_blocked & ~unblockable())) != 0;
}

static int sig_ignored(struct task *t, int sig)
{
	if (sig == SIGKILL)
		return 0;
	u32 h = t->sig ? t->sig->action[sig - 1].handler : SIG_DFL;
	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

int fatal_signal_pending(struct task *t)
{
	u64 p = t->sig_pending & ~(t->sig_blocked & ~unblockable());

	for (int sig = 1; sig <= _NSIG; sig++)
		if ((p & sigmask(sig)) && (sig == SIGKILL ||
		    (t->sig && t->sig->action[sig - 1].handler == SIG_DFL && !sig_default_ignored(sig))))
			return 1;
	return 0;
}

void send_signal(struct task *t, int sig)
{
	unsigned long flags;

	if (t->exit_state || sig_ignored(t, sig))
		return;		/* discarded at generation, as Linux does */
	local_irq_save(flags);
	t->sig_pending |= sigmask(sig);
	if (sig == SIGKILL)
		try_to_wake_up(t, TASK_NORMAL, 0);
	else if (!(t->sig_blocked & sigmask(sig)))
		try_to_wake_up(t, TASK_INTERRUPTIBLE, 0);
	local_irq_restore(flags);
}

int kill_pid(int pid, int sig)
{
	struct task *t, *target = NULL;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	t = find_task_by_pid(pid);
	if (!t || t->exit_state || t->pid == 0)
		return -ESRCH;
	if (sig == 0)
		return 0;
	/* Process-directed: the leader if it takes it, else the first thread that does. */
	struct task *leader = t->group_leader;
	if (!(leader->sig_blocked & sigmask(sig)) && !leader->exit_state) {
		target = leader;
	} else {
		list_for_each_entry(t, &leader->thread_group, thread_group)
			if (!(t->sig_blocked & sigmask(sig)) && !t->exit_state) {
				target = t;
				break;
			}
	}
	send_signal(target ? target : leader, sig);
	return 0;
}

void flush_signal_handlers(struct task *t)
{
	for (int i = 0; i < _NSIG; i++)
		if (t->sig->action[i].handler != SIG_IGN)
			t->sig->action[i] = (struct k_sigaction){ 0 };
}

/* Handlers (SIG_DFL/SIG_IGN aside) are delivered by signal_frame.c. */
int __attribute__((weak)) setup_signal_frame(struct trap_frame *tf, int sig,
					     struct k_sigaction *ka)
{
	return -ENOSYS;
}

void do_signal(struct trap_frame *tf)
{
	struct task *t = current;

	for (int sig = 1; sig <= _NSIG; sig++) {
		u64 m = sigmask(sig);
		if (!(t->sig_pending & m) || ((t->sig_blocked & m) && !(m & unblockable())))
			continue;
		t->sig_pending &= ~m;
		struct k_sigaction *ka = &t->sig->action[sig - 1];
		if (sig != SIGKILL && ka->handler == SIG_IGN)
			continue;
		if (sig == SIGKILL || ka->handler == SIG_DFL) {
			if (sig_default_ignored(sig))
				continue;
			do_group_exit(sig);	/* terminate (core dumps are plain terminations) */
		}
		if (setup_signal_frame(tf, sig, ka) < 0)
			do_group_exit(SIGSEGV);
		return;		/* one handler frame per return to user */
	}
}
