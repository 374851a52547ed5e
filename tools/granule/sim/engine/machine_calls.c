/*
 * tools/granule/sim/engine/machine_calls.c - what a program does next (machine.h's
 * m_burn ... m_fork, m_timer_arm): each call sets the running thread's next
 * burst, or blocks it, forks, exits, on the machine of machine.c.
 */
#include <stdio.h>

#include "machine.h"
#include "machine_core.h"
#include "../../tests/host/sched/fake.h"
#include <kernel/sched.h>
#include "../../kernel/sched/sched.h"

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

void m_block(struct machine *m, struct mproc *p)
{
	p->burst_left = 0;
	if (p->wake_pending) {
		p->wake_pending = 0;
		return;
	}
	p->in_block = 1;
	mc_block(m, p);
}

void m_wake(struct mproc *p)
{
	if (p->in_block) {
		p->in_block = 0;
		mc_wake(p);
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
	p->timer_cpu = raw_smp_processor_id();
	p->wake_seq = ++m->hrtimer_seq;
	mc_block(m, p);
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
	mc_block(m, p);
}

void m_exit(struct machine *m, struct mproc *p)
{
	struct mproc *parent = p->parent;

	p->dead = 1;
	if (parent && !parent->dead) {
		if (parent->in_wait) {		/* wait() returns this child */
			parent->in_wait = 0;
			parent->children--;
			mc_wake(parent);
		} else {
			parent->zombies++;
		}
	}
	p->t.state = TASK_DEAD;
	schedule();
	mc_after_event(m);
}

void m_sigwait(struct machine *m, struct mproc *p)
{
	p->burst_left = 0;
	if (p->sigpending)
		return;			/* queued already: returns at once */
	p->in_sigwait = 1;
	mc_block(m, p);
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
	struct mproc *c = mc_new_thread(m, comm, prog);

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
	m->timer_cpu = raw_smp_processor_id();
	m->timer_next = t0 + m->start;
	m->timer_period = period;
}

void m_timer_disarm(struct machine *m)
{
	m->timer_target = NULL;
}

