/*
 * tools/granule/sim/engine/machine.c - the simulated machine (see machine.h).
 *
 * Event order at one instant, as in tests/host/sched/sim.c: the running
 * thread's program step, then hrtimer wakeups, then the POSIX timer, then
 * the hrtick, then the periodic tick.  The invariant checker is not run
 * (this is the fast engine; the host tests run the same code with it).
 *
 * At several CPUs (m_init_cpus(), `--cpus N`) the same machine runs the
 * N-CPU model of tests/host/sched/sim_smp.c: each CPU its own current and
 * tick (staggered by sim_tick_offset()), timers firing on the CPU that
 * armed them, the scheduler softirq and migration/N on the way out of an
 * interrupt, and the reschedule IPI; at one instant a CPU's IPI first, then
 * the CPUs' program steps, then each CPU's interrupts, by CPU number.  An
 * interrupt's cost passes on every CPU (the others run on meanwhile).  The
 * SMP costs (machine.h, measured at -smp 2 by tools/granule/sim/smp_costs.py)
 * are charged only at N > 1: the IPI as an interrupt on its target, the
 * softirq's balance pass as one on the way out, an idle balance as one on a
 * CPU about to idle, a migration to the moved task when it next runs, the
 * stopper's work as its burst, and the SMP kernel's extra on every tick,
 * switch and timer wakeup.  Not modelled at N > 1: the hrtick.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "machine_core.h"
#include "../../tests/host/sched/fake.h"
#include "../../tests/host/sched/sim.h"
#include <kernel/sched.h>
#include <kernel/interrupt.h>
#include <kernel/stop_machine.h>
#include <kernel/hrtick.h>
#include "../../kernel/sched/sched.h"

static struct mproc *proc_of(struct task *t)
{
	if (!t || t == cpu_rq(task_cpu(t))->idle)
		return NULL;
	return container_of(t, struct mproc, t);
}

struct mproc *m_current(void)
{
	return proc_of(current);
}

/* ---- the trace (m->trace): ftrace's text, as the image's dump prints it ---- */

static struct machine *traced;		/* the machine m_init() set up last */

static const char *trace_comm(const struct task *t)
{
	return t == sched_idle_task() ? "swapper" : t->comm;
}

/* The line's head: the running task, its CPU, flags and the time in us. */
static void trace_head(const char *event)
{
	u64 us = (fake_clock_ns - traced->start) / 1000;
	const char *comm = current == sched_idle_task() ? "<idle>" : current->comm;

	fprintf(traced->trace, "%16s-%-7d [%03d] d.... %5llu.%06llu: %s: ", comm, current->pid,
		raw_smp_processor_id(), (unsigned long long)(us / 1000000),
		(unsigned long long)(us % 1000000), event);
}

/* sched_wakeup (sched_wakeup_new for a new thread): from the waker's context. */
static void trace_wakeup(const struct task *t, const char *event)
{
	if (!traced || !traced->trace)
		return;
	trace_head(event);
	fprintf(traced->trace, "comm=%s pid=%d prio=%d target_cpu=%03u\n", t->comm, t->pid, t->prio,
		task_cpu(t));
}

void mc_wake(struct mproc *p)
{
	try_to_wake_up(&p->t, TASK_NORMAL, 0);
	trace_wakeup(&p->t, "sched_wakeup");
}

static void trace_switch(const struct task *prev, const struct task *next)
{
	char state = prev->state == TASK_RUNNING ? 'R' : prev->state == TASK_DEAD ? 'Z' : 'S';

	if (!traced || !traced->trace)
		return;
	trace_head("sched_switch");
	fprintf(traced->trace, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%c ==> "
		"next_comm=%s next_pid=%d next_prio=%d\n", trace_comm(prev), prev->pid, prev->prio,
		state, trace_comm(next), next->pid, next->prio);
}

void m_init(struct machine *m, const struct sim_costs *c, u64 start_phase, u64 tick_period)
{
	memset(m, 0, sizeof(*m));
	m->cost = *c;
	m->start = fake_clock_ns;
	m->tick_ns = tick_period;
	m->next_tick = fake_clock_ns + m->tick_ns - start_phase % m->tick_ns;
	m->ncpus = 1;
	m->last_current[0] = current;
	traced = m;
}

u64 m_now(const struct machine *m)
{
	return fake_clock_ns - m->start;
}

static struct mproc *slot_alloc(struct machine *m)
{
	static int next_pid = 100;

