/*
 * kernel/sched/migrate.c - moving a task between CPUs' runqueues (Linux
 * 2.6.35's kernel/sched.c: task_rq_lock(), double_rq_lock(),
 * double_lock_balance(), set_task_cpu(); sched_fair.c: pull_task(),
 * task_waking_fair(), and the balancer's task mover: task_hot(),
 * can_migrate_task(), balance_tasks(), move_tasks()).
 *
 * Locking: each rq has its own lock.  Two are taken in address order
 * (the lower address first), the one order every CPU agrees on, so two
 * CPUs balancing towards each other never hold one each and wait for the
 * other's.  Callers have interrupts off, as 2.6.35's do.
 *
 * vruntime across CPUs: each cfs_rq has its own min_vruntime, so a task
 * carries its vruntime *relative* to its queue's while it moves, and
 * set_task_cpu() itself does no arithmetic (2.6.35, since "sched: Remove
 * the cfs_rq dependency from set_task_cpu()", 2.6.33):
 *	dequeue not for a sleep (flags without DEQUEUE_SLEEP):
 *		vruntime -= source cfs_rq->min_vruntime	(dequeue_entity)
 *	enqueue not for a plain wakeup (flags 0, or ENQUEUE_WAKING):
 *		vruntime += destination cfs_rq->min_vruntime (enqueue_entity)
 *	a sleeper's wakeup on another CPU (try_to_wake_up):
 *		task_waking_fair(): vruntime -= old cfs_rq->min_vruntime,
 *		then the enqueue with ENQUEUE_WAKEUP | ENQUEUE_WAKING adds the
 *		new one's.
 * So a task that was 2 ms behind its old queue's minimum is 2 ms behind
 * the new one's, whatever the two queues' clocks read.
 */
#include "topology.h"
#include "stats.h"

/*
 * Move P to NEW_CPU's runqueue as far as P's own fields go (2.6.35
 * set_task_cpu(); the caller dequeued it, or it sleeps or is new, and
 * will enqueue it there): se.nr_migrations counts real moves, and on a
 * real move the class's migrate_task_rq hook runs first (6.12's order).
 */
void set_task_cpu(struct task *p, unsigned int new_cpu)
{
	if (task_cpu(p) != new_cpu) {
		/* 6.12: EEVDF's PELT leaves the old queue (none in 2.6.35) */
		if (p->sched_class->migrate_task_rq)
			p->sched_class->migrate_task_rq(p, (int)new_cpu);
		p->se.nr_migrations++;
	}
	p->cpu = new_cpu;			/* __set_task_cpu() */
}

/*
 * Lock the runqueue P is on and return it.  P may move between reading
 * task_rq(p) and getting the lock, so check again under it and retry
 * (2.6.35 task_rq_lock(), which also disables interrupts: *FLAGS).
 */
struct rq *task_rq_lock(struct task *p, unsigned long *flags)
{
	local_irq_save(*flags);
	return __task_rq_lock(p);
}

/* The same with interrupts already off (2.6.35's __task_rq_lock()). */
struct rq *__task_rq_lock(struct task *p)
{
	struct rq *rq;

	for (;;) {
		rq = task_rq(p);
		raw_spin_lock(&rq->lock);
		if (likely(rq == task_rq(p)))
			return rq;
		raw_spin_unlock(&rq->lock);
	}
}

void task_rq_unlock(struct rq *rq, unsigned long *flags)
{
	raw_spin_unlock_irqrestore(&rq->lock, *flags);
}

/* Lock two runqueues, lower address first; one if they are the same. */
void double_rq_lock(struct rq *rq1, struct rq *rq2)
{
	if (rq1 == rq2) {
		raw_spin_lock(&rq1->lock);
	} else if (rq1 < rq2) {
		raw_spin_lock(&rq1->lock);
		raw_spin_lock_nested(&rq2->lock, SINGLE_DEPTH_NESTING);
	} else {
		raw_spin_lock(&rq2->lock);
		raw_spin_lock_nested(&rq1->lock, SINGLE_DEPTH_NESTING);
	}
}

void double_rq_unlock(struct rq *rq1, struct rq *rq2)
{
	raw_spin_unlock(&rq1->lock);
	if (rq1 != rq2)
		raw_spin_unlock(&rq2->lock);
}

