/*
 * kernel/sched/core.c - the scheduler core: the runqueue, schedule(),
 * nice, yield and the idle task (Linux 2.6.35's kernel/sched.c,
 * uniprocessor, under the same names; the classes rt -> fair -> idle).
 * The rest of kernel/sched.c is in wakeup.c (wakeups, fork), sched_tick.c
 * (the tick, the hrtick), prio.c (policy and PI priority changes) and
 * cputime.c (task_sched_runtime).
 *
 * Locking: a runqueue is touched only with interrupts off, and, while more
 * than one CPU is online (smp_key, <kernel/smp_lock.h>), under its rq->lock
 * in 2.6.35's places: schedule() (held across the switch, released by the
 * task switched in: after context_switch() or in schedule_tail()),
 * try_to_wake_up() (__task_rq_lock()), wake_up_new_task(), the tick, the
 * hrtick, and the changes of another task's nice, policy or PI priority
 * (task_rq_lock(): that task's CPU may be ticking meanwhile).  At one CPU
 * each of those is one jump over the lock.  The other paths are a task's
 * kernel code, under the giant kernel lock.  sched_verify_hook() runs
 * inside each, on the rq locked there.
 * Time: rq->clock = sched_clock(), refreshed by update_rq_clock() at the
 * tick, on every enqueue/dequeue and, in schedule(), only through
 * deactivate_task() or put_prev_task() of a still-queued task (2.6.35).
 * Switching: context_switch() -> arch_switch_to(prev, next).  On the host
 * (unit tests) arch_switch_to only records the switch and returns, so
 * schedule() returns with current == next.
 * Preemption: resched_task() only sets need_resched; the arch's exit path
 * calls schedule() (or preempt_schedule_irq()) when it is set.
 */
#include "sched.h"
#include "stats.h"
#include "topology.h"
#include <kernel/rtmutex.h>
#include <kernel/hrtick.h>
#include <kernel/time.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <arch/irqflags.h>
#include <arch/thread.h>

/* <kernel/smp_lock.h>: more than one CPU online, and its opposite for the
 * one site in schedule() whose uniprocessor path must follow a nop */
struct static_key smp_key = STATIC_KEY_INIT_TRUE;
struct static_key sched_up_key = STATIC_KEY_INIT_TRUE;
DEFINE_PER_CPU(struct rq, runqueues);	/* each CPU's: cpu_rq(), this_rq() */
DEFINE_PER_CPU(struct task *, current_task);	/* current: == rq->curr outside schedule() */
static struct task init_task;	/* the boot context, later the idle task */

/*
 * Load weight per nice level, index = nice + 20 (Linux 2.6.35's
 * prio_to_weight[] in kernel/sched.c).
 * Neighbouring levels differ by a factor of about 1.25, so between two
 * CPU hogs one nice step moves about 10% of the CPU; nice 0 = 1024.
 */
const u32 prio_to_weight[40] = {
 /* -20 */     88761,     71755,     56483,     46273,     36291,
 /* -15 */     29154,     23254,     18705,     14949,     11916,
 /* -10 */      9548,      7620,      6100,      4904,      3906,
 /*  -5 */      3121,      2501,      1991,      1586,      1277,
 /*   0 */      1024,       820,       655,       526,       423,
 /*   5 */       335,       272,       215,       172,       137,
 /*  10 */       110,        87,        70,        56,        45,
 /*  15 */        36,        29,        23,        18,        15,
};

