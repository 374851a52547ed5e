/*
 * kernel/sched/eevdf_pelt.c - the EEVDF class's load tracking: Linux
 * 6.12's kernel/sched/fair.c around pelt.c's series (update_load_avg()
 * and its flags, attaching and detaching an entity's averages to and from
 * a queue, the load a migrated or dead task takes away, the blocked-load
 * decay of a queue, util_est), for one cfs_rq per CPU without groups.
 *
 * The model: a queue's averages are not the sum of its tasks' but their
 * own series over the queue's weight (pelt.c, __update_load_avg_cfs_rq).
 * A task's averages are added to the queue's once, when it arrives on that
 * CPU (attach: fork, migration), and taken out once, when it leaves
 * (detach when moved queued, "removed" when it moves or dies asleep).  In
 * between, asleep, its part of the queue's sums decays with them: the
 * "blocked load" that tells 6.12's placement a CPU is likely to be busy
 * again soon.
 *
 * Time: "now" is rq->clock (6.12's cfs_rq_clock_pelt(): the task clock
 * scaled by CPU capacity and frequency, both 1024 of 1024 on QEMU's
 * identical CPUs, so the same clock).  Callers hold the rq's lock.
 * CFS (2.6.35) never calls anything here.
 */
#include "pelt.h"
#include "eevdf_pelt.h"
#include <kernel/math64.h>

/* 6.12's sub_positive(): *ptr -= val, clamped at 0 (unsigned underflow). */
#define sub_positive(ptr, val) do {			\
	typeof(*(ptr)) __v = (val);			\
	*(ptr) = *(ptr) > __v ? *(ptr) - __v : 0;	\
} while (0)

static inline struct sched_avg *cfs_avg(struct cfs_rq *cfs_rq)
{
	return &eevdf_rq(cfs_rq)->avg;
}

/*
 * Fork (sched_fork): a task starts with the load of its weight, as if it
 * had always run, so that it counts as heavy until it has a history; its
 * util_avg is set once its CPU is known (post_init_entity_util_avg).
 */
void init_entity_runnable_average(struct sched_entity *se)
{
	struct sched_avg *sa = &se->avg;

	*sa = (struct sched_avg){ 0 };
	sa->load_avg = scale_load_down(se->load.weight);
}

/*
 * wake_up_new_task(), its CPU chosen: the new task's util_avg is its
 * weight's share of the queue's, capped at half the capacity the queue
 * has left, (1024 - cfs util_avg) / 2, or that cap on an idle queue:
 *	util_avg = cfs util_avg * w / (cfs load_avg + 1)
 * A task forked into the rt class only takes the queue's time, so that a
 * later switch to the fair class attaches it from there.
 */
void post_init_entity_util_avg(struct task *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	struct sched_avg *sa = &se->avg;
	s32 cap = ((s32)SCHED_CAPACITY_SCALE - (s32)cfs_avg(cfs_rq)->util_avg) / 2;

	if (p->sched_class != &fair_sched_class) {
		se->avg.last_update_time = cfs_avg(cfs_rq)->last_update_time;
		return;
	}

	if (cap > 0) {
		if (cfs_avg(cfs_rq)->util_avg != 0) {
			sa->util_avg = cfs_avg(cfs_rq)->util_avg * se_weight(se);
			sa->util_avg /= cfs_avg(cfs_rq)->load_avg + 1;
			if (sa->util_avg > (u32)cap)
				sa->util_avg = (u32)cap;
		} else {
			sa->util_avg = (u32)cap;
		}
	}
	sa->runnable_avg = sa->util_avg;
}

/* The queue's load sums gain / lose SE's (weighted: queue sums hold w). */
static void enqueue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_avg(cfs_rq)->load_avg += se->avg.load_avg;
	cfs_avg(cfs_rq)->load_sum += (u64)se_weight(se) * se->avg.load_sum;
}

static void dequeue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_avg *sa = cfs_avg(cfs_rq);

	sub_positive(&sa->load_avg, se->avg.load_avg);
	sub_positive(&sa->load_sum, (u64)se_weight(se) * se->avg.load_sum);
	/* rounding: a sum is never below its average's minimum (see below) */
	sa->load_sum = max(sa->load_sum, (u64)sa->load_avg * PELT_MIN_DIVIDER);
}

/*
 * SE joins the queue's averages.  Its decay window is aligned on the
 * queue's (same last_update_time and period_contrib), and its sums are
 * recomputed from its averages for the queue's divider, which truncates
 * them a little ("nobody cares", 6.12).
 */
