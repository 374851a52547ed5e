/*
 * kernel/sched/sched.h - the scheduler's private header: the runqueue
 * (struct rq with its embedded struct cfs_rq), the scheduling-class hook
 * table, the feature bits and the tunables.  Included only by
 * the kernel/sched/ C files and by the host unit tests (tests/host/sched/).
 *
 * No group scheduling, no stop class: the class chain is rt -> fair ->
 * idle, every entity is a task, and there is one rq per possible CPU (a
 * per-CPU variable, runqueues, as 2.6.35's), though until the balancer is
 * wired in every task stays on the boot CPU's.  Names and semantics are
 * Linux 2.6.35's (kernel/sched.c, sched_fair.c).
 */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/compiler.h>
#include <kernel/list.h>
#include <kernel/rbtree.h>
#include <kernel/hrtick.h>
#include <kernel/time.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>
#include <kernel/spinlock.h>
#include <kernel/jump_label.h>
#include <kernel/smp_lock.h>
#include <kernel/stop_machine.h>

/* ---- Load-weight arithmetic (2.6.35, with i686's 32-bit long) ----------- */

#define SCHED_LOAD_SHIFT	10
#define NICE_0_LOAD		(1U << SCHED_LOAD_SHIFT)	/* 1024 */
#define WMULT_CONST		0xffffffffU	/* 2^32 - 1: ~0UL on 32-bit */
#define WMULT_SHIFT		32
#define WEIGHT_IDLEPRIO		3		/* SCHED_IDLE weight ... */
#define WMULT_IDLEPRIO		1431655765U	/* ... and its inverse */
#define LONG_MAX_32		0x7fffffffU	/* LONG_MAX on i686 */

/* Shift right with rounding: (x + 2^(y-1)) >> y. */
#define SRR(x, y)		(((x) + (1ULL << ((y) - 1))) >> (y))

extern const u32 prio_to_weight[40];	/* index = nice + 20 */
extern const u32 prio_to_wmult[40];	/* 2^32 / weight */

/* Enqueue/dequeue flags (2.6.35). */
#define ENQUEUE_WAKEUP		1	/* a sleeper wakes: place_entity(0) */
#define ENQUEUE_WAKING		2	/* SMP: vruntime was made relative */
#define ENQUEUE_HEAD		4	/* rt only */
#define DEQUEUE_SLEEP		1	/* a sleep: keep vruntime absolute */
/* Linux 6.12 flags used by EEVDF (CFS ignores them): */
#define DEQUEUE_SPECIAL		0x10	/* TASK_DEAD: never DELAY_DEQUEUE */
#define DEQUEUE_DELAYED		0x200	/* finish a DELAY_DEQUEUE */
#define ENQUEUE_INITIAL		0x80	/* first enqueue after fork */
#define ENQUEUE_DELAYED		0x200	/* wakeup of a delayed (still queued) task */

#define CPU_LOAD_IDX_MAX	5

struct sched_domain;

/*
 * The CPUs that balance rt tasks among themselves (2.6.35 struct
 * root_domain): Granule has one partition, def_root_domain, every online
 * CPU's (rt_smp.c).
 */
#include "cpupri.h"
struct root_domain {
	struct cpumask span;		/* CPUs attached */
	struct cpumask online;		/* ... and online (rq->online) */
	struct cpumask rto_mask;	/* CPUs with rt_rq->overloaded */
	int rto_count;			/* atomic: weight of rto_mask */
	struct cpupri cpupri;		/* each online CPU's top queued prio */
};
extern struct root_domain def_root_domain;

/* ---- Runqueues ---------------------------------------------------------- */

/* The fair class's runqueue (CFS). */
struct cfs_rq {
	struct load_weight load;	/* sum of queued weights (incl. curr) */
	u32 nr_running;			/* queued entities (incl. curr) */
	u64 exec_clock;			/* total time charged by update_curr */
	u64 min_vruntime;		/* monotonic; tree keys are relative */

	struct rb_root tasks_timeline;	/* queued entities except curr */
	struct rb_node *rb_leftmost;	/* cached rb_first() */

	/* 'curr' runs; 'next' and 'last' are the wakeup/preempted buddies */
	struct sched_entity *curr, *next, *last;

	u32 nr_spread_over;		/* |vruntime - min_vruntime| > 3 latency */

	/* every queued task (curr too), newest first: the balancer's list
	 * (2.6.35 cfs_rq->tasks, through se.group_node) */
	struct list_head tasks;

};

