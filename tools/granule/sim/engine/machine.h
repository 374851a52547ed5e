/*
 * tools/granule/sim/engine/machine.h - the machine behind `tools/sim experiment`: one
 * CPU (or N, m_init_cpus()), the unchanged kernel/sched/ code, and simulated threads that run
 * small programs (kbuild-load's make and jobs, video-load, the latency
 * test's timer, helper and notification threads).
 *
 * It plays the hardware and the rest of the kernel, as the QEMU image's
 * arch code does:
 *   - the periodic tick at HZ: scheduler_tick(), then preempt_schedule_irq()
 *     if need_resched (the irq-exit path);
 *   - hrtimer expiries of sleepers (nanosleep) and of the latency test's
 *     POSIX timer: try_to_wake_up() from interrupt context;
 *   - the system calls a program makes when a CPU burst ends: sleep, fork
 *     and clone (sched_fork + wake_up_new_task), wait, exit, sigwaitinfo;
 *     then schedule() if need_resched (the syscall-exit path).
 * Time is the fake sched_clock() in ns (the image's virtual ns: under
 * -icount shift=0 one instruction).  The kernel's own CPU costs (a switch,
 * a tick, fork, exit, the timer's signal path) are not simulated
 * instruction by instruction: they are the measured costs of struct
 * sim_costs (tools/granule/sim/engine/calib.c), spent as CPU time of the thread that
 * pays them in the image.
 */
#ifndef TOOLS_SIMENG_MACHINE_H
#define TOOLS_SIMENG_MACHINE_H

#include <stdio.h>

#include <kernel/types.h>
#include <kernel/task.h>

#define M_INF		(~0ULL)
#define M_MAX_PROCS	1024	/* kbuild:64 at 8 CPUs: 256 jobs and their "as" */
#define M_MAX_CPUS	8	/* --cpus N: 1..8 (cpus.h's SIM_MAX_CPUS) */

struct machine;
struct mproc;
/* A program: called when P (current) has finished its burst or resumes
 * after a block; it must make exactly one m_* call that decides what P
 * does next (run a burst, block, fork ...). */
typedef void (*mprog_fn)(struct machine *m, struct mproc *p);

struct mproc {
	struct task t;			/* what the scheduler sees */
	int used, dead;
	mprog_fn prog;
	int pc;				/* the program's own state */
	s64 reg[6];			/* its registers */
	struct mproc *parent;
	int children, zombies;		/* not yet reaped / exited not reaped */
	int in_wait, in_sigwait;	/* blocked in wait() / sigwaitinfo() */
	int sigpending;			/* a queued signal not yet taken */
	int sig_overrun;		/* expiries folded into it (overrun) */
	int fixed;			/* a fixed-cost path: overheads add time */
	int in_kernel;			/* its burst is kernel code: not preempted */
	int no_resched;			/* this step's kernel path goes on into the
					   next step: no syscall-exit schedule() */
	u64 burst_left;			/* CPU ns to the next program step */
	int loop;			/* 1: in burn_cpu_ns(): burst_left is a chunk;
					   2: the same, ending exactly at loop_end */
	int wake_pending;		/* m_wake() before its m_block() */
	int in_block;
	u64 loop_end;			/* ... until its CPU-time clock reads this */
	u64 stall;			/* kernel overhead to run first (ns) */
	u64 wake_at;			/* hrtimer sleep until (0: none) */
	int timer_cpu;			/* the CPU that armed it (hrtimer_start()
					   queues on the arming CPU): it fires there */
	u64 wake_seq;			/* when it was armed: equal expiries fire in that
					   order, as the hrtimer rbtree queues an equal
					   expiry after the others (enqueue_hrtimer) */
	u64 cpu_ns;			/* CPU time it got (the CPU-time clock) */
	s64 nr_migrations0;		/* se.nr_migrations when its program began */
	int ran_cpu;			/* the CPU it last ran on (-1: none yet) */
};

/* The kernel's costs in ns of the image's virtual time (calib.c). */
struct sim_costs {
	u64 tick;			/* a periodic tick's interrupt */
	u64 hrtimer_wake;		/* an hrtimer irq waking a sleeper */
	u64 timer_signal;		/* POSIX timer expiry -> signal -> wakeup */
	u64 switch_in;			/* schedule() after pick, to user */
	u64 preempt;			/* more when a wakeup preempts a running task */
	u64 preempt_rt;			/* instead of preempt when the woken task is rt:
					   its class's shorter wakeup and pick */
	u64 tick_preempt;		/* a tick that preempts: from scheduler_tick()'s
					   clock read to schedule()'s, charged to the
					   task leaving (its slice is that much shorter) */
	u64 fork_parent, fork_child;	/* fork(): parent's syscall, child's return */
	u64 clone_parent, clone_child;	/* clone() of a thread */
	u64 exit;			/* exit() until TASK_DEAD */
	u64 wait;			/* wait() return */
	u64 sleep;			/* nanosleep() entry */
	u64 helper;			/* SIGEV_THREAD helper per expiry, clone excluded */
	u64 notify_pre, notify_post;	/* notification thread: to the clock read, after */
	u64 sig_pre, sig_post;		/* signal mode: to the handler's clock read, after */
	u64 exec;			/* execve() of a load program */
	u64 burn_chunk;			/* burn_cpu_ns(): one loop chunk + its clock read */
	/* where in a tick period the experiment starts, by HZ (boot timing) */
	u64 start_phase_100, start_phase_250, start_phase_300, start_phase_1000;
	/* the image's tick period at each HZ, ns (its boot line) */
	u64 tick_period_100, tick_period_250, tick_period_300, tick_period_1000;
	/* an SMP machine's, charged only at --cpus N > 1 (tools/granule/sim/smp_costs.py) */
	u64 ipi_send, ipi_recv;		/* the reschedule IPI: smp_send_reschedule(); the
					   target's vector to its iret or schedule() */
	u64 balance;			/* the scheduler softirq's pass (run_rebalance_domains) */
	u64 idle_balance;		/* schedule() about to idle balances (idle_balance) */
	u64 migrate;			/* a task moved between runqueues (pull_task) */
	u64 active_balance;		/* the stopper's work (active_load_balance_cpu_stop) */
	u64 smp_tick, smp_switch, smp_wake;	/* what the SMP kernel adds to a tick, a
					   switch and a wakeup (its locks): microbench at
					   -smp 2 on one CPU less at -smp 1 */
	u64 proc_sched_read;		/* kbuild-load's self_nr_migrations(), twice a job
					   and an "as" at N > 1 */
	char commit[64];		/* the image commit they were measured on */
};

