/*
 * kernel/sched/prio.c - changes of a task's policy and PI priority
 * (sched_setscheduler_prio(), rt_mutex_setprio(): one dequeue, change,
 * enqueue sequence; set_user_nice() is core.c's).  Linux 2.6.35's
 * kernel/sched.c under the same names.  Linux 6.12 keeps these (but
 * rt_mutex_setprio()) in kernel/sched/syscalls.c, beside the system calls;
 * here they stand apart from Granule's syscalls.c so that the host tests
 * and the simulator link them without the system-call layer.
 */
#include "sched.h"
#include "stats.h"
#include "topology.h"
#include <kernel/rtmutex.h>
#include <kernel/errno.h>
#include <arch/irqflags.h>

/*
 * __setscheduler() (2.6.35): policy, rt_priority, normal_prio
 * (rt: MAX_RT_PRIO-1 - rt_priority; else static_prio), prio, class.
 */
static void __setscheduler(struct task *p, int policy, int prio)
{
	p->policy = (unsigned int)policy;
	p->rt_priority = (unsigned int)prio;
	p->normal_prio = rt_policy(policy) ? MAX_RT_PRIO - 1 - prio : p->static_prio;
	p->prio = rt_mutex_getprio(p);		/* a PI boost stays */
	p->sched_class = rt_prio(p->prio) ? &rt_sched_class : &fair_sched_class;
	set_load_weight(p);
}

/*
 * Linux 6.12's __sched_setscheduler() and rt_mutex_setprio() begin with
 *	if (prev_class != next_class && p->se.sched_delayed)
 *		dequeue_task(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED | ...);
 * An EEVDF DELAY_DEQUEUE sleeper is still queued in the fair class (but
 * already counted out of nr_running, asleep): it must leave that class
 * before it changes class, or it would be enqueued into NEXT_CLASS while it
 * sleeps.  After this it is on no runqueue and its wakeup queues it anew.
 * sched_delayed is EEVDF's: under CFS its bytes are [SN]'s
 * fork_nice_penality (a union in <kernel/sched.h>), so ask only under EEVDF.
 */
static void sched_flush_delayed(struct rq *rq, struct task *p,
				const struct sched_class *next_class)
{
	if (sched_eevdf_running && p->sched_class != next_class && p->se.sched_delayed)
		dequeue_task(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
}

/*
 * A change of P's class or priority, the steps 2.6.35's
 * __sched_setscheduler() and rt_mutex_setprio() share: begin (a delayed
 * sleeper leaves, dequeue, put_prev if running), the caller's change, end
 * (set_curr, enqueue, check_class_changed()).  Interrupts are off.
 */
struct sched_change {
	const struct sched_class *prev_class;
	int oldprio, on_rq, running;
};

static void sched_change_begin(struct rq *rq, struct task *p,
			       const struct sched_class *next_class, struct sched_change *c)
{
	update_rq_clock(rq);
	sched_flush_delayed(rq, p, next_class);
	c->prev_class = p->sched_class;
	c->oldprio = p->prio;
	c->on_rq = p->se.on_rq;
	c->running = task_current(rq, p);
	if (c->on_rq)
		dequeue_task(rq, p, 0);
	if (c->running)
		p->sched_class->put_prev_task(rq, p);
}

static void sched_change_end(struct rq *rq, struct task *p, const struct sched_change *c,
			     int enqueue_flags)
{
	if (c->running)
		p->sched_class->set_curr_task(rq);
	if (c->on_rq) {
		enqueue_task(rq, p, enqueue_flags);
		if (c->prev_class != p->sched_class) {	/* check_class_changed() */
			if (c->prev_class->switched_from)
				c->prev_class->switched_from(rq, p, c->running);
			p->sched_class->switched_to(rq, p, c->running);
		} else
			p->sched_class->prio_changed(rq, p, c->oldprio, c->running);
	}
	sched_verify_hook(rq);
}

/*
 * Switch P to POLICY at rt priority PRIO (0 for the fair policies; 1..99
 * for SCHED_FIFO/RR).  As Linux: dequeue, put_prev if running, change,
 * set_curr_task, enqueue, then switched_to or prio_changed; a blocked P's
 * waiter then moves (rt_mutex_adjust_pi).  The caller (syscalls) checked
 * permissions; -EINVAL for a bad policy or priority.
 */
int sched_setscheduler_prio(struct task *p, int policy, int prio)
{
	struct sched_change c;
	unsigned long flags;
	struct rq *rq;
	int newprio;

	if (policy != SCHED_NORMAL && policy != SCHED_BATCH &&
	    policy != SCHED_IDLE && !rt_policy(policy))
		return -EINVAL;
	if (prio < 0 || prio > MAX_RT_PRIO - 1 || rt_policy(policy) != (prio != 0))
		return -EINVAL;
	if (p == task_rq(p)->idle)
		return -EINVAL;

	rq = task_rq_lock_irqsave(p, &flags);
	rt_mutex_pi_busy++;		/* until the waiter has moved too */
	newprio = rt_mutex_get_effective_prio(p, rt_policy(policy) ?
					      MAX_RT_PRIO - 1 - prio : p->static_prio);
	sched_change_begin(rq, p, rt_prio(newprio) ? &rt_sched_class : &fair_sched_class, &c);
	__setscheduler(p, policy, prio);
	sched_change_end(rq, p, &c, 0);
	task_rq_unlock_irqrestore(rq, &flags);
	rt_mutex_adjust_pi(p);		/* a blocked task's waiter moves */
	rt_mutex_pi_busy--;
	return 0;
}

/*
 * rt_mutex_setprio (2.6.35): P's effective priority becomes PRIO (a PI
 * boost or deboost, rtmutex.c).  The class follows the priority: rt if
 * rt_prio(PRIO), else the fair class that runs (CFS or EEVDF); the
 * policy and normal_prio stay.  A deboosted rt task goes to the head of
 * its list (ENQUEUE_HEAD when oldprio < prio), as 2.6.35.
 */
void rt_mutex_setprio(struct task *p, int prio)
{
	const struct sched_class *class = rt_prio(prio) ? &rt_sched_class : &fair_sched_class;
	struct sched_change c;
	unsigned long flags;
	struct rq *rq;

	if (prio < 0 || prio > MAX_PRIO - 1)
		return;
	rq = task_rq_lock_irqsave(p, &flags);
	sched_change_begin(rq, p, class, &c);
	p->sched_class = class;
	p->prio = prio;
	sched_change_end(rq, p, &c, c.oldprio < prio ? ENQUEUE_HEAD : 0);
	task_rq_unlock_irqrestore(rq, &flags);
}

/* The fair subset: SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE (weight 3). */
int sched_setscheduler(struct task *p, int policy)
{
	if (rt_policy(policy))
		return -EINVAL;
	return sched_setscheduler_prio(p, policy, 0);
}
