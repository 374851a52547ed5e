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
#include <arch/thread.h>

/* Task states (Linux 2.6.35 values). */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2
#define TASK_STOPPED		4
#define TASK_DEAD		64	/* exited, waiting to be reaped/freed */
#define EXIT_ZOMBIE		32

#define TASK_COMM_LEN		16

struct task {
	/* --- scheduling (kernel/sched/) --- */
	volatile long state;		/* TASK_* */
	int need_resched;		/* TIF_NEED_RESCHED: honoured on irq/syscall exit */
	int on_rq;			/* queued on the runqueue (incl. current) */
	int prio, static_prio, normal_prio; /* 100..139 for nice -20..19 */
	unsigned int policy;		/* SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE */
	const struct sched_class *sched_class;
	struct sched_entity se;
	u64 nvcsw, nivcsw;		/* voluntary / involuntary switches */

	/* --- identity --- */
	int pid;			/* thread id (gettid) */
	int tgid;			/* process id (getpid) */
	char comm[TASK_COMM_LEN];	/* name, as Linux's comm */

	/* --- architecture --- */
	struct arch_thread thread;
	void *kstack;			/* base of the kernel stack allocation */

	/* --- processes (kernel/proc/) --- */
	struct list_head tasks;		/* all tasks */
};

/* The running task.  Defined by kernel/sched/core.c. */
extern struct task *current;

#endif
