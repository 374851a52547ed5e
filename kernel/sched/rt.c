/*
 * kernel/sched/rt.c - the real-time class (Linux 2.6.35's kernel/sched_rt.c
 * on one CPU, no group scheduling): SCHED_FIFO and SCHED_RR.
 *
 * The class sits above the fair one (rt -> fair -> idle; Granule has no stop
 * class).  Tasks wait in 100 FIFO lists, one per prio 0..99
 * (prio = MAX_RT_PRIO-1 - rt_priority: rt_priority 99 is prio 0, the best),
 * and a bitmap of the non-empty lists finds the best in a few word tests.
 * FIFO tasks run until they block, yield or a better rt task wakes;
 * RR tasks also go to the tail of their list after DEF_TIMESLICE
 * (100 ms of ticks).  Throttling: rt tasks may run at most
 * sched_rt_runtime_us per sched_rt_period_us (950000 / 1000000); beyond
 * that the rt_rq is throttled and the fair class runs until the period ends.
 *
 * Deliberate difference: Linux's period timer is an hrtimer
 * (sched_rt_period_timer -> do_sched_rt_period_timer); here the tick calls
 * sched_rt_period_tick(), which runs do_sched_rt_period_timer() with the
 * number of whole periods that passed (the overrun), the same arithmetic at
 * tick resolution.
 */
#include "sched.h"
#include <kernel/printk.h>

int sysctl_sched_rt_period = 1000000;	/* us */
int sysctl_sched_rt_runtime = 950000;	/* us; -1: RUNTIME_INF */
int sysctl_sched_rr_timeslice = RR_TIMESLICE_MS;	/* ms (6.12's knob) */

/* DEF_TIMESLICE in ticks: 100 * HZ / 1000 (25 at HZ=250), at least 1. */
unsigned int sched_rr_timeslice(void)
{
	unsigned int t = (unsigned int)sysctl_sched_rr_timeslice * HZ / 1000;

	return t ? t : 1;
}

u64 sched_rt_period(void)
{
	return (u64)sysctl_sched_rt_period * 1000;	/* NSEC_PER_USEC */
}

u64 sched_rt_runtime(void)
{
	if (sysctl_sched_rt_runtime < 0)
		return RUNTIME_INF;
	return (u64)sysctl_sched_rt_runtime * 1000;
}

/* ---- the bitmap ------------------------------------------------------------ */

/* The lowest set bit; bit MAX_RT_PRIO is always set, so never fails. */
int sched_find_first_bit(const u32 *bitmap)
{
	for (int w = 0; w < RT_BITMAP_WORDS; w++)
		if (bitmap[w])
			return w * 32 + __builtin_ctz(bitmap[w]);
	return MAX_RT_PRIO;
}

static void __set_bit_rt(int nr, u32 *map) { map[nr / 32] |= 1U << (nr % 32); }
static void __clear_bit_rt(int nr, u32 *map) { map[nr / 32] &= ~(1U << (nr % 32)); }

void init_rt_rq(struct rt_rq *rt_rq)
{
	struct rt_prio_array *array = &rt_rq->active;

	for (int i = 0; i < MAX_RT_PRIO; i++) {
		INIT_LIST_HEAD(&array->queue[i]);
		__clear_bit_rt(i, array->bitmap);
	}
	/* delimiter for bitsearch: */
	__set_bit_rt(MAX_RT_PRIO, array->bitmap);
	rt_rq->highest_prio.curr = MAX_RT_PRIO;
	rt_rq->rt_nr_running = 0;
	rt_rq->rt_time = 0;
	rt_rq->rt_throttled = 0;
	rt_rq->rt_runtime = sched_rt_runtime();
	rt_rq->rt_period_start = 0;
	init_rt_rq_smp(rt_rq);
}

/* list_del_init / list_move / list_move_tail (Linux's list.h) */
static void rt_list_del_init(struct list_head *e)
{
	list_del(e);
	INIT_LIST_HEAD(e);
}

static void rt_list_move(struct list_head *e, struct list_head *head, int tail)
{
	list_del(e);
	if (tail)
		list_add_tail(e, head);
	else
		list_add(e, head);
}

static inline struct task *rt_task_of(struct sched_rt_entity *rt_se)
{
	return container_of(rt_se, struct task, rt);
}

