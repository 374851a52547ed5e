/*
 * tests/host/sched/test_sim.c - whole-system properties with the
 * simulator (sim.h) driving the real scheduler:
 *   - N equal CPU hogs each get 1/N of 10 s within 1% (per preset, HZ);
 *   - nice 0 vs 1 and 0 vs 5 split 55.5/44.5 and 75.3/24.7 within 1%;
 *   - a light sleeper gets all the CPU it asks for next to hogs;
 *   - START_DEBIT delays a fork's first run under load, NO_START_DEBIT
 *     does not (the [LWN]/[SN] observation);
 *   - 1000 seeded random workloads (1 s each) (forks, sleeps, wakeups, nice and
 *     policy changes, yields, exits, feature and knob writes) never break an
 *     invariant, never switch to a dead or unqueued task, never idle with
 *     work queued, and account exactly the CPU time the simulator gave.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "sim.h"
#include "../../../kernel/sched/sched.h"

#define SEC		1000000000ULL
#define MSEC		1000000ULL

static struct sim sim;
static struct sim_task storage[96];

static int teardown(void **state)
{
	assert_int_equal(sched_verify_failures, 0);
	assert_int_equal(switches.bad, 0);
	return 0;
}

static void run_hogs(const char *preset, unsigned int hz, int n)
{
	struct sim_task *h[16];
	double share = 1.0 / n;

	sched_test_reset();
	knob_set_ok("sched_preset", preset);
	HZ = hz;
	sim_init(&sim, storage, 96, 1);
	for (int i = 0; i < n; i++)
		h[i] = sim_spawn(&sim, SIM_HOG, "hog", 0, 0, 0);
	sim_run(&sim, 10 * SEC);
	assert_int_equal(sim_elapsed(&sim), 10 * SEC);
	assert_int_equal(sim.idle_ns, 0);
	for (int i = 0; i < n; i++) {
		double got = (double)h[i]->cpu_ns / (double)sim_elapsed(&sim);

		if (got < share * 0.99 || got > share * 1.01)
			fail_msg("%s HZ=%u n=%d: hog %d got %.4f, share %.4f",
				 preset, hz, n, i, got, share);
	}
	assert_int_equal(sim_check_runtimes(&sim), 0);
}

static void test_equal_hogs_0bf(void **state)
{
	static const int ns[] = { 1, 2, 3, 5, 8, 9, 12 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		run_hogs("commit-0bf377bbb0be", 1000, ns[i]);
}

static void test_equal_hogs_2635(void **state)
{
	static const int ns[] = { 2, 3, 4, 7, 12 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		run_hogs("linux-2.6.35", 1000, ns[i]);
}

static void test_equal_hogs_hz250(void **state)
{
	run_hogs("commit-0bf377bbb0be", 250, 3);
	run_hogs("linux-2.6.35", 250, 10);
	run_hogs("commit-0bf377bbb0be", 100, 6);
}

/* Two hogs of nice 0 and NICE: nice 0 gets 1024 / (1024 + w). */
static void run_nice_pair(const char *preset, int nice, double expect)
{
	struct sim_task *a, *b;
	double got;

	sched_test_reset();
	knob_set_ok("sched_preset", preset);
	sim_init(&sim, storage, 96, 7);
	a = sim_spawn(&sim, SIM_HOG, "nice0", 0, 0, 0);
	b = sim_spawn(&sim, SIM_HOG, "niced", nice, 0, 0);
	sim_run(&sim, 10 * SEC);
	got = (double)a->cpu_ns / (double)sim_elapsed(&sim);
	if (got < expect - 0.01 || got > expect + 0.01)
		fail_msg("%s nice 0 vs %d: %.4f, expected %.4f", preset, nice, got, expect);
	assert_int_equal(a->cpu_ns + b->cpu_ns, sim_elapsed(&sim));
	assert_int_equal(sim_check_runtimes(&sim), 0);
}

static void test_nice_0_vs_1(void **state)
{
	run_nice_pair("commit-0bf377bbb0be", 1, 1024.0 / 1844);	/* 55.5% */
	run_nice_pair("linux-2.6.35", 1, 1024.0 / 1844);
}

static void test_nice_0_vs_5(void **state)
{
	run_nice_pair("commit-0bf377bbb0be", 5, 1024.0 / 1359);	/* 75.3% */
	run_nice_pair("linux-2.6.35", 5, 1024.0 / 1359);
}

/* A sleeper wanting 10% gets it in full next to 3 hogs, with short waits. */
static void test_sleeper_gets_its_demand(void **state)
{
	struct sim_task *s;

	sim_init(&sim, storage, 96, 3);
	for (int i = 0; i < 3; i++)
		sim_spawn(&sim, SIM_HOG, "hog", 0, 0, 0);
	s = sim_spawn(&sim, SIM_SLEEPER, "sleeper", 0, 1 * MSEC, 9 * MSEC);
	sim_run(&sim, 5 * SEC);
	/* ~1 ms per 10 ms + waits: at least 8% of the time */
	assert_true(s->cpu_ns > sim_elapsed(&sim) * 8 / 100);
	assert_true(s->nr_wake_latency > 300);
	/* the sleeper credit lets it in before the hogs: about a tick */
	assert_true(s->max_wake_latency <= 2 * MSEC);
	assert_int_equal(sim_check_runtimes(&sim), 0);
}

