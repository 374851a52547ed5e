/*
 * kernel/sched.h - the scheduler's public interface and the per-task
 * scheduling state embedded in struct task (<kernel/task.h>).
 *
 * The scheduler is Linux 2.6.35's uniprocessor core (kernel/sched.c) with
 * its fair class (kernel/sched_fair.c) and idle class, rebuilt under the
 * same names in kernel/sched/.  docs/SCHEDULER.md maps it onto Linux
 * function by function, docs/VARIANTS.md describes the variants (source
 * tags such as [SN]: docs/DEBATE.md); the boot knobs are listed in
 * kernel/sched/tunables.c.
 *
 * Rules (so that the code also runs unchanged in host unit tests):
 *   - time comes only from sched_clock() (<kernel/time.h>);
 *   - switching happens only through arch_switch_to() (<arch/thread.h>);
 *   - preemption only sets current->need_resched; the arch's interrupt and
 *     syscall exit path calls schedule() when it is set;
 *   - the scheduler never allocates memory;
 *   - locking is local_irq_save/restore: every function below may be
 *     called with interrupts on or off.
 *
 * Units: times in nanoseconds (u64), weights in 1/1024 of a nice-0 task.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/rbtree.h>

struct task;
struct cpumask;
struct sched_class;	/* kernel/sched/sched.h */

/* Scheduling policies (Linux values).  Only the fair ones exist here. */
#define SCHED_NORMAL	0
#define SCHED_FIFO	1	/* rt class (rt.c): run until it blocks or yields */
#define SCHED_RR	2	/* rt class: FIFO with a 100 ms round-robin slice */
#define SCHED_BATCH	3	/* never wakeup-preempts; yields to the back */
#define SCHED_IDLE	5	/* weight 3; preempted by any wakeup */

/*
 * Priorities: 0..99 real-time (unused), 100..139 = nice -20..19.
 * prio_to_weight[] is indexed by static_prio - MAX_RT_PRIO.
 */
#define MAX_RT_PRIO		100
#define MAX_PRIO		(MAX_RT_PRIO + 40)
#define DEFAULT_PRIO		(MAX_RT_PRIO + 20)	/* nice 0 */
#define NICE_TO_PRIO(nice)	(MAX_RT_PRIO + (nice) + 20)
#define PRIO_TO_NICE(prio)	((prio) - MAX_RT_PRIO - 20)
#define rt_prio(prio)		((prio) < MAX_RT_PRIO)

/*
 * TASK_WAKING (Linux 2.6.35 value): set by sched_fork() so that nothing
 * wakes the child before wake_up_new_task() makes it TASK_RUNNING.
 * The other states live in <kernel/task.h>.
 */
#define TASK_WAKING		256
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* try_to_wake_up() wake_flags (2.6.35). */
#define WF_SYNC			0x01	/* waker goes to sleep after wakeup */
#define WF_FORK			0x02	/* child wakeup after fork */

/*
 * A load weight and its cached inverse 2^32/weight (0 = not yet computed).
 * u32 because Linux uses unsigned long, 32 bits on i686.
 */
struct load_weight {
	u32 weight;
	u32 inv_weight;
};

/* Per-entity schedstats (2.6.35 struct sched_statistics, UP subset), ns. */
struct sched_statistics {
	u64 wait_start;		/* rq clock when it last became queued-waiting */
	u64 wait_max;		/* longest wait on the runqueue */
	u64 wait_count;		/* number of waits ended by being picked */
	u64 wait_sum;		/* total time waiting on the runqueue */
	u64 sleep_start;	/* rq clock at an interruptible sleep */
	u64 sleep_max;
	s64 sum_sleep_runtime;	/* total time asleep (both kinds) */
	u64 block_start;	/* rq clock at an uninterruptible sleep */
	u64 block_max;
	u64 exec_max;		/* longest single update_curr() delta */
	u64 slice_max;		/* longest run between picks (rq load >= 2w) */
	u64 nr_wakeups;		/* successful try_to_wake_up()s */
};

