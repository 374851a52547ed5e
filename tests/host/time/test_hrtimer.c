/*
 * tests/host/time/test_hrtimer.c - kernel/time/hrtimer.c in high-resolution
 * mode on a fake clock: timers run in expiry order and the clock event is
 * programmed for the next one; and Linux's hang protection - a timer that is
 * due again every time the queue is run makes hrtimer_interrupt() give up
 * after three passes, push the next event as far away as the last pass took
 * (at most 100 ms) and say so once, instead of looping forever.  And the
 * clock event's ns -> counts scale (kernel/clockevent.h) against the
 * division it replaces.
 *
 * And each CPU's queue (2.6.35's per-CPU hrtimer_bases): a timer armed on
 * CPU 1 is queued on CPU 1's base and programs CPU 1's clock event, CPU 0's
 * interrupt does not run it, another CPU cancels it, and a timer re-armed
 * from another CPU while its callback runs stays on the base that runs it.
 *
 * The fake sched_clock() advances by clock_step ns at every read, standing
 * in for the time the interrupt handler itself takes.  Two host CPUs
 * (host_percpu_setup(2), host_cpu), the base locks taken (smp_key on) in
 * the per-CPU test only.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/clockevent.h>
#include <kernel/hrtimer.h>
#include <kernel/printk.h>
#include <kernel/smp_lock.h>
#include <kernel/tick.h>
#include <kernel/time.h>
#include "host_lib.h"

#define TICK_NS	1000000ull

unsigned int HZ = 1000;
u32 tick_nsec;		/* kernel/tick.c's; hrtimers_init() sets it */
static u64 now_ns = 1000, clock_step;
static u64 programmed;		/* last clockevent_program() delta */
static int nr_programs, nr_ticks, nr_ticks_secondary;
static int programmed_cpu;	/* whose clock event clockevent_program() set */
struct static_key smp_key;	/* off: one CPU, no base lock; the SMP test turns it on */

u64 sched_clock(void)
{
	u64 t = now_ns;

	now_ns += clock_step;
	return t;
}

int clockevent_can_oneshot(void) { return 1; }
void clockevent_set_oneshot(void) { }
void clockevent_program(u64 delta_ns)
{
	programmed = delta_ns;
	programmed_cpu = host_cpu;
	nr_programs++;
}
u64 clockevent_tick_ns(void) { return TICK_NS; }
void timer_tick(void) { nr_ticks++; }
void timer_tick_secondary(void) { nr_ticks_secondary++; }

static int order[8], nr_run;

static enum hrtimer_restart record(struct hrtimer *t)
{
	order[nr_run++] = (int)(t->expires / 1000);
	return HRTIMER_NORESTART;
}

/* Always due again: re-armed at the current time (a 0/1 ns interval). */
static int storm_runs;
static enum hrtimer_restart storm(struct hrtimer *t)
{
	storm_runs++;
	t->expires = sched_clock();
	return HRTIMER_RESTART;
}

static void setup_once(void)
{
	static int done;

	if (!done) {
		capture_register();
		host_percpu_setup(2);	/* before anything is queued: empty copies */
		hrtimers_init();	/* highres: the first tick at now + 1 ms */
		init_hrtimers_cpu();	/* CPU 0's tick queued */
		done = 1;
	}
}

static void test_expiry_order_and_program(void **state)
{
	struct hrtimer a, b, c;

	setup_once();
	clock_step = 0;
	hrtimer_init(&a, record);
	hrtimer_init(&b, record);
	hrtimer_init(&c, record);
	hrtimer_start(&c, now_ns + 30000);
	hrtimer_start(&a, now_ns + 10000);
	hrtimer_start(&b, now_ns + 20000);
	assert_int_equal(programmed, 10000);	/* the earliest */
	now_ns += 25000;
	nr_run = 0;
	hrtimer_interrupt();
	assert_int_equal(nr_run, 2);
	assert_true(order[0] < order[1]);
	assert_int_equal(programmed, 5000);	/* c, 5 us away */
	assert_true(hrtimer_is_queued(&c) && !hrtimer_is_queued(&a) && !hrtimer_is_queued(&b));
	hrtimer_cancel(&c);
}

static void test_storm_is_bounded(void **state)
{
	struct hrtimer s;

	setup_once();
	capture_reset();
	clock_step = 700;		/* every clock read costs 700 ns */
	hrtimer_init(&s, storm);
	storm_runs = 0;
	hrtimer_start(&s, now_ns);
	hrtimer_interrupt();		/* must return */
	assert_int_equal(storm_runs, 3);	/* one per pass, three passes */
	/* The next event is as far away as the last pass took. */
	assert_true(programmed > 0 && programmed < 100000000ull);
	assert_non_null(strstr(capture_text(), "hrtimer: interrupt took "));
	/* Said once only. */
	capture_reset();
	hrtimer_interrupt();
	assert_string_equal(capture_text(), "");
	hrtimer_cancel(&s);
}

