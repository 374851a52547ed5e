/*
 * kernel/sched/eevdf_debug.c - the EEVDF class's debugging aids, called by
 * debug.c when sched_preset=linux-6.12 runs:
 *   eevdf_print_cfs_rq()/eevdf_print_rq()  the cfs_rq section and the
 *		runnable-task table of Linux 6.12's /proc/sched_debug;
 *   proc_sched_show_task_eevdf()  6.12's EEVDF lines of /proc/PID/sched,
 *		proc_sched_show_avg_eevdf() its PELT lines;
 *   sched_verify_eevdf()	the invariant checker for this class.
 */
#ifdef HOST_TEST
#define vsnprintf kvsnprintf
#define snprintf ksnprintf
#endif

#include "eevdf.h"
#include "pelt.h"
#include <kernel/printk.h>
#include <kernel/math64.h>
#include <kernel/rtmutex.h>
#include <arch/irqflags.h>

/* debug.c's: the console (raw), or the /proc file's buffer being read */
#define out sched_debug_out

/* ---- /proc/sched_debug (Linux 6.12 fields) ---------------------------------- */

void eevdf_print_cfs_rq(struct cfs_rq *cfs_rq)
{
	s64 left_vruntime = -1, zero_vruntime, right_vruntime = -1;
	s64 left_deadline = -1, spread;
	struct sched_entity *last, *first, *root;

	out("\ncfs_rq[%d]:\n", cpu_of(rq_of(cfs_rq)));
	root = __pick_root_entity(cfs_rq);
	if (root)
		left_vruntime = (s64)root->min_vruntime;
	first = __pick_first_entity(cfs_rq);
	if (first)
		left_deadline = (s64)first->deadline;
	last = __pick_last_entity(cfs_rq);
	if (last)
		right_vruntime = (s64)last->vruntime;
	zero_vruntime = (s64)eevdf_rq(cfs_rq)->zero_vruntime;

	out("  .%-30s: %lld.%06lu\n", "left_deadline", SPLIT_NS(left_deadline));
	out("  .%-30s: %lld.%06lu\n", "left_vruntime", SPLIT_NS(left_vruntime));
	out("  .%-30s: %lld.%06lu\n", "zero_vruntime", SPLIT_NS(zero_vruntime));
	out("  .%-30s: %lld.%06lu\n", "avg_vruntime", SPLIT_NS(avg_vruntime(cfs_rq)));
	out("  .%-30s: %lld.%06lu\n", "right_vruntime", SPLIT_NS(right_vruntime));
	spread = right_vruntime - left_vruntime;
	out("  .%-30s: %lld.%06lu\n", "spread", SPLIT_NS(spread));
	out("  .%-30s: %d\n", "nr_running", (int)cfs_rq->nr_running);
	out("  .%-30s: %d\n", "h_nr_runnable",
	    (int)(cfs_rq->nr_running - eevdf_rq(cfs_rq)->h_nr_delayed));
	out("  .%-30s: %d\n", "h_nr_queued", (int)cfs_rq->nr_running);
	out("  .%-30s: %d\n", "h_nr_delayed", (int)eevdf_rq(cfs_rq)->h_nr_delayed);
	out("  .%-30s: %ld\n", "load", (long)cfs_rq->load.weight);
}

static char task_state_char(const struct task *p)
{
	if (p->state == TASK_RUNNING)
		return 'R';
	if (p->state & TASK_UNINTERRUPTIBLE)
		return 'D';
	return 'S';
}

static void print_task(struct rq *rq, struct task *p)
{
	if (rq->curr == p)
		out(">R");
	else
		out(" %c", task_state_char(p));
	out(" %15s %5d %9lld.%06lu   %c   %9lld.%06lu %c %9lld.%06lu %9lld.%06lu %9lld   %5d ",
	    p->comm, p->pid, SPLIT_NS(p->se.vruntime),
	    entity_eligible(cfs_rq_of(&p->se), &p->se) ? 'E' : 'N',
	    SPLIT_NS(p->se.deadline),
	    p->se.custom_slice ? 'S' : ' ',
	    SPLIT_NS(p->se.slice),
	    SPLIT_NS(p->se.sum_exec_runtime),
	    (long long)(p->nvcsw + p->nivcsw), p->prio);
	out("%9lld.%06lu %9lld.%06lu %9lld.%06lu\n",
	    SPLIT_NS(p->se.statistics.wait_sum),
	    SPLIT_NS(p->se.statistics.sum_sleep_runtime), SPLIT_NS(0));
}

