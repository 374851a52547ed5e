/*
 * tools/granule/sim/engine/machine.c - the simulated machine (see machine.h).
 *
 * Event order at one instant, as in tests/host/sched/sim.c: the running
 * thread's program step, then hrtimer wakeups, then the POSIX timer, then
 * the hrtick, then the periodic tick.  The invariant checker is not run
 * (this is the fast engine; the host tests run the same code with it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "../../tests/host/sched/fake.h"
#include <kernel/sched.h>
#include <kernel/hrtick.h>
#include "../../kernel/sched/sched.h"

static struct mproc *proc_of(struct task *t)
{
	if (!t || t == sched_idle_task())
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

	fprintf(traced->trace, "%16s-%-7d [000] d.... %5llu.%06llu: %s: ", comm, current->pid,
		(unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000), event);
}

/* sched_wakeup (sched_wakeup_new for a new thread): from the waker's context. */
static void trace_wakeup(const struct task *t, const char *event)
{
	if (!traced || !traced->trace)
		return;
	trace_head(event);
	fprintf(traced->trace, "comm=%s pid=%d prio=%d target_cpu=000\n", t->comm, t->pid, t->prio);
}

static void wake(struct mproc *p)
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
	m->last_current = current;
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
static struct mproc *new_thread(struct machine *m, const char *comm, mprog_fn prog)
{
	struct mproc *c = slot_alloc(m);

	snprintf(c->t.comm, sizeof(c->t.comm), "%s", comm);
	c->prog = prog;
	sched_fork(&c->t);
	wake_up_new_task(&c->t);
	trace_wakeup(&c->t, "sched_wakeup_new");
	m->forks++;
	return c;
}

struct mproc *m_spawn(struct machine *m, const char *comm, mprog_fn prog)
{
	return new_thread(m, comm, prog);
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
	struct mproc *cur = m_current();

