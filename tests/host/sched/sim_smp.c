/*
 * tests/host/sched/sim_smp.c - the simulator's machine of several CPUs
 * (sim.h): the same tasks and events as sim.c, each CPU with its own
 * current task, tick and runqueue, the CPUs interleaved on one thread.
 *
 * The model, step by step, as the image runs at -smp N:
 *   - the order: at each instant the earliest next event first; at one
 *     instant, a CPU told to reschedule (the IPI), then the CPUs' task
 *     actions, then the timer wakeups, then the ticks, each by CPU number
 *     (QEMU -icount runs its vCPUs round-robin on one thread);
 *   - the tick: each CPU's own (2.6.35's tick_sched_timer on its hrtimer
 *     queue), staggered as 2.6.35's tick_setup_sched_timer() staggers
 *     them: CPU n's ticks fall on CPU 0's grid plus
 *     n * (tick_ns / 2) / num_possible_cpus (the N CPUs here), so at 2
 *     CPUs CPU 1 ticks 0.25 ms after CPU 0 at HZ=1000; jiffies is counted
 *     by CPU 0 alone (tick_do_timer_cpu, do_timer()); each tick runs
 *     scheduler_tick() -> trigger_load_balance();
 *     the scheduler softirq runs on the way out of the interrupt
 *     (rebalance_domains()), then preempt_schedule_irq() if need_resched;
 *   - the timer wakeups: on the CPU whose hrtimer queue holds the sleep,
 *     the one the sleeper ran on when it armed it (hrtimer_start() queues
 *     on the arming CPU), so try_to_wake_up() runs there and
 *     select_task_rq() starts from there: the waking CPU is the task's
 *     previous one, and select_idle_sibling() looks for an idle CPU only
 *     if it is busy; a wakeup and a tick due on one CPU at one instant:
 *     the wakeup first, each with its own irq exit (the image's one
 *     hrtimer_interrupt() runs both before one exit);
 *   - idle balancing: schedule() itself (idle_balance() in the SMP copy);
 *   - the reschedule IPI: need_resched set on another CPU's task
 *     (resched_task() from a wakeup, a pull, the stopper's wakeup) is acted
 *     on at that CPU's next step, at the same instant: irq exit there;
 *   - the active balance: load_balance() queues a work for the busiest
 *     CPU's stopper (stop_one_cpu_nowait, recorded by fake_arch.c); on
 *     the way out of the softirq it is handed to migration/N, a SCHED_FIFO
 *     99 task bound to its CPU as the image's (kernel/stop_machine.c),
 *     whose wakeup preempts that CPU; the stopper runs the work and sleeps.
 *   - QEMU's round robin (sim_rr_wait()): a halted CPU's timer interrupt
 *     waits for its turn behind the busy CPUs before it in the round, and
 *     behind the others when its handler's reprogramming kicks them
 *     (rr_late()); a CPU running a task takes its interrupts on time.
 * Not modelled yet: the costs (a switch, an IPI, a migration, the balance
 * itself take no simulated time), the hrtick (one fake hrtick: off here),
 * the busy CPUs' sharing of the virtual clock (under -icount it counts the
 * instructions of every vCPU, so two busy CPUs each run at half speed:
 * here each runs at full speed, as a CPU beside halted ones does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "sim.h"
#include "sim_core.h"
#include "fake.h"
#include <kernel/sched.h>
#include <kernel/interrupt.h>
#include <kernel/stop_machine.h>
#include "../../../kernel/sched/sched.h"

static void on_event(struct sim *s, int cpu, enum sim_event ev, int after)
{
	if (s->on_event)
		s->on_event(s, cpu, ev, after);
}

/*
 * The stoppers, as the image's cpu_stop_init() after pid 1: made by the
 * boot context on CPU 0, bound to their CPU, SCHED_FIFO MAX_RT_PRIO - 1,
 * woken; each runs once, finds no work and sleeps.
 */
/*
 * 2.6.35 tick_setup_sched_timer(): offset = tick_period / 2, divided by
 * num_possible_cpus(), times the CPU: CPU's ticks lie that far past CPU 0's.
 */
