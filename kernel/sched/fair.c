/*
 * kernel/sched/fair.c - the Completely Fair Scheduling class (SCHED_NORMAL,
 * SCHED_BATCH, SCHED_IDLE), Linux 2.6.35's kernel/sched_fair.c for one CPU
 * without group scheduling, function by function under the same names.
 *
 * The model: each task has a virtual runtime, its CPU time scaled by
 * NICE_0_LOAD / weight.  The runnable tasks sit in a red-black tree ordered
 * by vruntime; the leftmost (smallest) runs next.  The running entity
 * (cfs_rq->curr) is kept out of the tree.  Time is charged by update_curr()
 * from rq->clock (sched_clock(), refreshed at the tick, on enqueue/dequeue
 * and when schedule() puts back a still-queued task).  vruntime
 * comparisons always use the signed 64-bit difference, so they survive
 * wrap-around (min_vruntime starts at 2^64 - 2^20 to make the wrap happen
 * early).
 *
 * docs/SCHEDULER.md teaches this file with worked numbers and maps it onto
 * Linux 2.6.35's kernel/sched_fair.c.  The variants marked [M1/2], [M2/2],
 * [SN], DEADLINE and CPT_FIX are described in docs/VARIANTS.md (the tags
 * are the sources listed in docs/DEBATE.md) and are off unless a preset or
 * feature bit turns them on.
 */
#include "sched.h"
#include "stats.h"
#include "topology.h"
#include <kernel/hrtick.h>
#include <kernel/math64.h>
#include <kernel/printk.h>
#include <arch/irqflags.h>
#include <arch/linkage.h>

/* **************************************************************************
 * Weight arithmetic
 */

/*
 * delta_exec * weight / lw->weight, in fixed point with the cached inverse
 * lw->inv_weight = 2^32 / lw->weight:
 *	inv = 1 + (WMULT_CONST - W/2) / (W + 1)		(if not yet known)
 *	t = delta_exec * weight				(64-bit)
 *	t > WMULT_CONST:  SRR(SRR(t, 16) * inv, 16)	(avoids overflow)
 *	else:		  SRR(t * inv, 32)
 * clamped to LONG_MAX (2^31 - 1 on i686).  All widths are i686's.
 */
inline u32 calc_delta_mine(u32 delta_exec, u32 weight, struct load_weight *lw)
{
	u64 tmp;

	if (!lw->inv_weight)
		lw->inv_weight = 1 + (WMULT_CONST - lw->weight / 2) /
				     (lw->weight + 1);

	tmp = mul_u32_u32(delta_exec, weight);
	if (unlikely(tmp > WMULT_CONST))
		tmp = SRR(SRR(tmp, WMULT_SHIFT / 2) * lw->inv_weight,
			  WMULT_SHIFT / 2);
	else	/* tmp fits 32 bits: one 32 x 32 -> 64 multiply */
		tmp = SRR(mul_u32_u32((u32)tmp, lw->inv_weight), WMULT_SHIFT);

	return (u32)min(tmp, (u64)LONG_MAX_32);
}

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

/*
 * Wall time -> virtual time: delta * NICE_0_LOAD / se->load.weight
 * (unchanged for nice 0).
 *
 * [SN] START_NICE: while a fork penalty is pending the result is shifted
 * left by it (2^penalty times faster), until sum_exec_runtime passes the
 * timeout, which clears it.  Applies wherever calc_delta_fair is used:
 * update_curr, sched_vslice, and wakeup_gran for a waker that is not
 * nice 0 (wakeup_gran skips the call at NICE_0_LOAD).
 */
inline u32 calc_delta_fair(u32 delta, struct sched_entity *se)
{
	if (unlikely(se->load.weight != NICE_0_LOAD))
		delta = calc_delta_mine(delta, NICE_0_LOAD, &se->load);

	if (se->fork_nice_penality) {
		if ((s64)(se->sum_exec_runtime - se->fork_nice_timeout) > 0) {
			se->fork_nice_penality = 0;
			se->fork_nice_timeout = 0;
		} else {
			delta <<= se->fork_nice_penality;
		}
	}
	return delta;
}

/* **************************************************************************
 * Periods and slices
 */

/*
 * The period in which every runnable task runs once:
 *	p = (nr <= nl) ? latency : nr * min_granularity
 * nl = sched_nr_latency (3 in 2.6.35, 8 since [0bf]).
 * [M1/2] DYN_GRAN: nl = sched_nr_latency_max (8) instead.
 */
u64 __sched_period(u32 nr_running)
{
	u64 period = sysctl_sched_latency;
	u32 nr_latency = sched_nr_latency;

	if (sched_feat(DYN_GRAN))
		nr_latency = sched_nr_latency_max;

	if (unlikely(nr_running > nr_latency)) {
		period = sysctl_sched_min_granularity;
		period *= nr_running;
	}
	return period;
}

