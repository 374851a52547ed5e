/*
 * kernel/time/tick_sched.c - the periodic tick emulated on each CPU's
 * hrtimer queue in high-resolution mode (Linux 2.6.35's
 * kernel/time/tick-sched.c without NO_HZ: tick_sched_timer() and
 * tick_setup_sched_timer()).
 *
 * Once a CPU's clock event is one-shot it no longer ticks by itself, so each
 * CPU queues a tick_sched_timer that re-arms itself every tick_period ns.
 * On tick_do_timer_cpu (the boot CPU, which never goes offline) it is the
 * whole tick, timer_tick(): do_timer() (jiffies, the load average) and
 * update_process_times(); on every other CPU only the latter,
 * timer_tick_secondary().
 *
 * Where each CPU's tick falls: 2.6.35 starts every CPU's tick on the jiffy
 * grid (tick_init_jiffy_update(), the time of the last jiffy) plus an
 * offset of cpu * (tick_period / 2) / num_possible_cpus(), so that the
 * CPUs' ticks spread over the first half of each period instead of all
 * contending for xtime_lock at once.  The same here: at 2 possible CPUs
 * CPU 1 ticks a quarter period after CPU 0; at 4, the ticks are an eighth
 * of a period apart.  (Linux 3.2 dropped the offset and 3.4 brought it back
 * behind the skew_tick= boot option.)  An AP's first tick is then pushed
 * forward past now by whole periods (hrtimer_forward()); the boot CPU's is
 * the one hrtimers_init() set, and the ticks missed while interrupts were
 * still off at boot all run, each a jiffy, as tick_do_update_jiffies64()
 * counts every period that passed.
 */
#include <kernel/cpumask.h>
#include <kernel/hrtimer.h>
#include <kernel/math64.h>
#include <kernel/percpu.h>
#include <kernel/smp.h>
#include <kernel/tick.h>
#include <kernel/time.h>
#include "tick_sched.h"

struct tick_sched {
	struct hrtimer sched_timer;
};

static DEFINE_PER_CPU(struct tick_sched, tick_cpu_sched);
int tick_do_timer_cpu;			/* CPU 0: 2.6.35's first CPU to set up a tick */
static u64 tick_period;			/* ns */
static u64 tick_first;			/* the boot CPU's first tick: the grid's origin */

static enum hrtimer_restart tick_sched_timer(struct hrtimer *t)
{
	t->expires += tick_period;
	if (smp_processor_id() == tick_do_timer_cpu)
		timer_tick();
	else
		timer_tick_secondary();
	return HRTIMER_RESTART;
}

int tick_sched_timer_is(const struct hrtimer *t)
{
	return t->function == tick_sched_timer;
}

void tick_sched_init(u64 period_ns, u64 first_ns)
{
	tick_period = period_ns;
	tick_first = first_ns;
}

void tick_setup_sched_timer(void)
{
	struct hrtimer *t = &this_cpu_ptr(&tick_cpu_sched)->sched_timer;
	int cpu = smp_processor_id();

	hrtimer_init(t, tick_sched_timer);
	t->expires = tick_first;
	if (cpu != tick_do_timer_cpu) {
		/* offset = cpu * (tick_period / 2) / num_possible_cpus() */
		t->expires += div_u64(tick_period >> 1, num_possible_cpus()) * cpu;
		hrtimer_forward(t, sched_clock(), tick_period);
	}
	hrtimer_start(t, t->expires);
}