	for (int i = 0; i < M_MAX_PROCS; i++) {
		struct mproc *p = &m->procs[i];

		if (!p->used) {
			memset(p, 0, sizeof(*p));
			p->used = 1;
			p->ran_cpu = -1;		/* not run yet */
			if (i >= m->nr_slots)
				m->nr_slots = i + 1;
			p->t.pid = p->t.tgid = next_pid++;
			return p;
		}
	}
	fprintf(stderr, "sim: more than %d threads alive at once\n", M_MAX_PROCS);
	exit(2);
}

/* sched_fork + wake_up_new_task from current: fork()'s scheduler half. */
struct mproc *mc_new_thread(struct machine *m, const char *comm, mprog_fn prog)
{
	struct mproc *c = slot_alloc(m);

	snprintf(c->t.comm, sizeof(c->t.comm), "%s", comm);
	c->prog = prog;
	sched_fork(&c->t);
	if (m->ncpus > 1 && !m_current())	/* from the "boot": init's affinity */
		c->t.cpus_allowed = *cpu_online_mask;
	wake_up_new_task(&c->t);
	trace_wakeup(&c->t, "sched_wakeup_new");
	m->forks++;
	return c;
}

struct mproc *m_spawn(struct machine *m, const char *comm, mprog_fn prog)
{
	return mc_new_thread(m, comm, prog);
}


/* migration/N runs: the work the balancer queued, if any, for its cost
 * (active_balance: the push), then it sleeps. */
static void stopper_prog(struct machine *m, struct mproc *p)
{
	int cpu = raw_smp_processor_id();
	struct cpu_stop_work *work = m->stop_work[cpu];

	p->burst_left = 0;
	if (work) {
		m->stop_work[cpu] = NULL;
		work->fn(work->arg);
		if (m->cost.active_balance) {
			m_kernel(p, m->cost.active_balance);
			return;			/* then back here: no work, it sleeps */
		}
	}
	mc_block(m, p);
}

