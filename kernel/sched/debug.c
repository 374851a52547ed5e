/*
 * kernel/sched/debug.c - the scheduler's debugging aids:
 *   sched_debug_show()	   Linux 2.6.35's /proc/sched_debug layout, a cpu#N
 *			   block per online CPU, written as a table with
 *			   console_write() (no printk timestamps per line);
 *   proc_sched_show_task() a subset of /proc/PID/sched;
 *   sched_verify_rq()	   the invariant checker of one CPU's runqueue
 *			   (sched_verify=1 makes core.c call it, on the rq
 *			   whose lock it holds, after every schedule, tick and
 *			   wakeup; the host tests always turn it on);
 *   sched_report_at_end()  what sched_debug=end prints when init ends the
 *			   run: the dump plus a per-task schedstats table.
 *
 * Times print as Linux's SPLIT_NS: milliseconds "%Ld.%06ld" (so a
 * negative value between -1 ms and 0 loses its sign, as in Linux).
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */

#include "sched.h"
#include <kernel/printk.h>
#include <kernel/math64.h>
#include <kernel/time.h>
#include <kernel/cmdline.h>
#include <kernel/proc.h>
#include <kernel/rtmutex.h>
#include <kernel/string.h>
#include <kernel/smp_lock.h>
#include <arch/irqflags.h>


unsigned long sched_verify_failures;

/*
 * Where the dumps go: the console (raw: no printk timestamps), or the
 * buffer of sched_debug_snprint() (/proc/sched_debug's read).
 */
static char *out_buf;
static size_t out_size, out_len;

#define out sched_debug_out
/* also eevdf_debug.c's: its /proc lines go into the same buffer */
__printf(1, 2) void sched_debug_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!out_buf) {
		console_vprintf(fmt, ap);
	} else {
		size_t room = out_size - out_len;
		int n = vsnprintf(out_buf + out_len, room, fmt, ap);
		out_len += min((size_t)n, room - 1);	/* full: cut */
	}
	va_end(ap);
}

/* SPLIT_NS(x): x ns as milliseconds "high.low" (nsec_high, nsec_low). */
long long nsec_high(u64 nsec)
{
	if ((s64)nsec < 0)
		return -(long long)div_u64(0 - nsec, 1000000);
	return (long long)div_u64(nsec, 1000000);
}

unsigned long nsec_low(u64 nsec)
{
	u32 rem;

	if ((s64)nsec < 0)
		nsec = 0 - nsec;
	div_u64_rem(nsec, 1000000, &rem);
	return rem;
}

/* ---- /proc/sched_debug ------------------------------------------------------ */

static void print_task(struct rq *rq, struct task *p)
{
	out("%s", rq->curr == p ? "R" : " ");
	out("%15s %5d %9lld.%06lu %9lld %5d ",
	    p->comm, p->pid, SPLIT_NS(p->se.vruntime),
	    (long long)(p->nvcsw + p->nivcsw), p->prio);
	out("%9lld.%06lu %9lld.%06lu %9lld.%06lu",
	    SPLIT_NS(p->se.vruntime),
	    SPLIT_NS(p->se.sum_exec_runtime),
	    SPLIT_NS(p->se.statistics.sum_sleep_runtime));
	if (sched_feat(START_NICE)) {		/* [SN]'s two columns */
		out(" %d", p->se.fork_nice_penality);
		out(" %9lld.%06lu", SPLIT_NS(p->se.fork_nice_timeout));
	}
	out("\n");
}

/* The runnable fair tasks: current first, then the tree in vruntime order. */
static void print_rq(struct rq *rq)
{
	struct rb_node *node;

	if (sched_feat(START_NICE))		/* [SN]'s header */
		out("\nrunnable tasks:\n"
		    "            task   PID         tree-key  switches  prio"
		    "     exec-runtime         sum-exec        sum-sleep    nice-pen"
		    "     nice-pen-timeout\n"
		    "---------------------------------------------------------------"
		    "---------------------------------------------------------------\n");
	else
		out("\nrunnable tasks:\n"
		    "            task   PID         tree-key  switches  prio"
		    "     exec-runtime         sum-exec        sum-sleep\n"
		    "------------------------------------------------------"
		    "----------------------------------------------------\n");

	if (rq->cfs.curr && rq->cfs.curr->on_rq)
		print_task(rq, task_of(rq->cfs.curr));
	for (node = rb_first(&rq->cfs.tasks_timeline); node; node = rb_next(node))
		print_task(rq, task_of(rb_entry(node, struct sched_entity, run_node)));
	print_rt_tasks(rq, print_task);
}

