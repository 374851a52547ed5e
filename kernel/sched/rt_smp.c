/*
 * kernel/sched/rt_smp.c - the rt class on several CPUs (Linux 2.6.35's
 * kernel/sched_rt.c, its CONFIG_SMP half; the map of CPU priorities is
 * cpupri.c).  The goal: at every moment the N best runnable rt tasks run
 * on the N CPUs (as far as their masks allow), so a woken rt task never
 * waits behind a better one while another CPU runs something less.
 *
 * State, per rt_rq (under its rq's lock):
 *	rt_nr_total, rt_nr_migratory	queued rt tasks, and those whose mask
 *					has more than one CPU
 *	overloaded			nr_total > 1 and nr_migratory > 0: this
 *					CPU has rt work another could take
 *	pushable_tasks			the queued, not running, movable rt
 *					tasks, best prio first (FIFO in a prio)
 *	highest_prio.curr / .next	the best queued prio, and the best a
 *					pull could take (next_prio())
 * and in the root domain (every online CPU here): rto_mask/rto_count, the
 * overloaded CPUs, and cpupri, each CPU's highest_prio.curr as a level.
 *
 * Who moves what, when:
 *	push	a CPU with pushable tasks moves its best one to the CPU of
 *		the lowest level below it (find_lowest_rq): after a switch
 *		(post_schedule_rt), after a wakeup that did not preempt
 *		(task_woken_rt), when a task becomes rt (switched_to_rt)
 *	pull	a CPU whose top prio drops takes the best pushable task of
 *		an overloaded CPU that is better than its own new top: in
 *		schedule() before the pick (pre_schedule_rt), when its last
 *		rt task leaves the class (switched_from_rt) or a running rt
 *		task is deboosted (prio_changed_rt)
 *	wake	a woken rt task goes to a lower CPU at once if its own CPU
 *		runs a better or pinned rt task (select_task_rq_rt)
 * Locks are 2.6.35's: the rq lock, and two by double_lock_balance() in
 * address order; a dropped lock is followed by checking again.
 *
 * Kept while smp_key is on (from boot at more than one CPU; off at one,
 * where rt.c's sites are a jump over all of it); the root domain counts a
 * CPU only once sched_init_smp() has set it online (set_rq_online).
 */
#include "topology.h"
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>

/* Zero (no CPU in it, every level empty) until sched_init_smp() calls
 * init_defrootdomain(): at one CPU it stays so, and nothing reads it. */
struct root_domain def_root_domain;

void init_defrootdomain(void)
{
	memset(&def_root_domain, 0, sizeof(def_root_domain));
	cpupri_init(&def_root_domain.cpupri);
}

void init_rt_rq_smp(struct rt_rq *rt_rq)
{
	rt_rq->highest_prio.next = MAX_RT_PRIO;
	rt_rq->rt_nr_total = 0;
	rt_rq->rt_nr_migratory = 0;
	rt_rq->overloaded = 0;
	INIT_LIST_HEAD(&rt_rq->pushable_tasks);
}

static inline struct rq *rq_of_rt_rq(struct rt_rq *rt_rq)
{
	return container_of(rt_rq, struct rq, rt);
}

int rt_nr_cpus_allowed(const struct task *p)
{
	return (int)cpumask_weight(&p->cpus_allowed);
}

/* ---- overload and migratory counts ----------------------------------------- */

static inline int rt_overloaded(struct rq *rq)
{
	return __atomic_load_n(&rq->rd->rto_count, __ATOMIC_ACQUIRE);
}

/* The mask before the count: a puller that sees the count sees the bit. */
static void rt_set_overload(struct rq *rq)
{
	if (!rq->online)
		return;
	cpumask_set_cpu((unsigned int)rq->cpu, &rq->rd->rto_mask);
	__atomic_fetch_add(&rq->rd->rto_count, 1, __ATOMIC_RELEASE);	/* wmb(); atomic_inc */
}

