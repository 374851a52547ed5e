/*
 * kernel/proc.h - tasks and processes: creation, exit, wait, exec.
 *
 * A task is one thread.  A process is a thread group: the tasks sharing a
 * tgid, an mm and signal state; its leader is the task whose pid == tgid.
 * pid 0 is the idle task (the boot context), pid 1 is init.
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

#include <kernel/types.h>
#include <kernel/task.h>

#define PID_MAX		32768	/* pids wrap below this, like Linux's default */
#include <kernel/limits.h>	/* TASK_MAX */
#define KSTACK_SIZE	8192	/* per-task kernel stack, below an unmapped guard */

#include <kernel/clone.h>	/* the clone flags (CLONE_VM ...) */

extern struct list_head task_list;	/* every task, in creation order */
extern struct task *init_task;		/* pid 1 */

void proc_init(void);

/* A zeroed task with a guarded kernel stack and a fresh pid, on task_list.
 * NULL with *ERR = -EAGAIN (task table full) or -ENOMEM. */
struct task *alloc_task(int *err);
/* Free what alloc_task() gave (the task must not be running or queued). */
void free_task(struct task *t);
/* CPU's idle task (pid 0, on no task list), or NULL if out of memory;
 * free_idle() gives it back if the CPU never comes up. */
struct task *fork_idle(unsigned int cpu);
void free_idle(struct task *t);
/* Free tasks that exited without anyone to reap them (threads). */
void reap_dead_tasks(void);
/* T (dead) has switched away for the last time and may be freed. */
int task_switched_out(struct task *t);
/* T (exited, EXIT_DEAD) is freed by reap_dead_tasks() once off the CPU. */
void task_autoreap(struct task *t);
/* Tasks alive now (sysinfo's procs). */
int nr_tasks(void);

struct task *find_task_by_pid(int pid);
int last_pid(void);			/* the pid handed out last */
/* Tasks forked since boot, threads and kernel threads included (Linux's
 * total_forks, /proc/stat's processes). */
extern u32 total_forks;

/* Start a kernel thread running fn(arg), which must end in do_exit();
 * returns its pid or -errno. */
int kernel_thread(const char *name, void (*fn)(void *), void *arg);
/* The same, not yet woken (kthread_create): bind it, then wake_up_new_task(). */
struct task *kthread_create_err(const char *name, void (*fn)(void *), void *arg, int *err);
struct task *kthread_create(const char *name, void (*fn)(void *), void *arg);

/* fork/clone from user space, with the caller's trap frame.  TLS is the
 * struct user_desc pointer of CLONE_SETTLS (ignored without the flag). */
struct trap_frame;
long do_fork(u32 clone_flags, u32 newsp, u32 parent_tidptr, u32 tls, u32 child_tidptr,
	     struct trap_frame *tf);

/* Replace the current process image with PATH from the initrd: user
 * pointers (execve syscall) or kernel ones (starting init). */
long sys_execve(const char *path, char *const *argv, char *const *envp);
long kernel_execve(const char *path, char *const *argv, char *const *envp);

/* End the current task with wait status CODE ((exit << 8) | signal). */
__attribute__((noreturn)) void do_exit(int code);
/* Give group leader FATHER's children to REAPER (init, or the thread that
 * takes FATHER's place in an exec).  Interrupts off. */
void forget_original_parent(struct task *father, struct task *reaper);
/* A forked child's first kernel code, from ret_from_fork (Linux's
 * schedule_tail part for it): writes the CLONE_CHILD_SETTID word. */
void fork_child_tail(void);
/* End every thread of the current process. */
__attribute__((noreturn)) void do_group_exit(int code);
/* Begin a group exit of the current process with status CODE (SIGKILL to
 * the other threads) unless one is under way; returns the status in force. */
int group_exit_start(int code);
/* The CLONE_CHILD_CLEARTID write and futex wake when T leaves MM (exit,
 * exec): Linux's mm_release(). */
struct mm;
void mm_release(struct task *t, struct mm *mm);
/* kernel/proc/vfork.c: wake the CLONE_VFORK parent of T (T execs or exits);
 * start P and sleep until it does (do_fork's CLONE_VFORK), returning P's pid. */
void complete_vfork_done(struct task *t);
long vfork_wait(struct task *p);

/* Linux i386 struct rusage: 72 bytes. */
struct rusage32 {
	struct { s32 tv_sec, tv_usec; } ru_utime, ru_stime;
	s32 ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap,
	    ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
_Static_assert(sizeof(struct rusage32) == 72, "struct rusage is 72 bytes on i386");

/* wait4(2); RU (user pointer, may be NULL) gets the reaped child's rusage. */
long do_wait4(int pid, int *status_user, int options, struct rusage32 *ru);

/* kernel/proc/rusage.c: what processes used (see there). */
#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#define RUSAGE_BOTH	(-2)	/* kernel only: wait4's, the child and its children */
#define RUSAGE_THREAD	1
/* CPU ns of T's whole process: live threads and exited ones. */
u64 thread_group_runtime(struct task *t);
/* The sums over T's process, its exited threads included. */
struct thread_group_acct {
	int threads;			/* live ones */
	u64 utime, stime;		/* ticks */
	u64 nvcsw, nivcsw, min_flt, maj_flt;
};
void thread_group_acct(struct task *t, struct thread_group_acct *a);
/* T's process's user and system time, ns: its runtime split by the ticks. */
void thread_group_times(struct task *t, u64 *ut, u64 *st);
void k_getrusage(struct task *p, int who, struct rusage32 *r);
/* wait4 reaps C (a zombie leader, off the CPU) for PARENT: C's usage with
 * its children's (RUSAGE_BOTH) into R, and into PARENT's children sums. */
void rusage_reap(struct task *parent, struct task *c, struct rusage32 *r);
/* exit: thread T's counts stay with LEADER's process; T leaves MM (exit,
 * exec) and its process keeps MM's peak RSS; exec's de_thread moves what
 * OLD kept to the new leader ME. */
void rusage_thread_exit(struct task *leader, struct task *t);
void rusage_mm_gone(struct task *t, const struct mm *mm);
void rusage_take_leadership(struct task *me, struct task *old);
long sys_getrusage(int who, struct rusage32 *ru);
struct tms32;
long sys_times(struct tms32 *buf);

/* wait4 options */
#define WNOHANG		1
#define WUNTRACED	2
#define WCONTINUED	8

#endif