u64 sim_tick_offset(u64 tick_ns, int ncpus, int cpu)
{
	return tick_ns / 2 / (u64)ncpus * (u64)cpu;
}

/* CPU's stopper T, after sched_fork(): bound there, SCHED_FIFO 99, woken. */
void sim_stopper_start(struct task *t, int cpu)
{
	kthread_bind(t, (unsigned int)cpu);
	sched_setscheduler_prio(t, SCHED_FIFO, MAX_RT_PRIO - 1);
	wake_up_new_task(t);
}

void sim_smp_init(struct sim *s, int ncpus)
{
	s->ncpus = ncpus;
	/* the first tick on CPU 0's grid plus the offset that is still ahead
	 * (the offset is under a period, and sim_init() put CPU 0's next tick
	 * a period ahead) */
	for (int cpu = 1; cpu < ncpus; cpu++)
		s->ap_next_tick[cpu] = s->next_tick - s->tick_ns +
				       sim_tick_offset(s->tick_ns, ncpus, cpu);
	s->spawn_mask = *cpu_online_mask;	/* init's: every CPU */
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct sim_task *st = sim_slot_alloc(s);

		st->kind = SIM_STOPPER;
		snprintf(st->t.comm, sizeof(st->t.comm), "migration/%u", (unsigned char)cpu);
		st->created_at = fake_clock_ns;
		sched_fork(&st->t);
		sim_stopper_start(&st->t, cpu);
		s->stopper[cpu] = st;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		host_cpu = cpu;
		s->last_current[cpu] = current;
		schedule();			/* the stopper's first run ... */
		sim_act(s, sim_of(current));	/* ... no work: it sleeps */
	}
	host_cpu = 0;
}

/*
 * On the way out of an interrupt at several CPUs: the scheduler softirq
 * if the tick raised it (the observer sees the machine just before), and
 * an active balance it asked for handed to that CPU's stopper.
 */
void sim_smp_irq_exit(struct sim *s)
{
	int cpu = raw_smp_processor_id();

	if (local_softirq_pending()) {
		on_event(s, cpu, SIM_EV_BALANCE, 0);
		do_softirq();
		on_event(s, cpu, SIM_EV_BALANCE, 1);
	}
	if (host_stop_work) {		/* stop_one_cpu_nowait() from the balancer */
		struct sim_task *stopper = s->stopper[host_stop_cpu];

		s->stop_work[host_stop_cpu] = host_stop_work;
		host_stop_work = NULL;
		wake_up_process(&stopper->t);
	}
}

/* migration/N runs: its work, if any, then back to sleep (no wake time). */
void sim_stopper_act(struct sim *s, struct sim_task *cur)
{
	int cpu = raw_smp_processor_id();
	struct cpu_stop_work *work = s->stop_work[cpu];

	if (work) {
		s->stop_work[cpu] = NULL;
		on_event(s, cpu, SIM_EV_STOPPER, 0);
		work->fn(work->arg);
		on_event(s, cpu, SIM_EV_STOPPER, 1);
	}
	cur->t.state = TASK_INTERRUPTIBLE;
	schedule();
	sim_after_event(s);
}

/* CPU's next tick: CPU 0's is the one-CPU simulator's. */
static u64 *next_tick(struct sim *s, int cpu)
{
	return cpu ? &s->ap_next_tick[cpu] : &s->next_tick;
}

/*
 * QEMU 10's round robin under -icount (accel/tcg/tcg-accel-ops-rr.c,
 * rr_cpu_thread_fn()): one thread runs the vCPUs in turn, each round first
 * running the QEMU timers due (icount_handle_deadline()), then the vCPUs
 * from START in CPU order, each for at most its share of the virtual time
 * to the earliest QEMU timer, DEADLINE (icount_percpu_budget(): limit /
 * cpu_count, the whole limit if that is 0; icount_prepare_for_run(): at
 * most what is left to it).  The virtual clock counts the instructions of
 * every vCPU, so a busy vCPU moves it by its share while the others stand
 * still; a halted one takes none.  Past the last CPU the round ends and the
 * next starts at CPU 0 with a new share.  Returns how long after NOW CPU's
 * turn comes, BUSY[c] saying which CPUs run.
 */