static void rt_clear_overload(struct rq *rq)
{
	if (!rq->online)
		return;
	__atomic_fetch_sub(&rq->rd->rto_count, 1, __ATOMIC_SEQ_CST);
	cpumask_clear_cpu((unsigned int)rq->cpu, &rq->rd->rto_mask);
}

/* overloaded = some queued rt task may move and there is more than one */
static void update_rt_migration(struct rt_rq *rt_rq)
{
	if (rt_rq->rt_nr_migratory && rt_rq->rt_nr_total > 1) {
		if (!rt_rq->overloaded) {
			rt_set_overload(rq_of_rt_rq(rt_rq));
			rt_rq->overloaded = 1;
		}
	} else if (rt_rq->overloaded) {
		rt_clear_overload(rq_of_rt_rq(rt_rq));
		rt_rq->overloaded = 0;
	}
}

/* ---- the pushable list (2.6.35's plist: sorted by prio, FIFO within) -------- */

void enqueue_pushable_task(struct rq *rq, struct task *p)
{
	struct list_head *pos;

	dequeue_pushable_task(rq, p);
	list_for_each(pos, &rq->rt.pushable_tasks) {
		struct task *q = container_of(pos, struct task, rt.pushable_tasks);

		if (q->prio > p->prio)
			break;
	}
	list_add_tail(&p->rt.pushable_tasks, pos);	/* before the first worse one */
}

/*
 * Off the list, a node's next is NULL: a task's node starts zeroed (or a
 * copy of its running parent's, which is off every list), so fork need
 * not initialise it and its uniprocessor path stays as it was.
 */
void dequeue_pushable_task(struct rq *rq, struct task *p)
{
	(void)rq;
	if (p->rt.pushable_tasks.next) {
		list_del(&p->rt.pushable_tasks);
		p->rt.pushable_tasks.next = NULL;
	}
}

/* ---- highest_prio.next and the second-best task ------------------------------ */

/* May P (queued on RQ) go to CPU (-1: anywhere)?  Not while it runs. */
static int pick_rt_task(struct rq *rq, struct task *p, int cpu)
{
	return !task_running(rq, p) &&
	       (cpu < 0 || cpumask_test_cpu((unsigned int)cpu, &p->cpus_allowed)) &&
	       rt_nr_cpus_allowed(p) > 1;
}

/* The best queued rt task of RQ that could move to CPU, or NULL. */
static struct task *pick_next_highest_task_rt(struct rq *rq, int cpu)
{
	struct rt_prio_array *array = &rq->rt.active;

	for (int idx = sched_find_first_bit(array->bitmap); idx < MAX_RT_PRIO; idx++) {
		struct sched_rt_entity *rt_se;

		if (!(array->bitmap[idx / 32] & (1U << (idx % 32))))
			continue;
		list_for_each_entry(rt_se, &array->queue[idx], run_list) {
			struct task *p = container_of(rt_se, struct task, rt);

			if (pick_rt_task(rq, p, cpu))
				return p;
		}
	}
	return NULL;
}

static int next_prio(struct rq *rq)
{
	struct task *next = pick_next_highest_task_rt(rq, rq->cpu);

	return next && rt_prio(next->prio) ? next->prio : MAX_RT_PRIO;
}

/*
 * P was just queued (rt_nr_running and highest_prio.curr updated; the
 * best was PREV_PRIO): 2.6.35's inc_rt_prio_smp() and inc_rt_migration().
 */
void inc_rt_smp(struct rt_rq *rt_rq, struct task *p, int prev_prio)
{
	struct rq *rq = rq_of_rt_rq(rt_rq);
	int prio = p->prio;

	if (prio < prev_prio) {
		/* the old best becomes the next-best */
		rt_rq->highest_prio.next = prev_prio;
		if (rq->online)
			cpupri_set(&rq->rd->cpupri, rq->cpu, prio);
	} else if (prio == rt_rq->highest_prio.curr) {
		rt_rq->highest_prio.next = prio;	/* next can be no lower */
	} else if (prio < rt_rq->highest_prio.next) {
		rt_rq->highest_prio.next = next_prio(rq);
	}

	p->rt.nr_cpus_allowed = (unsigned int)rt_nr_cpus_allowed(p);
	rt_rq->rt_nr_total++;
	if (p->rt.nr_cpus_allowed > 1)
		rt_rq->rt_nr_migratory++;
	update_rt_migration(rt_rq);
}

