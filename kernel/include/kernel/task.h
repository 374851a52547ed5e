/*
 * kernel/task.h - struct task, one per thread of execution (kernel thread,
 * or user thread; a process is the set of tasks sharing a tgid).
 *
 * The scheduling part (se, sched_class, prios, state, need_resched) is what
 * kernel/sched/ touches; it is host-compilable so the scheduler's unit tests
 * use the same struct.  Process fields (mm, files, signals ...) are added by
 * the processes work below the marked line.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/signal.h>
#include <kernel/hrtimer.h>
#include <kernel/plist.h>
#include <kernel/percpu.h>
#include <kernel/resource.h>
#include <kernel/cpumask.h>
#include <arch/thread.h>

struct mm;
struct signal_state;

/* Task states (Linux 2.6.35 values). */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2
#define TASK_STOPPED		4
#define TASK_DEAD		64	/* exited, waiting to be reaped/freed */
#define EXIT_ZOMBIE		32

#define TASK_COMM_LEN		16

struct vfork_done;
struct rt_mutex_waiter;

/*
 * What a process's accounting keeps beyond its live threads (Linux 2.6.35's
 * signal_struct fields of these names), held by the group leader: the sums
 * of its exited threads, and of its reaped children with their own reaped
 * children (wait4 adds them: kernel/proc/rusage.c).
 */
struct signal_acct {
	u64 utime, stime;		/* exited threads' ticks (cputime) */
	u64 nvcsw, nivcsw, min_flt, maj_flt;	/* exited threads' counts */
	u64 prev_utime, prev_stime;	/* thread_group_times()'s floor, ns */
	u64 cutime, cstime;		/* reaped children's user / system time, ns */
	u64 cnvcsw, cnivcsw, cmin_flt, cmaj_flt;
	u32 maxrss, cmaxrss;		/* pages: largest RSS of its address spaces / children's */
};

struct task {
	/* --- scheduling (kernel/sched/) --- */
	volatile long state;		/* TASK_* */
	int need_resched;		/* TIF_NEED_RESCHED: honoured on irq/syscall exit */
	int on_rq;			/* queued on the runqueue (incl. current) */
	int on_cpu;			/* running, or still switching out (SMP: see
					 * kernel/sched/core.c's finish_lock_switch) */
	int prio, static_prio, normal_prio; /* 100..139 for nice -20..19 */
	unsigned int policy;		/* SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE */
	const struct sched_class *sched_class;
	struct sched_entity se;
	struct sched_rt_entity rt;	/* rt class (kernel/sched/rt.c) */
	unsigned int rt_priority;	/* 1..99 for SCHED_FIFO/RR, else 0 */
	u64 nvcsw, nivcsw;		/* voluntary / involuntary switches */
	/* the tick's samples (kernel/sched/cputime.c): ticks in user / kernel
	 * mode (2.6.35's cputime_t, jiffies), and what task_times() reported
	 * last (ns), which it never goes below */
	u32 utime, stime;
	u64 prev_utime, prev_stime;
	struct sched_info sched_info;	/* run_delay, pcount (schedstats) */
	/* EEVDF's wakeup placement (Linux 6.12, kernel/sched/eevdf_smp.c):
	 * whom this task woke last, how often that changed (halved each
	 * second: wake_wide()), and the CPU it last woke a task from */
	struct task *last_wakee;
	unsigned int wakee_flips;
	u64 wakee_flip_decay_ts;		/* jiffies */
	int recent_used_cpu;
	/* priority inheritance (kernel/sched/rtmutex.c, 2.6.35's names) */
	struct plist_head pi_waiters;	/* top waiter of each rt_mutex we own */
	struct rt_mutex_waiter *pi_blocked_on; /* the lock we wait for, or NULL */
	/* the CPU whose runqueue P is on, or will be on when it wakes
	 * (2.6.35's task_thread_info(p)->cpu): task_cpu(), set_task_cpu() */
	unsigned int cpu;
	struct cpumask cpus_allowed;	/* CPUs P may run on (sched_setaffinity) */