/*
 * THIS_RQ is locked; lock BUSIEST too without breaking the address order
 * (2.6.35's unfair _double_lock_balance()): if the trylock fails and
 * BUSIEST comes first, drop THIS_RQ and take both in order.  Returns 1 if
 * THIS_RQ's lock was dropped meanwhile (what it guards may have changed).
 */
int double_lock_balance(struct rq *this_rq, struct rq *busiest)
{
	int ret = 0;

	if (unlikely(!raw_spin_trylock(&busiest->lock))) {
		if (busiest < this_rq) {
			raw_spin_unlock(&this_rq->lock);
			raw_spin_lock(&busiest->lock);
			raw_spin_lock_nested(&this_rq->lock, SINGLE_DEPTH_NESTING);
			ret = 1;
		} else {
			raw_spin_lock_nested(&busiest->lock, SINGLE_DEPTH_NESTING);
		}
	}
	return ret;
}

void double_unlock_balance(struct rq *this_rq, struct rq *busiest)
{
	(void)this_rq;
	raw_spin_unlock(&busiest->lock);
}

/*
 * Move the queued, not running task P from SRC_RQ to DST_RQ, both locked:
 * flags 0 on both sides, so vruntime leaves relative to SRC_RQ's
 * min_vruntime and arrives relative to DST_RQ's; then P may preempt what
 * runs there (2.6.35 pull_task(); 6.12 move_queued_task()).
 * EEVDF's tasks, a DELAY_DEQUEUE sleeper among them (it moves still
 * delayed, as 6.12 moves it), go by move_queued_task_eevdf() (eevdf_smp.c).
 */
void move_queued_task(struct rq *src_rq, struct task *p, struct rq *dst_rq)
{
	if (sched_eevdf()) {
		move_queued_task_eevdf(src_rq, p, dst_rq);
		return;
	}
	deactivate_task(src_rq, p, 0);
	set_task_cpu(p, (unsigned int)cpu_of(dst_rq));
	activate_task(dst_rq, p, 0);
	check_preempt_curr(dst_rq, p, 0);
}

/* P to THIS_RQ (THIS_CPU's): the balancer's move (2.6.35 pull_task()). */
void pull_task(struct rq *src_rq, struct task *p, struct rq *this_rq, int this_cpu)
{
	(void)this_cpu;
	move_queued_task(src_rq, p, this_rq);
}

/*
 * A sleeper P is about to be woken, maybe onto another CPU: make its
 * vruntime relative to the queue it slept on (2.6.35 task_waking_fair();
 * the wakeup's enqueue then carries ENQUEUE_WAKING and adds the new
 * queue's min_vruntime back).
 */
void task_waking_fair(struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	(void)rq;
	p->se.vruntime -= cfs_rq->min_vruntime;
}

/* ---- The balancer's mover --------------------------------------------------- */

/*
 * P ran on its CPU within the last sysctl_sched_migration_cost ns (0.5 ms),
 * so its cache is likely still warm there; a buddy (next/last) of a busy
 * queue counts as hot too (CACHE_HOT_BUDDY).  -1 makes every task hot, 0
 * none.  Only fair tasks are ever hot (2.6.35 task_hot).
 */
int task_hot(struct task *p, u64 now, struct sched_domain *sd)
{
	s64 delta;

	(void)sd;
	if (p->sched_class != &fair_sched_class)
		return 0;
	if (sched_feat(CACHE_HOT_BUDDY) && this_rq()->nr_running &&
	    (&p->se == cfs_rq_of(&p->se)->next || &p->se == cfs_rq_of(&p->se)->last))
		return 1;
	if (sysctl_sched_migration_cost == (unsigned int)-1)
		return 1;
	if (sysctl_sched_migration_cost == 0)
		return 0;
	delta = (s64)(now - p->se.exec_start);
	return delta < (s64)sysctl_sched_migration_cost;
}

/*
 * May P leave RQ for THIS_CPU?  Not if THIS_CPU is outside its affinity,
 * not while it runs, and not while it is cache-hot, unless this domain's
 * balancing has failed more than cache_nice_tries times in a row.
 * *ALL_PINNED is cleared by any task the affinity allows (2.6.35).
 */
int can_migrate_task(struct task *p, struct rq *rq, int this_cpu, struct sched_domain *sd,
		     enum cpu_idle_type idle, int *all_pinned)
{
	int tsk_cache_hot;