static inline int on_rt_rq(struct sched_rt_entity *rt_se)
{
	return !list_empty(&rt_se->run_list);
}

static inline int rt_rq_throttled(struct rt_rq *rt_rq)
{
	return rt_rq->rt_throttled;
}

/* ---- throttling -------------------------------------------------------------- */

/*
 * The period timer: OVERRUN periods ended.  rt_time -= min(rt_time,
 * overrun * runtime); unthrottle once rt_time < runtime and let the rt
 * task preempt whatever runs.  (2.6.35's returns whether the hrtimer may
 * stop; the tick forwards this one, which never stops.)
 *
 * Deliberate difference: with the runtime set to -1 (RUNTIME_INF) a
 * throttled rt_rq is unthrottled here.  2.6.35's timer returns at once
 * when the runtime is infinite, so an rt_rq throttled before the write
 * stayed throttled for good, and its rt tasks never ran again.
 */
static void do_sched_rt_period_timer(int overrun)
{
	struct rt_rq *rt_rq = &this_rq()->rt;	/* rt class: still one CPU's */
	int enqueue = 0;
	u64 runtime;

	rt_rq->rt_runtime = sched_rt_runtime();
	if (rt_rq->rt_runtime == RUNTIME_INF) {
		rt_rq->rt_time = 0;
		if (rt_rq->rt_throttled) {
			rt_rq->rt_throttled = 0;
			enqueue = 1;
		}
		goto out;
	}
	if (rt_rq->rt_time) {
		runtime = rt_rq->rt_runtime;
		rt_rq->rt_time -= min(rt_rq->rt_time, (u64)overrun * runtime);
		if (rt_rq->rt_throttled && rt_rq->rt_time < runtime) {
			rt_rq->rt_throttled = 0;
			enqueue = 1;
		}
	}
out:
	if (enqueue && rt_rq->rt_nr_running)	/* sched_rt_rq_enqueue() */
		resched_task(this_rq()->curr);
}

/* The hrtimer's forwarding, from the tick: whole periods since the start. */
void sched_rt_period_tick(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	u64 period = sched_rt_period();
	u64 overrun;

	if (!rt_rq->rt_period_start || rq->clock < rt_rq->rt_period_start) {
		rt_rq->rt_period_start = rq->clock;
		return;
	}
	if (rq->clock - rt_rq->rt_period_start < period)
		return;			/* most ticks: no 64-bit division in the tick path */
	overrun = (rq->clock - rt_rq->rt_period_start) / period;
	rt_rq->rt_period_start += overrun * period;
	do_sched_rt_period_timer((int)min(overrun, (u64)0x7fffffff));
}

static int rt_throttle_reported;

/*
 * rt_time > runtime: throttle (and report whether curr must stop).  A
 * runtime at or above the period never throttles.  The one-time message
 * is later Linux's (2.6.35 throttles silently).
 */
static int sched_rt_runtime_exceeded(struct rt_rq *rt_rq)
{
	u64 runtime = rt_rq->rt_runtime;

	if (rt_rq->rt_throttled)
		return rt_rq_throttled(rt_rq);
	if (runtime >= sched_rt_period() || runtime == RUNTIME_INF)
		return 0;
	if (rt_rq->rt_time <= runtime)
		return 0;
	rt_rq->rt_throttled = 1;
	if (!rt_throttle_reported) {	/* printk_once() */
		rt_throttle_reported = 1;
		printk("sched: RT throttling activated\n");
	}
	return 1;		/* sched_rt_rq_dequeue(): nothing to do without groups */
}

/*
 * Charge curr's run since exec_start: sum_exec_runtime, rt_time, and
 * throttle past the runtime (then curr is rescheduled).
 *
 * Deliberate difference: curr is charged when it runs in the rt class,
 * whatever its policy.  2.6.35 asks task_has_rt_policy(curr), so a
 * SCHED_OTHER task boosted into rt by PI was charged nothing at all while
 * boosted (its CPU-time clocks stood still and the rt budget did not see
 * it); later Linux tests the class, as here (LKML, "sched: Fix
 * update_curr_rt()", 2011).
 */