/* The queued tasks (Linux lists every thread of the CPU): curr, the tree, rt. */
void eevdf_print_rq(struct rq *rq)
{
	struct rb_node *node;

	out("\nrunnable tasks:\n"
	    " S            task   PID       vruntime   eligible    "
	    "deadline             slice          sum-exec      switches  "
	    "prio         wait-time        sum-sleep       sum-block\n"
	    "-------------------------------------------------------"
	    "------------------------------------------------------"
	    "------------------------------------------------------\n");
	if (rq->cfs.curr && rq->cfs.curr->on_rq)
		print_task(rq, task_of(rq->cfs.curr));
	for (node = rb_first(&rq->cfs.tasks_timeline); node; node = rb_next(node))
		print_task(rq, task_of(__node_2_se(node)));
	print_rt_tasks(rq, print_task);
}

/* 6.12's se.avg lines of /proc/PID/sched, after se.load.weight. */
void proc_sched_show_avg_eevdf(struct task *p)
{
#define P(F) out("%-35s:%21lld\n", #F, (long long)(p->F))
	P(se.avg.load_sum);
	P(se.avg.runnable_sum);
	P(se.avg.util_sum);
	P(se.avg.load_avg);
	P(se.avg.runnable_avg);
	P(se.avg.util_avg);
	P(se.avg.last_update_time);
	out("%-35s:%21lld\n", "se.avg.util_est",	/* PM(F, ~UTIL_AVG_UNCHANGED) */
	    (long long)(p->se.avg.util_est & ~UTIL_AVG_UNCHANGED));
#undef P
}

/*
 * /proc/PID/sched's EEVDF lines, after prio.  6.12 prints only se.slice
 * there (for a fair policy); se.deadline, se.vlag, se.custom_slice and
 * se.sched_delayed are Granule's, to watch an entity's EEVDF state.
 */
void proc_sched_show_task_eevdf(struct task *p)
{
	out("%-35s:%14lld.%06lu\n", "se.deadline", SPLIT_NS(p->se.deadline));
	out("%-35s:%14lld.%06lu\n", "se.slice", SPLIT_NS(p->se.slice));
	out("%-35s:%21lld\n", "se.vlag", (long long)p->se.vlag);
	out("%-35s:%21d\n", "se.custom_slice", p->se.custom_slice);
	out("%-35s:%21d\n", "se.sched_delayed", p->se.sched_delayed);
}

/* ---- The invariant checker ------------------------------------------------- */

#define VIOLATION(...) do {				\
		printk("sched_verify: " __VA_ARGS__);	\
		bad++;					\
	} while (0)

/* Recompute NODE's subtree minimum; count mismatches with the stored ones. */
static int check_augment(struct rb_node *node, u64 *min_v)
{
	struct sched_entity *se;
	u64 v, cv;
	int bad = 0;

	if (!node)
		return 0;
	se = __node_2_se(node);
	v = se->vruntime;
	if (node->rb_left) {
		bad += check_augment(node->rb_left, &cv);
		if ((s64)(v - cv) > 0)
			v = cv;
	}
	if (node->rb_right) {
		bad += check_augment(node->rb_right, &cv);
		if ((s64)(v - cv) > 0)
			v = cv;
	}
	if (se->min_vruntime != v)
		bad++;
	*min_v = v;
	return bad;
}

