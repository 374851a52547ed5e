/*
 * kernel/sched/eevdf_class.c - the EEVDF fair class, part 2: enqueue and
 * dequeue (with DELAY_DEQUEUE), the pick, the tick, wakeup preemption,
 * yield, fork, reweighting and the class hooks.  Linux 6.12's
 * kernel/sched/fair.c on one CPU without cgroups or bandwidth control
 * (eevdf.c has V, lag, eligibility, deadlines and placement; eevdf_wakeup.c
 * wakeup preemption, yield and priority changes).
 *
 * Differences from Linux forced by Granule's core, which must run CFS
 * instruction for instruction as before (docs/SCHEDULER.md):
 *  - core.c calls put_prev_task() before pick_next_task(); Linux picks
 *    while prev is still cfs_rq->curr (RUN_TO_PARITY depends on that).
 *    So put_prev_task_eevdf() leaves a still-queued prev as curr and the
 *    pick does put_prev_entity()/set_next_entity() itself, as Linux's
 *    put_prev_set_next_task() (nothing at all when prev is picked again);
 *  - DELAY_DEQUEUE: core.c's deactivate_task() counts the sleeper out of
 *    rq->nr_running (and into nr_uninterruptible) at once, as for any
 *    sleep, though dequeue_task_eevdf() left it queued (its on_rq flags
 *    stay set, as 6.12's); ttwu_delayed() counts it in again when it
 *    wakes.  So rq->nr_running excludes delayed sleepers, which Linux's
 *    includes until they really leave;
 *  - reweight_entity()'s lag rescaling for a dequeued task happens at its
 *    re-enqueue (the weight at the dequeue is remembered in the cfs_rq);
 *  - DEQUEUE_SPECIAL is derived here from the task state (TASK_DEAD,
 *    TASK_STOPPED), since core.c passes only DEQUEUE_SLEEP;
 *  - no hrtick or fair_server (dl_server); PELT and util_est are
 *    eevdf_pelt.c's, called where 6.12 calls them.
 */
#include "topology.h"	/* select_task_rq_eevdf (eevdf_smp.c) */
#include "eevdf_pelt.h"
#include "stats.h"
#include <kernel/printk.h>
#include <kernel/math64.h>

static inline void update_load_add(struct load_weight *lw, u32 inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

static inline void update_load_sub(struct load_weight *lw, u32 dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

/* Count SE in cfs_rq (and in the rq's load, which core.c's debug reads). */
static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_add(&cfs_rq->load, se->load.weight);
	update_load_add(&rq_of(cfs_rq)->load, se->load.weight);
	cfs_rq->nr_running++;
	list_add(&se->group_node, &cfs_rq->tasks);	/* 6.12: rq->cfs_tasks */
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_sub(&cfs_rq->load, se->load.weight);
	update_load_sub(&rq_of(cfs_rq)->load, se->load.weight);
	cfs_rq->nr_running--;
	list_del(&se->group_node);		/* leaves it empty */
}

/* **************************************************************************
 * Enqueue and dequeue
 */

/*
 * Queue SE: place it (V - inflated lag, deadline), count it, insert it in
 * the tree unless it is curr.  curr is placed before update_curr() so
 * that its own progress does not distort V.
 */
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool curr = cfs_rq->curr == se;

	/*
	 * reweight_entity() of a dequeued entity (nice, policy): lag_i =
	 * w_i * vlag_i is what is owed, so keep it:  vlag' = vlag * w / w'.
	 */
	if (eevdf_rq(cfs_rq)->reweight_se == se) {
		if (se->load.weight != eevdf_rq(cfs_rq)->reweight_weight)
			se->vlag = div_s64(se->vlag * eevdf_rq(cfs_rq)->reweight_weight,
					   (s32)se->load.weight);
		eevdf_rq(cfs_rq)->reweight_se = NULL;
	}

	if (curr)
		place_entity(cfs_rq, se, flags);

	update_curr(cfs_rq);

	/* both SE's and the queue's averages to now; attach a newcomer */
	update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH);

	if (!curr)
		place_entity(cfs_rq, se, flags);

	account_entity_enqueue(cfs_rq, se);

	if (flags & ENQUEUE_WAKEUP)
		enqueue_sleeper(cfs_rq, se);
	update_stats_enqueue(cfs_rq, se);
	if (!curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = 1;
}

static void set_delayed(struct sched_entity *se)
{
	se->sched_delayed = 1;
	eevdf_rq(cfs_rq_of(se))->h_nr_delayed++;
}

static void clear_delayed(struct sched_entity *se)
{
	se->sched_delayed = 0;
	eevdf_rq(cfs_rq_of(se))->h_nr_delayed--;
}

