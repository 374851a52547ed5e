/*
 * kernel/sched/eevdf.c - the EEVDF fair class, part 1: virtual time V, lag,
 * eligibility, virtual deadlines, the augmented tree, the EEVDF pick and
 * lag-based placement.  Linux 6.12's kernel/sched/fair.c (Debian's
 * linux-source-6.12, 6.12.95) for one CPU without cgroups, function by
 * function under the same names (see eevdf.h for the symbol mapping that
 * lets them coexist with CFS's fair.c).  eevdf_class.c has the rest.
 *
 * The model (Stoica & Abdel-Wahab 1995, "Earliest Eligible Virtual
 * Deadline First"):
 *  - each entity i has vruntime v_i (its CPU time scaled by 1024 / w_i)
 *    and requests slices of r_i ns (sysctl_sched_base_slice, 0.70 ms, or
 *    its own, set by sched_setattr);
 *  - V = sum(w_i * v_i) / sum(w_i) over the queued entities (curr
 *    included) is the virtual time of an ideal fair scheduler;
 *  - lag_i = w_i * (V - v_i) is the service owed to i; sum(lag_i) = 0;
 *  - i is eligible iff lag_i >= 0, i.e. v_i <= V;
 *  - its virtual deadline is vd_i = v_i + r_i * 1024 / w_i;
 *  - the pick: the eligible entity with the earliest virtual deadline.
 *
 * Widths are i686's: Linux's "long"/"unsigned long" are 32 bits, the
 * sums and times are 64 bits; on 32-bit there is no extra load resolution
 * (scale_load_down(w) = w, NICE_0_LOAD = 1024).
 */
#include "eevdf.h"
#include <kernel/rbtree_augmented.h>
#include <kernel/math64.h>
#include <kernel/time.h>
#include <kernel/printk.h>

/* Linux 6.12: 0.70 ms * (1 + ilog2(ncpus)) (factor 1 here). */
u32 sysctl_sched_base_slice = 700000U;
u32 normalized_sysctl_sched_base_slice = 700000U;

/* **************************************************************************
 * Weight arithmetic (Linux 6.12's __calc_delta)
 */

/* fls(): 1-based index of the most significant set bit, 0 for 0. */
static inline int fls32(u32 x)
{
	int r = 0;

	while (x) {
		x >>= 1;
		r++;
	}
	return r;
}

/* lw->inv_weight = WMULT_CONST / w, computed once (0 = unknown). */
static void __update_inv_weight(struct load_weight *lw)
{
	u32 w;

	if (likely(lw->inv_weight))
		return;
	w = lw->weight;
	if (unlikely(!w))
		lw->inv_weight = WMULT_CONST;
	else
		lw->inv_weight = WMULT_CONST / w;
}

/*
 * delta_exec * weight / lw->weight, as
 *	(delta_exec * (weight * lw->inv_weight)) >> 32
 * with the 64-bit factor shifted down to 32 bits first (shift reduced to
 * match), then a 64x32-bit multiply keeping the high part.
 */
static u64 __calc_delta(u64 delta_exec, u32 weight, struct load_weight *lw)
{
	u64 fact = weight;
	int shift = WMULT_SHIFT;
	u32 fact_hi;
	int fs;

	__update_inv_weight(lw);

	fact = (u64)(u32)fact * lw->inv_weight;		/* mul_u32_u32 */

	fact_hi = (u32)(fact >> 32);
	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	return mul_u64_u32_shr(delta_exec, (u32)fact, (unsigned int)shift);
}

/* Wall time -> SE's virtual time: delta * 1024 / w (delta at nice 0). */
u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (unlikely(se->load.weight != NICE_0_LOAD))
		delta = __calc_delta(delta, NICE_0_LOAD, &se->load);

	return delta;
}

/* **************************************************************************
 * V, lag and eligibility
 */

/* The tree is ordered by virtual deadline (ties: the later one goes right). */
int entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return (s64)(a->deadline - b->deadline) < 0;
}

/* v_i - v0, with v0 = zero_vruntime: small (about two lag bounds). */
s64 entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return (s64)(se->vruntime - eevdf_rq(cfs_rq)->zero_vruntime);
}

/*
 * V = sum(w_i * v_i) / W is kept relative to v0 = zero_vruntime, so that
 * the products stay small:
 *	V = sum(w_i * (v_i - v0)) / W + v0
 *	avg_vruntime = sum(w_i * (v_i - v0)),  avg_load = W
 * over the entities in the tree (curr is added in where needed).
 */