void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_avg *sa = cfs_avg(cfs_rq);
	u32 divider = get_pelt_divider(sa);

	se->avg.last_update_time = sa->last_update_time;
	se->avg.period_contrib = sa->period_contrib;

	se->avg.util_sum = se->avg.util_avg * divider;
	se->avg.runnable_sum = (u64)se->avg.runnable_avg * divider;
	se->avg.load_sum = (u64)se->avg.load_avg * divider;
	if (se_weight(se) < se->avg.load_sum)
		se->avg.load_sum = div_u64(se->avg.load_sum, se_weight(se));
	else
		se->avg.load_sum = 1;

	enqueue_load_avg(cfs_rq, se);
	sa->util_avg += se->avg.util_avg;
	sa->util_sum += se->avg.util_sum;
	sa->runnable_avg += se->avg.runnable_avg;
	sa->runnable_sum += se->avg.runnable_sum;
}

/* SE leaves the queue's averages (it moves while queued). */
void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_avg *sa = cfs_avg(cfs_rq);

	dequeue_load_avg(cfs_rq, se);
	sub_positive(&sa->util_avg, se->avg.util_avg);
	sub_positive(&sa->util_sum, se->avg.util_sum);
	sa->util_sum = max(sa->util_sum, sa->util_avg * PELT_MIN_DIVIDER);
	sub_positive(&sa->runnable_avg, se->avg.runnable_avg);
	sub_positive(&sa->runnable_sum, se->avg.runnable_sum);
	sa->runnable_sum = max(sa->runnable_sum,
			       (u64)sa->runnable_avg * PELT_MIN_DIVIDER);
}

/*
 * Bring the queue's averages to NOW, first taking out what departed
 * sleepers left behind (cfs_rq->removed).  Each sum loses avg * divider
 * but stays at least avg * PELT_MIN_DIVIDER: per-entity rounding could
 * otherwise leave a zero sum under a non-zero average.  1 if anything
 * changed.
 */
int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq)
{
	struct eevdf_cfs_rq *e = eevdf_rq(cfs_rq);
	struct sched_avg *sa = &e->avg;
	int decayed = 0;

	if (e->removed.nr) {
		u32 divider = get_pelt_divider(sa);
		u32 r;

		r = e->removed.load_avg;
		sub_positive(&sa->load_avg, r);
		sub_positive(&sa->load_sum, (u64)r * divider);
		sa->load_sum = max(sa->load_sum, (u64)sa->load_avg * PELT_MIN_DIVIDER);

		r = e->removed.util_avg;
		sub_positive(&sa->util_avg, r);
		sub_positive(&sa->util_sum, r * divider);
		sa->util_sum = max(sa->util_sum, sa->util_avg * PELT_MIN_DIVIDER);

		r = e->removed.runnable_avg;
		sub_positive(&sa->runnable_avg, r);
		sub_positive(&sa->runnable_sum, (u64)r * divider);
		sa->runnable_sum = max(sa->runnable_sum,
				       (u64)sa->runnable_avg * PELT_MIN_DIVIDER);

		e->removed.nr = 0;
		e->removed.load_avg = e->removed.util_avg = e->removed.runnable_avg = 0;
		decayed = 1;
	}

	decayed |= __update_load_avg_cfs_rq(now, cfs_rq);
	return decayed;
}

/*
 * 6.12's update_load_avg(): SE's averages to now (unless new: a
 * last_update_time of 0 means "not attached anywhere", after fork or
 * migrate_task_rq), then the queue's; DO_ATTACH (enqueue) attaches such
 * an SE, DO_DETACH (dequeue of a migrating task) detaches it.  UPDATE_TG
 * (the task group's share) is moot without groups; 6.12's
 * cfs_rq_util_change() only tells cpufreq, which QEMU has not.
 */
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = rq_of(cfs_rq)->clock;

	if (se->avg.last_update_time && !(flags & SKIP_AGE_LOAD))
		__update_load_avg_se(now, cfs_rq, se);

	update_cfs_rq_load_avg(now, cfs_rq);

	if (!se->avg.last_update_time && (flags & DO_ATTACH))
		attach_entity_load_avg(cfs_rq, se);
	else if (flags & DO_DETACH)
		detach_entity_load_avg(cfs_rq, se);
}

/*
 * SE, asleep, leaves its queue (migration at wakeup, death): age its
 * averages to the queue's last update (6.12's sync_entity_load_avg) and
 * note them in cfs_rq->removed, taken out at the queue's next update.
 */
void remove_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	struct eevdf_cfs_rq *e = eevdf_rq(cfs_rq);

	__update_load_avg_blocked_se(e->avg.last_update_time, se);

	e->removed.nr++;
	e->removed.util_avg += se->avg.util_avg;
	e->removed.load_avg += se->avg.load_avg;
	e->removed.runnable_avg += se->avg.runnable_avg;
}