static void test_hang_backoff_capped_at_100ms(void **state)
{
	struct hrtimer s;

	setup_once();
	clock_step = 60000000;		/* 60 ms per clock read: a pass takes > 100 ms */
	hrtimer_init(&s, storm);
	hrtimer_start(&s, now_ns);
	hrtimer_interrupt();
	assert_int_equal(programmed, 100000000ull);
	hrtimer_cancel(&s);
	clock_step = 0;
}

static struct hrtimer *rearm_from_cpu0;	/* set: the callback re-arms it from CPU 0 */
static int running_on;

static enum hrtimer_restart where(struct hrtimer *t)
{
	running_on = host_cpu;
	if (rearm_from_cpu0) {
		int cpu = host_cpu;
		host_cpu = 0;	/* "another CPU" starts it while the callback runs */
		hrtimer_start(rearm_from_cpu0, now_ns + 50000);
		host_cpu = cpu;
	}
	return HRTIMER_NORESTART;
}

static void test_per_cpu_bases(void **state)
{
	struct hrtimer a;

	setup_once();
	smp_key.enabled = 1;
	clock_step = 0;
	host_cpu = 1;
	init_hrtimers_cpu();	/* CPU 1's tick: a quarter period after CPU 0's */
	assert_int_equal(programmed_cpu, 1);
	hrtimer_init(&a, where);
	hrtimer_start(&a, now_ns + 7000);	/* armed on CPU 1: CPU 1's queue and device */
	assert_int_equal(programmed, 7000);
	assert_int_equal(programmed_cpu, 1);

	host_cpu = 0;
	now_ns += 10000;
	running_on = -1;
	hrtimer_interrupt();		/* CPU 0's queue: not A */
	assert_int_equal(running_on, -1);
	assert_true(hrtimer_is_queued(&a));
	host_cpu = 1;
	hrtimer_interrupt();		/* CPU 1's: A, once */
	assert_int_equal(running_on, 1);
	assert_false(hrtimer_is_queued(&a));

	/* Armed again on CPU 1, cancelled from CPU 0 (lock_hrtimer_base). */
	hrtimer_start(&a, now_ns + 7000);
	host_cpu = 0;
	assert_int_equal(hrtimer_try_to_cancel(&a), 1);
	assert_int_equal(hrtimer_cancel(&a), 0);

	/* Re-armed from CPU 0 while its callback runs on CPU 1: it stays on
	 * CPU 1 (switch_hrtimer_base()), and CPU 1 programs itself for it. */
	host_cpu = 1;
	hrtimer_start(&a, now_ns + 1000);
	rearm_from_cpu0 = &a;
	now_ns += 2000;
	nr_programs = 0;
	hrtimer_interrupt();
	rearm_from_cpu0 = NULL;
	assert_true(hrtimer_is_queued(&a));
	assert_false(hrtimer_callback_running(&a));
	host_cpu = 0;
	running_on = -1;
	now_ns += 60000;
	hrtimer_interrupt();		/* CPU 0 runs its tick, not A */
	assert_int_equal(running_on, -1);
	host_cpu = 1;
	hrtimer_interrupt();
	assert_int_equal(running_on, 1);
	host_cpu = 0;
	smp_key.enabled = 0;
}

/* The clock event's ns -> counts scale against the exact division: equal for
 * a device with whole counts per ns, at most one count short otherwise. */
static void test_clockevent_scale(void **state)
{
	static const u64 rates[] = { 1000000, 2000000, 999983, 62500, 1333333, 3999999999ull / 1000 };
	static const u64 deltas[] = { 0, 1, 999, 1000, 123457, 1000000, 999999999, 1073741823,
				      0xffffffffull, 0x100000000ull, 0x123456789ull };

	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		struct clockevent_scale sc = clockevent_calc_mult_shift(rates[i]);
		int whole = rates[i] % 1000000 == 0;

		assert_true(sc.shift <= 32 && sc.mult > 0);
		for (unsigned j = 0; j < sizeof(deltas) / sizeof(deltas[0]); j++) {
			u64 exact = deltas[j] * rates[i] / 1000000;
			u64 got = clockevent_ns_to_counts(sc, deltas[j]);

			/* one count short at most below 2^shift ns; beyond (the
			 * 64-bit path), the error grows with the delta */
			u64 slack = whole ? 0 : 1 + (deltas[j] >> sc.shift);

			assert_true(got <= exact && exact - got <= slack);
			assert_true(got == mul_u64_u32_shr(deltas[j], sc.mult, sc.shift));
		}
	}
	struct clockevent_scale qemu = clockevent_calc_mult_shift(1000000);	/* 1 GHz */
	assert_int_equal(qemu.shift, 31);
	assert_int_equal(qemu.mult, 1u << 31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clockevent_scale),
		cmocka_unit_test(test_expiry_order_and_program),
		cmocka_unit_test(test_storm_is_bounded),
		cmocka_unit_test(test_hang_backoff_capped_at_100ms),
		cmocka_unit_test(test_per_cpu_bases),
	};

	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	host_percpu_teardown();
	return failed;
}