/*
 * [M1/2] DYN_GRAN's minimum run before check_preempt_tick's vruntime test:
 *	g = (nr <= sched_nr_latency) ? std_granularity
 *				     : max(latency / nr, min_granularity)
 */
u32 __sched_gran(u32 nr_running)
{
	u32 gran = sysctl_sched_std_granularity;

	if (unlikely(nr_running > sched_nr_latency)) {
		gran = sysctl_sched_latency / nr_running;
		gran = max(gran, sysctl_sched_min_granularity);
	}
	return gran;
}

/*
 * The wall-time slice of SE: its weight's share of the period,
 *	s = p(n) * w_se / W
 * where n and W count SE as if it were queued (n + 1, W + w_se if not).
 * n equal tasks get period / n each.  (The period passes through
 * calc_delta_mine's 32-bit argument, as on i686.)
 */
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = __sched_period(cfs_rq->nr_running + !se->on_rq);
	struct load_weight *load = &cfs_rq->load;
	struct load_weight lw;

	if (unlikely(!se->on_rq)) {
		lw = cfs_rq->load;
		update_load_add(&lw, se->load.weight);
		load = &lw;
	}
	return calc_delta_mine((u32)slice, se->load.weight, load);
}

/* The slice in SE's virtual time: vs = calc_delta_fair(s).  = s at nice 0. */
u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return calc_delta_fair((u32)sched_slice(cfs_rq, se), se);
}

/* **************************************************************************
 * The tree
 */

static inline u64 max_vruntime(u64 min_vruntime, u64 vruntime)
{
	s64 delta = (s64)(vruntime - min_vruntime);

	if (delta > 0)
		min_vruntime = vruntime;
	return min_vruntime;
}

static inline u64 min_vruntime(u64 min_vruntime, u64 vruntime)
{
	s64 delta = (s64)(vruntime - min_vruntime);

	if (delta < 0)
		min_vruntime = vruntime;
	return min_vruntime;
}

int entity_before(struct sched_entity *a, struct sched_entity *b)
{
	return (s64)(a->vruntime - b->vruntime) < 0;
}

/* The tree key: vruntime relative to min_vruntime (signed). */
s64 entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq->min_vruntime);
}

/*
 * min_vruntime follows the smallest vruntime of curr and the leftmost
 * queued entity, but never decreases:
 *	v = curr ? curr.v : old;  if tree: v = curr ? min(v, left.v) : left.v
 *	min_vruntime = max(old, v)
 */
inline void update_min_vruntime(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct rb_node *left = cfs_rq->rb_leftmost;
	u64 vruntime;

	/* (2.6.35's formula; written so that the unchanged case stores
	 * nothing and GCC keeps the 64-bit values in registers) */
	if (left) {
		struct sched_entity *se = rb_entry(left, struct sched_entity, run_node);

		vruntime = se->vruntime;
		if (curr)
			vruntime = min_vruntime(curr->vruntime, vruntime);
	} else if (curr) {
		vruntime = curr->vruntime;
	} else {
		return;		/* max(old, old) */
	}
	if ((s64)(vruntime - cfs_rq->min_vruntime) > 0)
		cfs_rq->min_vruntime = vruntime;
}

/*
 * Insert SE by vruntime.  Equal keys go right, so tasks with the same
 * vruntime run in FIFO order.  Keeps the leftmost cache.
 *
 * 2.6.35 compares the keys relative to min_vruntime,
 * entity_key(se) < entity_key(entry); Linux 3.1 ("sched: Replace use of
 * entity_key()") compares the two vruntimes directly, entity_before(se,
 * entry), as here.  The order is the same whenever both lie within 2^62 ns
 * of min_vruntime (always: the spread is a few latencies), and the loop
 * needs neither min_vruntime nor the cfs_rq, which on i686 frees the two
 * registers the per-CPU rq pointer needs (docs/FASTPATHS.md).
 */
inline void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct rb_node **link = &cfs_rq->tasks_timeline.rb_node;
	struct rb_node *parent = NULL;
	int leftmost = 1;

	while (*link) {
		struct sched_entity *entry;

		parent = *link;
		entry = rb_entry(parent, struct sched_entity, run_node);
		if (entity_before(se, entry)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = 0;
		}
	}

	if (leftmost)
		cfs_rq->rb_leftmost = &se->run_node;

	rb_link_node(&se->run_node, parent, link);
	rb_insert_color(&se->run_node, &cfs_rq->tasks_timeline);
}

inline void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->rb_leftmost == &se->run_node)
		cfs_rq->rb_leftmost = rb_next(&se->run_node);

	rb_erase(&se->run_node, &cfs_rq->tasks_timeline);
}

/* The leftmost queued entity (2.6.35's name; later __pick_first_entity). */
inline struct sched_entity *__pick_next_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = cfs_rq->rb_leftmost;

	if (!left)
		return NULL;
	return rb_entry(left, struct sched_entity, run_node);
}