/*
 * PELT's running averages of one entity or one queue (Linux 6.12's struct
 * sched_avg, kernel/sched/pelt.c keeps them).  The *_sum are geometric
 * series over 1024-unit periods (a unit is 1024 ns), *_avg = *_sum / the
 * divider; load_avg is weighted, runnable_avg and util_avg are in
 * SCHED_CAPACITY_SCALE (1024) units.  unsigned long is u32, as on i686.
 */
struct sched_avg {
	u64 last_update_time;		/* ns, a multiple of 1024 */
	u64 load_sum;			/* se: time queued; cfs_rq: weight * time */
	u64 runnable_sum;		/* runnable tasks * time, << 10 */
	u32 util_sum;			/* time running, << 10 */
	u32 period_contrib;		/* units of the current period already summed */
	u32 load_avg;
	u32 runnable_avg;
	u32 util_avg;
	/* util_est (6.12's UTIL_EST): util_avg at the last dequeue for a
	 * sleep, EWMA'd; bit 31 UTIL_AVG_UNCHANGED: util_avg not moved since */
	u32 util_est;
};

/*
 * A schedulable entity: on our UP kernel without groups, always a task.
 * Two fair classes share it (exactly one runs, see kernel/sched/sched.h):
 * CFS (2.6.35) and EEVDF (6.12).  EEVDF's own fields overlap CFS's variant
 * fields in unions, so that CFS's layout, and with it every instruction
 * CFS executes, is what it was.
 */
/* The rt class's part of a task (2.6.35 struct sched_rt_entity, UP). */
struct sched_rt_entity {
	struct list_head run_list;	/* in rt_rq->active.queue[prio] */
	unsigned int time_slice;	/* SCHED_RR: ticks left, DEF_TIMESLICE */
	/* SMP (rt_smp.c): in rt_rq->pushable_tasks, by prio (2.6.35 keeps
	 * it in task_struct as a plist node) */
	struct list_head pushable_tasks;
	/* cpumask_weight(cpus_allowed) when queued: what rt_nr_migratory
	 * counted it as (set_cpus_allowed_rt keeps it while queued) */
	unsigned int nr_cpus_allowed;
};

struct sched_entity {
	struct load_weight load;	/* from prio_to_weight[] */
	struct rb_node run_node;	/* in cfs_rq->tasks_timeline unless curr */
	unsigned int on_rq;		/* counted in cfs_rq (queued or curr) */

	u64 exec_start;			/* rq clock at the last update_curr() */
	u64 sum_exec_runtime;		/* total CPU time, ns */
	u64 vruntime;			/* virtual runtime, ns at nice 0 */
	u64 prev_sum_exec_runtime;	/* sum_exec_runtime when last picked */

	struct sched_statistics statistics;

	union {
		/*
		 * CFS: the 2010 seed variants (docs/VARIANTS.md); all zero unless a
		 * preset or feature turns them on.
		 */
		struct {
			u32 sleeper_wakeup_slice; /* [M2/2] run shielded after wakeup, ns */
			u64 fork_nice_timeout;	/* [SN] penalty ends at this sum_exec */
			unsigned int fork_nice_penality; /* [SN] vruntime shift (patch spelling) */
		};
		/* EEVDF (Linux 6.12's sched_entity fields) */
		struct {
			s64 vlag;		/* V - v at dequeue; the deadline while picked */
			u32 slice;		/* requested run, ns (Linux: u64; <= 1 s here) */
			unsigned char sched_delayed; /* DELAY_DEQUEUE: asleep, still queued */
			unsigned char rel_deadline;  /* deadline holds deadline - vruntime */
			unsigned char custom_slice;  /* slice set by sched_setattr(2) */
			unsigned char sched_contributes_to_load; /* delayed in D state */
		};
	};
	/*
	 * CFS + DEADLINE (ours): rq clock by which an unrun fork must run,
	 * 0 = none.  EEVDF: the virtual deadline v + slice/w, the tree's key.
	 */
	u64 deadline;
	union {
		struct list_head deadline_node;	/* CFS DEADLINE: in rq's deadline list */
		/*
		 * EEVDF: min vruntime of the subtree (augmented).  Only
		 * meaningful in the tree (set by __enqueue_entity), so it may
		 * share the bytes __sched_fork() initialises as a list head.
		 */
		u64 min_vruntime;
	};
	u64 nr_migrations;		/* set_task_cpu() moves to another CPU */
	struct list_head group_node;	/* in cfs_rq->tasks while queued */
	/*
	 * PELT (kernel/sched/pelt.c), kept by the EEVDF class only (Linux
	 * 6.12): 2.6.35's CFS has no PELT and never touches it.  It grows
	 * struct task from 1472 to 1520 bytes (i686), in kmalloc's 2048-byte
	 * cache either way.
	 */
	struct sched_avg avg;
};