/* Linux lists every task of the CPU: the queued rt ones too, best prio first. */
void print_rt_tasks(struct rq *rq, void (*print)(struct rq *rq, struct task *p))
{
	for (int i = 0; i < MAX_RT_PRIO; i++) {
		struct sched_rt_entity *rt_se;

		list_for_each_entry(rt_se, &rq->rt.active.queue[i], run_list)
			print(rq, container_of(rt_se, struct task, rt));
	}
}

/* 2.6.35's print_rt_rq() (kernel/sched_debug.c); 6.12 prints the same. */
void print_rt_rq(struct rt_rq *rt_rq)
{
	u64 runtime = rt_rq->rt_runtime;

	out("\nrt_rq[%d]:\n", cpu_of(container_of(rt_rq, struct rq, rt)));
	out("  .%-30s: %lld\n", "rt_nr_running", (long long)rt_rq->rt_nr_running);
	out("  .%-30s: %lld\n", "rt_throttled", (long long)rt_rq->rt_throttled);
	out("  .%-30s: %lld.%06lu\n", "rt_time", SPLIT_NS(rt_rq->rt_time));
	/* RUNTIME_INF is Linux's (u64)~0: printed as -0.000001 there too */
	out("  .%-30s: %lld.%06lu\n", "rt_runtime", SPLIT_NS(runtime));
}

static void print_cfs_rq(struct cfs_rq *cfs_rq)
{
	s64 MIN_vruntime = -1, min_vruntime, max_vruntime = -1, spread, spread0;
	struct sched_entity *last;

	out("\ncfs_rq[%d]:\n", cpu_of(rq_of(cfs_rq)));
	out("  .%-30s: %lld.%06lu\n", "exec_clock", SPLIT_NS(cfs_rq->exec_clock));

	if (cfs_rq->rb_leftmost)
		MIN_vruntime = (s64)__pick_next_entity(cfs_rq)->vruntime;
	last = __pick_last_entity(cfs_rq);
	if (last)
		max_vruntime = (s64)last->vruntime;
	min_vruntime = (s64)cfs_rq->min_vruntime;

	out("  .%-30s: %lld.%06lu\n", "MIN_vruntime", SPLIT_NS(MIN_vruntime));
	out("  .%-30s: %lld.%06lu\n", "min_vruntime", SPLIT_NS(min_vruntime));
	out("  .%-30s: %lld.%06lu\n", "max_vruntime", SPLIT_NS(max_vruntime));
	spread = max_vruntime - MIN_vruntime;
	out("  .%-30s: %lld.%06lu\n", "spread", SPLIT_NS(spread));
	spread0 = min_vruntime - (s64)cpu_rq(0)->cfs.min_vruntime;	/* against CPU 0's */
	out("  .%-30s: %lld.%06lu\n", "spread0", SPLIT_NS(spread0));
	out("  .%-30s: %ld\n", "nr_running", (long)cfs_rq->nr_running);
	out("  .%-30s: %ld\n", "load", (long)cfs_rq->load.weight);
	out("  .%-30s: %d\n", "nr_spread_over", (int)cfs_rq->nr_spread_over);
}

