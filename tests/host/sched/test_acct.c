/*
 * tests/host/sched/test_acct.c - the scheduler's accounting arithmetic,
 * on the unchanged kernel/sched/loadavg.c and cputime.c:
 *   - the load average (2.6.35's calc_load) fed a known run-queue history,
 *     against fixed-point values worked out by hand below;
 *   - the tick's split of CPU time (account_process_tick) into user, nice,
 *     system and idle, and task_times()'s scaling of the exact runtime by
 *     the sampled ticks (sum = sum_exec_runtime, monotonic);
 *   - the clock_t conversion and the 96-bit mul_u64_u32_div.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "../../../kernel/sched/sched.h"
#include <kernel/kernel_stat.h>
#include <kernel/loadavg.h>
#include <kernel/math64.h>

#define RQ	this_rq()
#define CPUSTAT	(kstat_this_cpu.cpustat)

/* kernel/tick.c's timer_tick() on the fake clock: do_timer (jiffies, the
 * load average) then update_process_times (the tick's sample, the
 * scheduler's tick), then the irq-exit preemption. */
static void acct_tick(int user_tick)
{
	fake_clock_advance(1000000000ULL / HZ);
	jiffies++;
	calc_global_load();
	account_process_tick(current, user_tick);
	scheduler_tick();
	if (current->need_resched)
		preempt_schedule_irq();
}

static void acct_ticks(int n, int user_tick)
{
	while (n-- > 0)
		acct_tick(user_tick);
}

static void reset_acct(void)
{
	memset(&kstat, 0, sizeof(kstat));	/* CPU 0's: the host tests' one CPU */
}

/*
 * One CPU hog from boot.  The first fold is at jiffies LOAD_FREQ = 5001
 * (HZ=1000), the first average 10 ticks later, then every 5001 ticks.
 * By hand, active = 1 * FIXED_1 = 2048, load' = (load * EXP + 2048 *
 * (2048 - EXP)) >> 11:
 *   EXP_1 = 1884:  0 -> 164 -> 314 -> 452 -> 579
 *     (164*1884 + 335872 = 644848, >> 11 = 314; 314*1884 + 335872 =
 *      927448 -> 452; 452*1884 + 335872 = 1187440 -> 579)
 *   EXP_5 = 2014:  0 -> 34 -> 67		(34*2014 + 69632 = 138108 -> 67)
 *   EXP_15 = 2037: 0 -> 11 -> 21		(11*2037 + 22528 = 44935 -> 21)
 * 579 / 2048 = 0.2827, printed "0.28": 1 - (1884/2048)^4 = 0.2839.
 */
static void test_loadavg_one_hog(void **state)
{
	static const u32 one[] = { 164, 314, 452, 579 };

	assert_int_equal(LOAD_FREQ, 5001);
	spawn("hog", 0);
	acct_ticks(5000 + 10, 1);		/* jiffies 5010: folded, not averaged */
	assert_int_equal(avenrun[0], 0);
	acct_tick(1);				/* jiffies 5011 */
	assert_int_equal(avenrun[0], one[0]);
	assert_int_equal(avenrun[1], 34);
	assert_int_equal(avenrun[2], 11);
	for (int k = 1; k < 4; k++) {
		acct_ticks(5000, 1);
		assert_int_equal(avenrun[0], one[k - 1]);	/* one tick early */
		acct_tick(1);
		assert_int_equal(avenrun[0], one[k]);
		if (k == 1) {
			assert_int_equal(avenrun[1], 67);
			assert_int_equal(avenrun[2], 21);
		}
	}
	/* /proc/loadavg's rounding: (579 + 2048/200) = 589 -> 0.28 */
	u32 a[3];
	get_avenrun(a, FIXED_1 / 200, 0);
	assert_int_equal(LOAD_INT(a[0]), 0);
	assert_int_equal(LOAD_FRAC(a[0]), 28);
	/* sysinfo's loads[] have 16 fraction bits */
	get_avenrun(a, 0, SI_LOAD_SHIFT - FSHIFT);
	assert_int_equal(a[0], 579 << 5);
}