	/* --- identity --- */
	int pid;			/* thread id (gettid) */
	int tgid;			/* process id (getpid) */
	char comm[TASK_COMM_LEN];	/* name, as Linux's comm */

	/* --- architecture --- */
	struct arch_thread thread;
	void *kstack;			/* base of the kernel stack allocation */

	/* --- processes (kernel/proc/) --- */
	struct list_head tasks;		/* all tasks (task_list) */
	struct task *parent;		/* who gets SIGCHLD and wait()s; init for orphans */
	struct list_head children;	/* process children (group leaders only) */
	struct list_head sibling;	/* in parent->children */
	struct task *group_leader;	/* the thread whose pid == tgid */
	struct list_head thread_group;	/* threads of one process */
	struct mm *mm;			/* address space; NULL for kernel threads */
	int exit_state;			/* 0, EXIT_ZOMBIE or EXIT_DEAD */
	int exit_code;			/* wait status: (code << 8) | signal */
	int exit_signal;		/* sent to the parent at exit (SIGCHLD); -1 for threads */
	u32 clear_child_tid;		/* CLONE_CHILD_CLEARTID address (thread join) */
	u32 set_child_tid;		/* CLONE_CHILD_SETTID address, written by the child
					 * itself on its first run (fork_child_tail) */
	struct vfork_done *vfork_done;	/* CLONE_VFORK: the parent waiting on this child's
					 * exec or exit (Linux's vfork_done), or NULL */
	u32 robust_list;		/* set_robust_list head (walked at exit: futex_pi.c) */
	struct list_head pi_state_list;	/* PI futexes we own (futex_pi.c) */
	struct files *files;		/* fd table (kernel/file.h); NULL for kernel threads */
	struct wait_queue_head wait_chldexit; /* wait4() sleeps here (leaders) */
	u64 sleep_until;		/* nanosleep deadline (sched_clock ns) */
	struct signal_state *sig;	/* per-process signal state (shared by threads) */
	u64 sig_pending;		/* pending signals of this thread (bit n-1 = signal n) */
	struct list_head sig_queue;	/* their struct sigqueue entries (siginfo) */
	u64 sig_blocked;		/* blocked mask */
	u64 real_blocked;		/* blocked mask saved while in sigtimedwait */
	u64 saved_sigmask;		/* mask to restore after the signal that ended a
					 * ppoll/pselect6/rt_sigsuspend (Linux's saved_sigmask) */
	int restore_sigmask;		/* saved_sigmask is set (TIF_RESTORE_SIGMASK) */
	u64 start_time;			/* sched_clock() at creation */
	u32 min_flt, maj_flt;		/* page faults: minor (no I/O; all of them here), major */
	/* CPU time kept by the group leader for wait4/getrusage (kernel/proc/rusage.c);
	 * Linux keeps these in signal_struct, which here dies with the last thread. */
	u64 dead_runtime;		/* ns run by the group's exited threads (sum_sched_runtime) */
	struct signal_acct sig_acct;	/* the rest of it: exited threads, reaped children */
	/* exit_group() of the process under way (Linux's SIGNAL_GROUP_EXIT and
	 * group_exit_code), kept by the group leader: signal_state is not per
	 * process here (CLONE_SIGHAND without CLONE_THREAD shares it). */
	int group_exit;
	int group_exit_code;		/* ... with this wait status */
	unsigned int signal_flags;	/* SIGNAL_UNKILLABLE (Linux's signal_struct flags), leader's */
	/* sched_setattr(2)'s SCHED_FLAG_RESET_ON_FORK: children start at
	 * SCHED_NORMAL-or-better nice 0 policy and the default slice (sched_fork) */
	unsigned int sched_reset_on_fork;
	/* Job control (kernel/proc/pgrp.c), the group leader's; Linux keeps
	 * them in signal_struct (pids[PIDTYPE_PGID/SID], tty, leader). */
	int pgrp;			/* process group id (0: init's, as Linux's init_struct_pid) */
	int session;			/* session id; the session leader has session == tgid */
	int ctty;			/* the console is its controlling terminal */
	int did_exec;			/* exec'd since fork: setpgid() by the parent is -EACCES */
	/* Stop and continue (kernel/jobctl.c), the group leader's. */
	int group_stop;			/* stopped by a stop signal (SIGNAL_STOP_STOPPED) */
	int stop_sig;			/* ... which one */
	int stop_notify;		/* for wait4: 1 stop (WUNTRACED), 2 continue (WCONTINUED) */
	/* Linux's task->flags, the bits Granule keeps: PF_SUPERPRIV, set by
	 * capable() (kernel/proc/creds.c), cleared for a new task, kept by
	 * exec.  /proc derives the other bits from the state they mirror. */
	unsigned int flags;
	/* alarm/setitimer's ITIMER_REAL (kernel/time/itimer.c), the group
	 * leader's: Linux's signal->real_timer and it_real_incr.  Inactive on
	 * every new task (alloc_task): a forked child has no alarm. */
	struct hrtimer real_timer;	/* SIGALRM to the process at expiry (it_real_fn) */
	u64 it_real_incr;		/* interval in ns, 0 = one-shot */
	/* Resource limits (kernel/proc/rlimit.c), the group leader's: Linux's
	 * signal->rlim.  Fork copies them, exec keeps them. */
	struct rlimit rlim[RLIM_NLIMITS];
};