struct sched_entity *__pick_last_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *last = rb_last(&cfs_rq->tasks_timeline);

	if (!last)
		return NULL;
	return rb_entry(last, struct sched_entity, run_node);
}

/* **************************************************************************
 * Accounting and statistics
 */

/*
 * Charge DELTA_EXEC ns of wall time to CURR:
 *	sum_exec_runtime += delta;  vruntime += calc_delta_fair(delta)
 */
static inline void __update_curr(struct cfs_rq *cfs_rq,
				 struct sched_entity *curr, u32 delta_exec)
{	/* LAB(update_curr) BEGIN */
	u32 delta_exec_weighted;

	/* schedstat: exec_max = max(exec_max, delta), stored only when it grows */
	if (schedstat_enabled() && unlikely(delta_exec > curr->statistics.exec_max))
		curr->statistics.exec_max = delta_exec;

	curr->sum_exec_runtime += delta_exec;
	cfs_rq->exec_clock += delta_exec;
	delta_exec_weighted = calc_delta_fair(delta_exec, curr);

	curr->vruntime += delta_exec_weighted;
	update_min_vruntime(cfs_rq);
}	/* LAB(update_curr) END */

/*
 * update_curr()'s work when there is a delta: out of line and reached by a
 * tail jump, so that update_curr's early returns save no registers (GCC
 * saves them on entry for this part).  On i686 the arguments travel in
 * eax, edx, ecx (__regparm3, arch/linkage.h), so the jump
 * passes what update_curr computed and adds nothing to a real charge.
 */
static noinline __regparm3 void
update_curr_charge(struct cfs_rq *cfs_rq, struct sched_entity *curr, u32 delta_exec)
{
	/* (2.6.35 stores it after __update_curr, which does not read it) */
	curr->exec_start = rq_of(cfs_rq)->clock;
	__update_curr(cfs_rq, curr, delta_exec);
}

/*
 * Account the time curr ran since its exec_start.  The delta is an
 * unsigned long in Linux, 32 bits on i686 (it cannot overflow between
 * ticks).  A zero delta changes nothing: a yield's second call (the clock
 * kept, see put_prev_task) and a wakeup's preemption check after its
 * enqueue return here, as does an idle runqueue (no curr).
 */
noinline void update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	u32 delta_exec;

	if (unlikely(!curr))
		return;
	delta_exec = (u32)rq_of(cfs_rq)->clock - (u32)curr->exec_start;
	if (!delta_exec)
		return;
	update_curr_charge(cfs_rq, curr, delta_exec);
}

/*
 * Picked to run: a new run period starts now (update_curr charges from
 * exec_start; the name is 2.6.35's).
 */
static inline void update_stats_curr_start(struct cfs_rq *cfs_rq,
					   struct sched_entity *se)
{
	se->exec_start = rq_of(cfs_rq)->clock;
}

static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_add(&cfs_rq->load, se->load.weight);
	update_load_add(&rq_of(cfs_rq)->load, se->load.weight); /* inc_cpu_load */
	cfs_rq->nr_running++;
	list_add(&se->group_node, &cfs_rq->tasks);	/* for the balancer */
	se->on_rq = 1;
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_sub(&cfs_rq->load, se->load.weight);
	update_load_sub(&rq_of(cfs_rq)->load, se->load.weight); /* dec_cpu_load */
	cfs_rq->nr_running--;
	list_del(&se->group_node);		/* leaves it empty */
	se->on_rq = 0;
}

/* **************************************************************************
 * Placement, enqueue and dequeue
 */

/*
 * Choose SE's vruntime when it (re)enters the queue:
 *	initial (fork): v = min_vruntime + (START_DEBIT ? vslice(se) : 0),
 *		vslice computed as if se were already queued (n+1, W+w);
 *	wakeup:	v = min_vruntime - latency (GENTLE_FAIR_SLEEPERS: latency/2),
 *		a raw, unweighted sleeper credit;
 *	se.vruntime = max(se.vruntime, v): never gain by being placed back.
 * So a fork starts at max(parent, min_vruntime + vslice), a long sleeper
 * at min_vruntime - 3 ms, and a short sleeper keeps its own vruntime.
 */