static void update_curr_rt(struct rq *rq)
{
	struct task *curr = rq->curr;
	struct rt_rq *rt_rq = &rq->rt;
	u64 delta_exec;

	if (!rt_task(curr))
		return;
	delta_exec = rq->clock - curr->se.exec_start;
	if ((s64)delta_exec < 0)
		delta_exec = 0;

	curr->se.sum_exec_runtime += delta_exec;
	curr->se.exec_start = rq->clock;

	if (sched_rt_runtime() != RUNTIME_INF) {
		rt_rq->rt_time += delta_exec;
		if (sched_rt_runtime_exceeded(rt_rq))
			resched_task(curr);
	}
}

/* ---- enqueue / dequeue ----------------------------------------------------------- */

/* inc_rt_prio() and, on several CPUs, its SMP half and inc_rt_migration() */
static void inc_rt_tasks(struct sched_rt_entity *rt_se, struct rt_rq *rt_rq)
{
	int prio = rt_task_of(rt_se)->prio;
	int prev_prio = rt_rq->highest_prio.curr;

	rt_rq->rt_nr_running++;
	if (prio < rt_rq->highest_prio.curr)
		rt_rq->highest_prio.curr = prio;
	if (static_branch_on(&smp_key))
		inc_rt_smp(rt_rq, rt_task_of(rt_se), prev_prio);
}

static void dec_rt_tasks(struct sched_rt_entity *rt_se, struct rt_rq *rt_rq)
{
	struct rt_prio_array *array = &rt_rq->active;
	int prev_prio = rt_rq->highest_prio.curr;

	rt_rq->rt_nr_running--;
	/* recalc_highest: the first non-empty list, or MAX_RT_PRIO */
	rt_rq->highest_prio.curr = rt_rq->rt_nr_running ?
		sched_find_first_bit(array->bitmap) : MAX_RT_PRIO;
	if (static_branch_on(&smp_key))
		dec_rt_smp(rt_rq, rt_task_of(rt_se), prev_prio);
}

static void __enqueue_rt_entity(struct sched_rt_entity *rt_se, int head)
{
	struct rt_rq *rt_rq = &task_rq(rt_task_of(rt_se))->rt;	/* rt_rq_of_se() */
	struct rt_prio_array *array = &rt_rq->active;
	int prio = rt_task_of(rt_se)->prio;
	struct list_head *queue = array->queue + prio;

	if (head)
		list_add(&rt_se->run_list, queue);
	else
		list_add_tail(&rt_se->run_list, queue);
	__set_bit_rt(prio, array->bitmap);
	inc_rt_tasks(rt_se, rt_rq);
}

static void __dequeue_rt_entity(struct sched_rt_entity *rt_se)
{
	struct rt_rq *rt_rq = &task_rq(rt_task_of(rt_se))->rt;	/* rt_rq_of_se() */
	struct rt_prio_array *array = &rt_rq->active;
	int prio = rt_task_of(rt_se)->prio;

	rt_list_del_init(&rt_se->run_list);
	if (list_empty(array->queue + prio))
		__clear_bit_rt(prio, array->bitmap);
	dec_rt_tasks(rt_se, rt_rq);
}

static void enqueue_task_rt(struct rq *rq, struct task *p, int flags)
{
	struct sched_rt_entity *rt_se = &p->rt;

	if (on_rt_rq(rt_se))		/* dequeue_rt_stack() */
		__dequeue_rt_entity(rt_se);
	__enqueue_rt_entity(rt_se, flags & ENQUEUE_HEAD);
	if (static_branch_on(&smp_key) && !task_current(rq, p) && p->rt.nr_cpus_allowed > 1)
		enqueue_pushable_task(rq, p);
}

static void dequeue_task_rt(struct rq *rq, struct task *p, int flags)
{
	update_curr_rt(rq);
	if (on_rt_rq(&p->rt))
		__dequeue_rt_entity(&p->rt);
	if (static_branch_on(&smp_key))
		dequeue_pushable_task(rq, p);
	p->se.on_rq = 0;	/* the flag core.c reads (fair: account_entity_dequeue) */
}

/* Put P at the head or the tail of its priority list (RR, yield). */
void requeue_task_rt(struct rq *rq, struct task *p, int head)
{
	struct sched_rt_entity *rt_se = &p->rt;
	struct list_head *queue = rq->rt.active.queue + p->prio;

	if (!on_rt_rq(rt_se))
		return;
	rt_list_move(&rt_se->run_list, queue, !head);
}