/*
 * The rt class's priority array (2.6.35): one FIFO list per rt priority
 * 0..99 (prio = 99 - rt_priority) and a bitmap of the non-empty ones, with
 * bit MAX_RT_PRIO always set as the delimiter for sched_find_first_bit().
 */
#define RT_BITMAP_WORDS		((MAX_RT_PRIO + 1 + 31) / 32)	/* 4 */
struct rt_prio_array {
	u32 bitmap[RT_BITMAP_WORDS];
	struct list_head queue[MAX_RT_PRIO];
};

/* The rt class's runqueue (2.6.35 struct rt_rq, no groups). */
struct rt_rq {
	struct rt_prio_array active;
	u32 rt_nr_running;		/* queued rt tasks (incl. curr) */
	struct {
		int curr;		/* lowest prio number queued, or MAX_RT_PRIO */
		int next;		/* SMP: the best a pull could take (next_prio()) */
	} highest_prio;
	int rt_throttled;		/* ran rt_runtime this period: rt waits */
	u64 rt_time;			/* ns run by rt tasks this period */
	u64 rt_runtime;			/* ns allowed per period; RUNTIME_INF: no limit */
	u64 rt_period_start;		/* rq->clock when this period began (tick-driven timer) */
	/* SMP (rt_smp.c, kept while smp_key is on) */
	u32 rt_nr_total;		/* queued rt tasks, as rt_nr_running */
	u32 rt_nr_migratory;		/* ... of them allowed on more than one CPU */
	int overloaded;			/* nr_total > 1 and one may move: in rto_mask */
	struct list_head pushable_tasks; /* queued, not running, may move; by prio */
};
#define RUNTIME_INF		((u64)~0ULL)

/*
 * A CPU's runqueue (2.6.35 struct rq, no groups).  Linux puts lock first;
 * here lock and cpu follow everything the uniprocessor code used, so that
 * its field offsets (and code) stay as they were.
 */
struct rq {
	u32 nr_running;			/* tasks of all classes (idle excluded) */
	u32 cpu_load[CPU_LOAD_IDX_MAX];	/* decaying averages of load.weight */
	u32 nr_load_updates;
	u64 nr_switches;
	struct load_weight load;	/* sum of queued task weights */
	struct cfs_rq cfs;
	long nr_uninterruptible;	/* tasks in TASK_UNINTERRUPTIBLE sleep */

	struct task *curr, *idle;
	struct task *prev;		/* switch_to()'s 'last': the task this CPU is
					 * switching away from (SMP), for its on_cpu */
	u64 clock;			/* sched_clock() at the last update_rq_clock */
	/*
	 * 2.6.35's flag, set where Linux 6.1 sets it (rq_clock_skip_update()
	 * in yield_task_fair): the clock was refreshed and curr charged just
	 * now, so the schedule() that follows keeps that clock instead of a
	 * "microscopic update" that would charge curr a second time.  Only
	 * put_prev_task() reads it and clears it.
	 */
	int skip_clock_update;

	int hrtick_active;		/* the one-shot hrtick is armed */
	struct list_head deadline_list;	/* DEADLINE: unrun forks by deadline */

	/* schedstats (2.6.35 names) */
	struct sched_info rq_sched_info;	/* run_delay, pcount of all tasks */
	u64 rq_cpu_time;		/* time non-idle tasks ran */
	u32 yld_count;			/* sched_yield() calls */
	u32 sched_switch;		/* legacy, always 0 */
	u32 sched_count;		/* schedule() calls */
	u32 sched_goidle;		/* times the idle task was picked */
	u32 ttwu_count;			/* try_to_wake_up() calls */
	u32 ttwu_local;			/* ... that woke a task here (all, on UP) */

	/*
	 * EEVDF's part of the fair runqueue: Linux 6.12 has these fields in
	 * struct cfs_rq; here they follow everything CFS uses, so that CFS's
	 * layout (and code) is unchanged.  eevdf.h: eevdf_rq(cfs_rq).
	 */
	struct eevdf_cfs_rq {
		/*
		 * cfs.tasks_timeline is keyed by deadline instead, and V is
		 * kept relative to zero_vruntime (v0):
		 *	avg_vruntime = sum over the tree of w_i * (v_i - v0)
		 *	avg_load     = sum over the tree of w_i
		 * (curr is added in by avg_vruntime()).
		 */
		s64 avg_vruntime;
		u64 avg_load;
		u64 zero_vruntime;
		u32 h_nr_delayed;		/* DELAY_DEQUEUE sleepers still queued */
		struct sched_entity *reweight_se; /* dequeued (not asleep) with ... */
		u32 reweight_weight;		/* ... this weight: see enqueue_entity */
		struct sched_avg avg;		/* the queue's PELT (pelt.c, eevdf_pelt.c) */
		/*
		 * What tasks that left while asleep (migrated, exited) took
		 * with them, subtracted at the next update_cfs_rq_load_avg()
		 * (6.12's cfs_rq->removed; its own lock there, as the wakeup
		 * path holds only p->pi_lock: here the old rq's lock is held).
		 */
		struct {
			u32 nr;
			u32 load_avg;
			u32 util_avg;
			u32 runnable_avg;
		} removed;
	} eevdf;