/*
 * The fold samples the run queue at jiffies 5001; what happens between the
 * fold and the average (here: both hogs sleep) is not seen until the next
 * fold.  Active counts tasks in uninterruptible sleep too.  History:
 *   jiffies 0-5001: 2 hogs + 1 task in TASK_UNINTERRUPTIBLE -> active 3
 *   jiffies 5005:   everything sleeps interruptibly          -> active 0
 *   average at 5011 (active 3): 0 -> (3*2048*164) >> 11 = 492
 *   average at 10012 (active 0): 492*1884 >> 11 = 452 (452.6)
 *   average at 15013: 452*1884 >> 11 = 415 (415.8)
 */
static void test_loadavg_history(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0), *d = spawn("d", 0);

	acct_tick(1);			/* one of them runs */
	while (current != d)
		acct_tick(1);
	block_current(TASK_UNINTERRUPTIBLE);
	assert_int_equal(RQ->nr_running, 2);
	assert_int_equal(RQ->nr_uninterruptible, 1);
	while (jiffies < 5004)
		acct_tick(1);
	assert_int_equal(RQ->calc_load_active, 3);	/* folded at 5001 */
	/* jiffies 5005: the hogs sleep, interruptibly, and so does d (woken
	 * and put back to sleep interruptibly) */
	try_to_wake_up(d, TASK_UNINTERRUPTIBLE, 0);
	while (RQ->nr_running) {
		block_current(TASK_INTERRUPTIBLE);
	}
	assert_int_equal(RQ->nr_uninterruptible, 0);
	while (jiffies < 5011)
		acct_tick(0);
	assert_int_equal(avenrun[0], 492);
	while (jiffies < 10012)
		acct_tick(0);
	assert_int_equal(avenrun[0], 452);
	while (jiffies < 15013)
		acct_tick(0);
	assert_int_equal(avenrun[0], 415);
	(void)a;
	(void)b;
}

/* calc_load() itself: the fixed points of the recurrence, rising and falling. */
static void test_calc_load_steps(void **state)
{
	u32 load = 0;

	/* a constant load of 1 stops short (truncation): at 2048 - d the step
	 * is floor(2048 - 1884 d / 2048), which stays put once d * 164 < 2048,
	 * d = 12: 2036, printed 0.99 */
	for (int i = 0; i < 200; i++)
		load = calc_load(load, EXP_1, FIXED_1);
	assert_int_equal(load, FIXED_1 - 12);
	assert_int_equal(LOAD_FRAC(load + FIXED_1 / 200), 99);
	/* and an idle CPU takes it to 0 */
	for (int i = 0; i < 200; i++)
		load = calc_load(load, EXP_1, 0);
	assert_int_equal(load, 0);
	assert_int_equal(calc_load(FIXED_1, EXP_15, 2 * FIXED_1), (2048 * 2037 + 4096 * 11) >> 11);
}

/* The tick charges what it interrupts: user (nice 0), nice (nice > 0),
 * system (kernel mode), idle (the idle task). */
static void test_tick_split(void **state)
{
	struct task *p = spawn("p", 0), *n = spawn("n", 5);

	reset_acct();
	account_process_tick(p, 1);
	account_process_tick(p, 1);
	account_process_tick(p, 0);
	account_process_tick(n, 1);
	account_process_tick(n, 0);
	account_process_tick(RQ->idle, 0);
	assert_int_equal(p->utime, 2);
	assert_int_equal(p->stime, 1);
	assert_int_equal(n->utime, 1);
	assert_int_equal(n->stime, 1);
	assert_int_equal(CPUSTAT.user, 2);
	assert_int_equal(CPUSTAT.nice, 1);
	assert_int_equal(CPUSTAT.system, 2);
	assert_int_equal(CPUSTAT.idle, 1);
	assert_int_equal(CPUSTAT.irq + CPUSTAT.softirq + CPUSTAT.iowait + CPUSTAT.steal, 0);
	/* a negative nice is user time */
	set_user_nice(n, -3);
	account_process_tick(n, 1);
	assert_int_equal(CPUSTAT.user, 3);
}

