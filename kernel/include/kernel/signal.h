/*
 * kernel/signal.h - signals: sending, pending masks, default actions.
 *
 * Pending signals are per thread (kill() picks a thread of the process
 * that does not block the signal, the leader first).  Standard signals
 * coalesce (a pending bit); SIGKILL cannot be blocked and wakes any sleep.
 * Delivery happens on the way back to user mode (exit_to_caller ->
 * do_signal): SIG_DFL terminates, ignores, or (SIGSTOP family) is ignored
 * here; handlers are run through a signal frame (kernel/signal_frame.c).
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <kernel/types.h>
#include <kernel/signal_nr.h>

struct task;
struct trap_frame;

#define sigmask(sig)	(1ull << ((sig) - 1))
#define SIG_DFL		0u
#define SIG_IGN		1u

#define SA_SIGINFO	0x00000004u
#define SA_RESTART	0x10000000u
#define SA_NODEFER	0x40000000u
#define SA_RESETHAND	0x80000000u
#define SA_RESTORER	0x04000000u

struct k_sigaction {
	u32 handler;		/* user address, SIG_DFL or SIG_IGN */
	u32 flags;		/* SA_* */
	u32 restorer;
	u64 mask;		/* blocked during the handler */
};

/* Per-process signal state, shared by the threads of a process. */
struct signal_state {
	int count;				/* threads sharing it */
	struct k_sigaction action[_NSIG];	/* index sig - 1 */
};

struct signal_state *signal_state_alloc(const struct signal_state *copy);
void signal_state_put(struct signal_state *s);

/* Make SIG pending for T and wake it if it can take it now. */
void send_signal(struct task *t, int sig);
/* kill(2) semantics for a process id (pid > 0); 0 or -ESRCH/-EINVAL. */
int kill_pid(int pid, int sig);
/* Pending and not blocked (SIGKILL is never blocked). */
int signal_pending(struct task *t);
/* Fatal default action pending (SIGKILL, or a terminating signal). */
int fatal_signal_pending(struct task *t);

/* Deliver pending signals to current before it returns to user mode. */
void do_signal(struct trap_frame *tf);

/* exec: handlers reset to SIG_DFL, SIG_IGN kept (POSIX). */
void flush_signal_handlers(struct task *t);

#endif