void m_init_cpus(struct machine *m, int ncpus)
{
	m->ncpus = ncpus;
	/* the first tick on CPU 0's grid plus the offset still ahead */
	for (int cpu = 1; cpu < ncpus; cpu++) {
		u64 off = sim_tick_offset(m->tick_ns, ncpus, cpu);

		m->ap_next_tick[cpu] = m->next_tick - m->tick_ns + off;
		if (m->ap_next_tick[cpu] <= fake_clock_ns)
			m->ap_next_tick[cpu] += m->tick_ns;
		m->last_current[cpu] = cpu_curr(cpu);
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {	/* cpu_stop_init(), from CPU 0 */
		struct mproc *st = slot_alloc(m);

		snprintf(st->t.comm, sizeof(st->t.comm), "migration/%u", (unsigned char)cpu);
		st->prog = stopper_prog;
		sched_fork(&st->t);
		sim_stopper_start(&st->t, cpu);
		m->stopper[cpu] = st;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {	/* each runs once and sleeps */
		host_cpu = cpu;
		schedule();
		mc_after_event(m);
		m_current()->stall = 0;		/* boot time, before the experiment */
		stopper_prog(m, m_current());
	}
	host_cpu = 0;
	m->switches = 0;
	m->booted = 1;
}

/*
 * Time passes with P on the CPU: its CPU clock advances; a stall (kernel
 * overhead) is paid first, then the burst progresses.
 */
static void run_for(struct mproc *p, u64 dt)
{
	u64 s = dt < p->stall ? dt : p->stall;

	p->cpu_ns += dt;
	p->stall -= s;
	dt -= s;
	if (p->burst_left != M_INF)
		p->burst_left -= dt < p->burst_left ? dt : p->burst_left;
}

/*
 * An interrupt of NS on top of current: the image charges it to current's
 * CPU clock.  A CPU-burning loop counts it as progress (it watches that
 * clock); a fixed-cost path is delayed by it.
 */
static void irq_cost(struct machine *m, u64 ns)
{
	int this_cpu = raw_smp_processor_id();

	for (int cpu = 0; cpu < m->ncpus; cpu++) {	/* the others run on meanwhile */
		struct mproc *cur = proc_of(cpu_curr(cpu));

		if (cur) {
			if (cur->fixed && cpu == this_cpu)
				cur->stall += ns;
			run_for(cur, ns);
		} else {
			m->idle_ns[cpu] += ns;
		}
	}
	fake_clock_advance(ns);
}

/*
 * What a switch that preempts a running task costs its next task more than
 * one from idle: the woken task's class decides (the rt class enqueues on a
 * list and picks by its bitmap where the fair class walks its rbtree), and a
 * tick's preemption has paid its part already (periodic_tick()).
 */
static u64 preempt_cost(const struct machine *m, const struct mproc *next)
{
	if (m->tick_preempted)
		return 0;
	return rt_task(&next->t) ? m->cost.preempt_rt : m->cost.preempt;
}

/*
 * At N > 1, a switch also pays: on a CPU about to idle, the idle balance
 * that found nothing (as an interrupt there: the CPU is busy that long; it
 * runs unless the CPU idles too briefly, rq->avg_idle under
 * sysctl_sched_migration_cost, 2.6.35's idle_balance()); for a task that
 * moved since it last ran (a pull, the stopper's push, a wakeup or fork
 * placed elsewhere), the migration, before it runs on.
 */
static void smp_switch_costs(struct machine *m, int cpu, struct mproc *cur)
{
	if (!cur && m->cost.idle_balance && m->booted &&
	    cpu_rq(cpu)->avg_idle >= sysctl_sched_migration_cost)
		irq_cost(m, m->cost.idle_balance);
	if (cur && cur->ran_cpu >= 0 && cur->ran_cpu != cpu)
		cur->stall += m->cost.migrate;
	if (cur)
		cur->ran_cpu = cpu;
}

/* A switch happened: free a dead thread's slot, charge the switch-in. */
void mc_after_event(struct machine *m)
{
	int cpu = raw_smp_processor_id();
	struct mproc *cur, *prev = proc_of(m->last_current[cpu]);
	int preempted;

	if (current == m->last_current[cpu])
		return;
	trace_switch(m->last_current[cpu], current);
	cur = m_current();
	preempted = prev && !prev->dead && prev->t.state == TASK_RUNNING;
	if (prev && prev->dead)
		prev->used = 0;			/* switched out for good */
	m->last_current[cpu] = current;
	m->switches++;
	/* A burning loop counts the switch's tail in its CPU time; a thread
	 * returning from a system call, or a fixed path, waits for it. */
	if (cur && (cur->fixed || cur->burst_left == 0))
		cur->stall += m->cost.switch_in + (preempted ? preempt_cost(m, cur) : 0) +
			      (m->ncpus > 1 ? m->cost.smp_switch : 0);
	if (m->ncpus > 1)
		smp_switch_costs(m, cpu, cur);
	if (cur && m->on_switch_in)
		m->on_switch_in(m, cur);
}

/* The irq-exit path preempts only when the interrupt came from user mode or
 * idle (a thread in a system call or a switch goes on to its end). */
static int irq_preempts(struct machine *m)
{
	struct mproc *cur = m_current();

	return current->need_resched && !(cur && (cur->in_kernel || cur->stall));
}

/*
 * At several CPUs, the way out of an interrupt first runs the scheduler
 * softirq the tick raised (rebalance_domains()), and hands an active
 * balance the balancer queued (stop_one_cpu_nowait()) to that CPU's
 * migration/N, woken (tests/host/sched/sim_smp.c's sim_smp_irq_exit()).
 */
static void smp_irq_exit(struct machine *m)
{
	if (local_softirq_pending()) {
		irq_cost(m, m->cost.balance);
		do_softirq();
	}
	if (host_stop_work) {
		m->stop_work[host_stop_cpu] = host_stop_work;
		host_stop_work = NULL;
		mc_wake(m->stopper[host_stop_cpu]);
	}
}

static void irq_return(struct machine *m)
{
	if (m->ncpus > 1)
		smp_irq_exit(m);
	if (irq_preempts(m))
		preempt_schedule_irq();
	mc_after_event(m);
}

/*
 * The periodic tick.  Its cost comes before scheduler_tick()'s clock read;
 * when the tick preempts, the rest of the handler, the irq exit and
 * schedule() up to put_prev's update_curr() run on the leaving task's time
 * (tick_preempt, ~2 us): the image's slices end that much after the tick, so
 * a 2 ms slice that began just after one tick is 2 us short at the tick
 * 2 ms later, and runs to the next.  The next task then pays the switch-in
 * only; `preempt` is a wakeup's.
 */
static u64 *next_tick(struct machine *m, int cpu)
{
	return cpu ? &m->ap_next_tick[cpu] : &m->next_tick;
}

static void periodic_tick(struct machine *m)
{
	int cpu = raw_smp_processor_id();

	*next_tick(m, cpu) += m->tick_ns;
	if (cpu == 0)
		jiffies++;		/* do_timer(): tick_do_timer_cpu's */
	irq_cost(m, m->cost.tick + (m->ncpus > 1 ? m->cost.smp_tick : 0));
	scheduler_tick();
	if (irq_preempts(m) && m->cost.tick_preempt) {
		irq_cost(m, m->cost.tick_preempt);
		m->tick_preempted = 1;
	}
	irq_return(m);
	m->tick_preempted = 0;		/* also when schedule() kept the task */
}

static void syscall_exit(struct machine *m)
{
	if (current->need_resched)
		schedule();
	mc_after_event(m);
}

void mc_block(struct machine *m, struct mproc *p)
{
	p->t.state = TASK_INTERRUPTIBLE;
	schedule();
	mc_after_event(m);
}

/* The end of a chunk: clock_gettime(CLOCK_THREAD_CPUTIME_ID); 1 if done. */
static int loop_read(struct machine *m, struct mproc *p)
{
	u64 now = task_sched_runtime(&p->t);

	if (now >= p->loop_end) {
		p->loop = 0;
		return 1;
	}
	p->burst_left = m->cost.burn_chunk;
	if (p->loop == 2 && p->loop_end - now < p->burst_left)
		p->burst_left = p->loop_end - now;
	return 0;
}

/* The POSIX timer's expiry: a signal to the target thread (one pending at
 * most: a further expiry before it is taken counts as an overrun). */
static void timer_expire(struct machine *m)
{
	struct mproc *t = m->timer_target;

	m->timer_next += m->timer_period;
	irq_cost(m, m->cost.timer_signal + (m->ncpus > 1 ? m->cost.smp_wake : 0));
	if (t->sigpending) {
		t->sig_overrun++;	/* not dequeued yet: folded in */
	} else {
		t->sigpending = 1;
		t->sig_overrun = 0;
		if (t->in_sigwait) {
			t->in_sigwait = 0;
			mc_wake(t);
		}
	}
	irq_return(m);
}

/* The sleepers due by T, earliest expiry first, equal ones in the order armed;
 * one interrupt wakes every sleeper due by then (hrtimer_interrupt runs every
 * expired timer), and its exit path reschedules once, after the last. */
static void hrtimer_wakeups(struct machine *m, u64 t)
{
	int woken = 0, cpu = raw_smp_processor_id();

	for (;;) {
		struct mproc *first = NULL;

		for (int i = 0; i < m->nr_slots; i++) {
			struct mproc *p = &m->procs[i];

			if (p->used && !p->dead && p->wake_at && p->wake_at <= t && p->timer_cpu == cpu &&
			    (!first || p->wake_at < first->wake_at ||
			     (p->wake_at == first->wake_at && p->wake_seq < first->wake_seq)))
				first = p;
		}
		if (!first)
			break;
		first->wake_at = 0;
		irq_cost(m, m->cost.hrtimer_wake + (m->ncpus > 1 ? m->cost.smp_wake : 0));
		mc_wake(first);
		woken++;
	}
	if (woken)
		irq_return(m);
}

/* The earliest event of CPU's current: the end of its stall or burst. */
static u64 cpu_event(struct mproc *cur, u64 t)
{
	if (cur && cur->stall && fake_clock_ns + cur->stall < t)
		t = fake_clock_ns + cur->stall;	/* the return to user: a preemption point */
	if (cur && cur->burst_left != M_INF && fake_clock_ns + cur->stall + cur->burst_left < t)
		t = fake_clock_ns + cur->stall + cur->burst_left;
	return t;
}

/* The earliest event after NOW, not after END, of any CPU. */
static u64 next_event(struct machine *m, struct mproc **cur, u64 end)
{
	u64 t = end, d[M_MAX_CPUS];

	if (m->ncpus > 1)
		mrr_deadlines(m, fake_clock_ns, -1, d);
	for (int cpu = 0; cpu < m->ncpus; cpu++) {
		if (m->ncpus == 1 && *next_tick(m, cpu) < t)
			t = *next_tick(m, cpu);
		t = cpu_event(cur[cpu], t);
		if (m->ncpus > 1 && mrr_next(m, cpu, d) < t)	/* its interrupts */
			t = mrr_next(m, cpu, d);
	}
	for (int i = 0; i < m->nr_slots && m->ncpus == 1; i++) {
		struct mproc *p = &m->procs[i];

		if (p->used && p->wake_at && p->wake_at < t)
			t = p->wake_at;
	}
	if (m->timer_target && m->timer_next < t && m->ncpus == 1)
		t = m->timer_next;
	if (m->ncpus == 1 && fake_hrtick.armed && fake_hrtick.expires < t)
		t = fake_hrtick.expires;
	return t < fake_clock_ns ? fake_clock_ns : t;
}

/*
 * The reschedule IPI (several CPUs): need_resched set on another CPU's
 * task by a wakeup, a pull or the stopper's wakeup is acted on at once,
 * on the way out of the IPI, where an interrupt may preempt (user mode or
 * idle); else at that task's own return to user.  1 if one was taken.
 */
static int ipi_step(struct machine *m)
{
	for (int cpu = 0; cpu < m->ncpus && m->ncpus > 1; cpu++) {
		host_cpu = cpu;
		if (current->need_resched && irq_preempts(m)) {
			m->ipis++;
			irq_cost(m, m->cost.ipi_send + m->cost.ipi_recv);
			irq_return(m);
			return 1;
		}
	}
	return 0;
}

/* CPU's current CUR at the end of its stall or burst: 1 if it acted. */
static int task_step(struct machine *m, struct mproc *cur, int stalled)
{
	if (stalled && !cur->stall && cur->burst_left && !cur->in_kernel &&
	    current->need_resched) {	/* back to user with a resched pending */
		schedule();
		mc_after_event(m);
		return 1;
	}
	if (cur && cur->stall == 0 && cur->burst_left == 0) {
		cur->in_kernel = 0;
		cur->no_resched = 0;
		if (!cur->loop || loop_read(m, cur))
			cur->prog(m, cur);	/* a system call */
		if (m_current() == cur && cur->t.state == TASK_RUNNING && !cur->no_resched)
			syscall_exit(m);
		return 1;
	}
	return 0;
}

/* The interrupts due by T on CPU: timer wakeups, the POSIX timer, the
 * hrtick (one CPU), the periodic tick. */
static void irq_step(struct machine *m, u64 t)
{
	hrtimer_wakeups(m, t);
	if (m->timer_target && m->timer_cpu == raw_smp_processor_id() && m->timer_next <= t)
		timer_expire(m);
	if (m->ncpus == 1 && fake_hrtick.armed && fake_hrtick.expires <= t) {
		fake_hrtick.armed = 0;
		hrtick_fire();
		irq_return(m);
	}
	if (*next_tick(m, raw_smp_processor_id()) <= t)
		periodic_tick(m);
}

/*
 * At each instant: a CPU's IPI, else the CPUs' task steps by CPU number
 * (the first that acts restarts the instant), else each CPU's interrupts
 * (QEMU -icount runs its vCPUs round-robin on one thread).  Between
 * instants every CPU's current runs on (or its idle counts).
 */
void m_run(struct machine *m, u64 until)
{
	u64 end = m->start + until;

	if (current->need_resched)
		schedule();
	mc_after_event(m);
	while (fake_clock_ns < end) {
		struct mproc *cur[M_MAX_CPUS];
		int stalled[M_MAX_CPUS], acted = 0;
		u64 t, d[M_MAX_CPUS];

		if (ipi_step(m))
			continue;
		for (int cpu = 0; cpu < m->ncpus; cpu++) {
			cur[cpu] = proc_of(cpu_curr(cpu));
			stalled[cpu] = cur[cpu] && cur[cpu]->stall;
		}
		t = next_event(m, cur, end);
		for (int cpu = 0; cpu < m->ncpus; cpu++) {
			if (cur[cpu])
				run_for(cur[cpu], t - fake_clock_ns);
			else
				m->idle_ns[cpu] += t - fake_clock_ns;
		}
		fake_clock_set(t);
		for (int cpu = 0; cpu < m->ncpus && !acted; cpu++) {
			host_cpu = cpu;
			acted = task_step(m, cur[cpu], stalled[cpu]);
		}
		if (!acted && m->ncpus > 1)
			mrr_deadlines(m, t, -1, d);	/* as the round begins */
		for (int cpu = 0; cpu < m->ncpus && !acted; cpu++) {
			host_cpu = cpu;
			if (m->ncpus == 1 || mrr_ready(m, cpu, t, d))	/* at its turn */
				irq_step(m, t);
		}
		if (!acted)
			mrr_served(m, t);
	}
	host_cpu = 0;
}