/* P was just unqueued: 2.6.35's dec_rt_prio_smp() and dec_rt_migration(). */
void dec_rt_smp(struct rt_rq *rt_rq, struct task *p, int prev_prio)
{
	struct rq *rq = rq_of_rt_rq(rt_rq);

	if (rt_rq->rt_nr_running && p->prio <= rt_rq->highest_prio.next)
		rt_rq->highest_prio.next = next_prio(rq);
	if (rq->online && rt_rq->highest_prio.curr != prev_prio)
		cpupri_set(&rq->rd->cpupri, rq->cpu, rt_rq->highest_prio.curr);

	rt_rq->rt_nr_total--;
	if (p->rt.nr_cpus_allowed > 1)
		rt_rq->rt_nr_migratory--;
	update_rt_migration(rt_rq);
}

/* ---- where a task should go ------------------------------------------------ */

/*
 * The CPU where TASK preempts the least (cpupri's lowest level below it),
 * preferring, in turn: its last CPU (cache-hot), this CPU if it is one of
 * them and in a wake-affine domain of its last CPU (cheaper to preempt
 * than a remote one), the first such CPU of the nearest such domain, this
 * CPU, any of them.  -1 if none (2.6.35 find_lowest_rq()).
 */
static int find_lowest_rq(struct task *task)
{
	int this_cpu = smp_processor_id(), cpu = (int)task_cpu(task);
	struct cpumask lowest_mask;
	struct sched_domain *sd;

	if (rt_nr_cpus_allowed(task) == 1)
		return -1;		/* no other targets possible */
	if (!cpupri_find(&task_rq(task)->rd->cpupri, task, &lowest_mask))
		return -1;
	if (cpumask_test_cpu((unsigned int)cpu, &lowest_mask))
		return cpu;
	if (!cpumask_test_cpu((unsigned int)this_cpu, &lowest_mask))
		this_cpu = -1;		/* skip this_cpu opt if not among lowest */

	for_each_domain(cpu, sd) {
		if (sd->flags & SD_WAKE_AFFINE) {
			struct cpumask both;
			unsigned int best_cpu;

			if (this_cpu != -1 &&
			    cpumask_test_cpu((unsigned int)this_cpu, sched_domain_span(sd)))
				return this_cpu;
			cpumask_and(&both, &lowest_mask, sched_domain_span(sd));
			best_cpu = cpumask_first(&both);
			if (best_cpu < nr_cpu_ids)
				return (int)best_cpu;
		}
	}
	if (this_cpu != -1)
		return this_cpu;
	cpu = (int)cpumask_first(&lowest_mask);
	return cpu < (int)nr_cpu_ids ? cpu : -1;
}

/*
 * A woken rt task P: if its CPU runs an rt task that is better or pinned,
 * try a lower CPU now (P is movable); else it stays and preempts there,
 * and post_schedule pushes the preempted one away.  Fork and exec: this
 * CPU (2.6.35 select_task_rq_rt()).
 */
int select_task_rq_rt(struct task *p, int sd_flag, int wake_flags)
{
	struct rq *rq = task_rq(p);
	struct task *curr = rq->curr;

	(void)wake_flags;
	if (sd_flag != SD_BALANCE_WAKE)
		return smp_processor_id();
	if (unlikely(rt_task(curr)) &&
	    (rt_nr_cpus_allowed(curr) < 2 || curr->prio < p->prio) &&
	    rt_nr_cpus_allowed(p) > 1) {
		int cpu = find_lowest_rq(p);

		return cpu == -1 ? (int)task_cpu(p) : cpu;
	}
	return (int)task_cpu(p);
}

