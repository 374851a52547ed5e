/*
 * kernel/sched/wakeup.c - wakeups and fork: try_to_wake_up() (the one-CPU
 * path; place.c has the one that chooses a CPU), sched_fork(),
 * kthread_bind() and wake_up_new_task().  Linux 2.6.35's kernel/sched.c
 * (Linux 6.12's core.c), under the same names; the locking is core.c's.
 */
#include "sched.h"
#include "stats.h"
#include "topology.h"
#include <kernel/rtmutex.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/irqflags.h>

/*
 * Wake P if its state matches STATE: put it on the runqueue (ENQUEUE_WAKEUP:
 * place_entity gives the sleeper credit), see whether it preempts current,
 * and mark it TASK_RUNNING.  Returns 1 if it was queued, 0 if it was not
 * in STATE or was still queued (then it is only made TASK_RUNNING).
 */
/* noinline: out of line, as it was in core.c (not split and partly
 * inlined into wake_up_process()) */
noinline int try_to_wake_up(struct task *p, unsigned int state, int wake_flags)
{
	struct rq *rq;
	unsigned long flags;
	int success = 0;

	if (!static_branch_on(&sched_up_key))	/* place.c: choose its CPU */
		return try_to_wake_up_smp(p, state, wake_flags);
	rq = task_rq_lock_irqsave(p, &flags);
	if (!(p->state & state))
		goto out;

	/* still queued: it had not slept yet, or is an EEVDF delayed sleeper */
	if (p->se.on_rq) {
		ttwu_requeue_delayed(rq, p);
		goto out_running;
	}

	ttwu_stat(rq, p);

	__activate_task(rq, p, ENQUEUE_WAKEUP);
	success = 1;

out_running:
	__check_preempt_curr(rq, p, wake_flags);
	p->state = TASK_RUNNING;
out:
	sched_verify_hook(rq);
	task_rq_unlock_irqrestore(rq, &flags);
	return success;
}

int wake_up_process(struct task *p)
{
	return try_to_wake_up(p, TASK_NORMAL, 0);
}

/*
 * Fork-time set-up of the child P, in the parent's (current's) context:
 * inherit the policy and priorities (prio = parent's normal_prio: no
 * boosting leaks), zero the scheduling state, pick the class and let it
 * place the child (task_fork_fair).  P stays TASK_WAKING until
 * wake_up_new_task().
 */
void sched_fork(struct task *p)
{
	unsigned long flags;

	local_irq_save(flags);
	__sched_fork(p);
	/* not runnable and not wakeable until wake_up_new_task() */
	p->state = TASK_WAKING;
	p->need_resched = 0;
	p->nvcsw = p->nivcsw = 0;
	memset(&p->sched_info, 0, sizeof(p->sched_info));

	p->policy = current->policy;
	p->static_prio = current->static_prio;
	p->normal_prio = current->normal_prio;
	p->prio = current->normal_prio;	/* the unboosted priority */
	/* sched_setattr's SCHED_FLAG_RESET_ON_FORK: no negative nice (the
	 * class resets the slice); the child does not keep the flag */
	p->rt_priority = current->rt_priority;
	if (unlikely(current->sched_reset_on_fork)) {
		if (rt_policy((int)p->policy)) {	/* SCHED_RESET_ON_FORK */
			p->policy = SCHED_NORMAL;
			p->rt_priority = 0;
		}
		if (PRIO_TO_NICE(p->static_prio) < 0)
			p->static_prio = NICE_TO_PRIO(0);
		p->prio = p->normal_prio = p->static_prio;
	}
	set_load_weight(p);

	/* on the parent's CPU, with its affinity: Linux's dup_task_struct()
	 * copies both, and 2.6.35's task_fork_fair() re-sets the CPU */
	p->cpu = (unsigned int)raw_smp_processor_id();
	p->cpus_allowed = current->cpus_allowed;

	p->sched_class = rt_prio(p->prio) ? &rt_sched_class : &fair_sched_class;
	/* the RR slice: 2.6.35's dup_task_struct copies the parent's remainder
	 * (init_task's is HZ); 6.12's __sched_fork gives a fresh one */
	p->rt.time_slice = sched_eevdf() ? sched_rr_timeslice() : current->rt.time_slice;
	rt_mutex_init_task(p);		/* 2.6.35: copy_process(), just before */
	if (p->sched_class->task_fork)
		p->sched_class->task_fork(p);
	local_irq_restore(flags);
}

/*
 * A kernel thread made but not yet woken is allowed on CPU alone and
 * starts there (2.6.35 kthread_bind(): cpus_allowed, then the CPU; its
 * vruntime is still relative, as sched_fork() left it).
 */
void kthread_bind(struct task *p, unsigned int cpu)
{
	cpumask_clear(&p->cpus_allowed);
	cpumask_set_cpu(cpu, &p->cpus_allowed);
	p->cpu = cpu;			/* __set_task_cpu(): not a migration */
	p->flags |= PF_THREAD_BOUND;	/* sched_setaffinity() may not move it */
}

/*
 * First wakeup of a newly forked task: with more than one CPU online, fork
 * balancing chooses its CPU (place.c); queue it there (flags 0: its
 * relative vruntime gets that queue's min_vruntime added back) and check
 * preemption (WF_FORK).
 */
static __attribute__((always_inline)) inline void __wake_up_new_task(struct task *p, const int smp)
{
	unsigned long flags;
	struct rq *rq;

	if (p->state != TASK_WAKING)
		printk("sched: wake_up_new_task: %s/%d is not TASK_WAKING\n",
		       p->comm, p->pid);
	if (smp)
		sched_fork_balance(p);
	local_irq_save(flags);
	rq = task_rq(p);
	rq_lock(rq);
	p->state = TASK_RUNNING;
	update_rq_clock(rq);
	__activate_task(rq, p, ENQUEUE_INITIAL);	/* CFS: as 0 */
	__check_preempt_curr(rq, p, WF_FORK);
	if (smp && p->sched_class->task_woken)	/* rt: push if it did not preempt */
		p->sched_class->task_woken(rq, p);
	sched_verify_hook(rq);
	rq_unlock(rq);
	local_irq_restore(flags);
}

static noinline void wake_up_new_task_smp(struct task *p)
{
	__wake_up_new_task(p, 1);
}

/* One site chooses, as in __schedule(): the uniprocessor copy follows a nop. */
void wake_up_new_task(struct task *p)
{
	if (!static_branch_on(&sched_up_key)) {
		wake_up_new_task_smp(p);
		return;
	}
	__wake_up_new_task(p, 0);
}