	struct rt_rq rt;		/* the rt class (rt.c), after CFS's fields */

	/* the load average's per-CPU half (loadavg.c) */
	s32 calc_load_active;		/* nr_running + nr_uninterruptible at the last fold */
	u32 calc_load_update;		/* jiffies of the next fold */

	/* SMP (2.6.35): the lock of everything above, and whose rq this is */
	raw_spinlock_t lock;		/* order: two rqs by address (double_rq_lock) */
	int cpu;
	struct sched_domain *sd;	/* lowest of this CPU's domains, or NULL */
	unsigned long cpu_power;	/* 1024 (SCHED_LOAD_SCALE); SMT: a share */
	unsigned long next_balance;	/* jiffies when rebalance_domains() is due */
	int idle_at_tick;		/* the last tick found the idle task running */
	u64 idle_stamp;			/* rq->clock when idle_balance() found nothing */
	u64 avg_idle;			/* ns; idle_balance() only if >= migration cost */
	int active_balance;		/* a push of its running task is requested ... */
	int push_cpu;			/* ... to this CPU */
	struct cpu_stop_work active_balance_work;	/* ... run by its stopper */
	/* set_cpus_allowed_ptr() moves off this CPU waiting for its stopper:
	 * a queued task may be outside its mask meanwhile (sched_verify) */
	unsigned int migration_pending;
	/* the rt class's SMP half (rt_smp.c) */
	struct root_domain *rd;		/* &def_root_domain: one partition */
	int online;			/* in rd->online: counted in cpupri and rto_mask */
	int post_schedule;		/* pick_next_task_rt left pushable tasks */
};

DECLARE_PER_CPU(struct rq, runqueues);

/* 2.6.35's accessors: any CPU's rq, this CPU's, the one P is (or will be) on. */
#define cpu_rq(cpu)		(&per_cpu(runqueues, (cpu)))
#define this_rq()		(&__get_cpu_var(runqueues))
#define task_rq(p)		cpu_rq(task_cpu(p))
#define cpu_curr(cpu)		(cpu_rq(cpu)->curr)
static inline int cpu_of(const struct rq *rq) { return rq->cpu; }
static inline int task_current(struct rq *rq, const struct task *p) { return rq->curr == p; }
static inline int task_running(struct rq *rq, const struct task *p) { return rq->curr == p; }

static inline struct task *task_of(struct sched_entity *se)
{
	return container_of(se, struct task, se);
}
static inline struct rq *rq_of(struct cfs_rq *cfs_rq)
{
	return container_of(cfs_rq, struct rq, cfs);
}
/* No group scheduling: an entity is a task, on its CPU's one cfs_rq. */
static inline struct cfs_rq *task_cfs_rq(struct task *p)
{
	return &task_rq(p)->cfs;
}
static inline struct cfs_rq *cfs_rq_of(struct sched_entity *se)
{
	return task_cfs_rq(task_of(se));
}

/* ---- Scheduling classes -------------------------------------------------- */

/*
 * The hook table of a scheduling class (2.6.35 struct sched_class, UP
 * subset).  Classes are chained by ->next from the highest: rt -> fair -> idle.
 * All hooks run with interrupts off.
 */
struct sched_class {
	const struct sched_class *next;

