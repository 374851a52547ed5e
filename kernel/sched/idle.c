/*
 * kernel/sched/idle.c - the idle scheduling class (Linux 2.6.35's
 * kernel/sched_idletask.c): the lowest class, holding only the idle task
 * (rq->idle).  It is never queued: pick_next_task_idle() simply returns
 * rq->idle, so pick_next_task() always finds a task (never NULL).
 */
#include "sched.h"
#include <kernel/printk.h>

/* Whatever wakes up preempts the idle task. */
static void check_preempt_curr_idle(struct rq *rq, struct task *p, int flags)
{
	resched_task(rq->idle);
}

static struct task *pick_next_task_idle(struct rq *rq)
{
	rq->sched_goidle++;
	return rq->idle;
}

/* The idle task must never block: complain if something tries. */
static void dequeue_task_idle(struct rq *rq, struct task *p, int flags)
{
	printk("bad: scheduling from the idle thread!\n");
}

static void put_prev_task_idle(struct rq *rq, struct task *prev)
{
}

static void task_tick_idle(struct rq *rq, struct task *curr, int queued)
{
}

static void set_curr_task_idle(struct rq *rq)
{
}

static void switched_to_idle(struct rq *rq, struct task *p, int running)
{
	/* no class switches to idle today; kept for the hook table */
	if (running)
		resched_task(rq->curr);
	else
		check_preempt_curr(rq, p, 0);
}

static void prio_changed_idle(struct rq *rq, struct task *p, int oldprio,
			      int running)
{
	/* as prio_changed_fair(): worse while running -> reschedule */
	if (running) {
		if (p->prio > oldprio)
			resched_task(rq->curr);
	} else {
		check_preempt_curr(rq, p, 0);
	}
}

static unsigned int get_rr_interval_idle(struct rq *rq, struct task *p)
{
	return 0;
}

/* The last class: .next is NULL; no enqueue_task or yield_task. */
const struct sched_class idle_sched_class = {
	.dequeue_task		= dequeue_task_idle,	/* only complains */

	.check_preempt_curr	= check_preempt_curr_idle,

	.pick_next_task		= pick_next_task_idle,
	.put_prev_task		= put_prev_task_idle,

	.set_curr_task		= set_curr_task_idle,
	.task_tick		= task_tick_idle,

	.prio_changed		= prio_changed_idle,
	.switched_to		= switched_to_idle,
	.get_rr_interval	= get_rr_interval_idle,
	.name			= "idle",
};
