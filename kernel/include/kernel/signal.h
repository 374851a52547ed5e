/*
 * kernel/signal.h - POSIX signals with Linux's semantics and i386 ABI.
 *
 * Pending signals are per thread: a bit in task->sig_pending plus, for each
 * instance, a struct sigqueue carrying its siginfo on task->sig_queue.
 * Standard signals (1..31) coalesce: one instance at most.  Realtime
 * signals (32..64) queue every instance.  A process-directed signal
 * (kill, a SIGEV_SIGNAL timer) goes to the first thread of the process not
 * blocking it, the leader first.  SIGKILL cannot be blocked or caught and
 * wakes any sleep - except for init, whose process is SIGNAL_UNKILLABLE:
 * it never gets a signal it has no handler for, SIGKILL included, but for
 * the kernel's own (zap_thread, force_sig).
 *
 * Delivery happens on the way back to user mode (exit_to_caller ->
 * do_signal): lowest-numbered unblocked signal first; SIG_IGN drops it,
 * SIG_DFL terminates or ignores (stop signals are ignored: no job control),
 * a handler gets a Linux i386 signal frame (arch/x86/signal.c).  A syscall
 * that returned -ERESTARTSYS is restarted if no handler ran or the handler
 * has SA_RESTART, else it returns -EINTR.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <kernel/list.h>
#include <kernel/types.h>
#include <kernel/signal_nr.h>

struct task;
struct trap_frame;
struct k_itimer;

#define sigmask(sig)	(1ull << ((sig) - 1))
#define UNBLOCKABLE	(sigmask(SIGKILL) | sigmask(SIGSTOP))
#define SIG_DFL		0u
#define SIG_IGN		1u

#define SA_SIGINFO	0x00000004u
#define SA_RESTORER	0x04000000u
#define SA_RESTART	0x10000000u
#define SA_NODEFER	0x40000000u
#define SA_RESETHAND	0x80000000u

#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

/* si_code values (Linux). */
#define SI_USER		0
#define SI_KERNEL	0x80
#define SI_TIMER	(-2)
#define SI_TKILL	(-6)
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_STOPPED	5
#define CLD_CONTINUED	6

/* Linux's 128-byte siginfo_t, i386 layout. */
struct ksiginfo {
	s32 si_signo, si_errno, si_code;
	union {
		s32 pad[29];
		struct { s32 pid; u32 uid; } kill;
		struct { s32 tid; s32 overrun; u32 value; } timer;
		struct { s32 pid; u32 uid; s32 status; s32 utime, stime; } chld;
		struct { u32 addr; } fault;
	};
};
_Static_assert(sizeof(struct ksiginfo) == 128, "siginfo_t is 128 bytes");

struct k_sigaction {
	u32 handler;		/* user address, SIG_DFL or SIG_IGN */
	u32 flags;		/* SA_* */
	u32 restorer;		/* user trampoline calling (rt_)sigreturn */
	u64 mask;		/* blocked during the handler */
};

/* One pending instance of a signal. */
struct sigqueue {
	struct list_head list;
	struct ksiginfo info;
	struct k_itimer *timer;	/* preallocated by a POSIX timer: not freed */
	struct task *owner;	/* whose sig_queue it is on, while queued */
	int queued;
};

/* Per-process signal state, shared by the threads of a process. */
struct signal_state {
	int count;				/* threads sharing it */
	struct k_sigaction action[_NSIG];	/* index sig - 1 */
	struct list_head posix_timers;		/* struct k_itimer, by id */
	int next_timer_id;
	int nr_timers;
	struct task *group_exec_task;		/* de_thread(): the thread exec'ing while the
						 * others die (Linux's group_exit_task); the
						 * state may be shared with other processes
						 * (CLONE_SIGHAND): compare its tgid.  The group
						 * exit flag is per process: task.h */
};

struct signal_state *signal_state_alloc(const struct signal_state *copy);
void signal_state_put(struct signal_state *s);

/*
 * Queue SIG with INFO (NULL: SI_KERNEL) for thread T.  Q, if given, is a
 * preallocated entry to queue instead of allocating one, its siginfo
 * already filled by its owner (a POSIX timer's, at timer_create, as
 * Linux's send_sigqueue): INFO is then not used.  Returns 0 if
 * queued, 1 if dropped because the signal is ignored or (standard signal)
 * already pending, -ENOMEM-like < 0 if no entry could be allocated (the
 * pending bit is still set), -EAGAIN if a real-time signal would exceed
 * RLIMIT_SIGPENDING (nothing sent; see signal.c).
 */