static void print_cpu(struct rq *rq)
{
	out("\ncpu#%d\n", cpu_of(rq));
#define P(x) out("  .%-30s: %lld\n", #x, (long long)(rq->x))
#define PN(x) out("  .%-30s: %lld.%06lu\n", #x, SPLIT_NS(rq->x))
	P(nr_running);
	out("  .%-30s: %lu\n", "load", (unsigned long)rq->load.weight);
	P(nr_switches);
	P(nr_load_updates);
	P(nr_uninterruptible);
	P(curr->pid);
	PN(clock);
	P(cpu_load[0]);
	P(cpu_load[1]);
	P(cpu_load[2]);
	P(cpu_load[3]);
	P(cpu_load[4]);
#undef P
#undef PN
	/* schedstats */
#define P(n) out("  .%-30s: %d\n", #n, (int)rq->n)
	P(yld_count);
	P(sched_switch);
	P(sched_count);
	P(sched_goidle);
	P(ttwu_count);
	P(ttwu_local);
#undef P
	if (sched_eevdf()) {			/* Linux 6.12's fields */
		eevdf_print_cfs_rq(&rq->cfs);
		print_rt_rq(&rq->rt);
		eevdf_print_rq(rq);
		return;
	}
	print_cfs_rq(&rq->cfs);
	print_rt_rq(&rq->rt);			/* print_rt_stats() */
	print_rq(rq);
}

static const char *const sched_tunable_scaling_names[] = {
	"none", "logaritmic", "linear"	/* sic, as Linux */
};

void sched_debug_show(void)
{
	unsigned long flags;
	unsigned int cpu;
	u64 now = sched_clock();

	local_irq_save(flags);
	out("Sched Debug Version: v0.09, granule %s\n", GRANULE_VERSION);
	out("now at %lld.%06lu msecs\n", SPLIT_NS(now));

#define P(x) out("  .%-40s: %lld\n", #x, (long long)(x))
#define PN(x) out("  .%-40s: %lld.%06lu\n", #x, SPLIT_NS(x))
	P(jiffies);
	if (sched_schedstats_were_off)		/* Linux 4.6's knob, when used */
		out("  .%-40s: %d (off for all or part of the run: schedstats partial)\n",
		    "sysctl_sched_schedstats", sysctl_sched_schedstats);
	if (sched_eevdf()) {			/* Linux 6.12's header */
		PN(sysctl_sched_base_slice);
		P(sysctl_sched_features_eevdf);
		out("  .%-40s: %d (%s)\n", "sysctl_sched_tunable_scaling",
		    (int)sysctl_sched_tunable_scaling,
		    sysctl_sched_tunable_scaling < SCHED_TUNABLESCALING_END ?
		    sched_tunable_scaling_names[sysctl_sched_tunable_scaling] : "?");
		goto cpu;
	}
	PN(sysctl_sched_latency);
	PN(sysctl_sched_min_granularity);
	PN(sysctl_sched_wakeup_granularity);
	PN(sysctl_sched_child_runs_first);
	P(sysctl_sched_features);
	out("  .%-40s: %d (%s)\n", "sysctl_sched_tunable_scaling",
	    (int)sysctl_sched_tunable_scaling,
	    sysctl_sched_tunable_scaling < SCHED_TUNABLESCALING_END ?
	    sched_tunable_scaling_names[sysctl_sched_tunable_scaling] : "?");
	/* Granule: the derived threshold and the variants in use */
	P(sched_nr_latency);
	if (sched_feat(DYN_GRAN)) {
		PN(sysctl_sched_std_granularity);	/* as [M1/2] prints it */
		P(sched_nr_latency_max);
	}
	if (sysctl_sched_sleeper_wakeup_slice)
		PN(sysctl_sched_sleeper_wakeup_slice);	/* as [M2/2] */
cpu:
#undef P
#undef PN

	/* every online CPU's, as 2.6.35 (read without their locks, as there) */
	for_each_online_cpu(cpu)
		print_cpu(cpu_rq(cpu));
	out("\n");
	local_irq_restore(flags);
}

/* sched_debug_show() into BUF (SIZE > 0 bytes, NUL-terminated, cut when
 * full); returns the length. */
size_t sched_debug_snprint(char *buf, size_t size)
{
	out_buf = buf;
	out_size = size;
	out_len = 0;
	buf[0] = '\0';
	sched_debug_show();
	out_buf = NULL;
	return out_len;
}

/* ---- /proc/PID/sched (subset) --------------------------------------------- */