/*
 * task_times(): the exact runtime in the ratio of the ticks.  10 ms with
 * 3 user : 1 system tick -> 7.5 ms + 2.5 ms; then 12 ms with 3 : 3 ->
 * 6 ms user would go down, so user stays 7.5 ms and system is 4.5 ms.
 */
static void test_task_times_scaling(void **state)
{
	struct task *p = spawn("p", 0);
	u64 ut, st;

	p->se.sum_exec_runtime = 10000000;
	task_times(p, &ut, &st);
	assert_true(ut == 10000000 && st == 0);		/* no tick yet: all user */
	p->prev_utime = p->prev_stime = 0;
	p->utime = 3;
	p->stime = 1;
	task_times(p, &ut, &st);
	assert_true(ut == 7500000 && st == 2500000);
	p->se.sum_exec_runtime = 12000000;
	p->stime = 3;
	task_times(p, &ut, &st);
	assert_true(ut == 7500000 && st == 4500000);
	/* far beyond 32 bits: 10^6 s of runtime, exact */
	u64 pu = 0, ps = 0;
	cputime_adjust(1000000ULL * NSEC_PER_SEC, 1, 2, &pu, &ps, &ut, &st);
	assert_true(ut == 333333333333333ULL && st == 666666666666667ULL);
}

/* A hog and a sleeper under the real tick: each one's utime + stime equals
 * its sum_exec_runtime, and the ticks' total is the elapsed time. */
static void test_sum_matches_runtime(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	u64 ut, st;

	reset_acct();
	for (int i = 0; i < 300; i++)
		acct_tick(i % 3 != 0);		/* one tick in three in the kernel */
	task_times(a, &ut, &st);
	assert_true(ut + st == task_sched_runtime(a));
	assert_true(a->utime + a->stime > 0 && a->stime > 0);
	task_times(b, &ut, &st);
	assert_true(ut + st == task_sched_runtime(b));
	assert_int_equal(CPUSTAT.user + CPUSTAT.system + CPUSTAT.idle, 300);
	assert_int_equal(CPUSTAT.idle, 1);	/* the first: the forks have not run yet */
	/* the tick's total is within a tick of the scheduler's */
	u64 sampled = cputime_to_nsecs(a->utime + a->stime + b->utime + b->stime);
	u64 exact = task_sched_runtime(a) + task_sched_runtime(b);
	assert_true(sampled + tick_nsec >= exact && exact + tick_nsec >= sampled);
}

/* clock_t at USER_HZ = 100 from ticks of tick_nsec ns; mul_u64_u32_div. */
static void test_conversions(void **state)
{
	tick_nsec = 1000000;				/* HZ=1000 */
	assert_int_equal(cputime_to_clock_t(250), 25);
	assert_int_equal(cputime_to_clock_t(259), 25);
	tick_nsec = 4000000;				/* HZ=250 */
	assert_int_equal(cputime_to_clock_t(250), 100);
	tick_nsec = 999847;				/* the PIT's 1000 HZ */
	assert_int_equal(cputime_to_clock_t(100000), 9998);
	tick_nsec = 1000000;
	for (u64 a = 1; a < (1ULL << 62); a = a * 7 + 3)
		for (u32 m = 1; m < 0xf0000000u; m = m * 13 + 1) {
			u32 d = m / 3 + 1;
			unsigned __int128 want = (unsigned __int128)a * m / d;
			if (want >> 64)
				continue;
			assert_true(mul_u64_u32_div(a, m, d) == (u64)want);
		}
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, sched_test_teardown)
	const struct CMUnitTest tests[] = {
		T(test_loadavg_one_hog),
		T(test_loadavg_history),
		T(test_calc_load_steps),
		T(test_tick_split),
		T(test_task_times_scaling),
		T(test_sum_matches_runtime),
		T(test_conversions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
