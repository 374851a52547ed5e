/*
 * kernel/sched/stats.h - scheduler statistics (CONFIG_SCHEDSTATS and the
 * SCHED_DEBUG spread check), all from rq->clock, ns:
 *   - sched_info (Linux 2.6.35's kernel/sched_stats.h), used by core.c:
 *     per task, how long it waited runnable (run_delay) and how often it
 *     ran (pcount); per rq the sums and the time non-idle tasks ran;
 *     ttwu_stat's wakeup counts;
 *   - the per-entity statistics sched_fair.c kept (wait_max, wait_sum,
 *     sleep/block times, nr_spread_over), used by fair.c.
 * All sit behind schedstat_enabled(), a static key
 * (<kernel/jump_label.h>) as Linux's since 4.6: with
 * schedstats=disable / kernel.sched_schedstats=0 each helper is one jmp
 * over its work.  Linux keeps sched_info apart (CONFIG_SCHED_INFO, not
 * switchable); Granule puts it behind the same key (docs/FASTPATHS.md).
 */
#ifndef KERNEL_SCHED_STATS_H
#define KERNEL_SCHED_STATS_H

#include "sched.h"
#include <kernel/jump_label.h>

/* On: 2.6.35-era presets; off: linux-6.12 (tunables.c, the schedstats knobs). */
extern struct static_key sched_schedstats_key;
#define schedstat_enabled()	static_branch_on(&sched_schedstats_key)

/*
 * Each helper is handed RQ, the runqueue T is on (2.6.35 looks it up with
 * task_rq(t); Linux 6.12 passes it, as here: every caller holds it, and on
 * SMP the lookup is two loads through T's CPU).
 */

/* A task starts waiting on the runqueue (unless it already is). */
static inline void __sched_info_queued(struct rq *rq, struct task *t)
{
	if (!t->sched_info.last_queued)
		t->sched_info.last_queued = rq->clock;
}

static inline void sched_info_queued(struct rq *rq, struct task *t)
{
	if (schedstat_enabled())
		__sched_info_queued(rq, t);
}

/* A queued task leaves the queue without running: close its wait. */
static inline void sched_info_dequeued(struct rq *rq, struct task *t)
{
	u64 delta = 0;

	if (!schedstat_enabled())
		return;

	if (t->sched_info.last_queued)
		delta = rq->clock - t->sched_info.last_queued;
	t->sched_info.last_queued = 0;
	t->sched_info.run_delay += delta;
	rq->rq_sched_info.run_delay += delta;
}

/* T gets the CPU: its wait (if any) ends and a run starts. */
static inline void sched_info_arrive(struct rq *rq, struct task *t)
{
	u64 now = rq->clock, delta = 0;

	if (t->sched_info.last_queued)
		delta = now - t->sched_info.last_queued;
	t->sched_info.last_queued = 0;
	t->sched_info.run_delay += delta;
	t->sched_info.last_arrival = now;
	t->sched_info.pcount++;

	rq->rq_sched_info.run_delay += delta;
	rq->rq_sched_info.pcount++;
}

/* T leaves the CPU; if it is still runnable it starts waiting again. */
static inline void sched_info_depart(struct rq *rq, struct task *t)
{
	rq->rq_cpu_time += rq->clock - t->sched_info.last_arrival;
	if (t->state == TASK_RUNNING)
		__sched_info_queued(rq, t);
}

/* Called when PREV is switched out for NEXT; the idle task is not counted. */
static inline void sched_info_switch(struct rq *rq, struct task *prev,
				     struct task *next)
{
	if (!schedstat_enabled())
		return;

	if (prev != rq->idle)
		sched_info_depart(rq, prev);
	if (next != rq->idle)
		sched_info_arrive(rq, next);
}

/* ---- per-entity schedstats, used by fair.c (2.6.35 sched_fair.c names) --- */

static inline void update_stats_wait_start(struct cfs_rq *cfs_rq,
					   struct sched_entity *se)
{
	if (!schedstat_enabled())
		return;
	se->statistics.wait_start = rq_of(cfs_rq)->clock;
}

/* A task is being enqueued: unless it is curr, it starts waiting. */
static inline void update_stats_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (!schedstat_enabled())
		return;
	if (se != cfs_rq->curr)
		update_stats_wait_start(cfs_rq, se);
}

static inline void update_stats_wait_end(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (!schedstat_enabled())
		return;
	u64 waited = rq_of(cfs_rq)->clock - se->statistics.wait_start;

	if (waited > se->statistics.wait_max)
		se->statistics.wait_max = waited;
	se->statistics.wait_count++;
	se->statistics.wait_sum += waited;
	se->statistics.wait_start = 0;
}

static inline void update_stats_dequeue(struct cfs_rq *cfs_rq,
					struct sched_entity *se)
{
	if (!schedstat_enabled())
		return;
	if (se != cfs_rq->curr)
		update_stats_wait_end(cfs_rq, se);
}

/* A sleeper wakes: add the time asleep to sum_sleep_runtime. */
static inline void enqueue_sleeper(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (!schedstat_enabled())
		return;
	u64 now = rq_of(cfs_rq)->clock;

	if (se->statistics.sleep_start) {
		u64 delta = now - se->statistics.sleep_start;

		if ((s64)delta < 0)
			delta = 0;
		if (unlikely(delta > se->statistics.sleep_max))
			se->statistics.sleep_max = delta;
		se->statistics.sleep_start = 0;
		se->statistics.sum_sleep_runtime += delta;
	}
	if (se->statistics.block_start) {
		u64 delta = now - se->statistics.block_start;

		if ((s64)delta < 0)
			delta = 0;
		if (unlikely(delta > se->statistics.block_max))
			se->statistics.block_max = delta;
		se->statistics.block_start = 0;
		se->statistics.sum_sleep_runtime += delta;
	}
}

/* SCHED_DEBUG: count entities more than 3 x sched_latency from min_vruntime
 * (3 x latency in 32 bits, as 2.6.35's unsigned int: latency <= 1 s).  The
 * count is a schedstat, as Linux 6.1's schedstat_inc(nr_spread_over): kept
 * only while schedstats are on, and then the test is not made either. */
static inline void check_spread(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (!schedstat_enabled())
		return;
	s64 d = (s64)(se->vruntime - cfs_rq->min_vruntime);

	if (d < 0)
		d = -d;
	if (d > (s64)(u32)(3 * sysctl_sched_latency))
		cfs_rq->nr_spread_over++;
}

/* try_to_wake_up() queued P (Linux's ttwu_stat, a schedstat since 4.6). */
static inline void ttwu_stat(struct rq *rq, struct task *p)
{
	if (!schedstat_enabled())
		return;
	rq->ttwu_count++;
	rq->ttwu_local++;
	p->se.statistics.nr_wakeups++;
}

#endif