void proc_sched_show_task(struct task *p)
{
	unsigned long flags;

	local_irq_save(flags);
	out("%s (%d, #threads: %d)\n", p->comm, p->pid, 1);
	out("---------------------------------------------------------\n");
#define P(F) out("%-35s:%21lld\n", #F, (long long)(p->F))
#define PN(F) out("%-35s:%14lld.%06lu\n", #F, SPLIT_NS((s64)(p->F)))
	PN(se.exec_start);
	PN(se.vruntime);
	PN(se.sum_exec_runtime);
	PN(se.statistics.wait_start);
	PN(se.statistics.sleep_start);
	PN(se.statistics.block_start);
	PN(se.statistics.sleep_max);
	PN(se.statistics.block_max);
	PN(se.statistics.exec_max);
	PN(se.statistics.slice_max);
	PN(se.statistics.wait_max);
	PN(se.statistics.wait_sum);
	P(se.statistics.wait_count);
	P(se.nr_migrations);		/* 2.6.35's place: after the iowait and bkl counts */
	P(se.statistics.nr_wakeups);
	PN(sched_info.run_delay);
	P(sched_info.pcount);
	out("%-35s:%21lld\n", "nr_switches", (long long)(p->nvcsw + p->nivcsw));
	out("%-35s:%21lld\n", "nr_voluntary_switches", (long long)p->nvcsw);
	out("%-35s:%21lld\n", "nr_involuntary_switches", (long long)p->nivcsw);
	P(se.load.weight);
	if (sched_eevdf())		/* 6.12: PELT's lines (CONFIG_SMP) */
		proc_sched_show_avg_eevdf(p);
	P(policy);
	P(prio);
#undef PN
#undef P
	if (sched_eevdf())
		proc_sched_show_task_eevdf(p);
	local_irq_restore(flags);
}

/* proc_sched_show_task(P) into BUF: /proc/PID/sched.  The length. */
size_t proc_sched_task_snprint(struct task *p, char *buf, size_t size)
{
	out_buf = buf;
	out_size = size;
	out_len = 0;
	buf[0] = '\0';
	proc_sched_show_task(p);
	out_buf = NULL;
	return out_len;
}

/* Context switches so far on every CPU (/proc/stat's ctxt): 2.6.35's
 * nr_context_switches(), the sum over the possible CPUs' runqueues, the
 * same whichever CPU asks. */
u64 nr_context_switches(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += cpu_rq(cpu)->nr_switches;
	return sum;
}

/* ---- The invariant checker --------------------------------------------------- */

/* Each queue's own history, written under that rq's lock (a byte per CPU,
 * not a shared bit mask that two CPUs' checks would both write). */
static u64 verify_last_min_vruntime[NR_CPUS];
static u8 verify_have_last[NR_CPUS];

void sched_verify_reset(void)
{
	memset(verify_have_last, 0, sizeof(verify_have_last));	/* every CPU's */
	sched_verify_failures = 0;
}

/* Every CPU's checks add to the one count: atomic_long_add(). */
int sched_verify_count(int bad)
{
	if (bad)
		__atomic_add_fetch(&sched_verify_failures, (unsigned long)bad, __ATOMIC_RELAXED);
	return bad;
}

#define VIOLATION(...) do {				\
		printk("sched_verify: " __VA_ARGS__);	\
		bad++;					\
	} while (0)

/* Is SE queued on CFS_RQ: in the tree, or the running entity? */
static int entity_queued(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return se->on_rq && (se == cfs_rq->curr || !RB_EMPTY_NODE(&se->run_node));
}

/*
 * The invariants, one helper each; every helper prints and returns its
 * violations.  sched_verify_rq() runs them all with interrupts masked.
 */

/*
 * SMP's own: P, queued on RQ, has RQ's CPU for its task_cpu(), that CPU
 * is online, and P's mask allows it - unless set_cpus_allowed_ptr() has
 * narrowed the mask and waits for the stopper of RQ's CPU to move P
 * (rq->migration_pending; 2.6.35 moves it the same way, later).
 */