/*
 * Is TASK still queued on RQ, not running, movable?  The checks after a
 * dropped lock ask this first, by pointer: Granule has no task reference
 * count (2.6.35's get_task_struct), and a task on RQ's pushable list is
 * alive, since only RQ's lock takes it off.
 */
static int still_pushable(struct rq *rq, struct task *task)
{
	struct list_head *pos;

	list_for_each(pos, &rq->rt.pushable_tasks)
		if (pos == &task->rt.pushable_tasks)
			return 1;
	return 0;
}

#define RT_MAX_TRIES 3		/* only try algorithms three times */

/* Find and lock a lower rq for TASK (RQ's, locked); NULL if none. */
static struct rq *find_lock_lowest_rq(struct task *task, struct rq *rq)
{
	struct rq *lowest_rq = NULL;

	for (int tries = 0; tries < RT_MAX_TRIES; tries++) {
		int cpu = find_lowest_rq(task);

		if (cpu == -1 || cpu == rq->cpu)
			break;
		lowest_rq = cpu_rq(cpu);
		if (double_lock_balance(rq, lowest_rq)) {
			/* RQ was unlocked: TASK may have moved, run or changed mask */
			if (unlikely(!still_pushable(rq, task) ||
				     !cpumask_test_cpu((unsigned int)lowest_rq->cpu,
						       &task->cpus_allowed))) {
				raw_spin_unlock(&lowest_rq->lock);
				lowest_rq = NULL;
				break;
			}
		}
		/* if this rq is still suitable use it */
		if (lowest_rq->rt.highest_prio.curr > task->prio)
			break;
		double_unlock_balance(rq, lowest_rq);
		lowest_rq = NULL;
	}
	return lowest_rq;
}

static struct task *pick_next_pushable_task(struct rq *rq)
{
	struct task *p;

	if (!has_pushable_tasks(rq))
		return NULL;
	p = container_of(rq->rt.pushable_tasks.next, struct task, rt.pushable_tasks);
	BUG_ON(rq->cpu != (int)task_cpu(p));
	BUG_ON(task_current(rq, p));
	BUG_ON(!p->se.on_rq || !rt_task(p));
	return p;
}

/* ---- push and pull ------------------------------------------------------------ */

/*
 * RQ (locked) has more than one rt task: move its best pushable one to a
 * CPU that runs something less important.  1 if a task moved or the list
 * changed under us (push_rt_tasks() tries again), 0 when done.
 */
int push_rt_task(struct rq *rq)
{
	struct task *next_task, *task;
	struct rq *lowest_rq;

	if (!rq->rt.overloaded)
		return 0;
	next_task = pick_next_pushable_task(rq);
	if (!next_task)
		return 0;
retry:
	if (unlikely(next_task == rq->curr)) {
		printk("sched: push_rt_task: %s/%d is running\n", next_task->comm, next_task->pid);
		return 0;
	}
	/* it slipped in better than curr: just reschedule curr */
	if (unlikely(next_task->prio < rq->curr->prio)) {
		resched_task(rq->curr);
		return 0;
	}
	lowest_rq = find_lock_lowest_rq(next_task, rq);
	if (!lowest_rq) {
		/* RQ's lock may have been dropped: is NEXT_TASK still first? */
		task = pick_next_pushable_task(rq);
		if (task == next_task) {
			/* no CPU for it: the others pull when they drop */
			dequeue_pushable_task(rq, next_task);
			return 1;
		}
		if (!task)
			return 1;	/* no more tasks */
		next_task = task;	/* something shifted: try again */
		goto retry;
	}

	deactivate_task(rq, next_task, 0);
	set_task_cpu(next_task, (unsigned int)lowest_rq->cpu);
	activate_task(lowest_rq, next_task, 0);
	resched_task(lowest_rq->curr);
	double_unlock_balance(rq, lowest_rq);
	return 1;
}

static void push_rt_tasks(struct rq *rq)
{
	/* push_rt_task will return true if it moved an RT */
	while (push_rt_task(rq))
		;
}

