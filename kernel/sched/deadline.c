/*
 * kernel/sched/deadline.c - the DEADLINE feature: OUR RECONSTRUCTION of
 * Peter Zijlstra's unpublished September 2010 idea (docs/VARIANTS.md,
 * "deadline"), not Linux code.  Only its LWN description is known ([LWN],
 * docs/DEBATE.md): new tasks are
 * still placed at the end (START_DEBIT), but each also gets a deadline one
 * scheduler period in the future, and if that passes before the task has
 * run, the task is run immediately.
 *
 * Our version (all in wall-clock rq->clock time, ns):
 *  1. task_fork_fair: deadline = now + __sched_period(nr_running + 1);
 *  2. enqueue/dequeue keep not-yet-run forks in rq->deadline_list, sorted
 *     by deadline (a short list: only forks that have not run yet);
 *  3. an expired earliest deadline makes check_preempt_tick reschedule and
 *     pick_next_entity choose that task ahead of the leftmost and buddies;
 *  4. set_next_entity clears it on the first run.
 * Nothing here runs unless the DEADLINE feature bit (default off) is set
 * at fork time; the list helpers below are called by fair.c.
 */
#include "sched.h"

/* Insert SE (se->deadline != 0) in deadline order; equal deadlines FIFO. */
void deadline_enqueue(struct rq *rq, struct sched_entity *se)
{
	struct sched_entity *pos;

	list_for_each_entry(pos, &rq->deadline_list, deadline_node) {
		if ((s64)(se->deadline - pos->deadline) < 0)
			break;
	}
	/* insert before POS (at the tail when the loop ran off the end) */
	list_add_tail(&se->deadline_node, &pos->deadline_node);
}

void deadline_dequeue(struct sched_entity *se)
{
	list_del(&se->deadline_node);	/* leaves it self-linked */
}

/* The unrun fork with the earliest deadline, or NULL. */
struct sched_entity *earliest_deadline_entity(struct rq *rq)
{
	if (list_empty(&rq->deadline_list))
		return NULL;
	return list_first_entry(&rq->deadline_list, struct sched_entity,
				deadline_node);
}

/* expired_deadline_entity() (sched.h) with DEADLINE on: the earliest
 * deadline if it has passed, else NULL. */
struct sched_entity *__expired_deadline_entity(struct rq *rq)
{
	struct sched_entity *se = earliest_deadline_entity(rq);

	if (se && (s64)(se->deadline - rq->clock) <= 0)
		return se;
	return NULL;
}