u64 sim_rr_wait(int ncpus, const int *busy, int cpu, int start, u64 now, u64 deadline)
{
	u64 t = now, share = 0;
	int fresh = 1;

	for (int c = start;; c++) {
		if (c >= ncpus) {		/* the round is over: the next one */
			c = 0;
			fresh = 1;
		}
		if (fresh) {
			u64 limit = deadline > t ? deadline - t : 0;

			share = limit / (u64)ncpus ? limit / (u64)ncpus : limit;
			fresh = 0;
		}
		if (c == cpu)
			return t - now;
		if (busy[c] && t < deadline)	/* MIN(icount_get_limit(), budget) */
			t += share < deadline - t ? share : deadline - t;
	}
}

/*
 * How late halted CPU K takes its interrupt due at T (the rule of rr_late()
 * below and of the experiment machine's, tools/granule/sim/engine/
 * machine_rr.c): the busy CPUs before it in the round that runs the timers
 * at T, whose deadline is OTHERS, the other CPUs' earliest; then, if K's
 * reprogrammed deadline (MINE(CTX, K, when K runs)) is the new head of
 * QEMU's timer list, the kick's round, which starts after K.
 */
u64 sim_rr_late(int ncpus, const int *busy, int k, u64 t, u64 others,
		u64 (*mine)(void *ctx, int k, u64 t), void *ctx)
{
	u64 wait = sim_rr_wait(ncpus, busy, k, 0, t, others);
	u64 next = mine(ctx, k, t + wait);

	if (next < others)		/* the new head of QEMU's timer list: a kick */
		wait += sim_rr_wait(ncpus, busy, k, k + 1, t + wait, next);
	return wait;
}

static int cpu_idle(int cpu)
{
	return cpu_curr(cpu) == cpu_rq(cpu)->idle;
}

/*
 * CPU's local APIC deadline at or after T: its next tick, or a sleep on its
 * hrtimer queue if sooner (one-shot mode, highres: the earliest of them);
 * with AFTER, those due by T are taken (the handler reprograms past them).
 */
static u64 cpu_deadline(struct sim *s, int cpu, u64 t, int after)
{
	u64 d = *next_tick(s, cpu);

	while (after && d <= t)
		d += s->tick_ns;
	for (int i = 0; i < s->max; i++) {
		struct sim_task *st = &s->tasks[i];

		if (st->used && !st->dead && st->wake_at && st->timer_cpu == cpu &&
		    st->wake_at < d && (!after || st->wake_at > t))
			d = st->wake_at;
	}
	return d;
}

static u64 rr_deadline_after(void *ctx, int k, u64 t)
{
	return cpu_deadline(ctx, k, t, 1);
}

/*
 * How late halted CPU K takes the interrupt due at T.  The round that runs
 * the timers at T starts at CPU 0, its deadline the other CPUs' earliest
 * (K's own timer has fired); the busy CPUs before K run first.  K's
 * hrtimer_interrupt() then reprograms its APIC; if that is now the
 * earliest QEMU timer, timer_mod() kicks (util/qemu-timer.c,
 * timerlist_rearm() -> qemu_timer_notify_cb(): qemu_cpu_kick(), for round
 * robin rr_kick_vcpu_thread(), cpu_exit() on every vCPU) and the next
 * round starts after K, the busy CPUs running their shares of the time to
 * K's new deadline before K goes on.  (Here the whole interrupt waits: at
 * the kick, the image has woken the task and waits before it runs.)
 */
static u64 rr_late(struct sim *s, int k, u64 t)
{
	int busy[NR_CPUS];
	u64 others = SIM_INF;

	for (int c = 0; c < s->ncpus; c++) {
		busy[c] = c != k && !cpu_idle(c);
		if (c != k && cpu_deadline(s, c, t, 0) < others)
			others = cpu_deadline(s, c, t, 0);
	}
	return sim_rr_late(s->ncpus, busy, k, t, others, rr_deadline_after, s);
}

/* 1 if CPU's interrupts due at T are taken now: not if CPU is halted and
 * its turn in QEMU's round robin is still ahead (rr_until). */