/* sched_info (2.6.35 CONFIG_SCHEDSTATS), per task, ns. */
struct sched_info {
	u64 pcount;			/* times picked to run */
	u64 run_delay;			/* total time runnable but waiting */
	u64 last_arrival;		/* rq clock when last switched in */
	u64 last_queued;		/* rq clock when queued (0 = not waiting) */
};

/* ---- Set-up ------------------------------------------------------------ */

/*
 * Initialise the runqueue and turn the boot context into the idle task
 * (pid 0, "swapper", idle class): afterwards current == the idle task.
 * Call once, before any other function here and before interrupts.
 */
void sched_init(void);
/* Make IDLE the idle task (and current) of CPU's runqueue (2.6.35 init_idle). */
void init_idle(struct task *idle, int cpu);

/* The idle task (what runs when nothing else can). */
struct task *sched_idle_task(void);

/* ---- Task life cycle --------------------------------------------------- */

/*
 * Fork: called in the parent's context on the new task P (memory for P
 * provided by the caller).  Copies policy and priorities from current,
 * zeroes P's scheduling state, sets its class and runs the class's
 * task_fork (vruntime placement, START_DEBIT...).  P is left TASK_WAKING
 * and not queued.
 */
void sched_fork(struct task *p);

/* Queue a forked task for the first time and check preemption (WF_FORK). */
void wake_up_new_task(struct task *p);
/* Before its first wakeup: P runs on CPU only (Linux's kthread_bind()). */
void kthread_bind(struct task *p, unsigned int cpu);
/* exec balancing: move current to the idlest allowed CPU (2.6.35). */
void sched_exec(void);
/* P's CPUs from now on; moved off a disallowed one at once (2.6.35):
 * 0, or -EINVAL (no online CPU in it, a bound kernel thread). */
int set_cpus_allowed_ptr(struct task *p, const struct cpumask *new_mask);

/* kernel/sched/sd_sysctl.c: a domain's files under /proc/sys/kernel/sched_domain/ */
struct sched_domain;
int sd_sysctl_nr_fields(void);
const char *sd_sysctl_field_name(int field);	/* NULL past the last */
int sd_sysctl_writable(int field);
struct sched_domain *sd_sysctl_domain(int cpu, int level);	/* NULL: none */
size_t sd_sysctl_show(struct sched_domain *sd, int field, char *buf, size_t size);
int sd_sysctl_write(int cpu, int level, int field, const char *val);	/* 0 or -EINVAL */

/*
 * Wake P if its state is in STATE (e.g. TASK_NORMAL): queue it, check
 * whether it preempts current (setting need_resched), set TASK_RUNNING.
 * Returns 1 if P was woken, 0 if it was not in STATE or already queued.
 */
int try_to_wake_up(struct task *p, unsigned int state, int wake_flags);
/* try_to_wake_up(p, TASK_NORMAL, 0). */
int wake_up_process(struct task *p);

