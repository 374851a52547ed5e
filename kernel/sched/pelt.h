/*
 * kernel/sched/pelt.h - per-entity load tracking (Linux 6.12's
 * kernel/sched/pelt.h and pelt.c): the series (pelt.c) and the EEVDF
 * class's calls of it (eevdf_pelt.c), which 6.12's wakeup placement
 * reads (docs/SCHEDULER.md, "PELT").  CFS (2.6.35) has no PELT.
 */
#ifndef KERNEL_SCHED_PELT_H
#define KERNEL_SCHED_PELT_H

#include "eevdf.h"
#include "sched-pelt.h"

/* Utilisation's fixed point: one CPU busy all the time is 1024 (6.12). */
#define SCHED_CAPACITY_SHIFT	10
#define SCHED_CAPACITY_SCALE	(1U << SCHED_CAPACITY_SHIFT)

/*
 * 6.12 keeps weights with 10 more bits of resolution on 64-bit kernels and
 * scales them down here; on 32-bit ones (i686, Granule) a weight is the
 * prio_to_weight[] value itself (nice 0 = 1024), so both are the identity.
 */
#define scale_load_down(w)	(w)
static inline u32 se_weight(const struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

/*
 * 6.12's se_runnable() for a task (no group entities here): queued and not
 * a DELAY_DEQUEUE sleeper, which only waits to be picked and dequeued.
 */
static inline u32 se_runnable(const struct sched_entity *se)
{
	if (se->sched_delayed)
		return 0;
	return !!se->on_rq;
}

/* util_est's bit 31: util_avg has not moved since the last sleep (6.12). */
#define UTIL_AVG_UNCHANGED	0x80000000U

/*
 * The smallest *_sum / *_avg divider: the series' limit less the current
 * period, which has only period_contrib of its 1024 units behind it.
 */
#define PELT_MIN_DIVIDER	(LOAD_AVG_MAX - 1024)

static inline u32 get_pelt_divider(const struct sched_avg *avg)
{
	return PELT_MIN_DIVIDER + avg->period_contrib;
}

/* ---- pelt.c: the series (not static, unlike 6.12, for the host test) ---- */
u64 decay_load(u64 val, u64 n);
u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3);
u32 accumulate_sum(u64 delta, struct sched_avg *sa, u32 load, u32 runnable, int running);
int ___update_load_sum(u64 now, struct sched_avg *sa, u32 load, u32 runnable, int running);
void ___update_load_avg(struct sched_avg *sa, u32 load);

/* ---- pelt.c: an entity, a blocked entity, a queue; 1 if the averages moved ---- */
int __update_load_avg_blocked_se(u64 now, struct sched_entity *se);
int __update_load_avg_se(u64 now, struct cfs_rq *cfs_rq, struct sched_entity *se);
int __update_load_avg_cfs_rq(u64 now, struct cfs_rq *cfs_rq);

#endif