/* DELAY_ZERO: a delayed sleeper leaves with its positive lag dropped. */
static inline void finish_delayed_dequeue_entity(struct sched_entity *se)
{
	clear_delayed(se);
	if (sched_feat(DELAY_ZERO) && se->vlag > 0)
		se->vlag = 0;
}

/*
 * Unqueue SE.  Returns false if the dequeue was delayed: DELAY_DEQUEUE
 * keeps a sleeper that is not eligible (negative lag) queued, competing,
 * until the pick reaches it (then it leaves, DEQUEUE_DELAYED) or it wakes
 * (requeue_delayed_entity).  So a task cannot shed negative lag by
 * sleeping briefly.  Otherwise the lag is saved for place_entity(), and a
 * non-sleep dequeue (nice, policy) keeps the relative deadline.
 */
bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;

	update_curr(cfs_rq);
	clear_buddies(cfs_rq, se);

	if (flags & DEQUEUE_DELAYED) {
		WARN_ON(!se->sched_delayed);
	} else {
		bool delay = sleep;

		/* special task states must not suffer spurious wakeups */
		if (flags & DEQUEUE_SPECIAL)
			delay = false;

		WARN_ON(delay && se->sched_delayed);

		if (sched_feat(DELAY_DEQUEUE) && delay &&
		    !entity_eligible(cfs_rq, se)) {
			update_load_avg(cfs_rq, se, 0);
			set_delayed(se);
			return false;
		}
	}

	/* a task moved while queued takes its averages with it */
	update_load_avg(cfs_rq, se, UPDATE_TG |
			(task_on_rq_migrating(task_of(se)) ? DO_DETACH : 0));

	update_stats_dequeue(cfs_rq, se);
	if (sleep) {
		struct task *tsk = task_of(se);

		if (tsk->state & TASK_INTERRUPTIBLE)
			se->statistics.sleep_start = rq_of(cfs_rq)->clock;
		if (tsk->state & TASK_UNINTERRUPTIBLE)
			se->statistics.block_start = rq_of(cfs_rq)->clock;
	}

	update_entity_lag(cfs_rq, se);
	if (sched_feat(PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}
	if (!sleep) {			/* the weight may change before the enqueue */
		eevdf_rq(cfs_rq)->reweight_se = se;
		eevdf_rq(cfs_rq)->reweight_weight = se->load.weight;
	}

	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = 0;
	account_entity_dequeue(cfs_rq, se);

	if (flags & DEQUEUE_DELAYED)
		finish_delayed_dequeue_entity(se);

	return true;
}

/*
 * A delayed sleeper wakes: it is still queued.  DELAY_ZERO: if its lag
 * has become positive meanwhile, it is re-placed at V (lag 0) instead of
 * keeping the credit.
 */
static void requeue_delayed_entity(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	WARN_ON(!se->sched_delayed);
	WARN_ON(!se->on_rq);

	if (sched_feat(DELAY_ZERO)) {
		update_entity_lag(cfs_rq, se);
		if (se->vlag > 0) {
			cfs_rq->nr_running--;
			if (se != cfs_rq->curr)
				__dequeue_entity(cfs_rq, se);
			se->vlag = 0;
			place_entity(cfs_rq, se, 0);
			if (se != cfs_rq->curr)
				__enqueue_entity(cfs_rq, se);
			cfs_rq->nr_running++;
		}
	}

	update_load_avg(cfs_rq, se, 0);
	clear_delayed(se);
}

/* **************************************************************************
 * Picking and running
 */