/*
 * EEVDF's invariants (each violation printed and counted):
 *  - the tree is a valid red-black tree ordered by deadline, holding
 *    queued EEVDF entities other than curr; the cached leftmost is first;
 *  - the augmented minima: every node's min_vruntime is the minimum of
 *    its subtree;
 *  - avg_vruntime = sum w_i (v_i - v0) and avg_load = sum w_i over the
 *    tree, exactly; with curr added, S = sum w_i (v_i - v0) and W:
 *	0 <= S - W * (V - v0) < W,  i.e.  sum w_i (v_i - V) = 0 within the
 *    floor of V = v0 + floor(S / W);
 *  - nr_running and load.weight are the count and sum over the tree plus
 *    a queued curr, rq->load is the same and rq->nr_running the same less
 *    the delayed sleepers (core.c counts them out when they block);
 *  - some queued entity is eligible (the one with the smallest vruntime),
 *    and, with two or more queued, the entity the pick would choose now
 *    is eligible (RUN_TO_PARITY keeps only an eligible curr);
 *  - every queued task is on RQ's CPU, online, in its mask
 *    (sched_verify_task_cpu, debug.c);
 *  - a delayed entity (DELAY_DEQUEUE) is queued and not running, and its
 *    task is asleep, or was woken while the CPU was idle (then the next
 *    pick requeues it); h_nr_delayed counts them.  (Its lag was negative
 *    when it was delayed: dequeue_entity() tests exactly that.)
 */
/*
 * The tree alone (also used by the host tests on hand-built trees): shape,
 * cached leftmost, deadline order, augmented minima, and avg_vruntime /
 * avg_load = the sums over the tree.  Returns the number of violations.
 */
int eevdf_verify_tree(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se, *prev = NULL;
	struct rb_node *node, *first;
	s64 sum = 0;
	u64 load = 0, mv;
	int bad = 0, count;

	count = rb_check(&cfs_rq->tasks_timeline);
	if (count < 0) {
		VIOLATION("the red-black tree is broken\n");
		return bad;
	}
	first = rb_first(&cfs_rq->tasks_timeline);
	if (cfs_rq->rb_leftmost != first)
		VIOLATION("cached leftmost is not the tree's first\n");
	if (check_augment(cfs_rq->tasks_timeline.rb_node, &mv))
		VIOLATION("augmented min_vruntime inconsistent\n");
	for (node = first; node; node = rb_next(node)) {
		se = __node_2_se(node);
		if (prev && entity_before(se, prev))
			VIOLATION("tree out of deadline order at %s/%d\n",
				  task_of(se)->comm, task_of(se)->pid);
		sum += entity_key(cfs_rq, se) * se->load.weight;
		load += se->load.weight;
		prev = se;
	}
	if (sum != eevdf_rq(cfs_rq)->avg_vruntime || load != eevdf_rq(cfs_rq)->avg_load)
		VIOLATION("avg_vruntime %lld / avg_load %llu, summed %lld / %llu\n",
			  (long long)eevdf_rq(cfs_rq)->avg_vruntime,
			  (unsigned long long)eevdf_rq(cfs_rq)->avg_load,
			  (long long)sum, (unsigned long long)load);
	return bad;
}