	void (*enqueue_task)(struct rq *rq, struct task *p, int flags);
	/* clears p->se.on_rq, unless P stays queued (an EEVDF delayed sleeper) */
	void (*dequeue_task)(struct rq *rq, struct task *p, int flags);
	void (*yield_task)(struct rq *rq);
	void (*check_preempt_curr)(struct rq *rq, struct task *p, int wake_flags);
	struct task *(*pick_next_task)(struct rq *rq);	/* idle: never NULL */
	void (*put_prev_task)(struct rq *rq, struct task *p);
	void (*set_curr_task)(struct rq *rq);
	void (*task_tick)(struct rq *rq, struct task *p, int queued);
	void (*task_fork)(struct task *p);
	void (*switched_to)(struct rq *rq, struct task *p, int running);
	void (*prio_changed)(struct rq *rq, struct task *p, int oldprio,
			     int running);
	/* sched_rr_get_interval(2): P's round-robin interval, in ticks */
	unsigned int (*get_rr_interval)(struct rq *rq, struct task *p);
	/* charge rq->curr up to rq->clock (task_sched_runtime); NULL: never */
	void (*update_curr)(struct rq *rq);
	/* SMP (place.c): P's CPU for SD_BALANCE_WAKE/FORK/EXEC; NULL: stay */
	int (*select_task_rq)(struct task *p, int sd_flag, int wake_flags);
	/* SMP: a sleeper is about to be woken, maybe elsewhere (ENQUEUE_WAKING) */
	void (*task_waking)(struct rq *rq, struct task *p);
	/* SMP (6.12, EEVDF only): P moves to NEW_CPU (set_task_cpu), queued
	 * (p->on_rq TASK_ON_RQ_MIGRATING) or asleep; NULL: nothing to do */
	void (*migrate_task_rq)(struct task *p, int new_cpu);
	/* SMP, 2.6.35's rt hooks (NULL in the other classes): before the
	 * pick (prev's class), after the switch (next's, if rq->post_schedule),
	 * after a wakeup, on leaving the class, on an affinity change, and when
	 * RQ's CPU joins or leaves the root domain */
	void (*pre_schedule)(struct rq *rq, struct task *prev);
	void (*post_schedule)(struct rq *rq);
	void (*task_woken)(struct rq *rq, struct task *p);
	void (*switched_from)(struct rq *rq, struct task *p, int running);
	void (*set_cpus_allowed)(struct task *p, const struct cpumask *new_mask);
	void (*rq_online)(struct rq *rq);
	void (*rq_offline)(struct rq *rq);
	const char *name;		/* for messages: "fair", "idle" */
};

/*
 * Two fair classes are built in and exactly one runs, chosen at boot by
 * sched_preset= (tunables.c): CFS (Linux 2.6.35, fair.c) by default,
 * EEVDF (Linux 6.12, eevdf*.c) under sched_preset=linux-6.12.  Every fair
 * task points to fair_sched_class, a copy of the running one's table.
 */
extern const struct sched_class fair_sched_class;	/* the one that runs */
extern struct sched_class fair_sched_class_rw __asm__("fair_sched_class"); /* writable */
extern const struct sched_class cfs_sched_class;	/* fair.c */
extern const struct sched_class eevdf_sched_class;	/* eevdf_class.c */
extern const struct sched_class idle_sched_class;
extern const struct sched_class rt_sched_class;		/* rt.c */
#define sched_class_highest	(&rt_sched_class)
void eevdf_put_deferred(struct rq *rq);	/* eevdf_class.c: core.c's slow pick */
extern int sched_eevdf_running;			/* tunables.c */
static inline int sched_eevdf(void)
{
	return sched_eevdf_running;
}
void sched_select_fair_class(int eevdf);	/* tunables.c */
void ttwu_delayed(struct rq *rq, struct task *p);	/* eevdf_class.c */

/*
 * Linux 6.12's ttwu_runnable(): a DELAY_DEQUEUE sleeper that wakes is still
 * queued, so the wakeup requeues it (enqueue_task(ENQUEUE_DELAYED)) before
 * the preemption check, whichever class runs on its CPU.  sched_delayed is
 * EEVDF's (under CFS its bytes are fork_nice_penality): ask only under EEVDF.
 */
static inline void ttwu_requeue_delayed(struct rq *rq, struct task *p)
{
	if (sched_eevdf_running && p->se.sched_delayed)
		ttwu_delayed(rq, p);
}
#define for_each_class(class) \
	for (class = sched_class_highest; class; class = class->next)

/* The sched_* system calls' pid lookup and policy argument (syscalls.c;
 * setattr.c too): the policy, P's if POLICY < 0, or -EINVAL. */
struct task *find_process_by_pid(int pid);
int sched_policy_arg(struct task *p, int policy, int reset, unsigned int *reset_on_fork);
/* NS_TO_JIFFIES (2.6.35): ns to whole ticks, in 32 bits as i686's long */
#define NS_TO_JIFFIES(ns)	((u32)(ns) / (1000000000U / HZ))

/* ---- Features (features.h as an X-macro) -------------------------------- */

#define SCHED_FEAT(name, enabled) __SCHED_FEAT_##name,
enum {
#include "features.h"
	__SCHED_FEAT_NR,
};
#undef SCHED_FEAT