struct machine {
	struct mproc procs[M_MAX_PROCS];
	struct sim_costs cost;
	u64 start, tick_ns, next_tick;	/* next_tick: CPU 0's */
	int ncpus;			/* 1 after m_init(); m_init_cpus() */
	u64 ap_next_tick[M_MAX_CPUS];	/* CPU 1..ncpus-1's next tick */
	u64 idle_ns[M_MAX_CPUS];	/* each CPU's time in its idle task */
	u64 rr_until[M_MAX_CPUS];	/* a halted CPU's interrupts wait for its turn until */
	int nr_slots;			/* slots ever used: scans stop there */
	struct task *last_current[M_MAX_CPUS];
	/* several CPUs: migration/N and the work the balancer queued for it */
	struct mproc *stopper[M_MAX_CPUS];
	struct cpu_stop_work *stop_work[M_MAX_CPUS];
	unsigned long ipis;		/* reschedule IPIs taken */
	int booted;			/* m_init_cpus() done: SMP costs from here */
	/* the latency test's POSIX timer: expiry k at t0 + k * period */
	struct mproc *timer_target;	/* NULL: disarmed */
	u64 timer_next, timer_period;
	int timer_cpu;			/* the CPU that armed it: it fires there */
	/* observers (workload.c): switch-in of a thread */
	void (*on_switch_in)(struct machine *m, struct mproc *p);
	unsigned long switches, forks;
	u64 hrtimer_seq;		/* hrtimers armed so far */
	int tick_preempted;		/* this switch is a tick's preemption */
	/* NULL, or where sched_wakeup and sched_switch go, in ftrace's text
	 * (kernel/trace/trace.c's layout, the image's trace_event= events), so
	 * that a simulated run and a traced boot read side by side */
	FILE *trace;
};

/* Start the machine START_PHASE ns past a tick, with a tick every
 * TICK_PERIOD ns (the first comes TICK_PERIOD - START_PHASE later). */
void m_init(struct machine *m, const struct sim_costs *c, u64 start_phase, u64 tick_period);
/*
 * After m_init(), on NCPUS > 1 online CPUs (cpus_online()): each CPU's
 * tick staggered as 2.6.35's tick_setup_sched_timer(), and migration/N,
 * which runs once, finds no work and sleeps (the image's cpu_stop_init()).
 */
void m_init_cpus(struct machine *m, int ncpus);
u64 m_now(const struct machine *m);		/* ns since m_init */
struct mproc *m_current(void);
/* A thread started by the "boot": forked from idle, runs PROG. */
struct mproc *m_spawn(struct machine *m, const char *comm, mprog_fn prog);
void m_run(struct machine *m, u64 until);	/* simulate until m_now() == until */

/* What a program does next (exactly one per step). */
void m_burn(struct mproc *p, u64 ns);		/* run NS of CPU, then step */
/* NS of kernel work (a system call's cost): Granule's kernel is not
 * preemptible, so an interrupt's need_resched waits for its end. */
void m_kernel(struct mproc *p, u64 ns);
/* The same, when the path goes on into the next step without a return to
 * user (the rest of do_exit() before the exit): need_resched waits too. */
void m_kernel_on(struct mproc *p, u64 ns);
/* burn_cpu_ns(NS): chunks of cost.burn_chunk, each ended by a read of the
 * thread's CPU-time clock (task_sched_runtime(), which under EEVDF runs
 * update_curr() and may end the slice) and the syscall-exit path, until
 * the clock has advanced NS since the first read; then step. */
void m_burn_loop(struct machine *m, struct mproc *p, u64 ns);
/* The same chunks, but ending exactly NS later (a replayed burst). */
void m_burn_exact(struct machine *m, struct mproc *p, u64 ns);
void m_next(struct mproc *p);			/* step again at once */
/* Block until another thread's m_wake() (at once if one came first). */
void m_block(struct machine *m, struct mproc *p);
void m_wake(struct mproc *p);			/* from the running thread */
void m_sleep_until(struct machine *m, struct mproc *p, u64 t);	/* nanosleep ABSTIME */
void m_sleep(struct machine *m, struct mproc *p, u64 ns);
void m_wait(struct machine *m, struct mproc *p);	/* reap a child, or block */
void m_exit(struct machine *m, struct mproc *p);
void m_sigwait(struct machine *m, struct mproc *p);	/* a signal queued, or block */
/* Dequeue the queued signal: its overrun count, or -1 if none is queued. */
int m_sigtake(struct mproc *p);
/* fork (thread=0) or clone (1): the child runs PROG after its return cost. */
struct mproc *m_fork(struct machine *m, struct mproc *p, const char *comm,
		     mprog_fn prog, int thread);

/* The POSIX timer: signal TARGET at T0 + k * PERIOD (k = 0, 1, ...). */
void m_timer_arm(struct machine *m, struct mproc *target, u64 t0, u64 period);
void m_timer_disarm(struct machine *m);

#endif