int sched_verify_eevdf(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se, *curr = cfs_rq->curr, *minv = NULL;
	struct rb_node *node;
	s64 S = eevdf_rq(cfs_rq)->avg_vruntime, vkey;
	u64 load = 0, W = eevdf_rq(cfs_rq)->avg_load;
	u32 nr = 0, delayed = 0;
	unsigned long flags;
	int bad;

	local_irq_save(flags);

	bad = eevdf_verify_tree(cfs_rq);
	for (node = rb_first(&cfs_rq->tasks_timeline); node; node = rb_next(node)) {
		struct task *p;

		se = __node_2_se(node);
		p = task_of(se);
		if (se == curr)
			VIOLATION("curr %s/%d is in the tree\n", p->comm, p->pid);
		if (!se->on_rq || !p->on_rq)
			VIOLATION("%s/%d is in the tree but not on_rq\n", p->comm, p->pid);
		if (p->sched_class != &fair_sched_class)
			VIOLATION("%s/%d in the tree is not an EEVDF task\n", p->comm, p->pid);
		bad += sched_verify_task_cpu(rq, p);
		if (se->sched_delayed) {
			delayed++;
			/* its wakeup requeues it under this lock (ttwu_delayed) */
			if (p->state == TASK_RUNNING)
				VIOLATION("delayed %s/%d is TASK_RUNNING\n", p->comm, p->pid);
		}
		nr++;
		load += se->load.weight;
		if (!minv || (s64)(se->vruntime - minv->vruntime) < 0)
			minv = se;
	}

	if (curr) {
		if (curr != &rq->curr->se)
			VIOLATION("cfs_rq->curr is not the running task's entity\n");
		if (curr->sched_delayed && rq->curr == task_of(curr))
			VIOLATION("the running task is delayed\n");
		if (curr->on_rq) {
			bad += sched_verify_task_cpu(rq, task_of(curr));
			S += entity_key(cfs_rq, curr) * curr->load.weight;
			W += curr->load.weight;
			nr++;
			load += curr->load.weight;
			if (curr->sched_delayed)
				delayed++;
			if (!minv || (s64)(curr->vruntime - minv->vruntime) < 0)
				minv = curr;
		}
	} else if (rq->curr->sched_class == &fair_sched_class) {
		VIOLATION("EEVDF task %s/%d runs but cfs_rq->curr is NULL\n",
			  rq->curr->comm, rq->curr->pid);
	}
	if (W) {
		/* V - v0 = floor(S / W) */
		vkey = div_s64(S < 0 ? S - (s64)(W - 1) : S, (s32)W);
		if (S - (s64)W * vkey < 0 || S - (s64)W * vkey >= (s64)W)
			VIOLATION("sum w (v - V) = %lld outside [0, W = %llu)\n",
				  (long long)(S - (s64)W * vkey), (unsigned long long)W);
	}

	if (nr != cfs_rq->nr_running)
		VIOLATION("cfs nr_running %u, counted %u\n",
			  (unsigned)cfs_rq->nr_running, (unsigned)nr);
	if (load != cfs_rq->load.weight)
		VIOLATION("cfs load %u, summed %llu\n", (unsigned)cfs_rq->load.weight,
			  (unsigned long long)load);
	/* core.c counted delayed sleepers out when they blocked */
	if (rq->nr_running != cfs_rq->nr_running - delayed + rq->rt.rt_nr_running)
		VIOLATION("rq nr_running %u != cfs nr_running %u - %u delayed + rt %u\n",
			  (unsigned)rq->nr_running, (unsigned)cfs_rq->nr_running,
			  (unsigned)delayed, (unsigned)rq->rt.rt_nr_running);
	if (rq->load.weight != cfs_rq->load.weight)
		VIOLATION("rq load %u != cfs load %u\n",
			  (unsigned)rq->load.weight, (unsigned)cfs_rq->load.weight);
	if (delayed != eevdf_rq(cfs_rq)->h_nr_delayed)
		VIOLATION("h_nr_delayed %u, counted %u\n",
			  (unsigned)eevdf_rq(cfs_rq)->h_nr_delayed, (unsigned)delayed);
	if (rq == this_rq() && current != rq->curr)
		VIOLATION("current is not rq->curr\n");
	if (cfs_rq->next && !cfs_rq->next->on_rq)
		VIOLATION("next buddy is not queued\n");

	if (minv && !entity_eligible(cfs_rq, minv))
		VIOLATION("no queued entity is eligible\n");
	if (nr > 1) {
		se = pick_eevdf(cfs_rq);
		if (!se)
			VIOLATION("pick_eevdf found nothing among %u\n", (unsigned)nr);
		else if (!entity_eligible(cfs_rq, se))
			VIOLATION("the pick %s/%d is not eligible\n",
				  task_of(se)->comm, task_of(se)->pid);
	}

	if (rq->idle && (rq->idle->on_rq || rq->idle->se.on_rq))
		VIOLATION("the idle task is queued\n");

	bad += sched_verify_rt(rq);		/* rt.c: the priority array */
	bad += sched_verify_global();		/* rtmutex.c: the PI chains */
	local_irq_restore(flags);
	return sched_verify_count(bad);
}