extern unsigned int sysctl_sched_features;
extern const char *const sched_feat_names[__SCHED_FEAT_NR];
#define SCHED_FEATURES_DEFAULT	sched_features_default()
unsigned int sched_features_default(void);	/* 0x3C6F */
#define sched_feat(x)	(sysctl_sched_features & (1U << __SCHED_FEAT_##x))

/* ---- Tunables (kernel/sched/tunables.c; units ns unless stated) ---------- */

enum sched_tunable_scaling {
	SCHED_TUNABLESCALING_NONE,	/* factor 1 */
	SCHED_TUNABLESCALING_LOG,	/* factor 1 + ilog2(min(ncpus, 8)) */
	SCHED_TUNABLESCALING_LINEAR,	/* factor min(ncpus, 8) */
	SCHED_TUNABLESCALING_END,
};

extern u32 sysctl_sched_latency, normalized_sysctl_sched_latency;
extern u32 sysctl_sched_min_granularity, normalized_sysctl_sched_min_granularity;
extern u32 sysctl_sched_wakeup_granularity,
	   normalized_sysctl_sched_wakeup_granularity;
extern u32 sysctl_sched_shares_ratelimit,
	   normalized_sysctl_sched_shares_ratelimit;
extern u32 sysctl_sched_tunable_scaling;	/* enum sched_tunable_scaling */
extern u32 sched_nr_latency;		/* not a sysctl: ceil(latency/min_gran) */
extern int sysctl_sched_child_runs_first;
extern int sysctl_sched_compat_yield;
extern int sysctl_sched_verify;		/* Granule: check invariants */
extern int sysctl_sched_schedstats;	/* 0/1, tunables.c: set_schedstats() */
extern int sched_schedstats_were_off;	/* schedstats were off at some time */
void set_schedstats(int on);
/* Variants (docs/VARIANTS.md); see tunables.c. */
extern u32 sysctl_sched_std_granularity;	/* [M1/2] */
extern u32 sched_nr_latency_max;		/* [M1/2] */
extern u32 sysctl_sched_sleeper_wakeup_slice;	/* [M2/2]; 0 = off */
extern int sysctl_sched_fork_update_clock;	/* 2.6.36 task_fork_fair */
/* SMP (balance.c): a task that ran within this many ns is cache-hot; tasks
 * the balancer looks at per pass (2.6.35's defaults 500000 and 32) */
extern unsigned int sysctl_sched_migration_cost;
extern unsigned int sysctl_sched_nr_migrate;

#define SCHED_NR_CPUS		1	/* online CPUs: uniprocessor */

unsigned int sched_tunable_factor(unsigned int scaling, unsigned int ncpus);
unsigned int get_update_sysctl_factor(void);
void update_sysctl(void);		/* sysctl = factor * normalized */
void sched_proc_update_handler(void);	/* after a write of a sched sysctl */
int sched_feat_parse(const char *list);	/* "NO_A,B": 0, or -1 (unchanged) */
int sched_feat_parse_names(const char *list, const char *const *names, int nr,
			   const char *known, unsigned int *maskp);
int sched_feat_snprint(char *buf, size_t len); /* "A B NO_C ..." */
int sched_preset_apply(const char *name);	/* 0, or -1 if unknown */
const char *sched_preset_name(void);
/* "key=value\n" lines of the effective knobs (granule_sched_params(2)) */
int sched_params_snprint(char *buf, size_t len);
long sys_granule_sched_params(char *ubuf, int len);

/* ---- loadavg.c (2.6.35's calc_load, the per-CPU half) -------------------- */

void calc_load_init(struct rq *rq);
void __calc_load_account_active(struct rq *this_rq);
/* From update_cpu_load() every tick: fold this CPU's active count into the
 * global one every LOAD_FREQ (inline: one comparison when not due). */
static inline void calc_load_account_active(struct rq *this_rq)
{
	/* time_before(jiffies, this_rq->calc_load_update), 32-bit as on i686 */
	if ((s32)((u32)jiffies - this_rq->calc_load_update) < 0)
		return;
	__calc_load_account_active(this_rq);
}

/* ---- core.c ------------------------------------------------------------- */