static void yield_task_rt(struct rq *rq)
{
	requeue_task_rt(rq, rq->curr, 0);
}

/*
 * A woken P preempts curr if it has a better (lower) prio.  On several
 * CPUs, a P of curr's prio that only this CPU can take, while curr could
 * go elsewhere, preempts too, so that post_schedule pushes curr away.
 */
static void check_preempt_curr_rt(struct rq *rq, struct task *p, int flags)
{
	if (p->prio < rq->curr->prio) {
		resched_task(rq->curr);
		return;
	}
	if (static_branch_on(&smp_key) && p->prio == rq->curr->prio && !rq->curr->need_resched)
		check_preempt_equal_prio(rq, p);
}

/* 2.6.35: other CPUs can take curr and none can take P: requeue P at
 * the head and reschedule, to push curr away. */
void check_preempt_equal_prio(struct rq *rq, struct task *p)
{
	if (rt_nr_cpus_allowed(rq->curr) == 1)
		return;
	if (rt_nr_cpus_allowed(p) != 1 && cpupri_find(&rq->rd->cpupri, p, NULL))
		return;
	if (!cpupri_find(&rq->rd->cpupri, rq->curr, NULL))
		return;
	requeue_task_rt(rq, p, 1);
	resched_task(rq->curr);
}

/* ---- picking ------------------------------------------------------------------------ */

/* The first task of the best non-empty list, unless throttled. */
static struct task *pick_next_task_rt(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct rt_prio_array *array = &rt_rq->active;
	struct sched_rt_entity *rt_se;
	struct task *p;
	int idx;

	if (!rt_rq->rt_nr_running)
		return NULL;
	if (rt_rq_throttled(rt_rq))
		return NULL;

	idx = sched_find_first_bit(array->bitmap);
	BUG_ON(idx >= MAX_RT_PRIO);
	rt_se = list_entry(array->queue[idx].next, struct sched_rt_entity, run_list);
	p = rt_task_of(rt_se);
	p->se.exec_start = rq->clock;
	if (static_branch_on(&smp_key)) {
		/* the running task is never eligible for pushing; what is left
		 * is pushed after the switch (post_schedule_rt) */
		dequeue_pushable_task(rq, p);
		rq->post_schedule = has_pushable_tasks(rq);
	}
	return p;
}

static void put_prev_task_rt(struct rq *rq, struct task *p)
{
	update_curr_rt(rq);
	p->se.exec_start = 0;
	/* still queued (preempted): it may be pushed from now on */
	if (static_branch_on(&smp_key) && p->se.on_rq && p->rt.nr_cpus_allowed > 1)
		enqueue_pushable_task(rq, p);
}

/*
 * The tick: charge curr; SCHED_RR loses its slice after DEF_TIMESLICE ticks
 * and goes to the tail of its list if anyone else waits there.
 */
static void task_tick_rt(struct rq *rq, struct task *p, int queued)
{
	update_curr_rt(rq);
	/* watchdog(): no RLIMIT_RTTIME here */

	if (p->policy != SCHED_RR)
		return;
	if (--p->rt.time_slice)
		return;
	p->rt.time_slice = sched_rr_timeslice();
	/* requeue to the end of queue if we are not the only element */
	if (p->rt.run_list.prev != p->rt.run_list.next) {
		requeue_task_rt(rq, p, 0);
		resched_task(p);	/* set_tsk_need_resched */
	}
}

static void set_curr_task_rt(struct rq *rq)
{
	rq->curr->se.exec_start = rq->clock;
	if (static_branch_on(&smp_key))
		dequeue_pushable_task(rq, rq->curr);	/* never pushable */
}

/*
 * Another class's task became rt: preempt if it is better than curr.  On
 * several CPUs an overloaded rq first pushes; if that moved P elsewhere,
 * nothing to preempt here.
 */
static void switched_to_rt(struct rq *rq, struct task *p, int running)
{
	if (running)
		return;
	if (static_branch_on(&smp_key) && rq->rt.overloaded && push_rt_task(rq) &&
	    rq != task_rq(p))
		return;		/* don't resched if we changed runqueues */
	if (p->prio < rq->curr->prio)
		resched_task(rq->curr);
}