	if (cur) {
		if (cur->fixed)
			cur->stall += ns;
		run_for(cur, ns);
	} else {
		m->idle_ns += ns;
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

/* A switch happened: free a dead thread's slot, charge the switch-in. */
static void after_event(struct machine *m)
{
	struct mproc *cur, *prev = proc_of(m->last_current);
	int preempted;

	if (current == m->last_current)
		return;
	trace_switch(m->last_current, current);
	cur = m_current();
	preempted = prev && !prev->dead && prev->t.state == TASK_RUNNING;
	if (prev && prev->dead)
		prev->used = 0;			/* switched out for good */
	m->last_current = current;
	m->switches++;
	/* A burning loop counts the switch's tail in its CPU time; a thread
	 * returning from a system call, or a fixed path, waits for it. */
	if (cur && (cur->fixed || cur->burst_left == 0))
		cur->stall += m->cost.switch_in + (preempted ? preempt_cost(m, cur) : 0);
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

static void irq_exit(struct machine *m)
{
	if (irq_preempts(m))
		preempt_schedule_irq();
	after_event(m);
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
static void periodic_tick(struct machine *m)
{
	m->next_tick += m->tick_ns;
	jiffies++;
	irq_cost(m, m->cost.tick);
	scheduler_tick();
	if (irq_preempts(m) && m->cost.tick_preempt) {
		irq_cost(m, m->cost.tick_preempt);
		m->tick_preempted = 1;
	}
	irq_exit(m);
	m->tick_preempted = 0;		/* also when schedule() kept the task */
}

static void syscall_exit(struct machine *m)
{
	if (current->need_resched)
		schedule();
	after_event(m);
}

static void block(struct machine *m, struct mproc *p)
{
	p->t.state = TASK_INTERRUPTIBLE;
	schedule();
	after_event(m);
}

void m_burn(struct mproc *p, u64 ns)
{
	p->burst_left = ns;
	p->in_kernel = 0;
}

void m_kernel(struct mproc *p, u64 ns)
{
	p->burst_left = ns;
	p->in_kernel = 1;
}

void m_kernel_on(struct mproc *p, u64 ns)
{
	m_kernel(p, ns);
	p->no_resched = 1;
}

void m_burn_loop(struct machine *m, struct mproc *p, u64 ns)
{
	p->loop_end = task_sched_runtime(&p->t) + ns;
	p->loop = 1;
	p->burst_left = m->cost.burn_chunk;
}

void m_burn_exact(struct machine *m, struct mproc *p, u64 ns)
{
	p->loop_end = task_sched_runtime(&p->t) + ns;
	p->loop = 2;
	p->burst_left = ns < m->cost.burn_chunk ? ns : m->cost.burn_chunk;
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

void m_block(struct machine *m, struct mproc *p)
{
	p->burst_left = 0;
	if (p->wake_pending) {
		p->wake_pending = 0;
		return;
	}
	p->in_block = 1;
	block(m, p);
}

void m_wake(struct mproc *p)
{
	if (p->in_block) {
		p->in_block = 0;
		wake(p);
	} else {
		p->wake_pending = 1;
	}
}

void m_next(struct mproc *p)
{
	p->burst_left = 0;
}

void m_sleep_until(struct machine *m, struct mproc *p, u64 t)
{
	p->burst_left = 0;
	if (t + m->start <= fake_clock_ns)
		return;				/* already due: returns at once */
	p->wake_at = t + m->start;
	p->wake_seq = ++m->hrtimer_seq;
	block(m, p);
}

void m_sleep(struct machine *m, struct mproc *p, u64 ns)
{
	m_sleep_until(m, p, m_now(m) + ns);
}

void m_wait(struct machine *m, struct mproc *p)
{
	p->burst_left = 0;
	if (p->zombies) {
		p->zombies--;
		p->children--;
		return;
	}
	p->in_wait = 1;
	block(m, p);
}

void m_exit(struct machine *m, struct mproc *p)
{
	struct mproc *parent = p->parent;

	p->dead = 1;
	if (parent && !parent->dead) {
		if (parent->in_wait) {		/* wait() returns this child */
			parent->in_wait = 0;
			parent->children--;
			wake(parent);
		} else {
			parent->zombies++;
		}
	}
	p->t.state = TASK_DEAD;
	schedule();
	after_event(m);
}

void m_sigwait(struct machine *m, struct mproc *p)
{
	p->burst_left = 0;
	if (p->sigpending)
		return;			/* queued already: returns at once */
	p->in_sigwait = 1;
	block(m, p);
}

int m_sigtake(struct mproc *p)
{
	if (!p->sigpending)
		return -1;
	p->sigpending = 0;
	return p->sig_overrun;
}

struct mproc *m_fork(struct machine *m, struct mproc *p, const char *comm,
		     mprog_fn prog, int thread)
{
	struct mproc *c = new_thread(m, comm, prog);

	c->parent = p;
	if (thread)
		c->t.tgid = p->t.tgid;
	else
		p->children++;
	c->stall = thread ? m->cost.clone_child : m->cost.fork_child;
	p->burst_left = 0;
	return c;
}

void m_timer_arm(struct machine *m, struct mproc *target, u64 t0, u64 period)
{
	m->timer_target = target;
	m->timer_next = t0 + m->start;
	m->timer_period = period;
}

void m_timer_disarm(struct machine *m)
{
	m->timer_target = NULL;
}

/* The POSIX timer's expiry: a signal to the target thread (one pending at
 * most: a further expiry before it is taken counts as an overrun). */
static void timer_expire(struct machine *m)
{
	struct mproc *t = m->timer_target;

	m->timer_next += m->timer_period;
	irq_cost(m, m->cost.timer_signal);
	if (t->sigpending) {
		t->sig_overrun++;	/* not dequeued yet: folded in */
	} else {
		t->sigpending = 1;
		t->sig_overrun = 0;
		if (t->in_sigwait) {
			t->in_sigwait = 0;
			wake(t);
		}
	}
	irq_exit(m);
}

/* The sleepers due by T, earliest expiry first, equal ones in the order armed;
 * one interrupt wakes every sleeper due by then (hrtimer_interrupt runs every
 * expired timer), and its exit path reschedules once, after the last. */
static void hrtimer_wakeups(struct machine *m, u64 t)
{
	int woken = 0;

	for (;;) {
		struct mproc *first = NULL;

		for (int i = 0; i < m->nr_slots; i++) {
			struct mproc *p = &m->procs[i];

			if (p->used && !p->dead && p->wake_at && p->wake_at <= t &&
			    (!first || p->wake_at < first->wake_at ||
			     (p->wake_at == first->wake_at && p->wake_seq < first->wake_seq)))
				first = p;
		}
		if (!first)
			break;
		first->wake_at = 0;
		irq_cost(m, m->cost.hrtimer_wake);
		wake(first);
		woken++;
	}
	if (woken)
		irq_exit(m);
}

/* The earliest event after NOW, not after END. */
static u64 next_event(struct machine *m, struct mproc *cur, u64 end)
{
	u64 t = end;

	if (m->next_tick < t)
		t = m->next_tick;
	if (cur && cur->stall && fake_clock_ns + cur->stall < t)
		t = fake_clock_ns + cur->stall;	/* the return to user: a preemption point */
	if (cur && cur->burst_left != M_INF && fake_clock_ns + cur->stall + cur->burst_left < t)
		t = fake_clock_ns + cur->stall + cur->burst_left;
	for (int i = 0; i < m->nr_slots; i++) {
		struct mproc *p = &m->procs[i];

		if (p->used && p->wake_at && p->wake_at < t)
			t = p->wake_at;
	}
	if (m->timer_target && m->timer_next < t)
		t = m->timer_next;
	if (fake_hrtick.armed && fake_hrtick.expires < t)
		t = fake_hrtick.expires;
	return t < fake_clock_ns ? fake_clock_ns : t;
}

void m_run(struct machine *m, u64 until)
{
	u64 end = m->start + until;

	if (current->need_resched)
		schedule();
	after_event(m);
	while (fake_clock_ns < end) {
		struct mproc *cur = m_current();
		u64 t = next_event(m, cur, end);
		int stalled = cur && cur->stall;

		if (cur)
			run_for(cur, t - fake_clock_ns);
		else
			m->idle_ns += t - fake_clock_ns;
		fake_clock_set(t);
		if (stalled && !cur->stall && cur->burst_left && !cur->in_kernel &&
		    current->need_resched) {	/* back to user with a resched pending */
			schedule();
			after_event(m);
			continue;
		}
		if (cur && cur->stall == 0 && cur->burst_left == 0) {
			cur->in_kernel = 0;
			cur->no_resched = 0;
			if (!cur->loop || loop_read(m, cur))
				cur->prog(m, cur);	/* a system call */
			if (m_current() == cur && cur->t.state == TASK_RUNNING && !cur->no_resched)
				syscall_exit(m);
			continue;
		}
		hrtimer_wakeups(m, t);
		if (m->timer_target && m->timer_next <= t)
			timer_expire(m);
		if (fake_hrtick.armed && fake_hrtick.expires <= t) {
			fake_hrtick.armed = 0;
			hrtick_fire();
			irq_exit(m);
		}
		if (m->next_tick <= t)
			periodic_tick(m);
	}
}