noinline void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial)
{	/* LAB(place_entity) BEGIN */
	u64 vruntime = cfs_rq->min_vruntime;

	/* START_DEBIT: the fork pays one vslice up front (next period) */
	if (initial && sched_feat(START_DEBIT))
		vruntime += sched_vslice(cfs_rq, se);

	/* wakeup: credit up to one latency (half with GENTLE) of sleep */
	if (!initial) {
		u32 thresh = sysctl_sched_latency;

		if (sched_feat(GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;

		vruntime -= thresh;
		/* [M2/2] shield the woken sleeper's first run (0 = off) */
		se->sleeper_wakeup_slice = sysctl_sched_sleeper_wakeup_slice;
	}

	/* the later of the two: placement may only delay, never advance */
	se->vruntime = max_vruntime(se->vruntime, vruntime);
}	/* LAB(place_entity) END */

/*
 * Queue SE.  Except for a plain wakeup, the stored vruntime is relative
 * (fork, nice/policy change) and min_vruntime is added back.  On UP a
 * sleeper keeps its absolute vruntime and place_entity() adjusts it.
 */
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	if (!(flags & ENQUEUE_WAKEUP) || (flags & ENQUEUE_WAKING))
		se->vruntime += cfs_rq->min_vruntime;

	update_curr(cfs_rq);		/* charge curr up to now first */
	account_entity_enqueue(cfs_rq, se);

	if (flags & ENQUEUE_WAKEUP) {
		place_entity(cfs_rq, se, 0);
		enqueue_sleeper(cfs_rq, se);
	}

	update_stats_enqueue(cfs_rq, se);
	check_spread(cfs_rq, se);
	if (se != cfs_rq->curr)
		__enqueue_entity(cfs_rq, se);
	if (se->deadline)
		deadline_enqueue(rq_of(cfs_rq), se);
}

static void __clear_buddies_last(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (cfs_rq->last == se)
		cfs_rq->last = NULL;
}

static void __clear_buddies_next(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
}

/* Forget SE as next/last buddy. */
inline void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->last == se)
		__clear_buddies_last(se);

	if (cfs_rq->next == se)
		__clear_buddies_next(se);
}

/*
 * Unqueue SE.  A sleep (DEQUEUE_SLEEP) keeps vruntime absolute; anything
 * else (nice or policy change) makes it relative to min_vruntime, taken
 * after update_min_vruntime() so that it reflects curr's movement.
 */
void dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	update_curr(cfs_rq);		/* charge curr up to now first */

	update_stats_dequeue(cfs_rq, se);
	if (schedstat_enabled() && (flags & DEQUEUE_SLEEP)) {
		struct task *tsk = task_of(se);

		if (tsk->state & TASK_INTERRUPTIBLE)
			se->statistics.sleep_start = rq_of(cfs_rq)->clock;
		if (tsk->state & TASK_UNINTERRUPTIBLE)
			se->statistics.block_start = rq_of(cfs_rq)->clock;
	}

	clear_buddies(cfs_rq, se);

	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	if (se->deadline)
		deadline_dequeue(se);
	account_entity_dequeue(cfs_rq, se);
	update_min_vruntime(cfs_rq);

	/*
	 * Made relative only now: update_min_vruntime() above may have moved
	 * min_vruntime (curr's progress), and the re-enqueue adds the value
	 * current at that time.
	 */
	if (!(flags & DEQUEUE_SLEEP))
		se->vruntime -= cfs_rq->min_vruntime;

	/* [SN] any dequeue ends a START_NICE penalty */
	if (se->fork_nice_penality) {
		se->fork_nice_penality = 0;
		se->fork_nice_timeout = 0;
	}
}

/* **************************************************************************
 * Preemption
 */

/*
 * The tick's preemption check for the running entity:
 *  1. ideal = sched_slice(curr); ran = sum_exec - prev_sum_exec;
 *  2. ran > ideal: reschedule, drop curr's buddy favours, stop;
 *  3. !WAKEUP_PREEMPT: stop;
 *  4. ran < min_granularity: stop;
 *  5. nr_running > 1 and curr.vruntime - leftmost.vruntime > ideal:
 *     reschedule (a virtual lead against a wall-time slice: the two agree
 *     only at nice 0).
 * Steps 3-5 are new in 2.6.35.  Variants: [M2/2] adds a shield between
 * 3 and 4; [M1/2] DYN_GRAN replaces 4's min_granularity by __sched_gran;
 * CPT_FIX compares 5 against calc_delta_fair(ideal); DEADLINE (ours)
 * first reschedules when an unrun fork's deadline has passed.
 */
