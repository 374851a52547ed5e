/*
 * kernel/sched/cpupri.h - the CPU priority map (Linux 2.6.35's
 * kernel/sched_cpupri.h): for each priority level, the CPUs whose highest
 * queued task is at that level, so the rt class finds "a CPU running
 * something less important than P" in a few word tests instead of looking
 * at every runqueue.
 *
 * Levels (cpupri values), lowest first:
 *	CPUPRI_INVALID	-1	the CPU is in no vector (offline)
 *	CPUPRI_IDLE	 0	(Linux's: prio MAX_PRIO; unused in 2.6.35's rt)
 *	CPUPRI_NORMAL	 1	no rt task queued (prio MAX_RT_PRIO .. MAX_PRIO-1)
 *	2 .. 101		rt prio 99 .. 0: cpupri = MAX_RT_PRIO + 1 - prio,
 *				so rt_priority 1 (prio 98) is level 3 and 99 is 101
 * Pure: no runqueue, no scheduler state; the caller serialises the updates
 * of one CPU (its rq lock), and each vector has its own lock against the
 * other CPUs' updates.
 */
#ifndef KERNEL_SCHED_CPUPRI_H
#define KERNEL_SCHED_CPUPRI_H

#include <kernel/sched.h>
#include <kernel/cpumask.h>
#include <kernel/spinlock.h>
#include <kernel/threads.h>

#define CPUPRI_NR_PRIORITIES	(MAX_RT_PRIO + 2)		/* 102 levels */
#define CPUPRI_NR_PRI_WORDS	((CPUPRI_NR_PRIORITIES + 31) / 32)	/* 4 */

#define CPUPRI_INVALID	-1
#define CPUPRI_IDLE	0
#define CPUPRI_NORMAL	1
/* values 2-101 are RT priorities 0-99 */

struct cpupri_vec {
	raw_spinlock_t lock;
	int count;			/* CPUs in mask */
	struct cpumask mask;		/* the CPUs at this level */
};

struct cpupri {
	struct cpupri_vec pri_to_cpu[CPUPRI_NR_PRIORITIES];
	u32 pri_active[CPUPRI_NR_PRI_WORDS];	/* bit = level with count > 0 */
	int cpu_to_pri[NR_CPUS];		/* each CPU's level, or CPUPRI_INVALID */
};

struct task;
int convert_prio(int prio);	/* task prio (or CPUPRI_INVALID) -> level */
/* 1 if some CPU of P's mask runs below P's level; its CPUs of the lowest
 * such level in *LOWEST_MASK (if not NULL).  0: none. */
int cpupri_find(struct cpupri *cp, struct task *p, struct cpumask *lowest_mask);
/* CPU's highest queued task now has prio NEWPRI (or CPUPRI_INVALID). */
void cpupri_set(struct cpupri *cp, int cpu, int newpri);
void cpupri_init(struct cpupri *cp);	/* empty; every CPU CPUPRI_INVALID */

#endif
