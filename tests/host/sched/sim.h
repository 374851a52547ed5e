/*
 * tests/host/sched/sim.h - a small discrete-event simulator that drives the
 * real kernel/sched/ code the way the kernel would:
 *   - the timer interrupt at HZ: scheduler_tick(), then
 *     preempt_schedule_irq() if need_resched (the irq-exit path);
 *   - the fake hrtick, when armed, at its expiry: hrtick_fire();
 *   - timer wakeups of sleepers: try_to_wake_up() from "interrupt" context;
 *   - what the running task does when its CPU burst ends (a syscall):
 *     block (state + schedule()), fork (sched_fork + wake_up_new_task),
 *     exit (TASK_DEAD + schedule()), yield, renice ... then schedule() if
 *     need_resched (the syscall-exit path).
 * Time is the fake sched_clock(); between events the current task (or
 * idle) is charged the elapsed time, independently of the scheduler, so a
 * test can compare the simulator's CPU times with se.sum_exec_runtime.
 *
 * Task behaviours (struct sim_task.kind):
 *   SIM_HOG      runs forever;
 *   SIM_SLEEPER  runs run_ns of CPU, sleeps sleep_ns, repeat;
 *   SIM_FORKER   every run_ns of CPU forks a SIM_CHILD (child_run_ns, child_nice),
 *                then sleeps sleep_ns if that is not 0 (a SIGEV_THREAD timer);
 *   SIM_CHILD    runs run_ns of CPU, then exits;
 *   SIM_RANDOM   random bursts, then one of: sleep, block, yield, fork, exit;
 *   SIM_YIELDER  runs run_ns of CPU, calls sched_yield(), repeat;
 *   SIM_STOPPER  migration/N, a CPU's stopper at several CPUs (sim_smp.c).
 * With sim.random set, random events also happen between task actions:
 * spawns, nice and policy changes, early wakeups, feature and knob writes.
 *
 * At several CPUs (sim_smp_init(), sim_smp.c) each CPU runs its own current
 * task and tick; the CPUs are interleaved on one thread, as QEMU -icount
 * runs its vCPUs: the earliest next event first, ties by CPU number.
 */
#ifndef TESTS_HOST_SCHED_SIM_H
#define TESTS_HOST_SCHED_SIM_H

#include <kernel/types.h>
#include <kernel/task.h>
#include <kernel/cpumask.h>
#include <kernel/threads.h>

#define SIM_INF		(~0ULL)

enum sim_kind { SIM_HOG, SIM_SLEEPER, SIM_FORKER, SIM_CHILD, SIM_RANDOM, SIM_YIELDER,
		SIM_STOPPER };

/* What a CPU does at one step (struct sim.on_event, several CPUs only). */
enum sim_event {
	SIM_EV_ACTION,		/* its task's burst ended: a system call */
	SIM_EV_WAKEUP,		/* a timer wakeup (on the CPU that armed the timer) */
	SIM_EV_TICK,		/* scheduler_tick() */
	SIM_EV_BALANCE,		/* the scheduler softirq: rebalance_domains() */
	SIM_EV_IPI,		/* the reschedule IPI: need_resched set from afar */
	SIM_EV_STOPPER,		/* migration/N runs its work (the active balance) */
};

struct sim_task {
	struct task t;			/* what the scheduler sees */
	enum sim_kind kind;
	int used;			/* slot in use (until switched out dead) */
	int dead;			/* exited */
	u64 run_ns, sleep_ns;		/* behaviour parameters */
	u64 child_run_ns;		/* SIM_FORKER: its children's CPU need */
	int child_nice;
	u64 burst_left;			/* CPU time before the next action */
	u64 wake_at;			/* asleep until (0 = not sleeping) */
	int timer_cpu;			/* whose hrtimer queue holds that sleep: the CPU it slept on */
	u64 period_ns, next_expiry;	/* SIM_SLEEPER with a period: sleeps to next_expiry + period */