/*
 * THIS_RQ's (locked) best prio is about to drop: take, from each
 * overloaded CPU, its best movable task if that beats THIS_RQ's new best
 * and does not beat what runs there (that one is about to preempt there).
 * 1 if any moved.
 */
int pull_rt_task(struct rq *this_rq)
{
	int this_cpu = this_rq->cpu, ret = 0;
	unsigned int cpu;

	if (likely(!rt_overloaded(this_rq)))
		return 0;
	for_each_cpu(cpu, &this_rq->rd->rto_mask) {
		struct rq *src_rq = cpu_rq(cpu);
		struct task *p;

		if ((int)cpu == this_cpu)
			continue;
		/* unlocked peek: a src about to get better pushes by itself */
		if (READ_ONCE(src_rq->rt.highest_prio.next) >= this_rq->rt.highest_prio.curr)
			continue;
		double_lock_balance(this_rq, src_rq);
		if (src_rq->rt.rt_nr_running <= 1)
			goto skip;
		p = pick_next_highest_task_rt(src_rq, this_cpu);
		if (p && p->prio < this_rq->rt.highest_prio.curr) {
			if (p->prio < src_rq->curr->prio)
				goto skip;	/* it is about to preempt there */
			ret = 1;
			deactivate_task(src_rq, p, 0);
			set_task_cpu(p, (unsigned int)this_cpu);
			activate_task(this_rq, p, 0);
			/* go on: another CPU may have a better one still */
		}
skip:
		double_unlock_balance(this_rq, src_rq);
	}
	return ret;
}

/* schedule(), before the pick: PREV leaves and this CPU's prio drops: pull. */
void pre_schedule_rt(struct rq *rq, struct task *prev)
{
	if (likely(rt_task(prev)) && rq->rt.highest_prio.curr > prev->prio)
		pull_rt_task(rq);
}

/* schedule(), after the switch, when the pick left pushable tasks. */
void post_schedule_rt(struct rq *rq)
{
	push_rt_tasks(rq);
}

/*
 * A wakeup queued P here without preempting, and curr will not switch
 * soon: push now rather than at the next schedule.
 */
void task_woken_rt(struct rq *rq, struct task *p)
{
	if (!task_running(rq, p) && !rq->curr->need_resched && has_pushable_tasks(rq) &&
	    rt_nr_cpus_allowed(p) > 1 && rt_task(rq->curr) &&
	    (rt_nr_cpus_allowed(rq->curr) < 2 || rq->curr->prio < p->prio))
		push_rt_tasks(rq);
}

/* P left the rt class; if it was the last rt task here, pull. */
void switched_from_rt(struct rq *rq, struct task *p, int running)
{
	(void)p;
	(void)running;
	if (static_branch_on(&smp_key) && !rq->rt.rt_nr_running)
		pull_rt_task(rq);
}

/*
 * P's mask becomes NEW_MASK (set_cpus_allowed_ptr, P's rq locked): a
 * queued P changes the migratory count and its place in the pushable list.
 */
void set_cpus_allowed_rt(struct task *p, const struct cpumask *new_mask)
{
	unsigned int weight = cpumask_weight(new_mask);

	if (static_branch_on(&smp_key) && p->se.on_rq && weight != p->rt.nr_cpus_allowed) {
		struct rq *rq = task_rq(p);

		if (!task_current(rq, p)) {
			if (p->rt.nr_cpus_allowed > 1)
				dequeue_pushable_task(rq, p);
			if (weight > 1)
				enqueue_pushable_task(rq, p);
		}
		if (p->rt.nr_cpus_allowed <= 1 && weight > 1) {
			rq->rt.rt_nr_migratory++;
		} else if (p->rt.nr_cpus_allowed > 1 && weight <= 1) {
			BUG_ON(!rq->rt.rt_nr_migratory);
			rq->rt.rt_nr_migratory--;
		}
		update_rt_migration(&rq->rt);
	}
	cpumask_copy(&p->cpus_allowed, new_mask);
	p->rt.nr_cpus_allowed = weight;
}

