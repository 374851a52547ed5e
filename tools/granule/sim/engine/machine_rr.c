/*
 * tools/granule/sim/engine/machine_rr.c - QEMU's round robin on the
 * experiment's machine of several CPUs (machine.c's m_run()): a CPU's
 * interrupt waits for its turn.
 *
 * Under -icount QEMU 10 runs the vCPUs in turn on one thread
 * (accel/tcg/tcg-accel-ops-rr.c, rr_cpu_thread_fn()): each round runs the
 * QEMU timers due, then the vCPUs in CPU order, each for at most its share
 * of the virtual time to the earliest QEMU timer (icount_percpu_budget(),
 * accel/tcg/tcg-accel-ops-icount.c), and the virtual clock counts every
 * vCPU's instructions.  So an interrupt for a CPU is taken when its turn
 * comes, after the busy CPUs before it have run their shares; and when its
 * handler reprograms its APIC to the earliest of all timers, timer_mod()
 * kicks (util/qemu-timer.c, timerlist_rearm() -> qemu_timer_notify_cb() ->
 * rr_kick_vcpu_thread()) and the busy CPUs after it run their shares of
 * the time to that deadline first (tests/host/sched/sim_smp.c's
 * sim_rr_late() applies the rule, sim_rr_wait() counts the turns; docs/SCHEDULER.md, "Why a halted CPU
 * beside a busy one wakes late").  Measured on the image, the rule holds
 * for a busy CPU too: cyclictest -i 1500 on CPU 1 beside a spinner there
 * and one on CPU 0 wakes 186 and 436 us late in turn (idle CPU 1: 401 and
 * 151).  Unlike sim_smp.c (tools/sim tasks: an idle CPU only), a CPU
 * running a task waits here as well; meanwhile its task runs on (the
 * load's work is burnt by the thread's clock, which counts virtual time),
 * and its system calls are not held back.  Each busy CPU runs at full
 * speed: under QEMU the busy vCPUs share the clock, which is not modelled.
 */
#include "machine.h"
#include "machine_core.h"
#include "../../tests/host/sched/fake.h"
#include "../../tests/host/sched/sim.h"
#include <kernel/sched.h>
#include "../../kernel/sched/sched.h"

static int halted(int cpu)
{
	return cpu_curr(cpu) == cpu_rq(cpu)->idle;
}

/*
 * Each CPU's APIC deadline (one-shot: its earliest hrtimer) at or after T,
 * into D: its tick, a sleep or the POSIX timer armed there, in one pass over
 * the threads; for CPU AFTER the ones due by T are taken (its handler
 * reprograms past them).
 */
void mrr_deadlines(struct machine *m, u64 t, int after, u64 *d)
{
	for (int cpu = 0; cpu < m->ncpus; cpu++) {
		d[cpu] = cpu ? m->ap_next_tick[cpu] : m->next_tick;
		while (cpu == after && d[cpu] <= t)
			d[cpu] += m->tick_ns;
	}
	for (int i = 0; i < m->nr_slots; i++) {
		struct mproc *p = &m->procs[i];
		int c = p->timer_cpu;

		if (p->used && !p->dead && p->wake_at && p->wake_at < d[c] &&
		    (c != after || p->wake_at > t))
			d[c] = p->wake_at;
	}
	if (m->timer_target) {
		int c = m->timer_cpu;

		if (m->timer_next < d[c] && (c != after || m->timer_next > t))
			d[c] = m->timer_next;
	}
}

/* CPU K's APIC deadline at or after T, its due ones taken (sim_rr_late()'s MINE). */
static u64 rr_deadline_after(void *ctx, int k, u64 t)
{
	u64 d[M_MAX_CPUS];

	mrr_deadlines(ctx, t, k, d);
	return d[k];
}

/* How late CPU K takes its interrupt due at T, D the CPUs' APIC
 * deadlines as the round begins (sim_rr_late(), sim_smp.c). */
static u64 rr_late(struct machine *m, int k, u64 t, const u64 *d)
{
	int busy[M_MAX_CPUS];
	u64 others = ~0ULL;

	for (int c = 0; c < m->ncpus; c++) {
		busy[c] = c != k && !halted(c);
		if (c != k && d[c] < others)
			others = d[c];
	}
	return sim_rr_late(m->ncpus, busy, k, t, others, rr_deadline_after, m);
}

int mrr_ready(struct machine *m, int cpu, u64 t, const u64 *d)
{
	u64 late;

	if (m->ncpus == 1 || d[cpu] > t)
		return 1;		/* nothing due */
	if (m->rr_until[cpu])
		return t >= m->rr_until[cpu];
	late = rr_late(m, cpu, t, d);
	if (!late)
		return 1;
	m->rr_until[cpu] = t + late;
	return 0;
}

u64 mrr_next(struct machine *m, int cpu, const u64 *d)
{
	if (m->rr_until[cpu] > d[cpu])		/* waiting for its turn */
		return m->rr_until[cpu];
	return d[cpu];
}

void mrr_served(struct machine *m, u64 t)
{
	for (int cpu = 0; cpu < m->ncpus; cpu++)
		if (m->rr_until[cpu] <= t)
			m->rr_until[cpu] = 0;
}