	/* measured by the simulator */
	u64 cpu_ns;			/* CPU time it got */
	u64 created_at, first_run_at;	/* fork and first switch-in */
	u64 woken_at;			/* last wakeup not yet followed by a run */
	u64 max_wake_latency, sum_wake_latency, nr_wake_latency;
};

struct sim {
	struct sim_task *tasks;		/* storage provided by the test */
	int max;
	u64 tick_ns;			/* 1e9 / HZ */
	u64 next_tick;			/* CPU 0's: tick_do_timer_cpu, which counts jiffies */
	u64 start;			/* fake clock at sim_init */
	u64 idle_ns;			/* time the idle task ran */
	u64 events;			/* events processed */
	u32 rng;			/* xorshift32 state */
	struct task *last_current[NR_CPUS];	/* per CPU */

	/* random workload mode */
	int random;
	u64 next_random;		/* time of the next random event */
	int max_live;			/* cap on live tasks */
	/* fork -> first run of SIM_CHILD tasks (kept when slots are reused) */
	u64 child_lat_sum, child_lat_max;
	unsigned long child_lat_n;
	unsigned long forks, exits, renices, yields, sleeps;
	/*
	 * Optional observer (tools/sim tasks): called right after a timer
	 * wakeup's try_to_wake_up(), before the irq-exit path acts on it, so
	 * the woken task's placement and current->need_resched (the wakeup
	 * preemption check's verdict) are the scheduler's own.
	 */
	void (*on_wakeup)(struct sim *s, struct sim_task *st);

	/* several CPUs (sim_smp.c); ncpus is 1 after sim_init() */
	int ncpus;
	struct cpumask spawn_mask;	/* a spawned task's affinity (init's: all) */
	struct sim_task *stopper[NR_CPUS];	/* migration/N */
	struct cpu_stop_work *stop_work[NR_CPUS];	/* queued for it */
	unsigned long ipis;		/* reschedule IPIs taken */
	u64 ap_next_tick[NR_CPUS];	/* CPU 1..ncpus-1's next tick (sim_smp_init()) */
	u64 rr_until[NR_CPUS];		/* a halted CPU's interrupts wait for its turn until */
	/*
	 * Optional observer (tools/sim tasks --cpus): called on CPU before
	 * (AFTER 0) and after (1) each step; SIM_EV_BALANCE's "before" comes
	 * between scheduler_tick() and the softirq, when the balancer is due.
	 */
	void (*on_event)(struct sim *s, int cpu, enum sim_event ev, int after);
};

/* Reset after sched_test_reset(): storage, seed; ticks at the current HZ. */
void sim_init(struct sim *s, struct sim_task *storage, int max, u32 seed);
/* Fork a task from current (the idle task at set-up time) and wake it. */
struct sim_task *sim_spawn(struct sim *s, enum sim_kind kind, const char *name,
			   int nice, u64 run_ns, u64 sleep_ns);
/* Run the model for DURATION ns of simulated time. */
void sim_run(struct sim *s, u64 duration);
/* Elapsed simulated time since sim_init. */
u64 sim_elapsed(const struct sim *s);
/* Check that the simulator's CPU times equal task_sched_runtime(); returns
 * the number of mismatches (live tasks only). */
int sim_check_runtimes(struct sim *s);
u32 sim_rand(struct sim *s);
/* After sim_init(), on a machine of NCPUS online CPUs with their idle
 * tasks and sched domains: the stoppers, each CPU's current noted. */
void sim_smp_init(struct sim *s, int ncpus);
/* What tools/sim experiment's machine shares with it (sim_smp.c): CPU's
 * tick offset past CPU 0's, and a stopper's start on its CPU. */
u64 sim_tick_offset(u64 tick_ns, int ncpus, int cpu);
/* QEMU's round robin: how long CPU waits for its turn (sim_smp.c). */
u64 sim_rr_wait(int ncpus, const int *busy, int cpu, int start, u64 now, u64 deadline);
u64 sim_rr_late(int ncpus, const int *busy, int k, u64 t, u64 others,
		u64 (*mine)(void *ctx, int k, u64 t), void *ctx);
void sim_stopper_start(struct task *t, int cpu);

#endif