int sched_verify_task_cpu(struct rq *rq, struct task *p)
{
	unsigned int cpu = (unsigned int)cpu_of(rq);
	int bad = 0;

	if (task_cpu(p) != cpu)
		VIOLATION("%s/%d is queued on CPU %u but its cpu is %u\n",
			  p->comm, p->pid, cpu, task_cpu(p));
	if (!cpumask_test_cpu(cpu, &p->cpus_allowed) && !rq->migration_pending)
		VIOLATION("%s/%d is queued on CPU %u, which its mask %#x does not allow\n",
			  p->comm, p->pid, cpu, (unsigned)p->cpus_allowed.bits);
	if (!cpu_online(cpu))
		VIOLATION("%s/%d is queued on CPU %u, which is offline\n",
			  p->comm, p->pid, cpu);
	return bad;
}

/*
 * The tree is a valid red-black tree (*BROKEN says it is not, so that it
 * is not walked) and its cached leftmost is rb_first().
 */
static int verify_rbtree(struct cfs_rq *cfs_rq, int *broken)
{
	struct rb_node *first;
	int bad = 0;

	*broken = rb_check(&cfs_rq->tasks_timeline) < 0;
	if (*broken)
		VIOLATION("the red-black tree is broken\n");
	first = rb_first(&cfs_rq->tasks_timeline);
	if (cfs_rq->rb_leftmost != first)
		VIOLATION("cached leftmost %p is not the tree's first %p\n",
			  (void *)cfs_rq->rb_leftmost, (void *)first);
	return bad;
}

/*
 * The tree is ordered by key (vruntime - min_vruntime) and holds only
 * queued fair entities, never curr.  Adds its entities to *NR and *LOAD.
 */
static int verify_tree_entities(struct cfs_rq *cfs_rq, u32 *nr, u64 *load)
{
	struct sched_entity *se, *prev = NULL;
	int bad = 0;

	for (struct rb_node *node = rb_first(&cfs_rq->tasks_timeline); node;
	     node = rb_next(node)) {
		struct task *p;

		se = rb_entry(node, struct sched_entity, run_node);
		p = task_of(se);
		if (prev && entity_key(cfs_rq, se) < entity_key(cfs_rq, prev))
			VIOLATION("tree out of order at %s/%d\n", p->comm, p->pid);
		if (se == cfs_rq->curr)
			VIOLATION("curr %s/%d is in the tree\n", p->comm, p->pid);
		if (!se->on_rq || !p->on_rq)
			VIOLATION("%s/%d is in the tree but not on_rq\n",
				  p->comm, p->pid);
		if (p->sched_class != &fair_sched_class)
			VIOLATION("%s/%d in the tree is not a fair task\n",
				  p->comm, p->pid);
		bad += sched_verify_task_cpu(rq_of(cfs_rq), p);
		(*nr)++;
		*load += se->load.weight;
		prev = se;
	}
	return bad;
}

/*
 * A running fair task is cfs_rq->curr, and cfs_rq->curr is the running
 * task's entity.  Adds a queued curr to *NR and *LOAD.
 */
static int verify_curr(struct rq *rq, u32 *nr, u64 *load)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	int bad = 0;

	if (cfs_rq->curr) {
		if (cfs_rq->curr != &rq->curr->se)
			VIOLATION("cfs_rq->curr is not the running task's entity\n");
		if (cfs_rq->curr->on_rq) {
			(*nr)++;
			*load += cfs_rq->curr->load.weight;
			bad += sched_verify_task_cpu(rq, task_of(cfs_rq->curr));
		}
	} else if (rq->curr->sched_class == &fair_sched_class) {
		VIOLATION("fair task %s/%d runs but cfs_rq->curr is NULL\n",
			  rq->curr->comm, rq->curr->pid);
	}
	return bad;
}

/*
 * cfs_rq nr_running and load.weight equal NR and LOAD (the tree plus a
 * queued curr); rq's equal cfs_rq's (no other class); on RQ's own CPU,
 * current is rq->curr.
 */