/* rq->clock = sched_clock(), ns (inline, as 2.6.35's in one sched.c). */
static inline void update_rq_clock(struct rq *rq)
{
	rq->clock = sched_clock();
}
void resched_task(struct task *p);
/* se.load from the policy and static priority (SCHED_IDLE: weight 3). */
static inline void set_load_weight(struct task *p)
{
	if (p->policy == SCHED_IDLE) {
		p->se.load.weight = WEIGHT_IDLEPRIO;
		p->se.load.inv_weight = WMULT_IDLEPRIO;
		return;
	}
	p->se.load.weight = prio_to_weight[p->static_prio - MAX_RT_PRIO];
	p->se.load.inv_weight = prio_to_wmult[p->static_prio - MAX_RT_PRIO];
}
void *memset(void *dst, int c, size_t n);	/* <kernel/string.h>: kept out of
						 * the host tests' files that include this */
/* Reset P's scheduling state, the part of fork that is not the class's
 * (sched_fork(), wakeup.c; init_idle(), core.c). */
static inline void __sched_fork(struct task *p)
{
	/* se.avg is EEVDF's (PELT), kept zero from the allocation until its
	 * task_fork: the CFS path clears what it always cleared */
	memset(&p->se, 0, offsetof(struct sched_entity, avg));
	RB_CLEAR_NODE(&p->se.run_node);
	INIT_LIST_HEAD(&p->se.deadline_node);
	INIT_LIST_HEAD(&p->se.group_node);
	INIT_LIST_HEAD(&p->rt.run_list);
	p->on_rq = 0;
}
void enqueue_task(struct rq *rq, struct task *p, int flags);
void dequeue_task(struct rq *rq, struct task *p, int flags);
void activate_task(struct rq *rq, struct task *p, int flags);
void deactivate_task(struct rq *rq, struct task *p, int flags);
void check_preempt_curr(struct rq *rq, struct task *p, int wake_flags);
/* An uninterruptible sleeper counts in its rq's nr_uninterruptible. */
static inline int task_contributes_to_load(const struct task *p)
{
	return (p->state & TASK_UNINTERRUPTIBLE) != 0;
}
/*
 * The bodies of activate_task() and check_preempt_curr(), inlined into the
 * wakeup path (wakeup.c) as the compiler inlined them there while it was
 * in core.c: the same instructions.
 */
/* Queue P and count it in rq->nr_running (wakeup, fork, policy change). */
static __always_inline void __activate_task(struct rq *rq, struct task *p, int flags)
{
	if (task_contributes_to_load(p))
		rq->nr_uninterruptible--;

	enqueue_task(rq, p, flags);
	rq->nr_running++;		/* inc_nr_running */
}
static __always_inline void __check_preempt_curr(struct rq *rq, struct task *p, int wake_flags)
{
	rq->curr->sched_class->check_preempt_curr(rq, p, wake_flags);
}
void rt_mutex_setprio(struct task *p, int prio);	/* PI: rtmutex.c */
/* HRTICK is on and a one-shot timer exists (inline: every pick asks). */
static inline int hrtick_enabled(struct rq *rq)
{
	(void)rq;
	return sched_feat(HRTICK) && hrtick_available();
}
void hrtick_start(struct rq *rq, u64 delay);
/*
 * rq->lock while more than one CPU is online (smp_key, <kernel/smp_lock.h>);
 * at one CPU a jump over it, and interrupts off are the whole of the lock,
 * as in 2.6.35's uniprocessor build.
 */
static inline void rq_lock(struct rq *rq)
{
	smp_raw_spin_lock(&rq->lock);
}
static inline void rq_unlock(struct rq *rq)
{
	smp_raw_spin_unlock(&rq->lock);
}
struct rq *__task_rq_lock(struct task *p);	/* migrate.c: interrupts are off */
/* Interrupts off and, while more than one CPU is online, P's rq locked
 * (2.6.35's task_rq_lock()); at one CPU a jump over the lock. */
static inline struct rq *task_rq_lock_irqsave(struct task *p, unsigned long *flags)
{
	local_irq_save(*flags);
	return static_branch_on(&smp_key) ? __task_rq_lock(p) : task_rq(p);
}
static inline void task_rq_unlock_irqrestore(struct rq *rq, unsigned long *flags)
{
	rq_unlock(rq);
	local_irq_restore(*flags);
}
void hrtick_clear(struct rq *rq);
/*
 * debug.c's checker: RQ's invariants (the caller holds RQ's lock at more
 * than one CPU), then, if this CPU holds the giant lock, the PI chains;
 * the parts, each returning its violations (printed); the count.
 */
int sched_verify_rq(struct rq *rq);
int sched_verify_task_cpu(struct rq *rq, struct task *p);
int sched_verify_global(void);
int sched_verify_count(int bad);	/* adds to sched_verify_failures */
/*
 * core.c calls this after schedule/tick/wakeup/priority changes, on the
 * rq whose lock it holds there, under sched_verify=1 (inline: the test is
 * one load).
 */
