/*
 * tests/host/sched/test_sim_smp.c - the simulator at several CPUs
 * (sim_smp.c) driving the real scheduler, its balancer and stoppers:
 *   - four hogs forked pinned on CPU 0 and then let go, at two CPUs (one
 *     MC domain): the idle CPU 1's periodic balance pulls two within the
 *     first ticks, and they stay two and two (2.6.35: 4096 against 0,
 *     imbalance 2048);
 *   - each CPU's time is accounted exactly: the tasks' CPU times equal
 *     task_sched_runtime(), and with the idle time they make N CPUs'
 *     worth of the elapsed time;
 *   - a mixed load of hogs, sleepers and forkers at four CPUs for 2 s
 *     breaks no invariant on any CPU (checked after every step) and
 *     keeps every CPU busy;
 *   - the same run twice gives the same schedule (one thread, ordered);
 *   - each CPU ticks on CPU 0's grid plus cpu * (tick / 2) / N, as the
 *     image's tick_setup_sched_timer() staggers them, and jiffies counts
 *     CPU 0's ticks alone;
 *   - a sleeper's timer fires on the CPU it slept on: its wakeup there is
 *     local, no reschedule IPI;
 *   - QEMU's round robin: cyclictest -i 1500 on idle CPU 1 beside a
 *     spinner on CPU 0 wakes 401 and 151 us late in turn, as on the image.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "fake.h"
#include "sim.h"
#include "smp_fake.h"
#include "../../../kernel/sched/sched.h"
#include "../../../kernel/sched/topology.h"
#include <kernel/topology.h>

#define MSEC		1000000ULL

static struct sim sim;
static struct sim_task storage[96];
static int ncpus;

/* N CPUs booted as the image at -smp N (tools/sim's cpus.c does the same). */
static void boot(int n)
{
	ncpus = n;
	smp_fake_cpus(n);
	host_cores_per_package = (unsigned int)n;	/* QEMU's -smp N: one package */
	sched_init_smp();
	static_key_set(&sched_up_key, false);
	sim_init(&sim, storage, 96, 1);
	sim_smp_init(&sim, n);
}

static int teardown(void **state)
{
	for (int cpu = ncpus - 1; cpu >= 0; cpu--) {
		on_cpu(cpu);
		capture_reset();
		if (sched_verify())
			fail_msg("CPU %d: %s", cpu, capture_buf);
	}
	on_cpu(0);
	static_key_set(&sched_up_key, true);
	detach_sched_domains(cpu_online_mask);
	host_cores_per_package = 0;
	return sched_test_teardown(state);
}

/* N hogs forked on CPU 0 with its affinity, then allowed every CPU. */
static void hogs_on_cpu0(struct sim_task **h, int n)
{
	sim.spawn_mask = cpumask_of_cpu(0);
	for (int i = 0; i < n; i++)
		h[i] = sim_spawn(&sim, SIM_HOG, "hog", 0, 0, 0);
	sim.spawn_mask = *cpu_online_mask;
	for (int i = 0; i < n; i++) {
		assert_int_equal(task_cpu(&h[i]->t), 0);
		h[i]->t.cpus_allowed = *cpu_online_mask;
	}
}

static int on(struct sim_task **h, int n, int cpu)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += (int)task_cpu(&h[i]->t) == cpu;
	return k;
}

static u64 cpu_time(void)
{
	u64 sum = sim.idle_ns;

	for (int i = 0; i < sim.max; i++)
		if (storage[i].used && !storage[i].dead)
			sum += storage[i].cpu_ns;
	return sum;
}

static void test_idle_cpu_pulls_half(void **state)
{
	struct sim_task *h[4];

	(void)state;
	boot(2);
	hogs_on_cpu0(h, 4);
	sim_run(&sim, 5 * MSEC);
	assert_int_equal(on(h, 4, 0), 2);
	assert_int_equal(on(h, 4, 1), 2);
	assert_int_equal(cpu_rq(0)->sd->lb_gained[CPU_IDLE] + cpu_rq(1)->sd->lb_gained[CPU_IDLE], 2);
	sim_run(&sim, 500 * MSEC);
	assert_int_equal(on(h, 4, 1), 2);	/* balanced: nothing moves again */
	for (int i = 0; i < 4; i++)
		assert_true(h[i]->cpu_ns > 200 * MSEC);
	assert_int_equal(sim_check_runtimes(&sim), 0);
	assert_int_equal(cpu_time(), 2 * sim_elapsed(&sim));
	/* CPU 1 until its first balance: its tick 2, at 2 ms + 0.25 ms, taken
	 * at its turn in QEMU's round robin, after CPU 0 has run half the time
	 * to its tick at 3 ms */
	assert_int_equal(sim.idle_ns, 2 * MSEC + MSEC / 4 + (3 * MSEC - (2 * MSEC + MSEC / 4)) / 2);
}

/* Each tick's instant and CPU, and jiffies after it (the observer). */
static u64 tick_at[64];
static int tick_cpu[64], nticks;
static unsigned long tick_jiffies[64];

static void note_tick(struct sim *s, int cpu, enum sim_event ev, int after)
{
	if (ev != SIM_EV_TICK || !after || nticks == 64)
		return;
	tick_at[nticks] = sim_elapsed(s);
	tick_cpu[nticks] = cpu;
	tick_jiffies[nticks++] = (unsigned long)jiffies;
}