static void prio_changed_rt(struct rq *rq, struct task *p, int oldprio,
			    int running)
{
	if (running && static_branch_on(&smp_key)) {
		/* dropped while running: pull; then resched if a better one
		 * waits and P is still curr here (pull may drop the lock) */
		if (oldprio < p->prio)
			pull_rt_task(rq);
		if (p->prio > rq->rt.highest_prio.curr && rq->curr == p)
			resched_task(p);
	} else if (running) {
		/* for UP simply resched on drop of prio */
		if (oldprio < p->prio)
			resched_task(p);
	} else if (p->prio < rq->curr->prio) {
		resched_task(rq->curr);
	}
}

/* SCHED_RR's slice; 0 for anything else here (a boosted SCHED_OTHER task). */
static unsigned int get_rr_interval_rt(struct rq *rq, struct task *p)
{
	return p->policy == SCHED_RR ? sched_rr_timeslice() : 0;
}

const struct sched_class rt_sched_class = {
	.next			= &fair_sched_class,
	.enqueue_task		= enqueue_task_rt,
	.dequeue_task		= dequeue_task_rt,
	.yield_task		= yield_task_rt,
	.check_preempt_curr	= check_preempt_curr_rt,
	.pick_next_task		= pick_next_task_rt,
	.put_prev_task		= put_prev_task_rt,
	.set_curr_task		= set_curr_task_rt,
	.task_tick		= task_tick_rt,
	.switched_to		= switched_to_rt,
	.prio_changed		= prio_changed_rt,
	.update_curr		= update_curr_rt,
	.get_rr_interval	= get_rr_interval_rt,
	.select_task_rq		= select_task_rq_rt,	/* rt_smp.c */
	.pre_schedule		= pre_schedule_rt,
	.post_schedule		= post_schedule_rt,
	.task_woken		= task_woken_rt,
	.switched_from		= switched_from_rt,
	.set_cpus_allowed	= set_cpus_allowed_rt,
	.rq_online		= rq_online_rt,
	.rq_offline		= rq_offline_rt,
	.name			= "rt",
};

/* ---- the invariant checker's part --------------------------------------------------- */

/*
 * rt_nr_running = sum of the list lengths; a bit is set iff its list is
 * non-empty; highest_prio = first set bit; every queued task is rt, on_rq,
 * at its own prio, on RQ's CPU (sched_verify_task_cpu).  RQ is locked at
 * more than one CPU.  Returns the number of violations (printed).
 */
int sched_verify_rt(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct rt_prio_array *array = &rt_rq->active;
	u32 n = 0;
	int bad = 0;

	for (int i = 0; i < MAX_RT_PRIO; i++) {
		struct sched_rt_entity *rt_se;
		int set = !!(array->bitmap[i / 32] & (1U << (i % 32)));

		if (set != !list_empty(&array->queue[i])) {
			printk("sched_verify: rt bitmap bit %d is %d but its list is %sempty\n",
			       i, set, set ? "" : "not ");
			bad++;
		}
		list_for_each_entry(rt_se, &array->queue[i], run_list) {
			struct task *p = rt_task_of(rt_se);

			if (p->prio != i || !p->se.on_rq || p->sched_class != &rt_sched_class) {
				printk("sched_verify: rt task %d in list %d has prio %d on_rq %d\n",
				       p->pid, i, p->prio, p->se.on_rq);
				bad++;
			}
			bad += sched_verify_task_cpu(rq, p);
			n++;
		}
	}
	if (!(array->bitmap[MAX_RT_PRIO / 32] & (1U << (MAX_RT_PRIO % 32)))) {
		printk("sched_verify: rt bitmap delimiter bit %d clear\n", MAX_RT_PRIO);
		bad++;
	}
	if (n != rt_rq->rt_nr_running) {
		printk("sched_verify: rt_nr_running %u but %u queued\n",
		       rt_rq->rt_nr_running, n);
		bad++;
	}
	if (n && rt_rq->highest_prio.curr != sched_find_first_bit(array->bitmap)) {
		printk("sched_verify: rt highest_prio %d but first bit %d\n",
		       rt_rq->highest_prio.curr, sched_find_first_bit(array->bitmap));
		bad++;
	}
	if (static_branch_on(&smp_key))
		bad += sched_verify_rt_smp(rq);
	return bad;
}