noinline void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{	/* LAB(check_preempt_tick) BEGIN */
	u32 ideal_runtime, delta_exec, gran;

	/* DEADLINE (ours): a fork waited a whole period: let it in now. */
	if (expired_deadline_entity(rq_of(cfs_rq))) {
		resched_task(rq_of(cfs_rq)->curr);
		return;
	}

	ideal_runtime = (u32)sched_slice(cfs_rq, curr);
	delta_exec = (u32)(curr->sum_exec_runtime - curr->prev_sum_exec_runtime);
	if (delta_exec > ideal_runtime) {
		resched_task(rq_of(cfs_rq)->curr);
		/* its slice is used up: no buddy bonus may pick it again */
		clear_buddies(cfs_rq, curr);
		return;
	}

	/*
	 * Steps 3-5 (new in 2.6.35): a woken task that just failed to
	 * preempt, or a buddy that cut in, gets the CPU at a later tick
	 * instead of waiting for curr's whole slice.
	 */
	if (!sched_feat(WAKEUP_PREEMPT))
		return;

	/* [M2/2] a woken sleeper's first sleeper_wakeup_slice is shielded */
	if (delta_exec < curr->sleeper_wakeup_slice)
		return;
	curr->sleeper_wakeup_slice = 0;

	gran = sysctl_sched_min_granularity;
	if (sched_feat(DYN_GRAN))
		gran = __sched_gran(cfs_rq->nr_running);	/* [M1/2] */
	if (delta_exec < gran)
		return;

	if (cfs_rq->nr_running > 1) {
		struct sched_entity *se = __pick_next_entity(cfs_rq);
		s64 delta = (s64)(curr->vruntime - se->vruntime);
		u32 limit = ideal_runtime;

		if (sched_feat(CPT_FIX))	/* a guess, see features.h */
			limit = calc_delta_fair(ideal_runtime, curr);
		if (delta > (s64)limit)
			resched_task(rq_of(cfs_rq)->curr);
	}
}	/* LAB(check_preempt_tick) END */

/*
 * Start running SE: take it out of the tree, start its run period and
 * snapshot sum_exec_runtime (check_preempt_tick measures from there).
 */
inline void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct rq *rq = rq_of(cfs_rq);

	/* the running entity lives outside the tree; its wait ends here */
	if (se->on_rq) {
		update_stats_wait_end(cfs_rq, se);
		__dequeue_entity(cfs_rq, se);
	}

	update_stats_curr_start(cfs_rq, se);
	cfs_rq->curr = se;
	/* schedstats: longest run between picks, counted only while others
	 * queued weigh at least as much as se (rq load >= 2 w) */
	if (schedstat_enabled() && rq->load.weight >= 2 * se->load.weight) {
		u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;

		if (ran > se->statistics.slice_max)
			se->statistics.slice_max = ran;
	}
	se->prev_sum_exec_runtime = se->sum_exec_runtime;

	/* DEADLINE (ours, deadline.c): it has run, the deadline is met */
	if (se->deadline) {
		deadline_dequeue(se);
		se->deadline = 0;
	}
}

/*
 * Pick the next entity: the leftmost, unless a buddy is within one wakeup
 * granularity of it (wakeup_preempt_entity(buddy, left) < 1):
 *	next buddy (the last woken, NEXT_BUDDY) beats the leftmost,
 *	last buddy (the one just preempted, LAST_BUDDY) beats both.
 * DEADLINE (ours): an expired unrun fork beats all of them.
 * The chosen entity loses any buddy status.
 */
inline struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq)
{	/* LAB(pick_next_entity) BEGIN */
	struct sched_entity *se = __pick_next_entity(cfs_rq);
	struct sched_entity *left = se;
	struct sched_entity *dl;

	if (cfs_rq->next && wakeup_preempt_entity(cfs_rq->next, left) < 1)
		se = cfs_rq->next;

	/* checked second, so it wins: give the CPU back to whom we preempted */
	if (cfs_rq->last && wakeup_preempt_entity(cfs_rq->last, left) < 1)
		se = cfs_rq->last;

	dl = expired_deadline_entity(rq_of(cfs_rq));
	if (dl)
		se = dl;

	clear_buddies(cfs_rq, se);
	return se;
}	/* LAB(pick_next_entity) END */

/* Stop running PREV: account it and, if still queued, put it back. */
inline void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	/* a sleeper was charged by dequeue_entity(); a preempted task not yet */
	if (prev->on_rq)
		update_curr(cfs_rq);

	check_spread(cfs_rq, prev);
	if (prev->on_rq) {
		update_stats_wait_start(cfs_rq, prev);
		__enqueue_entity(cfs_rq, prev);	/* back in the tree, waiting */
	}
	cfs_rq->curr = NULL;
}

/*
 * Periodic (queued = 0) or hrtick (queued = 1) tick for the running entity:
 *  1. update_curr;
 *  2. an hrtick reschedules at once; an armed hrtick (without DOUBLE_TICK)
 *     makes the periodic tick skip the check;
 *  3. check_preempt_tick if nr_running > 1 or WAKEUP_PREEMPT is off.
 */
void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued)
{
	update_curr(cfs_rq);

	/* the hrtick was armed for the slice end: no check needed */
	if (queued) {
		resched_task(rq_of(cfs_rq)->curr);
		return;
	}
	/* an armed hrtick owns preemption unless DOUBLE_TICK */
	if (!sched_feat(DOUBLE_TICK) && rq_of(cfs_rq)->hrtick_active)
		return;

	if (cfs_rq->nr_running > 1 || !sched_feat(WAKEUP_PREEMPT))
		check_preempt_tick(cfs_rq, curr);
}

/* **************************************************************************
 * HRTICK: program the one-shot timer for the end of the slice.
 */