static int verify_counts(struct rq *rq, u32 nr, u64 load)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	int bad = 0;

	if (nr != cfs_rq->nr_running)
		VIOLATION("cfs nr_running %u, counted %u\n",
			  (unsigned)cfs_rq->nr_running, (unsigned)nr);
	if (load != cfs_rq->load.weight)
		VIOLATION("cfs load %u, summed %llu\n",
			  (unsigned)cfs_rq->load.weight, (unsigned long long)load);
	if (rq->nr_running != cfs_rq->nr_running + rq->rt.rt_nr_running)
		VIOLATION("rq nr_running %u != cfs nr_running %u + rt %u\n",
			  (unsigned)rq->nr_running, (unsigned)cfs_rq->nr_running,
			  (unsigned)rq->rt.rt_nr_running);
	if (rq->load.weight != cfs_rq->load.weight)
		VIOLATION("rq load %u != cfs load %u\n",
			  (unsigned)rq->load.weight, (unsigned)cfs_rq->load.weight);
	if (rq == this_rq() && current != rq->curr)
		VIOLATION("current is not rq->curr\n");
	return bad;
}

/* The buddies (next, last) are queued entities. */
static int verify_buddies(struct cfs_rq *cfs_rq)
{
	int bad = 0;

	if (cfs_rq->next && !entity_queued(cfs_rq, cfs_rq->next))
		VIOLATION("next buddy %s/%d is not queued\n",
			  task_of(cfs_rq->next)->comm, task_of(cfs_rq->next)->pid);
	if (cfs_rq->last && !entity_queued(cfs_rq, cfs_rq->last))
		VIOLATION("last buddy %s/%d is not queued\n",
			  task_of(cfs_rq->last)->comm, task_of(cfs_rq->last)->pid);
	return bad;
}

/* min_vruntime never decreases between calls. */
static int verify_min_vruntime(struct cfs_rq *cfs_rq)
{
	int bad = 0, cpu = cpu_of(rq_of(cfs_rq));
	u64 *last = &verify_last_min_vruntime[cpu];

	if (verify_have_last[cpu] && (s64)(cfs_rq->min_vruntime - *last) < 0)
		VIOLATION("min_vruntime went back by %lld ns\n",
			  (long long)(*last - cfs_rq->min_vruntime));
	*last = cfs_rq->min_vruntime;
	verify_have_last[cpu] = 1;
	return bad;
}

/* The idle task is never queued. */
static int verify_idle(struct rq *rq)
{
	int bad = 0;

	if (rq->idle && (rq->idle->on_rq || rq->idle->se.on_rq))
		VIOLATION("the idle task is queued\n");
	return bad;
}

/* DEADLINE's list is sorted by deadline and holds queued, unrun entities. */
static int verify_deadline_list(struct rq *rq)
{
	struct sched_entity *se, *prev = NULL;
	int bad = 0;

	list_for_each_entry(se, &rq->deadline_list, deadline_node) {
		if (!se->deadline || !entity_queued(&rq->cfs, se) || se == rq->cfs.curr)
			VIOLATION("bad DEADLINE entry %s/%d\n",
				  task_of(se)->comm, task_of(se)->pid);
		if (prev && (s64)(se->deadline - prev->deadline) < 0)
			VIOLATION("DEADLINE list out of order\n");
		prev = se;
	}
	return bad;
}

/*
 * The checks of what no runqueue lock covers: the PI chains, which the
 * giant kernel lock protects (rtmutex.c changes them in task context,
 * holding it).  Only while this CPU holds it: an AP's tick, or an IPI,
 * runs without it while another CPU may be walking a chain.  At one CPU
 * kernel_locked() is always true.
 */
int sched_verify_global(void)
{
	return kernel_locked() ? rt_mutex_verify_chains() : 0;
}

/*
 * Check every invariant above on RQ, whose lock the caller holds while
 * more than one CPU is online (each violation printed and counted in
 * sched_verify_failures); returns the number of violations.  A spread
 * beyond 3 x latency is only counted (nr_spread_over), as Linux.
 */
