/*
 * kernel/sched/eevdf_wakeup.c - the EEVDF fair class, part 3: wakeup
 * preemption (it asks the pick), PREEMPT_SHORT, the next buddy, yield, and
 * priority or class changes.  Linux 6.12's kernel/sched/fair.c on one CPU
 * without cgroups: check_preempt_wakeup_fair(), do_preempt_short(),
 * set_next_buddy(), yield_task_fair(), prio_changed_fair(),
 * switched_to_fair().
 */
#include "eevdf.h"
#include <kernel/printk.h>

/*
 * sched_yield(): forfeit the rest of the request if eligible: v jumps to
 * the deadline and a new deadline follows.
 */
void yield_task_eevdf(struct rq *rq)
{
	struct task *curr = rq->curr;
	struct cfs_rq *cfs_rq = task_cfs_rq(curr);
	struct sched_entity *se = &curr->se;

	if (unlikely(rq->nr_running == 1))
		return;

	clear_buddies(cfs_rq, se);

	update_rq_clock(rq);
	update_curr(cfs_rq);

	if (entity_eligible(cfs_rq, se)) {
		se->vruntime = se->deadline;
		update_deadline(cfs_rq, se);
	}
}

static void set_next_buddy(struct sched_entity *se)
{
	if (WARN_ON(!se->on_rq))
		return;
	if (se_is_idle(se))
		return;
	cfs_rq_of(se)->next = se;
}

/* PREEMPT_SHORT at wakeup: does the wakee's shorter slice cancel curr's? */
static inline bool do_preempt_short(struct cfs_rq *cfs_rq,
				    struct sched_entity *pse, struct sched_entity *se)
{
	if (!sched_feat(PREEMPT_SHORT))
		return false;

	if (pse->slice >= se->slice)
		return false;

	if (!entity_eligible(cfs_rq, pse))
		return false;

	if (entity_before(pse, se))
		return true;

	if (!entity_eligible(cfs_rq, se))
		return true;

	return false;
}

/*
 * A wakeup (or fork) of P: preempt current if and only if the EEVDF pick
 * would now choose P.  No wakeup granularity; SCHED_IDLE current loses
 * to any non-idle task; BATCH and IDLE wakees never preempt.
 */
static void __check_preempt_wakeup(struct rq *rq, struct task *p, int wake_flags)
{
	struct task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs_rq = task_cfs_rq(curr);
	int cse_is_idle, pse_is_idle;

	if (unlikely(se == pse))
		return;

	if (sched_feat(NEXT_BUDDY) && !(wake_flags & WF_FORK) && !pse->sched_delayed)
		set_next_buddy(pse);

	/* already rescheduling (e.g. from the new task's wakeup path) */
	if (curr->need_resched)
		return;

	if (!sched_feat(WAKEUP_PREEMPTION))
		return;

	cse_is_idle = se_is_idle(se);
	pse_is_idle = se_is_idle(pse);

	/* a non-idle entity preempts an idle one, with no slice protection */
	if (cse_is_idle && !pse_is_idle) {
		cancel_protect_slice(se);
		goto preempt;
	}

	if (cse_is_idle != pse_is_idle)
		return;

	/* BATCH and IDLE tasks do not preempt others */
	if (unlikely(p->policy != SCHED_NORMAL))	/* !normal_policy() */
		return;

	update_curr(cfs_rq);
	/* a shorter, eligible slice overrides current's protection */
	if (do_preempt_short(cfs_rq, pse, se))
		cancel_protect_slice(se);

	/* p has become the most eligible task: preempt */
	if (pick_eevdf(cfs_rq) == pse)
		goto preempt;

	return;

preempt:
	resched_task(curr);
}

/*
 * The class hook: try_to_wake_up() (or a fork) asks, for any waker while
 * a fair task runs (core.c asks the running task's class, as 2.6.35).  A
 * waker of a higher class preempts: 6.12's wakeup_preempt() decides that
 * before any class hook (sched_class_above).  A delayed sleeper that wakes
 * was requeued by try_to_wake_up() first (sched.h, ttwu_requeue_delayed).
 */
void check_preempt_wakeup_eevdf(struct rq *rq, struct task *p, int wake_flags)
{
	if (unlikely(p->sched_class != &fair_sched_class)) {
		resched_task(rq->curr);		/* rt: the only class above */
		return;
	}
	__check_preempt_wakeup(rq, p, wake_flags);
}

/*
 * wakeup_preempt() for a queued P that did not wake (priority or class
 * change); a delayed sleeper is left alone (it is not woken by this).
 */
static void wakeup_preempt_queued(struct rq *rq, struct task *p)
{
	if (p->se.sched_delayed)
		return;
	if (rq->curr->sched_class == &fair_sched_class)
		__check_preempt_wakeup(rq, p, 0);
	else
		check_preempt_curr(rq, p, 0);
}

/* The priority changed: preempt as a wakeup would, or resched if worse. */
void prio_changed_eevdf(struct rq *rq, struct task *p, int oldprio, int running)
{
	if (!p->se.on_rq)
		return;

	if (rq->cfs.nr_running == 1)
		return;

	if (running) {
		if (p->prio > oldprio)
			resched_task(rq->curr);
	} else {
		wakeup_preempt_queued(rq, p);
	}
}

void switched_to_eevdf(struct rq *rq, struct task *p, int running)
{
	if (!p->se.on_rq)
		return;
	if (running)
		resched_task(rq->curr);
	else
		wakeup_preempt_queued(rq, p);
}
