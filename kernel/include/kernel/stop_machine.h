/*
 * kernel/stop_machine.h - cpu_stop: run a function on a given CPU, in
 * that CPU's stopper thread "migration/N", which preempts whatever runs
 * there (Linux 2.6.35's include/linux/stop_machine.h; kernel/stop_machine.c).
 *
 *	stop_one_cpu(cpu, fn, arg)	queue FN(ARG) on CPU and sleep until it
 *					ran: FN's return value, or -ENOENT if
 *					CPU has no stopper
 *	stop_one_cpu_nowait(cpu, fn, arg, work)	queue it and return; WORK
 *					(the caller's) must live until FN ran
 *
 * FN runs in the stopper, SCHED_FIFO at the highest rt priority, on CPU.
 * The stoppers exist only while more than one CPU is online (cpu_stop_init()).
 */
#ifndef KERNEL_STOP_MACHINE_H
#define KERNEL_STOP_MACHINE_H

#include <kernel/list.h>

typedef int (*cpu_stop_fn_t)(void *arg);

struct cpu_stop_done;

struct cpu_stop_work {
	struct list_head list;		/* in the stopper's works */
	cpu_stop_fn_t fn;
	void *arg;
	struct cpu_stop_done *done;	/* NULL: nobody waits */
};

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg);
void stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			 struct cpu_stop_work *work_buf);

/* After start_init(): a stopper thread per online CPU, if more than one. */
void cpu_stop_init(void);

#endif