static void avg_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u32 weight = se->load.weight;		/* scale_load_down() */
	s64 key = entity_key(cfs_rq, se);

	eevdf_rq(cfs_rq)->avg_vruntime += key * weight;
	eevdf_rq(cfs_rq)->avg_load += weight;
}

static void avg_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u32 weight = se->load.weight;
	s64 key = entity_key(cfs_rq, se);

	eevdf_rq(cfs_rq)->avg_vruntime -= key * weight;
	eevdf_rq(cfs_rq)->avg_load -= weight;
}

/* Move v0 by DELTA: v0' = v0 + d  =>  avg_vruntime' = avg_vruntime - d * W. */
static inline void update_zero_vruntime(struct cfs_rq *cfs_rq, s64 delta)
{
	eevdf_rq(cfs_rq)->avg_vruntime -= (s64)eevdf_rq(cfs_rq)->avg_load * delta;
	eevdf_rq(cfs_rq)->zero_vruntime += delta;
}

/*
 * V, computed with a floor (a left bias, so that an entity placed at
 * avg_vruntime() is eligible), and made the new v0: zero_vruntime follows
 * V at every placement, lag update and deadline renewal.
 */
u64 avg_vruntime(struct cfs_rq *cfs_rq)
{	/* LAB(eevdf_pick) BEGIN */
	struct sched_entity *curr = cfs_rq->curr;
	long weight = (long)eevdf_rq(cfs_rq)->avg_load;	/* 32 bits on i686 */
	s64 delta = 0;

	if (curr && !curr->on_rq)
		curr = NULL;

	if (weight) {
		s64 runtime = eevdf_rq(cfs_rq)->avg_vruntime;

		if (curr) {
			u32 w = curr->load.weight;

			runtime += entity_key(cfs_rq, curr) * w;
			weight += (long)w;
		}

		/* sign flips effective floor / ceiling */
		if (runtime < 0)
			runtime -= (weight - 1);

		delta = div_s64(runtime, (s32)weight);
	} else if (curr) {
		/* when there is but one element, it is the average */
		delta = (s64)(curr->vruntime - eevdf_rq(cfs_rq)->zero_vruntime);
	}

	update_zero_vruntime(cfs_rq, delta);

	return eevdf_rq(cfs_rq)->zero_vruntime;
}	/* LAB(eevdf_pick) END */

/*
 * The virtual lag V - v_i, clamped to +-calc_delta_fair(max(2 * slice,
 * TICK_NSEC)): adding and removing entities moves V, and without a bound
 * lag could grow beyond what EEVDF guarantees (-r_max < lag < max(r_max, q)).
 */
s64 entity_lag(u64 avruntime, struct sched_entity *se)
{
	s64 vlag, limit;

	vlag = (s64)(avruntime - se->vruntime);
	limit = (s64)calc_delta_fair(max(2 * (u64)se->slice, TICK_NSEC), se);

	return clamp(vlag, -limit, limit);
}

/* Before a dequeue: remember the lag, to be restored by place_entity(). */
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	se->vlag = entity_lag(avg_vruntime(cfs_rq), se);
}

/*
 * Is VRUNTIME eligible (lag >= 0, v <= V)?  Without the division:
 *	V >= v  <=>  sum(w_j * (v_j - v0)) >= (v - v0) * W
 * (avg_vruntime() > v would lose precision to the division).
 */
int vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime)
{	/* LAB(eevdf_pick) BEGIN */
	struct sched_entity *curr = cfs_rq->curr;
	s64 avg = eevdf_rq(cfs_rq)->avg_vruntime;
	long load = (long)eevdf_rq(cfs_rq)->avg_load;

	if (curr && curr->on_rq) {
		u32 weight = curr->load.weight;

		avg += entity_key(cfs_rq, curr) * weight;
		load += (long)weight;
	}

	return avg >= (s64)(vruntime - eevdf_rq(cfs_rq)->zero_vruntime) * load;
}	/* LAB(eevdf_pick) END */

int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

/* **************************************************************************
 * The tree: ordered by deadline, a heap on vruntime through min_vruntime
 */

static inline void __min_vruntime_update(struct sched_entity *se,
					 struct rb_node *node)
{
	if (node) {
		struct sched_entity *rse = __node_2_se(node);

		if ((s64)(se->min_vruntime - rse->min_vruntime) > 0)	/* vruntime_gt */
			se->min_vruntime = rse->min_vruntime;
	}
}

/*
 * The augment compute (Linux's min_vruntime_update):
 *	se->min_vruntime = min(se->vruntime, children's min_vruntime)
 * Returns true if it did not change.  (Linux 6.12 also keeps min_slice
 * this way, for group entities' slices only: not kept here, no cgroups.)
 */