/*
 * With more than one task queued, arm the hrtick for slice - ran:
 * overrun -> reschedule now (if P runs); not yet running -> at least 10 us.
 */
static inline void hrtick_start_fair(struct rq *rq, struct task *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = &rq->cfs;	/* cfs_rq_of(se): P is on RQ */

	if (hrtick_enabled(rq) && cfs_rq->nr_running > 1) {
		u64 slice = sched_slice(cfs_rq, se);
		u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
		s64 delta = (s64)(slice - ran);

		if (delta < 0) {
			if (rq->curr == p)
				resched_task(p);
			return;
		}

		/* a task about to start gets at least 10 us; shorter timer
		 * shots cost more than they buy (vruntime keeps it fair) */
		if (rq->curr != p)
			delta = max(10000LL, (long long)delta);

		hrtick_start(rq, (u64)delta);
	}
}

/*
 * Called on enqueue/dequeue: re-arm for the changed slice, but only while
 * nr_running < sched_nr_latency (beyond it the period stretches anyway).
 */
static void hrtick_update(struct rq *rq)
{
	struct task *curr = rq->curr;

	if (curr->sched_class != &fair_sched_class)
		return;

	if (rq->cfs.nr_running < sched_nr_latency)	/* cfs_rq_of(&curr->se) */
		hrtick_start_fair(rq, curr);
}

/* **************************************************************************
 * The class hooks
 */

static void enqueue_task_fair(struct rq *rq, struct task *p, int flags)
{
	struct sched_entity *se = &p->se;

	if (!se->on_rq)
		enqueue_entity(&rq->cfs, se, flags);	/* cfs_rq_of(se): P is on RQ */
	hrtick_update(rq);
}

static void dequeue_task_fair(struct rq *rq, struct task *p, int flags)
{
	struct sched_entity *se = &p->se;

	dequeue_entity(&rq->cfs, se, flags);	/* cfs_rq_of(se) */
	hrtick_update(rq);
}

/*
 * sched_yield(): by default (compat_yield = 0, not SCHED_BATCH) only
 * update_curr, so the task may well be picked again; in compat mode or for
 * SCHED_BATCH, vruntime = rightmost + 1 (behind everyone) unless already
 * last.  A task alone on the queue does nothing.
 */
static void yield_task_fair(struct rq *rq)
{
	struct task *curr = rq->curr;
	struct cfs_rq *cfs_rq = &rq->cfs;	/* task_cfs_rq(curr) */
	struct sched_entity *rightmost, *se = &curr->se;

	/* nobody to yield to */
	if (unlikely(cfs_rq->nr_running == 1))
		return;

	clear_buddies(cfs_rq, se);

	if (likely(!sysctl_sched_compat_yield) && curr->policy != SCHED_BATCH) {
		update_rq_clock(rq);
		update_curr(cfs_rq);	/* only accounting: it may run on */
		/* Linux 6.1's rq_clock_skip_update(): "we've just updated, so
		 * we don't do microscopic update in schedule() and double the
		 * fastpath cost" (put_prev_task consumes it) */
		rq->skip_clock_update = 1;
		return;
	}
	rightmost = __pick_last_entity(cfs_rq);
	if (unlikely(!rightmost || entity_before(rightmost, se)))
		return;			/* already behind everyone */

	/*
	 * One ns past the last queued entity; put_prev_entity() inserts
	 * curr with this key when schedule() follows.
	 */
	se->vruntime = rightmost->vruntime + 1;
}

/*
 * The wakeup granularity in virtual time, converted with the weight of SE
 * (the woken task), not curr's: a light task waking gets a larger gran
 * (preempts less easily), a heavy one a smaller gran.
 *	gran = se.weight == NICE_0_LOAD ? wakeup_granularity
 *					: calc_delta_fair(wakeup_granularity, se)
 */
u32 wakeup_gran(struct sched_entity *curr, struct sched_entity *se)
{
	u32 gran = sysctl_sched_wakeup_granularity;

	/*
	 * Either way the lighter of the two loses: a light SE needs a
	 * larger lead to preempt, and a light curr is preempted by a
	 * heavy SE with a smaller one.  pick_next_entity() uses the same
	 * test with SE = the leftmost, so a buddy must be close to it.
	 * As 2.6.35, the conversion is skipped for a nice-0 SE, so an [SN]
	 * START_NICE penalty (applied inside calc_delta_fair) enlarges the
	 * gran of a penalised waker only when its weight is not nice 0.
	 */
	if (unlikely(se->load.weight != NICE_0_LOAD))
		gran = calc_delta_fair(gran, se);

	return gran;
}

/*
 * How far is SE behind CURR?  vdiff = curr.vruntime - se.vruntime
 *
 *   se.vruntime:   < curr.v - gran   [curr.v - gran, curr.v)   >= curr.v
 *   ---------------------------------|------------------------|----------->
 *   result:             +1                       0                 -1
 *
 * +1 (vdiff > gran) means "preempt"; the pick uses "< 1" for buddies.
 */