int sched_verify_rq(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	unsigned long flags;
	u64 load = 0;
	u32 nr = 0;
	int bad, broken;

	if (sched_eevdf())			/* eevdf_debug.c */
		return sched_verify_eevdf(rq);
	local_irq_save(flags);
	bad = verify_rbtree(cfs_rq, &broken);
	if (!broken)
		bad += verify_tree_entities(cfs_rq, &nr, &load);
	bad += verify_curr(rq, &nr, &load);
	bad += verify_counts(rq, nr, load);
	bad += verify_buddies(cfs_rq);
	bad += verify_min_vruntime(cfs_rq);
	bad += verify_idle(rq);
	bad += verify_deadline_list(rq);
	bad += sched_verify_rt(rq);		/* rt.c: the priority array */
	bad += sched_verify_global();		/* rtmutex.c: the PI chains */
	local_irq_restore(flags);
	return sched_verify_count(bad);
}

/* This CPU's runqueue (<kernel/sched.h>; the host tests' "on" CPU). */
int sched_verify(void)
{
	return sched_verify_rq(this_rq());
}

/* ---- sched_debug= and the end-of-run report ------------------------------ */

/*
 * sched_debug=off (default) | end | domains.  "domains", also a bare
 * sched_debug as in 2.6.35 (its early_param sched_domain_debug_enabled):
 * sched_domain_debug() prints each CPU's domains as they are attached
 * (topology.c).  "end": when init ends the run
 * (sys_granule_poweroff -> sched_report_at_end) print
 *   1. sched_debug_show(): the 2.6.35 /proc/sched_debug dump;
 *   2. "schedstats:" one line per task, live tasks (task_list order) then
 *      the tasks that exited during the run (exit order), with the
 *      per-task schedstats of /proc/PID/sched and /proc/PID/schedstat:
 *      voluntary/involuntary switches, sum-exec, wait-max, wait-sum,
 *      wait-count, run-delay (sched_info) and pcount.
 * Exited tasks are recorded by sched_debug_task_dead(), which __schedule()
 * calls on a task's last switch-out (only while sched_debug=end, so the
 * default costs one load per exit).  At most SCHED_DEBUG_DEAD_MAX records
 * are kept; later exits are only counted ("N exits not recorded").
 */
static const char *const sched_debug_names[] = { "off", "end", "domains", NULL };
int sysctl_sched_debug = SCHED_DEBUG_OFF;
__KNOB(sched_debug) = {
	.name = "sched_debug", .type = KNOB_ENUM, .ptr = &sysctl_sched_debug,
	.def = SCHED_DEBUG_OFF, .choices = sched_debug_names,
	.help = "end: print the /proc/sched_debug dump and per-task schedstats when init ends; "
		"domains (or bare sched_debug): each CPU's sched domains as they are attached",
	.bare = "domains",	/* 2.6.35's early_param("sched_debug") */
};

#define SCHED_DEBUG_DEAD_MAX	256

/* What the report keeps of an exited task (its struct task is freed). */
struct sched_dead_rec {
	char comm[TASK_COMM_LEN];
	int pid, tgid, prio;
	u64 nvcsw, nivcsw;
	u64 sum_exec, wait_max, wait_sum, wait_count;
	u64 run_delay, pcount;
};

static struct sched_dead_rec dead_recs[SCHED_DEBUG_DEAD_MAX];
static unsigned int nr_dead_recs, nr_dead_lost;

/*
 * P (current, state TASK_DEAD) is switched out for the last time: keep its
 * statistics for the end-of-run table.  Called by __schedule() with
 * interrupts off, before P's final switch is counted: that switch is a
 * voluntary one, so nvcsw + 1 is recorded.
 */
void sched_debug_task_dead(struct task *p)
{
	struct sched_dead_rec *r;

	if (sysctl_sched_debug != SCHED_DEBUG_END)
		return;
	if (nr_dead_recs >= SCHED_DEBUG_DEAD_MAX) {
		nr_dead_lost++;
		return;
	}
	r = &dead_recs[nr_dead_recs++];
	strlcpy(r->comm, p->comm, sizeof(r->comm));
	r->pid = p->pid;
	r->tgid = p->tgid;
	r->prio = p->prio;
	r->nvcsw = p->nvcsw + 1;
	r->nivcsw = p->nivcsw;
	r->sum_exec = p->se.sum_exec_runtime;
	r->wait_max = p->se.statistics.wait_max;
	r->wait_sum = p->se.statistics.wait_sum;
	r->wait_count = p->se.statistics.wait_count;
	r->run_delay = p->sched_info.run_delay;
	r->pcount = p->sched_info.pcount;
}