static inline void sched_verify_hook(struct rq *rq)
{
	if (unlikely(sysctl_sched_verify))
		sched_verify_rq(rq);
}
void sched_verify_reset(void);	/* forget the min_vruntime history */
/* sched_debug=: off, end (the end-of-run report), domains (sched_domain_debug) */
enum { SCHED_DEBUG_OFF, SCHED_DEBUG_END, SCHED_DEBUG_DOMAINS };
extern int sysctl_sched_debug;
/* debug.c: sched_debug=end keeps exited tasks' stats for the final report */
void sched_debug_task_dead(struct task *p);
void sched_debug_show_stats(void);	/* the per-task schedstats table */
/* SPLIT_NS(x): x ns as Linux prints it, milliseconds "%lld.%06lu" */
long long nsec_high(u64 nsec);
unsigned long nsec_low(u64 nsec);
#define SPLIT_NS(x) nsec_high((u64)(x)), nsec_low((u64)(x))

/* ---- migrate.c (2.6.35: moving tasks between CPUs' runqueues) ----------- */

void set_task_cpu(struct task *p, unsigned int new_cpu);
struct rq *task_rq_lock(struct task *p, unsigned long *flags);
void task_rq_unlock(struct rq *rq, unsigned long *flags);
void double_rq_lock(struct rq *rq1, struct rq *rq2);	/* by address */
void double_rq_unlock(struct rq *rq1, struct rq *rq2);
int double_lock_balance(struct rq *this_rq, struct rq *busiest);
void double_unlock_balance(struct rq *this_rq, struct rq *busiest);
void move_queued_task(struct rq *src_rq, struct task *p, struct rq *dst_rq);
/* eevdf_smp.c: EEVDF's move of a queued task (PELT's detach/attach), and
 * the periodic balance's first steps: age this CPU's blocked load, SIS_UTIL */
void move_queued_task_eevdf(struct rq *src_rq, struct task *p, struct rq *dst_rq);
void sched_balance_softirq_eevdf(int cpu);
void pull_task(struct rq *src_rq, struct task *p, struct rq *this_rq, int this_cpu);
void task_waking_fair(struct rq *rq, struct task *p);

/* ---- place.c (2.6.35: a task's CPU at wakeup, fork and exec) ------------- */

struct migration_arg {			/* migration_cpu_stop's: move TASK ... */
	struct task *task;
	int dest_cpu;			/* ... here */
};
int select_fallback_rq(int cpu, struct task *p);
int select_task_rq(struct task *p, int sd_flag, int wake_flags);
int try_to_wake_up_smp(struct task *p, unsigned int state, int wake_flags);
void sched_fork_balance(struct task *p);
int migrate_task(struct task *p, int dest_cpu);
int migration_cpu_stop(void *data);

/* ---- fair.c (non-static so debug.c and the host tests can reach them) --- */

void init_cfs_rq(struct cfs_rq *cfs_rq);
u32 calc_delta_mine(u32 delta_exec, u32 weight, struct load_weight *lw);
u32 calc_delta_fair(u32 delta, struct sched_entity *se);
u64 __sched_period(u32 nr_running);
u32 __sched_gran(u32 nr_running);
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se);
void update_curr(struct cfs_rq *cfs_rq);
void update_min_vruntime(struct cfs_rq *cfs_rq);
int entity_before(struct sched_entity *a, struct sched_entity *b);
s64 entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
struct sched_entity *__pick_next_entity(struct cfs_rq *cfs_rq);
struct sched_entity *__pick_last_entity(struct cfs_rq *cfs_rq);
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se);
void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr);
void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued);
u32 wakeup_gran(struct sched_entity *curr, struct sched_entity *se);
int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se);
struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq);
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev);

/* ---- eevdf*.c (EEVDF; the rest of its interface is eevdf.h) --------------- */