static int rr_ready(struct sim *s, int cpu, u64 t)
{
	u64 late;

	if (!cpu_idle(cpu))
		return 1;
	if (s->rr_until[cpu])
		return t >= s->rr_until[cpu];
	late = rr_late(s, cpu, t);
	if (!late)
		return 1;
	s->rr_until[cpu] = t + late;
	return 0;
}

/* The earliest next event of any CPU, at or after NOW, before END. */
static u64 next_event(struct sim *s, u64 now, u64 end)
{
	u64 t = end;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct task *curr = cpu_curr(cpu);
		struct sim_task *cur = curr == cpu_rq(cpu)->idle ? NULL : sim_of(curr);
		u64 irq = cpu_deadline(s, cpu, now, 0);

		if (!cur && s->rr_until[cpu] > irq)	/* waiting for its turn */
			irq = s->rr_until[cpu];
		if (irq < t)
			t = irq;
		if (cur && cur->burst_left != SIM_INF && now + cur->burst_left < t)
			t = now + cur->burst_left;
	}
	return t < now ? now : t;
}

/* Every CPU's current is charged DT (its burst shortened), or its idle. */
static void charge(struct sim *s, u64 dt)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct task *t = cpu_curr(cpu);

		sim_charge(s, t == cpu_rq(cpu)->idle ? NULL : sim_of(t), dt);
	}
}

/* A sleep's timer due at T, fired on the CPU that armed it: 1 if one. */
static int timer_step(struct sim *s, u64 t)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		host_cpu = cpu;
		if (cpu_deadline(s, cpu, t, 0) > t || !rr_ready(s, cpu, t))
			continue;
		for (int i = 0; i < s->max; i++) {
			struct sim_task *st = &s->tasks[i];

			if (st->used && !st->dead && st->wake_at && st->wake_at <= t &&
			    st->timer_cpu == cpu) {
				on_event(s, cpu, SIM_EV_WAKEUP, 0);
				sim_timer_wake(s, st);
				on_event(s, cpu, SIM_EV_WAKEUP, 1);
				return 1;
			}
		}
	}
	return 0;
}

/* A CPU's tick due at T (tick_sched_timer()): 1 if one. */
static int tick_step(struct sim *s, u64 t)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (*next_tick(s, cpu) > t || !rr_ready(s, cpu, t))
			continue;
		*next_tick(s, cpu) += s->tick_ns;
		host_cpu = cpu;
		if (cpu == 0)
			jiffies++;			/* do_timer(): tick_do_timer_cpu's */
		on_event(s, cpu, SIM_EV_TICK, 0);
		scheduler_tick();
		sim_irq_exit(s);
		on_event(s, cpu, SIM_EV_TICK, 1);
		return 1;
	}
	return 0;
}

/* One step at the current instant, if a CPU has one due: 1 if taken. */
static int step(struct sim *s)
{
	u64 t = fake_clock_ns;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {	/* the IPI */
		host_cpu = cpu;
		if (current->need_resched) {
			s->ipis++;
			on_event(s, cpu, SIM_EV_IPI, 0);
			sim_irq_exit(s);
			on_event(s, cpu, SIM_EV_IPI, 1);
			return 1;
		}
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++) {	/* a burst's end */
		struct sim_task *cur;

		host_cpu = cpu;
		cur = current == this_rq()->idle ? NULL : sim_of(current);
		if (cur && cur->burst_left == 0) {
			on_event(s, cpu, SIM_EV_ACTION, 0);
			sim_act(s, cur);
			on_event(s, cpu, SIM_EV_ACTION, 1);
			return 1;
		}
	}
	return timer_step(s, t) || tick_step(s, t);
}

void sim_run_smp(struct sim *s, u64 duration)
{
	u64 end = fake_clock_ns + duration;

	for (;;) {
		u64 now = fake_clock_ns, t;

		if (step(s))
			continue;
		for (int cpu = 0; cpu < s->ncpus; cpu++)	/* its turn has come */
			if (s->rr_until[cpu] <= now)
				s->rr_until[cpu] = 0;
		t = next_event(s, now, end);
		charge(s, t - now);
		fake_clock_set(t);
		if (t == end)
			break;
	}
	host_cpu = 0;
}