/* SE starts running: out of the tree, protect its slice, note the start. */
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct rq *rq = rq_of(cfs_rq);

	clear_buddies(cfs_rq, se);

	/* 'current' is not kept within the tree */
	if (se->on_rq) {
		update_stats_wait_end(cfs_rq, se);
		__dequeue_entity(cfs_rq, se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		set_protect_slice(se);
	}

	se->exec_start = rq->clock;		/* update_stats_curr_start */
	cfs_rq->curr = se;

	if (rq->cfs.load.weight >= 2 * se->load.weight)
		se->statistics.slice_max = max(se->statistics.slice_max,
			se->sum_exec_runtime - se->prev_sum_exec_runtime);
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static int dequeue_entities(struct rq *rq, struct sched_entity *se, int flags);

/*
 * The next entity: the next buddy if PICK_BUDDY and it is eligible, else
 * pick_eevdf().  A delayed entity that comes up leaves the queue now
 * (its lag has reached zero) and NULL tells the caller to pick again; it
 * is asleep (a wakeup would have requeued it: ttwu_delayed()).
 */
struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq)
{
	struct sched_entity *se;

	if (sched_feat(PICK_BUDDY) &&
	    cfs_rq->next && entity_eligible(cfs_rq, cfs_rq->next))
		return cfs_rq->next;		/* never delayed */

	se = pick_eevdf(cfs_rq);
	if (se->sched_delayed) {
		dequeue_entities(rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		return NULL;
	}
	return se;
}

/* PREV stops running; if still queued (or delayed) it goes back into the tree. */
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq)
		update_curr(cfs_rq);

	if (prev->on_rq) {
		update_stats_wait_start(cfs_rq, prev);
		__enqueue_entity(cfs_rq, prev);
		/* in !on_rq case, update occurred at dequeue */
		update_load_avg(cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

/*
 * The tick: update_curr() does the work (a passed deadline reschedules);
 * the averages are brought up to date at least once a tick; a queued
 * (hrtick) tick reschedules at once.
 */
void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued)
{
	update_curr(cfs_rq);
	update_load_avg(cfs_rq, curr, UPDATE_TG);

	if (queued) {
		resched_task(rq_of(cfs_rq)->curr);
		return;
	}
}

/* **************************************************************************
 * The class hooks
 */

static void enqueue_task_eevdf(struct rq *rq, struct task *p, int flags)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	int task_new = !(flags & ENQUEUE_WAKEUP);
	int h_nr_delayed = 0;

	/*
	 * The queue's util_est counts runnable tasks: a delayed sleeper that
	 * only moves (or is requeued by a priority change) is not one.
	 */
	if (!(se->sched_delayed && (task_on_rq_migrating(p) || !(flags & ENQUEUE_DELAYED))))
		util_est_enqueue(cfs_rq, p);

	if (flags & ENQUEUE_INITIAL)	/* wake_up_new_task(), its CPU chosen */
		post_init_entity_util_avg(p);

	if (flags & ENQUEUE_DELAYED) {
		requeue_delayed_entity(se);
		return;
	}

	if (task_new)
		h_nr_delayed = !!se->sched_delayed;

	if (se->on_rq) {
		if (se->sched_delayed)
			requeue_delayed_entity(se);
		return;
	}
	enqueue_entity(cfs_rq, se, flags);
	eevdf_rq(cfs_rq)->h_nr_delayed += (u32)h_nr_delayed;
}

/*
 * Returns -1 if the dequeue was delayed, 1 if done.  With DEQUEUE_DELAYED
 * the sleeper finally leaves the runqueue (core.c counted it out already,
 * when it blocked: only the flags are left to clear, __block_task()).
 */
static int dequeue_entities(struct rq *rq, struct sched_entity *se, int flags)
{
	bool task_sleep = flags & DEQUEUE_SLEEP;
	bool task_delayed = flags & DEQUEUE_DELAYED;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	int h_nr_delayed = 0;

	if (!task_sleep && !task_delayed)
		h_nr_delayed = !!se->sched_delayed;

	if (!dequeue_entity(cfs_rq, se, flags))
		return -1;

	eevdf_rq(cfs_rq)->h_nr_delayed -= (u32)h_nr_delayed;

	if (task_delayed)
		task_of(se)->on_rq = 0;
	return 1;
}

/*
 * A delayed dequeue (only a sleep, from deactivate_task()) leaves the
 * entity queued, se->on_rq set (so core.c keeps p->on_rq), but core.c
 * counts the task out as for any sleep, which ttwu_delayed() squares (see
 * the top of the file).  Whether deactivate_task() counted it in
 * nr_uninterruptible is remembered for the wakeup.  The clock this dequeue
 * refreshed stands for __schedule()'s put_prev_task(), which finds the
 * task still queued: skip_clock_update, as after a yield.
 */
static void dequeue_task_eevdf(struct rq *rq, struct task *p, int flags)
{
	if (p->state & (TASK_DEAD | TASK_STOPPED))
		flags |= DEQUEUE_SPECIAL;	/* is_special_task_state() */
	if (!(p->se.sched_delayed && (task_on_rq_migrating(p) || !(flags & DEQUEUE_SLEEP))))
		util_est_dequeue(&rq->cfs, p);
	util_est_update(&rq->cfs, p, flags & DEQUEUE_SLEEP);
	if (dequeue_entities(rq, &p->se, flags) < 0) {
		p->se.sched_contributes_to_load =
			!!(p->state & TASK_UNINTERRUPTIBLE);
		rq->skip_clock_update = 1;
		return;
	}
	/* 6.12's task_dead_fair(), at the last dequeue instead of after the
	 * last switch: the queue forgets the dead task's blocked load */
	if (p->state & TASK_DEAD)
		remove_entity_load_avg(&p->se);
}

/*
 * A delayed sleeper wakes (try_to_wake_up(), as 6.12's ttwu_runnable(),
 * whichever class runs): requeue it, and count it in rq->nr_running again
 * (out of nr_uninterruptible), as activate_task() would have, had core.c
 * not seen it still queued.
 */