extern u32 sysctl_sched_base_slice, normalized_sysctl_sched_base_slice;
extern unsigned int sysctl_sched_features_eevdf;	/* Linux 6.12's bits */
void eevdf_init_cfs_rq(struct cfs_rq *cfs_rq);
#define EEVDF_PRESET	"linux-6.12"
void eevdf_preset_apply(void);				/* eevdf_tunables.c */
int eevdf_feat_parse(const char *list);
int eevdf_feat_snprint(char *buf, size_t len);
void eevdf_features_show(char *buf, size_t len);
void eevdf_print_tunables(void);
int eevdf_params_snprint(char *buf, size_t len);
struct knob;
int sched_knob_cfs_only(const struct knob *k);		/* tunables.c */
int sched_verify_eevdf(struct rq *rq);			/* eevdf_debug.c */
void eevdf_print_cfs_rq(struct cfs_rq *cfs_rq);		/* eevdf_debug.c */
void eevdf_print_rq(struct rq *rq);
void proc_sched_show_task_eevdf(struct task *p);	/* eevdf_debug.c */
void proc_sched_show_avg_eevdf(struct task *p);	/* eevdf_debug.c: se.avg */
/* debug.c: print to the console, or to the /proc buffer being filled */
void sched_debug_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- rt.c (Linux 2.6.35's sched_rt.c, one CPU) -------------------------- */

extern int sysctl_sched_rt_period;	/* us, default 1000000, > 0 */
extern int sysctl_sched_rt_runtime;	/* us, default 950000, -1 = no limit */
extern int sysctl_sched_rr_timeslice;	/* ms, 6.12 knob; 100 */
#define RR_TIMESLICE_MS		100	/* DEF_TIMESLICE: 100 * HZ / 1000 ticks */
unsigned int sched_rr_timeslice(void);	/* ticks */
static inline int rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}
static inline int rt_task(const struct task *p)
{
	return rt_prio(p->prio);
}
void init_rt_rq(struct rt_rq *rt_rq);
u64 sched_rt_runtime(void);		/* ns per period, or RUNTIME_INF */
u64 sched_rt_period(void);		/* ns */
void sched_rt_period_tick(struct rq *rq); /* the period timer, from the tick */
int sched_find_first_bit(const u32 *bitmap);
int sched_verify_rt(struct rq *rq);		/* rt.c: rt_rq invariants, 0 if sound */
void print_rt_rq(struct rt_rq *rt_rq);	/* debug.c layout of rt_rq[0] */
/* debug.c: PRINT each queued rt task (/proc/sched_debug's runnable tasks) */
void print_rt_tasks(struct rq *rq, void (*print)(struct rq *rq, struct task *p));
void requeue_task_rt(struct rq *rq, struct task *p, int head);

/* ---- rt_smp.c (2.6.35's sched_rt.c, its CONFIG_SMP half) --------------- */

/* rt.c's SMP bookkeeping runs while smp_key is on (a jump at one CPU). */
void inc_rt_smp(struct rt_rq *rt_rq, struct task *p, int prev_prio);
void dec_rt_smp(struct rt_rq *rt_rq, struct task *p, int prev_prio);
void enqueue_pushable_task(struct rq *rq, struct task *p);
void dequeue_pushable_task(struct rq *rq, struct task *p);
static inline int has_pushable_tasks(struct rq *rq)
{
	return !list_empty(&rq->rt.pushable_tasks);
}
int rt_nr_cpus_allowed(const struct task *p);	/* weight of P's mask */
void init_rt_rq_smp(struct rt_rq *rt_rq);
void init_defrootdomain(void);
void set_rq_online(struct rq *rq);	/* 2.6.35: the classes' rq_online */
int select_task_rq_rt(struct task *p, int sd_flag, int wake_flags);
void check_preempt_equal_prio(struct rq *rq, struct task *p);
int push_rt_task(struct rq *rq);
int pull_rt_task(struct rq *this_rq);
void pre_schedule_rt(struct rq *rq, struct task *prev);
void post_schedule_rt(struct rq *rq);
void task_woken_rt(struct rq *rq, struct task *p);
void switched_from_rt(struct rq *rq, struct task *p, int running);
void set_cpus_allowed_rt(struct task *p, const struct cpumask *new_mask);
void rq_online_rt(struct rq *rq);
void rq_offline_rt(struct rq *rq);
int sched_verify_rt_smp(struct rq *rq);	/* pushable list, rto_mask, cpupri */

/* ---- deadline.c (DEADLINE, our reconstruction of (e)7) ------------------ */

void deadline_enqueue(struct rq *rq, struct sched_entity *se);
void deadline_dequeue(struct sched_entity *se);
struct sched_entity *earliest_deadline_entity(struct rq *rq);
struct sched_entity *__expired_deadline_entity(struct rq *rq);
/* The earliest deadline if it has passed and DEADLINE is on, else NULL
 * (the feature test inline: with DEADLINE off, as by default, that is all). */
static inline struct sched_entity *expired_deadline_entity(struct rq *rq)
{
	if (!sched_feat(DEADLINE))
		return NULL;
	return __expired_deadline_entity(rq);
}

#endif