int send_signal_info(struct task *t, int sig, const struct ksiginfo *info, struct sigqueue *q);
void send_signal(struct task *t, int sig);
/* /proc's SigQ: the signals queued now against RLIMIT_SIGPENDING (every
 * user's: there is one), and T's process's limit (kernel/signal.c). */
void sigqueue_usage(const struct task *t, int *queued, unsigned int *limit);
/* SIGKILL for thread T from the kernel itself - a group exit or an exec
 * ending the other threads (Linux's zap_other_threads sets the bit without
 * asking): unlike kill(2)'s, it is never ignored, not even by init. */
void zap_thread(struct task *t);
/* The thread of T's process that should take a process-directed SIG. */
struct task *signal_target(struct task *t, int sig);
/* kill(2) for a process id (pid > 0): 0, -ESRCH, -EINVAL or -EAGAIN (RLIMIT_SIGPENDING). */
int kill_pid(int pid, int sig);
/* Remove a still-queued preallocated entry (timer deleted). */
void sigqueue_cancel(struct sigqueue *q);
/* Drop everything pending (exit). */
void flush_sigqueue(struct task *t);
/* de_thread: move the process-directed signals pending on dying T to TO. */
void signal_transfer_shared(struct task *t, struct task *to);
/* do_exit of a thread whose process lives on: its process-directed signals
 * (timers' included) to another thread of the process. */
void signal_transfer_exiting(struct task *t);

/* signal_pending(t) is inline in <kernel/task.h>. */
/* The lowest signal pending for T (unblocked) that would kill its process
 * (SIGKILL, or a default action that terminates), or 0. */
int fatal_signal_pending(struct task *t);
void do_signal(struct trap_frame *tf);
void flush_signal_handlers(struct task *t);

/* arch/x86/signal.c: build the frame / undo it. */
int setup_signal_frame(struct trap_frame *tf, int sig, const struct k_sigaction *ka,
		       const struct ksiginfo *info, u64 oldmask);
long sys_sigreturn(struct trap_frame *tf);
long sys_rt_sigreturn(struct trap_frame *tf);
/* arch: syscall restart helpers on the user frame (and <arch/syscall.h>). */
long syscall_return_value(struct trap_frame *tf);
void syscall_restart(struct trap_frame *tf);

long sys_rt_sigaction(int sig, const struct k_sigaction *act, struct k_sigaction *oact, u32 size);
long sys_rt_sigprocmask(int how, const u64 *set, u64 *oset, u32 size);
long sys_rt_sigpending(u64 *set, u32 size);
long sys_rt_sigtimedwait(const u64 *set, struct ksiginfo *info, const void *timeout, u32 size);
long sys_kill(int pid, int sig);
/* SIG to process group PGRP (kernel/proc/pgrp.c): 0, -ESRCH, -EAGAIN. */
int kill_pgrp_info(int pgrp, int sig, const struct ksiginfo *info);
int kill_pgrp(int pgrp, int sig);
long sys_rt_sigsuspend(const u64 *mask, u32 size);
/* pause(): wait for a signal; -EINTR once a handler ran (as rt_sigsuspend). */
long sys_pause(void);
/* Drop pending SIG of thread T (its queue entries too). */
void discard_pending(struct task *t, int sig);
/* kernel/signal.c for kernel/signal_syscalls.c: SIG's default action is to
 * be ignored; take the lowest signal of MASK off T's queue into INFO (0:
 * none).  Interrupts off. */
int sig_default_ignored(int sig);
int dequeue_signal(struct task *t, u64 mask, struct ksiginfo *info);

/* kernel/jobctl.c: stop and continue. */
static inline int sig_kernel_stop(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}
void jobctl_prepare_signal(struct task *t, int sig);
void do_signal_stop(struct task *t, int sig);
void jobctl_stop_wait(struct task *t);
/* No member of PGRP has a parent in another group of its session. */
int pgrp_orphaned(int pgrp);
/* An exit orphaned TSK's group with a stopped member: SIGHUP + SIGCONT to it
 * (PARENT: the exiting parent TSK was reparented from, or NULL). */
void kill_orphaned_pgrp(struct task *tsk, struct task *parent);
/* A call's temporary signal mask (ppoll, pselect6, rt_sigsuspend). */
void set_temporary_sigmask(u64 mask);
void end_temporary_sigmask(int interrupted);
void restore_saved_sigmask(struct task *t);
long sys_tgkill(int tgid, int tid, int sig);

#endif