/*
 * Fork -> first run latency under 10 hogs of a SIGEV_THREAD-like forker:
 * it wakes every 10 ms, forks a thread doing 0.1 ms of work, sleeps.
 * Returns the mean; *max gets the maximum.
 */
static double fork_latency(const char *preset, const char *features, u64 *max)
{
	struct sim_task *f;

	sched_test_reset();
	knob_set_ok("sched_preset", preset);
	if (features)
		knob_set_ok("sched_features", features);
	sim_init(&sim, storage, 96, 11);
	for (int i = 0; i < 10; i++)
		sim_spawn(&sim, SIM_HOG, "hog", 0, 0, 0);
	f = sim_spawn(&sim, SIM_FORKER, "forker", 0, 50000, 10 * MSEC);
	f->child_run_ns = 100000;	/* 0.1 ms of work, then exit */
	sim.max_live = 90;
	sim_run(&sim, 3 * SEC);
	assert_true(sim.child_lat_n > 250);
	*max = sim.child_lat_max;
	return (double)sim.child_lat_sum / (double)sim.child_lat_n;
}

/*
 * START_DEBIT puts a fork one vslice after min_vruntime, behind the hogs;
 * without it the child starts at max(parent, min_vruntime) = min_vruntime
 * (the woken forker is behind min_vruntime) and only waits for the hogs
 * tied at min_vruntime.  The debit costs more with 2.6.35's 2 ms vslice.
 */
static void test_fork_latency_start_debit(void **state)
{
	u64 max_d, max_n, max_d35, max_n35;
	double d = fork_latency("commit-0bf377bbb0be", NULL, &max_d);
	double n = fork_latency("no-start-debit", NULL, &max_n);
	double d35 = fork_latency("linux-2.6.35", NULL, &max_d35);
	double n35 = fork_latency("linux-2.6.35", "NO_START_DEBIT", &max_n35);

	print_message("fork->first run under 10 hogs, mean/max ms: 0bf %.2f/%.2f, "
		      "0bf NO_START_DEBIT %.2f/%.2f, 2.6.35 %.2f/%.2f, "
		      "2.6.35 NO_START_DEBIT %.2f/%.2f\n",
		      d / 1e6, max_d / 1e6, n / 1e6, max_n / 1e6,
		      d35 / 1e6, max_d35 / 1e6, n35 / 1e6, max_n35 / 1e6);
	assert_true(d > 1.5 * n);
	assert_true(d35 > 2 * n35);
	assert_true(d35 > d);
}

/* ---- random workloads ------------------------------------------------------------- */

static const char *const presets[] = {
	"linux-2.6.35", "commit-0bf377bbb0be", "no-start-debit", "dyn-gran",
	"dyn-gran-sleeper", "start-nice", "start-nice-debit", "deadline", "cpt-fix",
};
static const unsigned int hzs[] = { 100, 250, 300, 1000 };

static void random_workload(u32 seed)
{
	int n;

	sched_test_reset();
	sim_init(&sim, storage, 48, seed);
	knob_set_ok("sched_preset", presets[sim_rand(&sim) % 9]);
	HZ = hzs[sim_rand(&sim) % 4];
	sim_init(&sim, storage, 48, seed);	/* again, with the new HZ */
	sim.random = 1;
	sim.max_live = 40;
	fake_hrtick.available = (int)(sim_rand(&sim) % 2);
	n = 1 + (int)(sim_rand(&sim) % 12);
	for (int i = 0; i < n; i++)
		sim_spawn(&sim, (enum sim_kind)(sim_rand(&sim) % 3 ? SIM_RANDOM :
				sim_rand(&sim) % 2 ? SIM_HOG : SIM_SLEEPER), "w",
			  (int)(sim_rand(&sim) % 40) - 20,
			  1 + sim_rand(&sim) % 5000000, 1 + sim_rand(&sim) % 20000000);
	sim_run(&sim, 1 * SEC);

	if (sched_verify_failures || switches.bad || sim_check_runtimes(&sim))
		fail_msg("seed %u: %lu invariant violations, %lu bad switches",
			 seed, sched_verify_failures, switches.bad);
	/* every nanosecond went to exactly one task or idle */
	{
		u64 total = sim.idle_ns;

		for (int i = 0; i < 48; i++)
			total += storage[i].used && !storage[i].dead ? storage[i].cpu_ns : 0;
		assert_true(total <= sim_elapsed(&sim));
	}
}

static void test_random_workloads(void **state)
{
	unsigned long forks = 0, exits = 0, events = 0;

	for (u32 seed = 1; seed <= 1000; seed++) {
		random_workload(seed);
		forks += sim.forks;
		exits += sim.exits;
		events += sim.events;
	}
	print_message("1000 random workloads: %lu events, %lu forks, %lu exits\n",
		      events, forks, exits);
	assert_true(forks > 3000 && exits > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, teardown)
		T(test_equal_hogs_0bf),
		T(test_equal_hogs_2635),
		T(test_equal_hogs_hz250),
		T(test_nice_0_vs_1),
		T(test_nice_0_vs_5),
		T(test_sleeper_gets_its_demand),
		T(test_fork_latency_start_debit),
		T(test_random_workloads),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