/*
 * Pick the next task and switch to it.  If current->state is not
 * TASK_RUNNING it is dequeued first (a sleep; TASK_DEAD never comes back).
 * Blocking = set current->state, then call schedule().  Loops while the
 * newly running task has need_resched set, as Linux does.
 */
void schedule(void);
/* Switch now if need_resched is set (a voluntary preemption point); 1 if it did. */
int cond_resched(void);

/*
 * Preemption from the interrupt-return path (need_resched set): as
 * schedule(), but the interrupted task stays queued whatever its state
 * (Linux's PREEMPT_ACTIVE), since it may be between setting its state and
 * calling schedule().  Counts as an involuntary switch.
 */
void preempt_schedule_irq(void);

/*
 * Called first by a new task on its first run (arch/x86/switch.asm:
 * ret_from_fork, kthread_trampoline): finishes the switch that started it
 * (Linux's schedule_tail()); interrupts stay off.
 */
void schedule_tail(void);

/* Timer interrupt, HZ times a second: account time, maybe set need_resched. */
void scheduler_tick(void);

/* ---- Priority and yielding --------------------------------------------- */

/* Set P's nice value (-20..19; other values ignored), requeueing it. */
void set_user_nice(struct task *p, long nice);
/* P's nice value, -20..19. */
long task_nice(const struct task *p);
/*
 * Change P's policy among SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE
 * (a subset of sched_setscheduler()).  Returns 0 or -EINVAL.
 */
int sched_setscheduler(struct task *p, int policy);
/* Any policy: PRIO is the rt_priority, 1..99 for SCHED_FIFO/RR, else 0. */
int sched_setscheduler_prio(struct task *p, int policy, int prio);
/* sched_yield(2): the class's yield_task, then schedule(). */
long sched_yield(void);		/* 0: the system call's value */

/*
 * P's total CPU time in ns, including the not yet accounted running part:
 * 2.6.35's (projects the running part) under CFS, 6.12's (charges it with
 * the class's update_curr first) under EEVDF; set at boot with the class.
 */
extern u64 (*task_sched_runtime)(struct task *p);
u64 task_sched_runtime_2635(struct task *p);
u64 task_sched_runtime_612(struct task *p);

/* ---- Debugging ---------------------------------------------------------- */

/* Print the /proc/sched_debug-style dump (2.6.35 layout) with printk. */
void sched_debug_show(void);
size_t sched_debug_snprint(char *buf, size_t size);	/* the same, into BUF: /proc/sched_debug */
/* Print P's /proc/PID/sched-style statistics (2.6.35 layout, a subset). */
void proc_sched_show_task(struct task *p);
size_t proc_sched_task_snprint(struct task *p, char *buf, size_t size);	/* /proc/PID/sched */
size_t sched_schedstat_snprint(char *buf, size_t size);	/* /proc/schedstat */
u64 nr_context_switches(void);		/* every CPU's switches: /proc/stat's ctxt */
/* Tasks running or runnable on every CPU, the running ones included
 * (Linux's nr_running(): /proc/stat's procs_running, /proc/loadavg). */
u32 nr_running(void);
/*
 * Check the runqueue invariants (see kernel/sched/debug.c); print each
 * violation and return how many were found (0 = healthy).  The kernel
 * calls it after every schedule, tick and wakeup when sched_verify=1.
 */
int sched_verify(void);
/* Violations found by all sched_verify() calls so far. */
extern unsigned long sched_verify_failures;
/*
 * Print the effective tunables in `sysctl -a` form
 * ("kernel.sched_latency_ns = 6000000") and the feature list as Linux's
 * sched_features file shows it ("GENTLE_FAIR_SLEEPERS ... NO_NEXT_BUDDY").
 */
void sched_print_tunables(void);

/* Called once when init ends the run (before power-off): prints what the
 * sched_debug= knob asks for.  kernel/sched/debug.c. */
void sched_report_at_end(void);

#endif