/*
 * set_task_cpu() to another CPU (6.12's migrate_task_rq_fair): a sleeper
 * (woken elsewhere) leaves its load behind as "removed"; a queued task
 * was detached by its dequeue (DO_DETACH).  last_update_time = 0 tells
 * the new queue's enqueue to attach it.  The lag needs nothing here: it
 * is relative (vlag, saved at the dequeue), and place_entity() applies it
 * to the new queue's V.  6.12's migrate_se_pelt_lag() estimates the time
 * a tickless idle CPU's clock missed: Granule's CPUs tick while idle.
 * A queued move's dequeue left the old queue a note of P's weight for the
 * lag rescaling at its re-enqueue (enqueue_entity()); that enqueue is on
 * the new queue, so the note goes (else a later enqueue there with another
 * weight rescales a lag 6.12 never rescales).
 */
void migrate_task_rq_eevdf(struct task *p, int new_cpu)
{
	struct sched_entity *se = &p->se;
	struct eevdf_cfs_rq *old = eevdf_rq(cfs_rq_of(se));	/* task_cpu(p)'s */

	(void)new_cpu;
	if (old->reweight_se == se)
		old->reweight_se = NULL;
	/* a new task (fork balancing: 6.12 uses __set_task_cpu() there, no
	 * hook) was never attached: last_update_time 0, nothing to remove */
	if (!task_on_rq_migrating(p) && se->avg.last_update_time)
		remove_entity_load_avg(se);

	se->avg.last_update_time = 0;
}

/*
 * The periodic balance's first step on this CPU (6.12's
 * sched_balance_update_blocked_averages(), without groups: its
 * __update_blocked_fair() on the root cfs_rq).  An idle CPU's queue has
 * no enqueue or tick to age it, so its blocked load would stand still.
 * 6.12's __update_blocked_others() ages the rt, dl and irq averages,
 * which Granule does not keep; has_blocked_load serves nohz, not here.
 */
void sched_balance_update_blocked_averages(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&rq->lock, flags);
	update_rq_clock(rq);
	update_cfs_rq_load_avg(rq->clock, &rq->cfs);
	raw_spin_unlock_irqrestore(&rq->lock, flags);
}

/* **************************************************************************
 * util_est (6.12's UTIL_EST): the utilisation a task had when it last
 * went to sleep, smoothed, so that a task that slept long is not taken
 * for a small one when it wakes.  The queue's util_est is the sum of its
 * runnable tasks'.
 */

static inline u32 _task_util_est(struct task *p)
{
	return p->se.avg.util_est & ~UTIL_AVG_UNCHANGED;
}

void util_est_enqueue(struct cfs_rq *cfs_rq, struct task *p)
{
	if (!sched_feat(UTIL_EST))
		return;
	cfs_avg(cfs_rq)->util_est += _task_util_est(p);
}

void util_est_dequeue(struct cfs_rq *cfs_rq, struct task *p)
{
	u32 enqueued = cfs_avg(cfs_rq)->util_est;

	if (!sched_feat(UTIL_EST))
		return;
	enqueued -= min(enqueued, _task_util_est(p));
	cfs_avg(cfs_rq)->util_est = enqueued;
}

/*
 * At a sleep (TASK_SLEEP), unless util_avg has not moved since the last
 * one (UTIL_AVG_UNCHANGED): a rise is taken at once, a fall smoothed,
 *	ewma' = ewma - (ewma - util) / 4		(w = 1/4)
 * skipped when within 1% (UTIL_EST_MARGIN = 10), when the task used more
 * than the CPU's capacity, or when it was runnable more than it ran (it
 * did not get all the time it wanted).
 */
void util_est_update(struct cfs_rq *cfs_rq, struct task *p, int task_sleep)
{
	u32 ewma, dequeued, last_ewma_diff;

	if (!sched_feat(UTIL_EST) || !task_sleep)
		return;

	ewma = p->se.avg.util_est;
	if (ewma & UTIL_AVG_UNCHANGED)
		return;

	dequeued = p->se.avg.util_avg;
	if (ewma <= dequeued) {
		ewma = dequeued;
		goto done;
	}

	last_ewma_diff = ewma - dequeued;
	if (last_ewma_diff < UTIL_EST_MARGIN)
		goto done;

	if (dequeued > SCHED_CAPACITY_SCALE)	/* arch_scale_cpu_capacity() */
		return;

	if (dequeued + UTIL_EST_MARGIN < p->se.avg.runnable_avg)
		goto done;

	ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ewma -= last_ewma_diff;
	ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	ewma |= UTIL_AVG_UNCHANGED;
	p->se.avg.util_est = ewma;
	(void)cfs_rq;
}