	if (!cpumask_test_cpu((unsigned int)this_cpu, &p->cpus_allowed))
		return 0;
	*all_pinned = 0;
	if (task_running(rq, p))
		return 0;

	tsk_cache_hot = task_hot(p, rq->clock, sd);
	if (!tsk_cache_hot || sd->nr_balance_failed > sd->cache_nice_tries) {
		if (tsk_cache_hot && schedstat_enabled())
			sd->lb_hot_gained[idle]++;
		return 1;
	}
	return 0;
}

/*
 * Pull up to MAX_LOAD_MOVE weight from BUSIEST's fair tasks, newest queued
 * first (cfs_rq->tasks), looking at no more than sysctl_sched_nr_migrate
 * (+1) of them; a task heavier than twice what is left to move is
 * skipped.  Returns the weight moved (2.6.35 balance_tasks, which is
 * load_balance_fair() without group scheduling).  Granule's kernel is not
 * CONFIG_PREEMPT, so a newly idle CPU does not stop at the first task.
 */
static unsigned long balance_tasks(struct rq *this_rq, int this_cpu, struct rq *busiest,
				   unsigned long max_load_move, struct sched_domain *sd,
				   enum cpu_idle_type idle, int *all_pinned,
				   int *this_best_prio, struct cfs_rq *busiest_cfs_rq)
{
	int loops = 0, pulled = 0, pinned = 0;
	long rem_load_move = (long)max_load_move;
	struct sched_entity *se, *n;

	if (max_load_move == 0)
		goto out;
	pinned = 1;
	list_for_each_entry_safe(se, n, &busiest_cfs_rq->tasks, group_node) {
		struct task *p = task_of(se);

		if (loops++ > (int)sysctl_sched_nr_migrate)
			break;
		if ((long)(se->load.weight >> 1) > rem_load_move ||
		    !can_migrate_task(p, busiest, this_cpu, sd, idle, &pinned))
			continue;
		pull_task(busiest, p, this_rq, this_cpu);
		pulled++;
		rem_load_move -= (long)se->load.weight;
		if (rem_load_move <= 0)	/* only up to the prescribed weight */
			break;
		if (p->prio < *this_best_prio)
			*this_best_prio = p->prio;
	}
out:
	if (schedstat_enabled())
		sd->lb_gained[idle] += (unsigned int)pulled;
	if (all_pinned)
		*all_pinned = pinned;
	return max_load_move - (unsigned long)rem_load_move;
}

/*
 * Move one fair task from BUSIEST to THIS_RQ, both locked: the newest
 * queued that may go (2.6.35 move_one_task(), the fair class's
 * move_one_task_fair(): as balance_tasks() with no weight limit).  1 if
 * one moved, counted in lb_gained.
 */
int move_one_task(struct rq *this_rq, int this_cpu, struct rq *busiest,
		  struct sched_domain *sd, enum cpu_idle_type idle)
{
	struct sched_entity *se, *n;
	int pinned = 0;

	list_for_each_entry_safe(se, n, &busiest->cfs.tasks, group_node) {
		struct task *p = task_of(se);

		if (!can_migrate_task(p, busiest, this_cpu, sd, idle, &pinned))
			continue;
		pull_task(busiest, p, this_rq, this_cpu);
		if (schedstat_enabled())
			sd->lb_gained[idle]++;
		return 1;
	}
	return 0;
}

/*
 * Move up to MAX_LOAD_MOVE weight from BUSIEST to THIS_RQ, both locked;
 * 1 if anything moved (2.6.35 move_tasks).
 */
int move_tasks(struct rq *this_rq, int this_cpu, struct rq *busiest,
	       unsigned long max_load_move, struct sched_domain *sd,
	       enum cpu_idle_type idle, int *all_pinned)
{
	unsigned long total_load_moved = 0, load_moved;
	int this_best_prio = this_rq->curr->prio;

	do {
		load_moved = balance_tasks(this_rq, this_cpu, busiest,
					   max_load_move - total_load_moved, sd, idle,
					   all_pinned, &this_best_prio, &busiest->cfs);
		total_load_moved += load_moved;
	} while (load_moved && max_load_move > total_load_moved);
	return total_load_moved > 0;
}
