/*
 * kernel/sched/pelt.c - per-entity load tracking, step by step as Linux
 * 6.12's kernel/sched/pelt.c (Paul Turner's series, "sched: Per-entity load
 * tracking", LKML 2012; reworked by Peter Zijlstra and Vincent Guittot).
 *
 * Time is cut into periods of 1024 units of 1024 ns (1.048576 ms; a unit
 * is "about a microsecond" and costs a shift, not a division).  A signal
 * that was on for u_i units of the period i periods ago contributes
 *
 *	sum = u_0 + u_1 * y + u_2 * y^2 + ...,	y^32 = 1/2
 *
 * so what happened 32 periods (33.6 ms) ago counts half as much as now, and
 * a signal always on converges to 1024 / (1 - y), LOAD_AVG_MAX in integers.
 * Three signals are kept per entity and per queue (struct sched_avg):
 *	load:     queued (se) / queued weight (cfs_rq)
 *	runnable: runnable tasks, DELAY_DEQUEUE sleepers excluded
 *	util:     running
 * and each *_avg is its *_sum divided by the sum's current maximum.
 *
 * No frequency or CPU capacity invariance (QEMU's CPUs are identical and
 * run at one speed): "now" is the rq clock, where 6.12 passes
 * rq_clock_pelt(), the clock scaled by capacity and frequency.
 * eevdf_pelt.c calls it at 6.12's sites: docs/SCHEDULER.md, "PELT".
 */
#include "pelt.h"
#include <kernel/math64.h>

/*
 * val * y^n.  y^32 = 1/2 is a shift; the rest comes from the table of
 * y^k * (2^32 - 1), k < 32.  After 63 half-lives every u64 sum we keep
 * is gone (6.12's bound: LOAD_AVG_PERIOD * 63).
 */
u64 decay_load(u64 val, u64 n)
{
	unsigned int local_n;

	if (n > LOAD_AVG_PERIOD * 63)
		return 0;

	local_n = n;	/* bounded: 32 bits suffice from here */

	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}

	return mul_u64_u32_shr(val, runnable_avg_yN_inv[local_n], 32);
}

/*
 * The contribution of an update that crosses PERIODS period boundaries
 * (periods >= 1), in three segments, d1 + 1024 * (periods - 1) + d3 units:
 *
 *	      d1          d2           d3
 *	      ^           ^            ^
 *	      |           |            |
 *	    |<->|<----------------->|<--->|
 *	... |---x---|------| ... |------|-----x (now)
 *
 *	c1 = d1 * y^p				the rest of the old period
 *	c2 = 1024 * (y^1 + ... + y^(p-1))	the whole periods between
 *	   = LOAD_AVG_MAX - LOAD_AVG_MAX * y^p - 1024
 *	c3 = d3 * y^0				the new period so far
 *
 * c2 uses the series' tail: sum_{n>=p} y^n = y^p * sum_{n>=0} y^n.
 */
u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1, c2, c3 = d3;

	c1 = decay_load((u64)d1, periods);
	c2 = LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024;

	return c1 + c2 + c3;
}

/*
 * Add DELTA units (since last_update_time) to the sums: first decay the
 * old sums by the periods crossed, then add the new contribution, weighted
 * by LOAD (0/1 for an entity, the queued weight for a queue), RUNNABLE
 * (a count) and RUNNING (0/1).  runnable and util are kept << 10 so that
 * their averages come out in SCHED_CAPACITY_SCALE units.  Returns the
 * number of periods crossed: 0 means the averages need no update.
 *
 * The products are 64-bit, as on 64-bit Linux: i386 Linux multiplies in a
 * 32-bit unsigned long, which a queue of heavy weights could overflow.
 */