static void stats_header(void)
{
	if (sched_schedstats_were_off)
		out("\nsched_debug: schedstats were off (schedstats=disable or "
		    "kernel.sched_schedstats=0) for all or part of the run: wait-*, "
		    "run-delay and pcount count only while on (now %s)\n",
		    sysctl_sched_schedstats ? "on" : "off");
	out("\nschedstats: (times in ms; state R running, Q queued, S sleeping, X exited)\n");
	out("            task   PID  TGID S  prio      nvcsw     nivcsw");
	out("         sum-exec         wait-max         wait-sum wait-count");
	out("        run-delay     pcount\n");
	for (int i = 0; i < 4; i++)	/* 4 x 37 dashes: the header's width */
		out("-------------------------------------");
	out("\n");
}

static void stats_line(const struct sched_dead_rec *r, char state)
{
	out("%16s %5d %5d %c %5d %10llu %10llu ",
	    r->comm, r->pid, r->tgid, state, r->prio,
	    (unsigned long long)r->nvcsw, (unsigned long long)r->nivcsw);
	out("%9lld.%06lu %9lld.%06lu %9lld.%06lu %10llu %9lld.%06lu %10llu\n",
	    SPLIT_NS(r->sum_exec), SPLIT_NS(r->wait_max), SPLIT_NS(r->wait_sum),
	    (unsigned long long)r->wait_count, SPLIT_NS(r->run_delay),
	    (unsigned long long)r->pcount);
}

static void stats_live(struct rq *rq, struct task *p)
{
	struct sched_dead_rec r;
	char state;

	strlcpy(r.comm, p->comm, sizeof(r.comm));
	r.pid = p->pid;
	r.tgid = p->tgid;
	r.prio = p->prio;
	r.nvcsw = p->nvcsw;
	r.nivcsw = p->nivcsw;
	r.sum_exec = task_sched_runtime(p);
	r.wait_max = p->se.statistics.wait_max;
	r.wait_sum = p->se.statistics.wait_sum;
	r.wait_count = p->se.statistics.wait_count;
	r.run_delay = p->sched_info.run_delay;
	r.pcount = p->sched_info.pcount;
	if (rq->curr == p)
		state = 'R';
	else if (p->exit_state)
		state = 'X';
	else if (p->se.on_rq)
		state = 'Q';
	else
		state = 'S';
	stats_line(&r, state);
}

/* The per-task table: the idle task, every task on task_list, the exited. */
void sched_debug_show_stats(void)
{
	struct rq *rq = this_rq();
	unsigned long flags;
	struct task *p;

	local_irq_save(flags);
	stats_header();
	stats_live(rq, rq->idle);
	list_for_each_entry(p, &task_list, tasks)	/* the dead: recorded below */
		if (p != rq->idle && p->state != TASK_DEAD)
			stats_live(rq, p);
	for (unsigned int i = 0; i < nr_dead_recs; i++)
		stats_line(&dead_recs[i], 'X');
	if (nr_dead_lost)
		out("(%u exits not recorded)\n", nr_dead_lost);
	out("rq: nr_switches %llu sched_count %u ttwu_count %u yld_count %u"
	    " run_delay %lld.%06lu pcount %llu\n",
	    (unsigned long long)rq->nr_switches, (unsigned)rq->sched_count,
	    (unsigned)rq->ttwu_count, (unsigned)rq->yld_count,
	    SPLIT_NS(rq->rq_sched_info.run_delay),
	    (unsigned long long)rq->rq_sched_info.pcount);
	local_irq_restore(flags);
}

/* Called once when init ends the run (kernel/sys.c, before power-off). */
void sched_report_at_end(void)
{
	if (sysctl_sched_verify)
		out("sched_verify: %lu violations\n", sched_verify_failures);
	if (sysctl_sched_debug != SCHED_DEBUG_END)
		return;
	out("\n");
	sched_debug_show();
	sched_debug_show_stats();
	out("sched_debug: end of report\n");
}