/* RQ's CPU joins the root domain (rq->lock held): publish its state. */
void rq_online_rt(struct rq *rq)
{
	if (rq->rt.overloaded)
		rt_set_overload(rq);
	cpupri_set(&rq->rd->cpupri, rq->cpu, rq->rt.highest_prio.curr);
}

/* ... and leaves it (no caller yet: Granule has no CPU hot-unplug). */
void rq_offline_rt(struct rq *rq)
{
	if (rq->rt.overloaded)
		rt_clear_overload(rq);
	cpupri_set(&rq->rd->cpupri, rq->cpu, CPUPRI_INVALID);
}

/* 2.6.35 set_rq_online(): RQ is counted in its root domain from now on. */
void set_rq_online(struct rq *rq)
{
	const struct sched_class *class;
	unsigned long flags;

	raw_spin_lock_irqsave(&rq->lock, flags);
	if (!rq->online) {
		cpumask_set_cpu((unsigned int)rq->cpu, &rq->rd->span);
		cpumask_set_cpu((unsigned int)rq->cpu, &rq->rd->online);
		rq->online = 1;
		for_each_class(class)
			if (class->rq_online)
				class->rq_online(rq);
	}
	raw_spin_unlock_irqrestore(&rq->lock, flags);
}

/* ---- the invariant checker's part ---------------------------------------------- */

/*
 * RQ locked, smp_key on: rt_nr_total = rt_nr_running; rt_nr_migratory
 * counts the queued tasks counted movable; overloaded as defined, and
 * RQ's bit of rto_mask equal to it (once online); the pushable list holds
 * only queued, not running, movable rt tasks of RQ, sorted by prio; this
 * CPU's cpupri level is convert_prio(highest_prio.curr).
 */
int sched_verify_rt_smp(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	u32 migratory = 0;
	int bad = 0, last = -1;
	struct list_head *pos;

	for (int i = 0; i < MAX_RT_PRIO; i++) {
		struct sched_rt_entity *rt_se;

		list_for_each_entry(rt_se, &rt_rq->active.queue[i], run_list)
			migratory += rt_se->nr_cpus_allowed > 1;
	}
	if (rt_rq->rt_nr_total != rt_rq->rt_nr_running || rt_rq->rt_nr_migratory != migratory) {
		printk("sched_verify: rt_nr_total %u rt_nr_migratory %u but %u queued, %u movable\n",
		       rt_rq->rt_nr_total, rt_rq->rt_nr_migratory, rt_rq->rt_nr_running, migratory);
		bad++;
	}
	if (rt_rq->overloaded != (migratory && rt_rq->rt_nr_running > 1) ||
	    (rq->online && rt_rq->overloaded !=
	     cpumask_test_cpu((unsigned int)rq->cpu, &rq->rd->rto_mask))) {
		printk("sched_verify: cpu%d rt overloaded %d, rto_mask %#x\n", rq->cpu,
		       rt_rq->overloaded, (unsigned)rq->rd->rto_mask.bits);
		bad++;
	}
	list_for_each(pos, &rt_rq->pushable_tasks) {
		struct task *p = container_of(pos, struct task, rt.pushable_tasks);

		if (!p->se.on_rq || !rt_task(p) || task_current(rq, p) ||
		    (int)task_cpu(p) != rq->cpu || p->rt.nr_cpus_allowed < 2 || p->prio < last) {
			printk("sched_verify: pushable %s/%d: prio %d after %d, on_rq %u, cpu %u\n",
			       p->comm, p->pid, p->prio, last, p->se.on_rq, task_cpu(p));
			bad++;
		}
		last = p->prio;
	}
	if (rq->online && rq->rd->cpupri.cpu_to_pri[rq->cpu] != convert_prio(rt_rq->highest_prio.curr)) {
		printk("sched_verify: cpu%d cpupri %d but highest prio %d\n", rq->cpu,
		       rq->rd->cpupri.cpu_to_pri[rq->cpu], rt_rq->highest_prio.curr);
		bad++;
	}
	return bad;
}