u32 accumulate_sum(u64 delta, struct sched_avg *sa, u32 load, u32 runnable, int running)
{
	u32 contrib = (u32)delta;	/* no period crossed: delta < 1024 */
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;		/* 1024 units, 1.048576 ms */

	/* Step 1: the old sums age by the periods crossed. */
	if (periods) {
		sa->load_sum = decay_load(sa->load_sum, periods);
		sa->runnable_sum = decay_load(sa->runnable_sum, periods);
		sa->util_sum = decay_load((u64)sa->util_sum, periods);

		/*
		 * Step 2: the new contribution, in segments.  Without load,
		 * runnable and running are 0 too (___update_load_sum), and
		 * contrib would be unused.
		 */
		delta %= 1024;
		if (load)
			contrib = __accumulate_pelt_segments(periods,
					1024 - sa->period_contrib, delta);
	}
	sa->period_contrib = delta;

	if (load)
		sa->load_sum += (u64)load * contrib;
	if (runnable)
		sa->runnable_sum += (u64)runnable * contrib << SCHED_CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << SCHED_CAPACITY_SHIFT;

	return periods;
}

/*
 * Bring SA's sums up to NOW (ns).  Returns 1 when a period boundary was
 * crossed, so that the caller recomputes the averages.
 */
int ___update_load_sum(u64 now, struct sched_avg *sa, u32 load, u32 runnable, int running)
{
	u64 delta = now - sa->last_update_time;

	/* A clock that went backwards: restart from it, change nothing. */
	if ((s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}

	/* 1024 ns units: close to a microsecond, and a shift. */
	delta >>= 10;
	if (!delta)
		return 0;

	/* the ns under a unit stay in the next update's delta */
	sa->last_update_time += delta << 10;

	/*
	 * running is a subset of runnable, which needs load; but an entity
	 * just dequeued may still be cfs_rq->curr, and a queue just emptied
	 * still have a curr: without load nothing else counts.
	 */
	if (!load)
		runnable = running = 0;

	return accumulate_sum(delta, sa, load, runnable, running) ? 1 : 0;
}

/*
 * The averages: each sum over its current maximum, the divider
 * LOAD_AVG_MAX - 1024 + period_contrib (the last 1024 is not complete yet).
 * An entity's load_sum counts queued time only, so its weight LOAD is
 * applied here; a queue's load_sum already holds weights (LOAD = 1).
 */
void ___update_load_avg(struct sched_avg *sa, u32 load)
{
	u32 divider = get_pelt_divider(sa);

	sa->load_avg = div_u64((u64)load * sa->load_sum, divider);
	sa->runnable_avg = div_u64(sa->runnable_sum, divider);
	sa->util_avg = sa->util_sum / divider;
}

/* An entity asleep (not on any queue): its sums only decay. */
int __update_load_avg_blocked_se(u64 now, struct sched_entity *se)
{
	if (___update_load_sum(now, &se->avg, 0, 0, 0)) {
		___update_load_avg(&se->avg, se_weight(se));
		return 1;
	}
	return 0;
}

/*
 * util_avg moved: clear util_est's UTIL_AVG_UNCHANGED, so that the next
 * sleep takes a new sample (6.12's cfs_se_util_change()).
 */
static inline void cfs_se_util_change(struct sched_avg *avg)
{
	if (!sched_feat(UTIL_EST))
		return;
	if (avg->util_est & UTIL_AVG_UNCHANGED)
		avg->util_est &= ~UTIL_AVG_UNCHANGED;
}

/* An entity on CFS_RQ: queued, runnable unless delayed, running if curr. */
int __update_load_avg_se(u64 now, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (___update_load_sum(now, &se->avg, !!se->on_rq, se_runnable(se),
			       cfs_rq->curr == se)) {
		___update_load_avg(&se->avg, se_weight(se));
		cfs_se_util_change(&se->avg);
		return 1;
	}
	return 0;
}

/*
 * The queue: its weight, its runnable tasks (h_nr_running less the
 * DELAY_DEQUEUE sleepers, Linux commit "sched/eevdf: More PELT vs
 * DELAY_DEQUEUE" in Debian's 6.12; no groups, so h_nr_running is
 * nr_running) and whether anything runs.
 */
int __update_load_avg_cfs_rq(u64 now, struct cfs_rq *cfs_rq)
{
	struct sched_avg *sa = &eevdf_rq(cfs_rq)->avg;

	if (___update_load_sum(now, sa, scale_load_down(cfs_rq->load.weight),
			       cfs_rq->nr_running - eevdf_rq(cfs_rq)->h_nr_delayed,
			       cfs_rq->curr != NULL)) {
		___update_load_avg(sa, 1);
		return 1;
	}
	return 0;
}