static void test_ticks_staggered(void **state)
{
	unsigned long j0;
	u64 step = sim.tick_ns / 2 / 4;		/* 125 us at HZ=1000 */

	(void)state;
	boot(4);
	nticks = 0;
	j0 = (unsigned long)jiffies;
	sim.on_event = note_tick;
	sim_run(&sim, 3 * sim.tick_ns);
	assert_int_equal(nticks, 4 * 3 - 1);	/* CPU 0's third is at the end */
	for (int k = 0; k < nticks; k++) {
		int cpu = (k + 1) % 4;			/* CPU 1 first, at 125 us */

		assert_int_equal(tick_cpu[k], cpu);
		assert_int_equal(tick_at[k], (u64)((k + 1) / 4) * sim.tick_ns + (u64)cpu * step);
		assert_int_equal(tick_jiffies[k], j0 + (k + 1) / 4);	/* do_timer(): CPU 0's */
	}
	sim.on_event = NULL;
}

static void test_sleeper_wakes_on_its_cpu(void **state)
{
	struct sim_task *hog, *sl;
	unsigned long ipis;

	(void)state;
	boot(2);
	sim.spawn_mask = cpumask_of_cpu(0);
	hog = sim_spawn(&sim, SIM_HOG, "hog", 0, 0, 0);
	sim.spawn_mask = cpumask_of_cpu(1);
	sl = sim_spawn(&sim, SIM_SLEEPER, "sl", 0, 1 * MSEC, 3 * MSEC);
	sim.spawn_mask = *cpu_online_mask;
	sl->t.cpus_allowed = *cpu_online_mask;
	sim_run(&sim, 1);
	ipis = sim.ipis;			/* the forks' */
	sim_run(&sim, 20 * MSEC);
	assert_int_equal(task_cpu(&hog->t), 0);
	assert_int_equal(task_cpu(&sl->t), 1);
	assert_true(sl->nr_wake_latency >= 4);
	/* CPU 1 idle, its expiries on CPU 0's ticks (every 4 ms): CPU 0's
	 * interrupt is due as well, and QEMU's round has no time to share */
	assert_int_equal(sl->max_wake_latency, 0);
	assert_int_equal(sim.ipis, ipis);	/* CPU 1's own timer: a local wakeup */
}

/*
 * QEMU's round robin (docs/SCHEDULER.md, "Why a halted CPU beside a busy
 * one wakes late"): cyclictest -i 1500 on CPU 1 beside a spinner on CPU 0,
 * HZ=1000, its expiries 198 us past one of CPU 0's ticks and so 698 past
 * the next: each is taken when CPU 0 has run half the time to its next
 * tick, (1000 - 198) / 2 = 401 and (500 - 198) / 2 = 151 us late, in turn,
 * as on the image at -smp 2.
 */
static void test_halted_cpu_beside_busy_one_wakes_at_its_turn(void **state)
{
	struct sim_task *hog, *ct;
	u64 tick0 = 0;

	(void)state;
	boot(2);
	sim.spawn_mask = cpumask_of_cpu(0);
	hog = sim_spawn(&sim, SIM_HOG, "spin", 0, 0, 0);
	sim.spawn_mask = cpumask_of_cpu(1);
	ct = sim_spawn(&sim, SIM_SLEEPER, "cyclictest", 0, 2000, 0);
	sim.spawn_mask = *cpu_online_mask;
	ct->period_ns = 1500000;
	ct->next_expiry = sim.next_tick + 198000 - ct->period_ns;	/* 198 us past a tick */
	tick0 = sim.next_tick;
	sim_run(&sim, tick0 - fake_clock_ns);
	for (int i = 0; i < 8; i++) {
		u64 lat = i % 2 ? 151000 : 401000;

		ct->max_wake_latency = 0;
		sim_run(&sim, 1500000);
		assert_int_equal(task_cpu(&hog->t), 0);
		assert_int_equal(task_cpu(&ct->t), 1);
		assert_int_equal(ct->max_wake_latency, lat);
	}
	(void)tick0;
}

/* hogs, sleepers, forkers at four CPUs: the first 2 s, twice */
static unsigned long mixed_run(u64 *idle)
{
	static const enum sim_kind kinds[] = { SIM_HOG, SIM_SLEEPER, SIM_HOG, SIM_FORKER,
					       SIM_SLEEPER, SIM_HOG };

	boot(4);
	for (unsigned int i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct sim_task *t = sim_spawn(&sim, kinds[i], "mix", (int)i - 2,
					       (1 + i) * MSEC, (3 + 2 * i) * MSEC);

		if (kinds[i] == SIM_FORKER)
			t->child_run_ns = 2 * MSEC;
	}
	sim_run(&sim, 2000 * MSEC);
	assert_int_equal(sim_check_runtimes(&sim), 0);
	*idle = sim.idle_ns;
	return (unsigned long)sim.events;
}

static void test_mixed_load_four_cpus(void **state)
{
	u64 idle1, idle2;
	unsigned long events1, events2;

	events1 = mixed_run(&idle1);
	assert_true(idle1 < 4 * 2000 * MSEC / 10);	/* under a tenth idle */
	teardown(state);
	sched_test_setup(state);
	events2 = mixed_run(&idle2);
	assert_int_equal(events1, events2);
	assert_int_equal(idle1, idle2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_idle_cpu_pulls_half, sched_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_mixed_load_four_cpus, sched_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_ticks_staggered, sched_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_sleeper_wakes_on_its_cpu, sched_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_halted_cpu_beside_busy_one_wakes_at_its_turn,
						sched_test_setup, teardown),
	};

	return SMP_RUN_TESTS(tests);
}