int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se)
{
	s64 gran, vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;

	gran = wakeup_gran(curr, se);
	if (vdiff > gran)
		return 1;

	return 0;
}

static void set_last_buddy(struct sched_entity *se)
{
	if (likely(task_of(se)->policy != SCHED_IDLE))
		cfs_rq_of(se)->last = se;
}

static void set_next_buddy(struct sched_entity *se)
{
	if (likely(task_of(se)->policy != SCHED_IDLE))
		cfs_rq_of(se)->next = se;
}

/*
 * Preempt the current task with a newly woken task if needed (every
 * wakeup, and wake_up_new_task with WF_FORK), in 2.6.35's nine steps:
 * RT waker preempts; other class or self: nothing; NEXT_BUDDY; curr
 * already rescheduling: stop; BATCH/IDLE waker: stop; SCHED_IDLE curr:
 * preempt; !WAKEUP_PREEMPT: stop; update_curr and wakeup_preempt_entity;
 * on preemption, LAST_BUDDY.  Buddies only when nr_running >=
 * sched_nr_latency.
 */
static noinline void check_preempt_wakeup(struct rq *rq, struct task *p, int wake_flags)
{
	struct task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs_rq = &rq->cfs;	/* task_cfs_rq(curr) */
	int scale = cfs_rq->nr_running >= sched_nr_latency;

	if (unlikely(rt_prio(p->prio)))
		goto preempt;

	if (unlikely(p->sched_class != &fair_sched_class))
		return;

	if (unlikely(se == pse))
		return;

	if (sched_feat(NEXT_BUDDY) && scale && !(wake_flags & WF_FORK))
		set_next_buddy(pse);

	/* already going to reschedule (e.g. child_runs_first at fork) */
	if (curr->need_resched)
		return;

	/* SCHED_BATCH and SCHED_IDLE wakers wait for the tick */
	if (unlikely(p->policy != SCHED_NORMAL))
		return;

	/* a SCHED_IDLE curr yields to any normal waker */
	if (unlikely(curr->policy == SCHED_IDLE))
		goto preempt;

	if (!sched_feat(WAKEUP_PREEMPT))
		return;

	update_curr(cfs_rq);
	if (wakeup_preempt_entity(se, pse) == 1)
		goto preempt;

	return;

preempt:
	resched_task(curr);
	/* the preempted task may become the last buddy: only if it is still
	 * queued, and never the idle task */
	if (unlikely(!se->on_rq || curr == rq->idle))
		return;

	if (sched_feat(LAST_BUDDY) && scale)
		set_last_buddy(se);
}

static struct task *pick_next_task_fair(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se;
	struct task *p;

	if (!cfs_rq->nr_running)
		return NULL;

	se = pick_next_entity(cfs_rq);
	set_next_entity(cfs_rq, se);

	p = task_of(se);
	hrtick_start_fair(rq, p);

	return p;
}

/* PREV leaves the CPU (preempted, yielding or asleep). */
static void put_prev_task_fair(struct rq *rq, struct task *prev)
{
	put_prev_entity(&rq->cfs, &prev->se);	/* cfs_rq_of(&prev->se) */
}

/*
 * The running task was requeued by a policy change (sched_setscheduler):
 * make it the cfs_rq's curr again.
 */
static void set_curr_task_fair(struct rq *rq)
{
	struct sched_entity *se = &rq->curr->se;

	set_next_entity(&rq->cfs, se);		/* cfs_rq_of(se) */
}

/* Called on the tick (and the hrtick, queued = 1) while P runs. */
static void task_tick_fair(struct rq *rq, struct task *curr, int queued)
{
	entity_tick(&rq->cfs, &curr->se, queued);	/* cfs_rq_of(&curr->se) */
}

/*
 * A child P is forked (in the parent's context; P is not queued yet):
 *  1. (2.6.36) refresh the rq clock; update_curr;
 *  2. child.vruntime = parent's;  [SN] START_NICE penalties;
 *  3. place_entity(initial = 1);
 *  4. child_runs_first and parent before child: swap them, resched parent;
 *  5. make the child's vruntime relative (wake_up_new_task adds it back).
 */