bool min_vruntime_update(struct rb_node *node)
{
	struct sched_entity *se = __node_2_se(node);
	u64 old_min_vruntime = se->min_vruntime;

	se->min_vruntime = se->vruntime;
	__min_vruntime_update(se, node->rb_right);
	__min_vruntime_update(se, node->rb_left);

	return se->min_vruntime == old_min_vruntime;
}

/* Insert SE by deadline (equal deadlines stay FIFO) and count it in V. */
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct rb_node **link = &cfs_rq->tasks_timeline.rb_node;
	struct rb_node *parent = NULL;
	int leftmost = 1;

	avg_vruntime_add(cfs_rq, se);
	se->min_vruntime = se->vruntime;

	while (*link) {
		parent = *link;
		if (entity_before(se, __node_2_se(parent))) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = 0;
		}
	}
	if (leftmost)				/* rb_add_augmented_cached */
		cfs_rq->rb_leftmost = &se->run_node;
	rb_link_node(&se->run_node, parent, link);
	rb_insert_augmented(&se->run_node, &cfs_rq->tasks_timeline,
			    min_vruntime_update);
}

void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->rb_leftmost == &se->run_node)
		cfs_rq->rb_leftmost = rb_next(&se->run_node);
	rb_erase_augmented(&se->run_node, &cfs_rq->tasks_timeline,
			   min_vruntime_update);
	avg_vruntime_sub(cfs_rq, se);
}

struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *root = cfs_rq->tasks_timeline.rb_node;

	return root ? __node_2_se(root) : NULL;
}

struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = cfs_rq->rb_leftmost;

	return left ? __node_2_se(left) : NULL;
}

struct sched_entity *__pick_last_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *last = rb_last(&cfs_rq->tasks_timeline);

	return last ? __node_2_se(last) : NULL;
}

/*
 * RUN_TO_PARITY: at pick time the deadline is stashed in vlag (unused
 * until the dequeue); while the two are equal current's slice is
 * protected from wakeup preemption.
 */
void set_protect_slice(struct sched_entity *se)
{
	se->vlag = (s64)se->deadline;
}

bool protect_slice(struct sched_entity *se)
{
	return se->vlag == (s64)se->deadline;
}

void cancel_protect_slice(struct sched_entity *se)
{
	if (protect_slice(se))
		se->vlag = (s64)se->deadline + 1;
}

/*
 * Earliest Eligible Virtual Deadline First, in O(log n): the tree is
 * sorted on deadline and every node knows the smallest vruntime below it,
 * so a subtree with no eligible entity (min_vruntime > V) is skipped.
 *  1. one entity: it;
 *  2. curr stays out if it left the queue or is not eligible;
 *     RUN_TO_PARITY: a protected curr is kept;
 *  3. the leftmost (earliest deadline) if eligible;
 *  4. else walk down: go left while the left subtree holds an eligible
 *     entity, else take this node if eligible, else go right;
 *  5. curr wins if its deadline is earlier than the result.
 */
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq)
{	/* LAB(eevdf_pick) BEGIN */
	struct rb_node *node = cfs_rq->tasks_timeline.rb_node;
	struct sched_entity *se = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL;

	/* a single entity needs no eligibility check */
	if (cfs_rq->nr_running == 1)
		return curr && curr->on_rq ? curr : se;

	if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
		curr = NULL;

	if (sched_feat(RUN_TO_PARITY) && curr && protect_slice(curr))
		return curr;

	/* pick the leftmost entity if it's eligible */
	if (se && entity_eligible(cfs_rq, se)) {
		best = se;
		goto found;
	}

	/* heap search for the EEVD entity */
	while (node) {
		struct rb_node *left = node->rb_left;

		/* eligible entities on the left have earlier deadlines */
		if (left && vruntime_eligible(cfs_rq,
					      __node_2_se(left)->min_vruntime)) {
			node = left;
			continue;
		}

		se = __node_2_se(node);

		/* no eligible entity on the left: this one, if eligible */
		if (entity_eligible(cfs_rq, se)) {
			best = se;
			break;
		}

		node = node->rb_right;
	}
found:
	if (!best || (curr && entity_before(curr, best)))
		best = curr;

	return best;
}	/* LAB(eevdf_pick) END */

/* **************************************************************************
 * Deadlines and accounting
 */

/*
 * Once vruntime reaches the deadline the request is served: a new one
 * starts, vd = v + calc_delta_fair(slice) (the slice re-read from the
 * sysctl unless custom), and the caller reschedules.  Returns true then.
 */
bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;

	/* the slope is w_i (nice); the request r_i is the base slice */
	if (!se->custom_slice)
		se->slice = sysctl_sched_base_slice;

	/* EEVDF: vd_i = ve_i + r_i / w_i */
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	avg_vruntime(cfs_rq);

	/* the task has consumed its request, reschedule */
	return true;
}

/* PREEMPT_SHORT at update_curr: an unprotected curr that fell behind V. */
static inline bool did_preempt_short(struct cfs_rq *cfs_rq,
				     struct sched_entity *curr)
{
	if (!sched_feat(PREEMPT_SHORT))
		return false;

	if (protect_slice(curr))
		return false;

	return !entity_eligible(cfs_rq, curr);
}

/*
 * Charge curr the time since exec_start (rq->clock): sum_exec_runtime +=
 * delta, vruntime += calc_delta_fair(delta); renew its deadline if
 * reached, and reschedule then (or if PREEMPT_SHORT removed its
 * protection and it is no longer eligible), unless it is alone.
 */
void update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct rq *rq = rq_of(cfs_rq);
	s64 delta_exec;
	bool resched;

	if (unlikely(!curr))
		return;

	/* update_curr_se() */
	delta_exec = (s64)(rq->clock - curr->exec_start);
	if (unlikely(delta_exec <= 0))
		return;
	curr->exec_start = rq->clock;
	curr->sum_exec_runtime += (u64)delta_exec;
	curr->statistics.exec_max = max(curr->statistics.exec_max, (u64)delta_exec);
	cfs_rq->exec_clock += (u64)delta_exec;

	curr->vruntime += calc_delta_fair((u64)delta_exec, curr);
	resched = update_deadline(cfs_rq, curr);

	if (cfs_rq->nr_running == 1)
		return;

	if (resched || did_preempt_short(cfs_rq, curr)) {
		resched_task(rq->curr);		/* resched_curr() */
		clear_buddies(cfs_rq, curr);
	}
}

/* **************************************************************************
 * Placement
 */

/*
 * Give SE its vruntime and deadline as it joins the queue.
 *
 * PLACE_LAG: v = V - vl, where vl is the stored lag inflated by
 * (W + w) / W.  Adding an entity with lag vl at v = V - vl moves V to
 *	V' = V - w * vl / (W + w)
 * so its lag afterwards would be only vl' = vl * W / (W + w); placing it
 * with vl * (W + w) / W instead leaves exactly the lag it had.  Without
 * PLACE_LAG (or on an empty queue) it starts at V.
 *
 * PLACE_REL_DEADLINE: a dequeue that was not a sleep (nice, policy) kept
 * deadline - vruntime; it is restored relative to the new vruntime.
 * Otherwise vd = v + vslice, where a fork (ENQUEUE_INITIAL) gets half a
 * vslice with PLACE_DEADLINE_INITIAL: the others are, on average, halfway
 * through theirs.
 */
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 vslice, vruntime = avg_vruntime(cfs_rq);
	s64 lag = 0;

	if (!se->custom_slice)
		se->slice = sysctl_sched_base_slice;
	vslice = calc_delta_fair(se->slice, se);

	if (sched_feat(PLACE_LAG) && cfs_rq->nr_running) {
		struct sched_entity *curr = cfs_rq->curr;
		u32 load;			/* unsigned long */

		lag = se->vlag;

		/* vl_i = (W + w_i) * vl'_i / W */
		load = (u32)eevdf_rq(cfs_rq)->avg_load;
		if (curr && curr->on_rq)
			load += curr->load.weight;

		lag *= load + se->load.weight;
		if (WARN_ON(!load))
			load = 1;
		lag = div_s64(lag, (s32)load);
	}

	se->vruntime = vruntime - (u64)lag;

	if (sched_feat(PLACE_REL_DEADLINE) && se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = 0;
		return;
	}

	/* joining the competition: start with half a slice */
	if (sched_feat(PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;

	/* EEVDF: vd_i = ve_i + r_i/w_i */
	se->deadline = se->vruntime + vslice;
}

/* Forget SE as the next buddy. */
void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
}

/* The runqueue's EEVDF state: v0 starts at -2^20 to exercise the wrap. */
void eevdf_init_cfs_rq(struct cfs_rq *cfs_rq)
{
	eevdf_rq(cfs_rq)->zero_vruntime = (u64)(-(1LL << 20));
	eevdf_rq(cfs_rq)->avg_vruntime = 0;
	eevdf_rq(cfs_rq)->avg_load = 0;
	eevdf_rq(cfs_rq)->h_nr_delayed = 0;
	eevdf_rq(cfs_rq)->reweight_se = NULL;
}
