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
 *   - the tick: every CPU's at the same instants (jiffies counted once, by
 *     CPU 0, as do_timer()), scheduler_tick() -> trigger_load_balance();
 *     the scheduler softirq runs on the way out of the interrupt
 *     (rebalance_domains()), then preempt_schedule_irq() if need_resched;
 *   - the timer wakeups: on CPU 0, where the image's hrtimers expire, so a
 *     sleeper from another CPU is placed by select_task_rq() (wake_affine);
 *   - idle balancing: schedule() itself (idle_balance() in the SMP copy);
 *   - the reschedule IPI: need_resched set on another CPU's task
 *     (resched_task() from a wakeup, a pull, the stopper's wakeup) is acted
 *     on at that CPU's next step, at the same instant: irq exit there;
 *   - the active balance: load_balance() queues a work for the busiest
 *     CPU's stopper (stop_one_cpu_nowait, recorded by fake_arch.c); on
 *     the way out of the softirq it is handed to migration/N, a SCHED_FIFO
 *     99 task bound to its CPU as the image's (kernel/stop_machine.c),
 *     whose wakeup preempts that CPU; the stopper runs the work and sleeps.
 * Not modelled yet: the costs (a switch, an IPI, a migration, the balance
 * itself take no simulated time), the hrtick (one fake hrtick: off here),
 * the APs' ticks' phase against CPU 0's (aligned here).
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
void sim_smp_init(struct sim *s, int ncpus)
{
	s->ncpus = ncpus;
	s->spawn_mask = *cpu_online_mask;	/* init's: every CPU */
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct sim_task *st = sim_slot_alloc(s);

		st->kind = SIM_STOPPER;
		snprintf(st->t.comm, sizeof(st->t.comm), "migration/%u", (unsigned char)cpu);
		st->created_at = fake_clock_ns;
		sched_fork(&st->t);
		kthread_bind(&st->t, (unsigned int)cpu);
		sched_setscheduler_prio(&st->t, SCHED_FIFO, MAX_RT_PRIO - 1);
		wake_up_new_task(&st->t);
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

/* The earliest next event of any CPU, at or after NOW, before END. */
static u64 next_event(struct sim *s, u64 now, u64 end)
{
	u64 t = end;

	if (s->next_tick < t)
		t = s->next_tick;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct task *curr = cpu_curr(cpu);
		struct sim_task *cur = curr == cpu_rq(cpu)->idle ? NULL : sim_of(curr);

		if (cur && cur->burst_left != SIM_INF && now + cur->burst_left < t)
			t = now + cur->burst_left;
	}
	t = sim_next_wake(s, t);
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
	host_cpu = 0;					/* hrtimers expire on CPU 0 */
	for (int i = 0; i < s->max; i++) {
		struct sim_task *st = &s->tasks[i];

		if (st->used && !st->dead && st->wake_at && st->wake_at <= t) {
			on_event(s, 0, SIM_EV_WAKEUP, 0);
			sim_timer_wake(s, st);
			on_event(s, 0, SIM_EV_WAKEUP, 1);
			return 1;
		}
	}
	if (s->next_tick > t)
		return 0;
	s->next_tick += s->tick_ns;
	jiffies++;					/* do_timer(), CPU 0's */
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		host_cpu = cpu;
		on_event(s, cpu, SIM_EV_TICK, 0);
		scheduler_tick();
		sim_irq_exit(s);
		on_event(s, cpu, SIM_EV_TICK, 1);
	}
	return 1;
}

void sim_run_smp(struct sim *s, u64 duration)
{
	u64 end = fake_clock_ns + duration;

	for (;;) {
		u64 now = fake_clock_ns, t;

		if (step(s))
			continue;
		t = next_event(s, now, end);
		charge(s, t - now);
		fake_clock_set(t);
		if (t == end)
			break;
	}
	host_cpu = 0;
}