static void task_fork_fair(struct task *p)
{
	struct cfs_rq *cfs_rq = task_cfs_rq(current);
	struct sched_entity *se = &p->se, *curr = cfs_rq->curr;
	struct rq *rq = this_rq();
	unsigned long flags;

	local_irq_save(flags);

	if (sysctl_sched_fork_update_clock)	/* 2.6.36 */
		update_rq_clock(rq);

	update_curr(cfs_rq);

	if (curr) {
		se->vruntime = curr->vruntime;
		if (sched_feat(START_NICE)) {	/* LAB(start_nice) BEGIN */
			/* [SN] an expired penalty of the parent is dropped */
			if (curr->fork_nice_penality &&
			    (s64)(curr->sum_exec_runtime -
				  curr->fork_nice_timeout) > 0) {
				curr->fork_nice_penality = 0;
				curr->fork_nice_timeout = 0;
			}
			/* the penalty lasts until the parent's slice ends */
			if (!curr->fork_nice_timeout)
				curr->fork_nice_timeout = curr->sum_exec_runtime;
			curr->fork_nice_timeout += sched_slice(cfs_rq, curr);
			/* each fork within it doubles the speed, up to 2^8 */
			curr->fork_nice_penality =
				min_t(unsigned int, curr->fork_nice_penality + 1, 8);
			/* the child gets what is left (its runtime starts at 0) */
			se->fork_nice_timeout = curr->fork_nice_timeout -
						curr->sum_exec_runtime;
			se->fork_nice_penality = curr->fork_nice_penality;
		}	/* LAB(start_nice) END */
	}
	place_entity(cfs_rq, se, 1);

	if (sysctl_sched_child_runs_first && curr && entity_before(curr, se)) {
		/* the parent is requeued with the new key when it schedules */
		u64 tmp = curr->vruntime;

		curr->vruntime = se->vruntime;
		se->vruntime = tmp;
		resched_task(rq->curr);
	}

	/* DEADLINE (ours): run it at the latest one period from now */
	if (sched_feat(DEADLINE)) {
		se->deadline = rq->clock + __sched_period(cfs_rq->nr_running + 1);
		if (!se->deadline)
			se->deadline = 1;	/* 0 means none */
	}

	se->vruntime -= cfs_rq->min_vruntime;

	local_irq_restore(flags);
}

/*
 * P's priority changed: if P runs and got worse, reschedule; if P waits,
 * see whether it now preempts current.
 */
static void prio_changed_fair(struct rq *rq, struct task *p, int oldprio,
			      int running)
{
	if (running) {
		if (p->prio > oldprio)
			resched_task(rq->curr);
	} else {
		check_preempt_curr(rq, p, 0);
	}
}

/*
 * P entered the fair class (from rt: a policy change or the end of a PI
 * boost): reschedule if it runs, else check preemption.
 */
static void switched_to_fair(struct rq *rq, struct task *p, int running)
{
	if (running)
		resched_task(rq->curr);
	else
		check_preempt_curr(rq, p, 0);
}

/* sched_rr_get_interval(2): the slice, 0 on an otherwise idle runqueue. */
static unsigned int get_rr_interval_fair(struct rq *rq, struct task *p)
{
	if (!rq->cfs.load.weight)
		return 0;
	return NS_TO_JIFFIES(sched_slice(&rq->cfs, &p->se));
}

void init_cfs_rq(struct cfs_rq *cfs_rq)
{
	cfs_rq->tasks_timeline = RB_ROOT;
	cfs_rq->rb_leftmost = NULL;
	INIT_LIST_HEAD(&cfs_rq->tasks);
	/* so that wrap-around of vruntime is exercised early */
	cfs_rq->min_vruntime = (u64)(-(1LL << 20));
}

/* The fair class; next in the chain is the idle class. */
/*
 * CFS's hooks.  fair_sched_class, the class every fair task points to, is
 * a copy of one of two tables, made by sched_preset= at boot: this one
 * (cfs_sched_class) or EEVDF's (eevdf_sched_class, eevdf_class.c).  A copy
 * rather than a pointer keeps CFS's paths instruction for instruction as
 * they were (Granule's tests compare exact timings under -icount), and so
 * does declaring it const to its users (sched.h): it is written only by
 * sched_select_fair_class(), at boot, before any task exists.  Its
 * definition here is writable, under the same symbol.
 */
#define CFS_SCHED_CLASS {						\
	.next			= &idle_sched_class,			\
	.enqueue_task		= enqueue_task_fair,			\
	.dequeue_task		= dequeue_task_fair,			\
	.yield_task		= yield_task_fair,			\
	.check_preempt_curr	= check_preempt_wakeup,			\
	.pick_next_task		= pick_next_task_fair,			\
	.put_prev_task		= put_prev_task_fair,			\
	.set_curr_task		= set_curr_task_fair,			\
	.task_tick		= task_tick_fair,			\
	.task_fork		= task_fork_fair,			\
	.prio_changed		= prio_changed_fair,			\
	.switched_to		= switched_to_fair,			\
	.get_rr_interval	= get_rr_interval_fair,			\
	.select_task_rq		= select_task_rq_fair,			\
	.task_waking		= task_waking_fair,			\
	.name			= "fair",				\
}
const struct sched_class cfs_sched_class = CFS_SCHED_CLASS;
struct sched_class fair_sched_class_rw __asm__("fair_sched_class") = CFS_SCHED_CLASS;