/* The soft limit of RESOURCE for T's process (Linux's task_rlimit). */
static inline u32 task_rlimit(const struct task *t, int resource)
{
	return t->group_leader->rlim[resource].rlim_cur;
}

/* signal_flags (Linux's value): init gets no signal it has no handler for,
 * except SIGKILL from the kernel itself (kernel/signal.c). */
#define SIGNAL_UNKILLABLE	0x00000040

/* task->flags bits (Linux 2.6.35's include/linux/sched.h values). */
#define PF_EXITING	0x00000004	/* in do_exit() */
#define PF_EXITPIDONE	0x00000008	/* its PI state cleaned up */
#define PF_FORKNOEXEC	0x00000040	/* forked and not exec'd since */
#define PF_SUPERPRIV	0x00000100	/* used a privilege (capable()) */
#define PF_SIGNALED	0x00000400	/* killed by a signal */
#define PF_KTHREAD	0x00200000	/* a kernel thread */
#define PF_THREAD_BOUND	0x04000000	/* bound to its CPU (kthread_bind): no setaffinity */

/* Exit states. */
#define EXIT_DEAD		16

/*
 * The running task: each CPU's own, a per-CPU variable (Linux's
 * current_task, asm/current.h), so `current` reads "%fs:current_task",
 * one instruction as the uniprocessor's global was.  Defined by
 * kernel/sched/core.c, written by its context_switch().
 */
DECLARE_PER_CPU(struct task *, current_task);

static inline struct task *get_current(void)
{
	return this_cpu_read(current_task);
}
#define current get_current()

/* The CPU of P's runqueue (2.6.35 <linux/sched.h>; set_task_cpu() moves it). */
static inline unsigned int task_cpu(const struct task *p)
{
	return p->cpu;
}

/*
 * A signal to take, or a group stop to join (Linux sets TIF_SIGPENDING on
 * every thread for a group stop).  Inline, as Linux's in <linux/sched.h>:
 * every return to user mode asks.
 */
static inline int signal_pending(struct task *t)
{
	return (t->sig_pending & ~(t->sig_blocked & ~UNBLOCKABLE)) != 0 ||
	       t->group_leader->group_stop;
}

#endif
