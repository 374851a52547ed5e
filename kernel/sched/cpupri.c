/*
 * kernel/sched/cpupri.c - the CPU priority map (Linux 2.6.35's
 * kernel/sched_cpupri.c; see cpupri.h for the levels).
 *
 * cpupri_find() walks the active levels from the lowest up, stopping
 * below P's own: the first level with a CPU in P's mask is the set of CPUs
 * where P would preempt the least important work.  O(levels below P), in
 * practice one or two word tests: CPUPRI_NORMAL (CPUs without rt work) is
 * almost always active.
 *
 * cpupri_set() adds the CPU to its new level before taking it out of the
 * old, so a concurrent cpupri_find() on another CPU sees it at one level
 * or both, never at none (2.6.35's order).
 */
#include "cpupri.h"
#include <kernel/task.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/* prio -> level: invalid stays, MAX_PRIO idle, non-rt NORMAL, rt 2..101 */
int convert_prio(int prio)
{
	if (prio == CPUPRI_INVALID)
		return CPUPRI_INVALID;
	if (prio == MAX_PRIO)
		return CPUPRI_IDLE;
	if (prio >= MAX_RT_PRIO)
		return CPUPRI_NORMAL;
	return MAX_RT_PRIO - prio + 1;
}

/* The lowest set bit at or after IDX in the active map, or NR if none. */
static int next_active(const u32 *map, int idx)
{
	for (; idx < CPUPRI_NR_PRIORITIES; idx++) {
		u32 w = map[idx / 32] >> (idx % 32);

		if (!w) {
			idx |= 31;		/* the rest of this word is clear */
			continue;
		}
		idx += __builtin_ctz(w);
		return idx < CPUPRI_NR_PRIORITIES ? idx : CPUPRI_NR_PRIORITIES;
	}
	return CPUPRI_NR_PRIORITIES;
}

int cpupri_find(struct cpupri *cp, struct task *p, struct cpumask *lowest_mask)
{
	int task_pri = convert_prio(p->prio);

	for (int idx = next_active(cp->pri_active, 0); idx < CPUPRI_NR_PRIORITIES;
	     idx = next_active(cp->pri_active, idx + 1)) {
		struct cpupri_vec *vec = &cp->pri_to_cpu[idx];
		struct cpumask and;

		if (idx >= task_pri)
			break;
		cpumask_and(&and, &p->cpus_allowed, &vec->mask);
		if (cpumask_empty(&and))
			continue;
		if (lowest_mask)
			cpumask_copy(lowest_mask, &and);
		return 1;
	}
	return 0;
}

void cpupri_set(struct cpupri *cp, int cpu, int newpri)
{
	int *currpri = &cp->cpu_to_pri[cpu];
	int oldpri = *currpri;
	unsigned long flags;

	newpri = convert_prio(newpri);
	BUG_ON(newpri >= CPUPRI_NR_PRIORITIES);
	if (newpri == oldpri)
		return;

	/* map the new level first: a finder sees the CPU at one level at least */
	if (likely(newpri != CPUPRI_INVALID)) {
		struct cpupri_vec *vec = &cp->pri_to_cpu[newpri];

		raw_spin_lock_irqsave(&vec->lock, flags);
		cpumask_set_cpu((unsigned int)cpu, &vec->mask);
		if (++vec->count == 1)
			__atomic_fetch_or(&cp->pri_active[newpri / 32], 1u << (newpri % 32),
					  __ATOMIC_SEQ_CST);
		raw_spin_unlock_irqrestore(&vec->lock, flags);
	}
	if (likely(oldpri != CPUPRI_INVALID)) {
		struct cpupri_vec *vec = &cp->pri_to_cpu[oldpri];

		raw_spin_lock_irqsave(&vec->lock, flags);
		if (!--vec->count)
			__atomic_fetch_and(&cp->pri_active[oldpri / 32], ~(1u << (oldpri % 32)),
					   __ATOMIC_SEQ_CST);
		cpumask_clear_cpu((unsigned int)cpu, &vec->mask);
		raw_spin_unlock_irqrestore(&vec->lock, flags);
	}
	*currpri = newpri;
}

void cpupri_init(struct cpupri *cp)
{
	memset(cp, 0, sizeof(*cp));
	for (int i = 0; i < CPUPRI_NR_PRIORITIES; i++)
		raw_spin_lock_init(&cp->pri_to_cpu[i].lock);
	for (int i = 0; i < NR_CPUS; i++)
		cp->cpu_to_pri[i] = CPUPRI_INVALID;
}