/* 2^32 / prio_to_weight[i], so that calc_delta_mine() can multiply. */
const u32 prio_to_wmult[40] = {
 /* -20 */     48388,     59856,     76040,     92818,    118348,
 /* -15 */    147320,    184698,    229616,    287308,    360437,
 /* -10 */    449829,    563644,    704093,    875809,   1099582,
 /*  -5 */   1376151,   1717300,   2157191,   2708050,   3363326,
 /*   0 */   4194304,   5237765,   6557202,   8165337,  10153587,
 /*   5 */  12820798,  15790321,  19976592,  24970740,  31350126,
 /*  10 */  39045157,  49367440,  61356676,  76695844,  95443717,
 /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/* ---- Small helpers --------------------------------------------------------- */

/*
 * 2.6.35's resched_task() on SMP: P runs on another CPU, whose return path
 * looks at need_resched only when it next leaves an interrupt: send it the
 * reschedule IPI (once: a set need_resched has had its IPI).  The flag is
 * set before the IPI (the full barrier) so the handler's exit sees it.
 * Granule's idle loop halts and never polls, so no tsk_is_polling() test.
 */
static noinline void resched_task_smp(struct task *p)
{
	unsigned int cpu;

	if (p->need_resched)
		return;
	p->need_resched = 1;
	cpu = task_cpu(p);
	if (cpu == (unsigned int)smp_processor_id())
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* smp_mb() */
	smp_send_reschedule((int)cpu);
}

/* Ask P (the running task) to reschedule at the next irq/syscall exit;
 * at one CPU that is all (sched_up_key: a nop, then the store). */
void resched_task(struct task *p)
{
	if (static_branch_on(&sched_up_key)) {
		p->need_resched = 1;
		return;
	}
	resched_task_smp(p);
}

void enqueue_task(struct rq *rq, struct task *p, int flags)
{
	update_rq_clock(rq);
	sched_info_queued(rq, p);
	p->sched_class->enqueue_task(rq, p, flags);
	p->se.on_rq = 1;
	p->on_rq = 1;
}

/*
 * Unqueue P.  The class clears p->se.on_rq, or leaves it set if P stays
 * queued (6.12's dequeue_task() 'fails': an EEVDF DELAY_DEQUEUE sleeper,
 * until its final DEQUEUE_DELAYED); p->on_rq follows it, as 6.12's
 * block_task() leaves p->on_rq set then, so a wakeup meanwhile finds P
 * queued (ttwu_requeue_delayed(), 6.12's ttwu_runnable()).
 */
void dequeue_task(struct rq *rq, struct task *p, int flags)
{
	update_rq_clock(rq);
	sched_info_dequeued(rq, p);
	p->sched_class->dequeue_task(rq, p, flags);
	p->on_rq = p->se.on_rq;
}

void activate_task(struct rq *rq, struct task *p, int flags)
{
	__activate_task(rq, p, flags);
}

/* Unqueue P and uncount it (sleep, exit, policy change). */
void deactivate_task(struct rq *rq, struct task *p, int flags)
{
	if (task_contributes_to_load(p))
		rq->nr_uninterruptible++;

	dequeue_task(rq, p, flags);
	rq->nr_running--;		/* dec_nr_running */
}

/*
 * A wakeup or fork of P: does it preempt rq->curr?  2.6.35 asks the running
 * task's class: rt compares prios, the fair class lets an rt waker preempt
 * (and makes curr its last buddy), idle gives way to anything.  (2.6.37
 * walks the class list instead, "sched: Fix cross-sched-class wakeup
 * preemption"; so does 6.12, which EEVDF's hook follows.)
 */
void check_preempt_curr(struct rq *rq, struct task *p, int wake_flags)
{
	__check_preempt_curr(rq, p, wake_flags);
}

/* The hrtick's cancel at schedule() (sched_tick.c arms it). */
void hrtick_clear(struct rq *rq)
{
	if (rq->hrtick_active) {
		hrtick_cancel();
		rq->hrtick_active = 0;
	}
}

/* ---- schedule() ---------------------------------------------------------------- */

/*
 * The next task: the first class in the chain that has one.  When every
 * queued task is fair (no rt task queued) the fair class is asked directly;
 * the idle class always answers, so this cannot fail.
 */
static __attribute__((always_inline)) inline struct task *pick_next_task(struct rq *rq)
{
	const struct sched_class *class;
	struct task *p;

	/*
	 * No rt task queued: the fair class picks.  2.6.35 tests
	 * nr_running == cfs.nr_running, which means the same under CFS; under
	 * EEVDF a DELAY_DEQUEUE sleeper counts in cfs.nr_running and not in
	 * nr_running, so one delayed sleeper and one rt task make them equal.
	 */
	if (likely(!rq->rt.rt_nr_running)) {
		p = fair_sched_class.pick_next_task(rq);
		if (likely(p))
			return p;
	}

	for_each_class(class) {
		p = class->pick_next_task(rq);
		if (p) {
			/* EEVDF leaves a queued prev as cfs curr for the fair
			 * pick (eevdf_class.c); CFS's put always clears it */
			if (unlikely(rq->cfs.curr) && class != &fair_sched_class)
				eevdf_put_deferred(rq);
			return p;
		}
	}
	BUG();	/* the idle class always has a task */
}

/*
 * As 2.6.35: the clock is refreshed here only when PREV is still queued
 * (preempted or yielding); a sleeper was refreshed by deactivate_task()
 * (an EEVDF delayed one is still queued, and skips as after a yield),
 * and a switch away from the idle task keeps the clock of the last event
 * (the wakeup's enqueue), so the woken task is charged from its wakeup.
 * A yield has just refreshed it and charged PREV (skip_clock_update, set
 * by yield_task_fair as Linux 6.1's): then the clock stays, PREV's second
 * update_curr() finds a zero delta, and the instructions from the yield's
 * clock read to here are charged to NEXT, whose run starts at that clock
 * (2.6.35 charged them to PREV).
 */
static void put_prev_task(struct rq *rq, struct task *prev)
{
	if (prev->se.on_rq) {
		if (likely(!rq->skip_clock_update))
			update_rq_clock(rq);
		else
			rq->skip_clock_update = 0;
	}
	prev->sched_class->put_prev_task(rq, prev);
}

/*
 * p->on_cpu (Linux 3.3's, 2.6.35's p->oncpu under __ARCH_WANT_UNLOCKED_CTXSW):
 * set for NEXT before the switch, cleared for PREV only after it, on the CPU
 * that switched PREV out (rq->prev: switch_to()'s 'last', since the task
 * that resumes here is not the one that called arch_switch_to()).  Until
 * then PREV's stack is in use: reap_dead_tasks() and wait4 do not free a
 * dead task while it is set (kernel/proc/task.c).  The release store orders
 * every write of the switch before it.  Kept while more than one CPU is
 * online; at one, the dead task is freed by the CPU it ran on, after.
 */
static inline void prepare_lock_switch(struct rq *rq, struct task *prev, struct task *next)
{
	next->on_cpu = 1;
	rq->prev = prev;
}

static inline void finish_on_cpu(struct rq *rq)
{
	__atomic_store_n(&rq->prev->on_cpu, 0, __ATOMIC_RELEASE);
}

/* A new task's first switch in (schedule_tail()). */
static inline void finish_lock_switch(struct rq *rq)
{
	finish_on_cpu(rq);
	raw_spin_unlock(&rq->lock);
}

/*
 * Switch to NEXT.  'current' follows rq->curr; arch_switch_to() returns
 * when PREV is switched back in (on the host: at once, as NEXT).
 */
static void context_switch(struct rq *rq, struct task *prev, struct task *next)
{
	this_cpu_write(current_task, next);
	arch_switch_to(prev, next);
}

/*
 * After a switch on several CPUs, RQ locked: the pick left pushable rt
 * tasks, so let the running task's class push them (post_schedule_rt).
 * 2.6.35 takes rq->lock again for this after finish_task_switch(); here
 * the lock is still held.
 */
static inline void post_schedule(struct rq *rq)
{
	if (rq->post_schedule) {
		if (rq->curr->sched_class->post_schedule)
			rq->curr->sched_class->post_schedule(rq);
		rq->post_schedule = 0;
	}
}

/*
 * The scheduler proper.  PREEMPT is Linux's PREEMPT_ACTIVE: a preempted
 * task is not dequeued even if its state is not TASK_RUNNING (it was
 * interrupted between setting its state and calling schedule()).  SMP
 * (a constant: two copies are compiled) takes rq->lock as 2.6.35 does,
 * from before the pick to after the switch, where the task switched in
 * releases it on its own CPU's rq (finish_lock_switch()), and about to
 * idle first balances as newly idle (idle_balance(), which drops the lock
 * meanwhile).
 */
static __attribute__((always_inline)) inline void __schedule_body(int preempt, const int smp)
{
	struct task *prev, *next;
	u64 *switch_count;
	unsigned long flags;
	struct rq *rq;

need_resched:
	local_irq_save(flags);
	rq = this_rq();
	if (smp)
		raw_spin_lock(&rq->lock);
	prev = rq->curr;
	switch_count = &prev->nivcsw;
	rq->sched_count++;

	if (sched_feat(HRTICK))
		hrtick_clear(rq);

	/* no update_rq_clock() here: deactivate_task() or put_prev_task() */
	prev->need_resched = 0;		/* clear_tsk_need_resched() */

	if (prev->state && !preempt) {
		if (prev->state == TASK_DEAD)
			sched_debug_task_dead(prev);	/* its last switch-out */
		deactivate_task(rq, prev, DEQUEUE_SLEEP);
		switch_count = &prev->nvcsw;
	}

	/* rt: this CPU's best prio drops: pull an rt task (pre_schedule_rt) */
	if (smp && prev->sched_class->pre_schedule)
		prev->sched_class->pre_schedule(rq, prev);

	/* about to idle: pull from a busier CPU first (drops rq->lock) */
	if (smp && unlikely(!rq->nr_running))
		idle_balance(rq->cpu, rq);

	put_prev_task(rq, prev);
	next = pick_next_task(rq);

	if (likely(prev != next)) {
		sched_info_switch(rq, prev, next);
		rq->nr_switches++;
		rq->curr = next;
		++*switch_count;

		if (smp)
			prepare_lock_switch(rq, prev, next);
		context_switch(rq, prev, next);
		if (smp)
			finish_on_cpu(this_rq());
	}

	if (smp)
		post_schedule(this_rq());
	sched_verify_hook(this_rq());	/* the rq locked here: this CPU's */
	if (smp)
		raw_spin_unlock(&this_rq()->lock);
	local_irq_restore(flags);
	if (unlikely(current->need_resched))
		goto need_resched;
}

static noinline void __schedule_smp(int preempt)
{
	__schedule_body(preempt, 1);
}

/*
 * One static-key site chooses.  sched_up_key is on while one CPU is online,
 * so there the site is a nop and the uniprocessor copy follows it: one
 * instruction more than the uniprocessor kernel's schedule().
 */
static noinline void __schedule(int preempt)
{
	if (static_branch_on(&sched_up_key)) {
		__schedule_body(preempt, 0);
		return;
	}
	__schedule_smp(preempt);
}

void schedule(void)
{
	__schedule(0);
}

/*
 * Linux's _cond_resched() (2.6.35 kernel/sched.c): a voluntary preemption
 * point for long loops in kernel code, which is otherwise never preempted.
 * If the tick or a wakeup asked for a switch, switch now; the caller stays
 * on the runqueue (PREEMPT_ACTIVE: an involuntary switch).  Returns 1 if
 * it switched.
 */
int cond_resched(void)
{
	cond_resched_kernel_lock();	/* another CPU waits for the giant lock */
	if (!current->need_resched)
		return 0;
	__schedule(1);
	return 1;
}

/*
 * Preemption from the interrupt-return path: like schedule(), but the
 * interrupted task stays queued whatever its state (PREEMPT_ACTIVE).
 */
void preempt_schedule_irq(void)
{
	__schedule(1);
}

/*
 * A new task's first call (Linux's schedule_tail(), from ret_from_fork and
 * here also from the kernel-thread trampoline): finish the switch that
 * started it, as __schedule() finishes one for a task switched out there -
 * the runqueue invariant check.  Deliberate difference: Linux's
 * finish_task_switch() enables interrupts here and syscall_exit disables
 * them again; Granule leaves them off until the task's first iret (or the
 * trampoline's sti), so no interrupt lands in between - but for a
 * CLONE_CHILD_SETTID write at more than one CPU (fork_child_tail()).
 */
void schedule_tail(void)
{
	if (!static_branch_on(&sched_up_key)) {
		post_schedule(this_rq());
		sched_verify_hook(this_rq());	/* locked since the switch in */
		finish_lock_switch(this_rq());
		return;
	}
	sched_verify_hook(this_rq());
}

/* ---- Nice (prio.c has the policy and PI changes) ------------------------------ */

long task_nice(const struct task *p)
{
	return PRIO_TO_NICE(p->static_prio);
}

/*
 * Set P's nice value: requeue it with the new weight (dequeue/enqueue with
 * flags 0, i.e. through a relative vruntime) and reschedule if it got
 * better (delta < 0) or if it is running and got worse.
 */
void set_user_nice(struct task *p, long nice)
{
	int old_prio, delta, on_rq;
	unsigned long flags;
	struct rq *rq;

	if (task_nice(p) == nice || nice < -20 || nice > 19)
		return;
	if (p == task_rq(p)->idle)
		return;

	rq = task_rq_lock_irqsave(p, &flags);
	update_rq_clock(rq);
	/* rt tasks: static_prio is kept for a later SCHED_NORMAL, nothing moves */
	if (rt_policy((int)p->policy)) {
		p->static_prio = NICE_TO_PRIO(nice);
		task_rq_unlock_irqrestore(rq, &flags);
		return;
	}

	on_rq = p->se.on_rq;
	if (on_rq)
		dequeue_task(rq, p, 0);

	p->static_prio = NICE_TO_PRIO(nice);
	set_load_weight(p);
	old_prio = p->prio;
	p->normal_prio = p->static_prio;	/* normal_prio() of a fair policy */
	/* effective_prio(): a task boosted into rt keeps its boost */
	if (!rt_prio(p->prio))
		p->prio = p->normal_prio;
	delta = p->prio - old_prio;

	if (on_rq) {
		enqueue_task(rq, p, 0);
		/* better (may preempt), or running and worse: reschedule */
		if (delta < 0 || (delta > 0 && task_running(rq, p)))
			resched_task(rq->curr);
	}
	sched_verify_hook(rq);
	task_rq_unlock_irqrestore(rq, &flags);
}

/* ---- Yield -------------------------------------------------------------------- */

static inline void do_sched_yield(struct rq *rq)
{
	rq->yld_count++;
	if (current->sched_class->yield_task)
		current->sched_class->yield_task(rq);
}

/* More than one CPU: the class moves current under this CPU's rq lock
 * (2.6.35's this_rq_lock()), since another CPU may be waking a task onto
 * this queue meanwhile; let go before schedule() takes it again. */
static noinline void sched_yield_smp(struct rq *rq)
{
	raw_spin_lock(&rq->lock);
	do_sched_yield(rq);
	raw_spin_unlock(&rq->lock);
}

/*
 * sched_yield(2): let the class move current (yield_task_fair), then
 * schedule().  Counts as an involuntary switch, as in Linux.  As 2.6.35's
 * sys_sched_yield, interrupts stay off from this_rq_lock() into schedule()
 * ("no need to preempt or enable interrupts"); schedule() gives them back
 * there (finish_task_switch), here right after it.  Called from the system
 * call, with interrupts on.  At one CPU interrupts off are the whole lock
 * and one static-key site (a nop there) is all the SMP half costs.
 */
long sched_yield(void)
{
	struct rq *rq = this_rq();

	local_irq_disable();
	if (static_branch_on(&sched_up_key))
		do_sched_yield(rq);
	else
		sched_yield_smp(rq);
	schedule();
	local_irq_enable();
	return 0;
}

/* ---- Boot ------------------------------------------------------------------------ */

/*
 * Make IDLE the idle task of the runqueue (and the running task): its
 * class is idle, it is never queued, it runs when nothing else can.
 */
void init_idle(struct task *idle, int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	__sched_fork(idle);
	idle->state = TASK_RUNNING;
	idle->se.exec_start = sched_clock();
	idle->cpu = (unsigned int)cpu;		/* 2.6.35: __set_task_cpu(idle, cpu) */
	idle->cpus_allowed = cpumask_of_cpu((unsigned int)cpu);

	rq->curr = rq->idle = idle;
	idle->on_cpu = 1;			/* 2.6.35: idle->oncpu = 1 */
	idle->sched_class = &idle_sched_class;
	rt_mutex_init_task(idle);
}

/* One CPU's runqueue, empty (2.6.35 sched_init()'s loop body). */
static void init_rq(struct rq *rq, int cpu)
{
	memset(rq, 0, sizeof(*rq));
	raw_spin_lock_init(&rq->lock);
	rq->cpu = cpu;
	rq->rd = &def_root_domain;	/* rq_attach_root(); online later */
	rq->cpu_power = 1U << SCHED_LOAD_SHIFT;	/* SCHED_LOAD_SCALE */
	rq->next_balance = jiffies;
	rq->avg_idle = 2 * (u64)sysctl_sched_migration_cost;
	init_cfs_rq(&rq->cfs);
	eevdf_init_cfs_rq(&rq->cfs);		/* EEVDF's part of the cfs_rq */
	init_rt_rq(&rq->rt);
	INIT_LIST_HEAD(&rq->deadline_list);
	calc_load_init(rq);
}

/*
 * Every possible CPU's runqueue, then the boot context as this CPU's idle
 * task (2.6.35 order: the rqs, then init_idle(current, smp_processor_id())).
 */
void sched_init(void)
{
	int cpu = raw_smp_processor_id();
	struct rq *rq = cpu_rq(cpu);
	unsigned int i;

	for_each_possible_cpu(i)
		init_rq(cpu_rq(i), (int)i);
	init_sched_softirq();

	/* the scaled tunables = factor * normalized (factor 1 on UP) */
	update_sysctl();

	memset(&init_task, 0, sizeof(init_task));
	init_task.policy = SCHED_NORMAL;
	init_task.static_prio = init_task.normal_prio = DEFAULT_PRIO;
	init_task.prio = DEFAULT_PRIO;
	init_task.rt.time_slice = HZ;		/* 2.6.35's INIT_TASK: HZ ticks, 1 s */
	init_task.pid = 0;
	strlcpy(init_task.comm, "swapper", sizeof(init_task.comm));

	init_idle(&init_task, cpu);
	set_load_weight(&init_task);
	this_cpu_write(current_task, &init_task);
	update_rq_clock(rq);
	sched_verify_reset();
}

struct task *sched_idle_task(void)
{
	return this_rq()->idle;
}