void ttwu_delayed(struct rq *rq, struct task *p)
{
	enqueue_task(rq, p, ENQUEUE_DELAYED);
	rq->nr_running++;
	if (p->se.sched_contributes_to_load)
		rq->nr_uninterruptible--;
	p->se.sched_contributes_to_load = 0;
}

/*
 * Pick the next task (pick_task_fair + put_prev_set_next_task).  PREV's
 * put was deferred by put_prev_task_eevdf() if it is still queued: it is
 * still cfs_rq->curr, so the pick sees it as Linux's does.
 */
static struct task *pick_next_task_eevdf(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se, *prev;

again:
	prev = cfs_rq->curr;
	if (!cfs_rq->nr_running) {
		if (prev)			/* the deferred put */
			put_prev_entity(cfs_rq, prev);
		return NULL;
	}

	if (prev && prev->on_rq)
		update_curr(cfs_rq);

	se = pick_next_entity(rq, cfs_rq);
	if (!se)
		goto again;

	if (se != prev) {
		if (prev)
			put_prev_entity(cfs_rq, prev);
		set_next_entity(cfs_rq, se);
	}
	return task_of(se);
}

/*
 * A class above the fair one (rt) won the pick: finish the put that
 * put_prev_task_eevdf() deferred to the fair pick, as Linux's
 * put_prev_set_next_task() does for whichever class wins.
 */
void eevdf_put_deferred(struct rq *rq)
{
	if (rq->cfs.curr)
		put_prev_entity(&rq->cfs, rq->cfs.curr);
}

/*
 * Account for a descheduled task.  A prev that is still queued and
 * runnable stays cfs_rq->curr until pick_next_task_eevdf() (see the top of
 * the file); a delayed sleeper, queued but not runnable, is put now.
 */
static void put_prev_task_eevdf(struct rq *rq, struct task *prev)
{
	struct sched_entity *se = &prev->se;

	if (se->on_rq && !se->sched_delayed && rq->curr == prev)
		return;			/* deferred to the pick */
	put_prev_entity(cfs_rq_of(se), se);
}

/* The running task changed class or policy: make it cfs_rq->curr again. */
static void set_curr_task_eevdf(struct rq *rq)
{
	struct sched_entity *se = &rq->curr->se;

	set_next_entity(cfs_rq_of(se), se);
}

/* Linux's update_curr_fair(): task_sched_runtime() charges current. */
static void update_curr_eevdf(struct rq *rq)
{
	update_curr(cfs_rq_of(&rq->curr->se));
}

static void task_tick_eevdf(struct rq *rq, struct task *curr, int queued)
{
	entity_tick(cfs_rq_of(&curr->se), &curr->se, queued);
}

/*
 * Fork, in the parent's context: nothing to place yet (the first enqueue,
 * ENQUEUE_INITIAL, does it at V with half a slice); the child inherits
 * the parent's slice request (Linux: dup_task_struct copies se), a custom
 * one too unless the parent set SCHED_FLAG_RESET_ON_FORK.
 */
static void task_fork_eevdf(struct task *p)
{
	init_entity_runnable_average(&p->se);	/* 6.12: sched_fork() */
	p->recent_used_cpu = (int)task_cpu(p);	/* 6.12: wake_up_new_task() */
	p->se.slice = current->se.slice;
	p->se.custom_slice = current->se.custom_slice;
	if (current->sched_reset_on_fork)	/* sched_fork's reset */
		p->se.custom_slice = 0;
	if (!p->se.custom_slice)
		p->se.slice = sysctl_sched_base_slice;
}

/* 6.12's get_rr_interval_fair(): the slice, 0 on an otherwise idle rq. */
static unsigned int get_rr_interval_eevdf(struct rq *rq, struct task *p)
{
	return rq->cfs.load.weight ? NS_TO_JIFFIES(p->se.slice) : 0;
}

const struct sched_class eevdf_sched_class = {
	.next			= &idle_sched_class,
	.enqueue_task		= enqueue_task_eevdf,
	.dequeue_task		= dequeue_task_eevdf,
	.yield_task		= yield_task_eevdf,
	.check_preempt_curr	= check_preempt_wakeup_eevdf,
	.pick_next_task		= pick_next_task_eevdf,
	.put_prev_task		= put_prev_task_eevdf,
	.set_curr_task		= set_curr_task_eevdf,
	.task_tick		= task_tick_eevdf,
	.task_fork		= task_fork_eevdf,
	.switched_to		= switched_to_eevdf,
	.prio_changed		= prio_changed_eevdf,
	.update_curr		= update_curr_eevdf,
	.get_rr_interval	= get_rr_interval_eevdf,
	.select_task_rq		= select_task_rq_eevdf,	/* eevdf_smp.c */
	.migrate_task_rq	= migrate_task_rq_eevdf,	/* eevdf_pelt.c */
	.name			= "fair",		/* Linux 6.12's name for it */
};
