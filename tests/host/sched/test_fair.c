/*
 * tests/host/sched/test_fair.c - the fair class's formulas and placement,
 * against Linux 2.6.35 (prio_to_weight, kernel/sched_fair.c) and the
 * period/slice table of docs/DEBATE.md:
 *   weight tables, calc_delta_mine (exact 2.6.35 fixed-point results),
 *   __sched_period / sched_slice for n = 1..12 per preset, START_DEBIT and
 *   NO_START_DEBIT fork placement, the sleeper credit (GENTLE and not),
 *   min_vruntime monotonicity across the 2^64 wrap, set_user_nice,
 *   task_sched_runtime, exit, and the debug dump / invariant checker.
 * Preemption, buddies, the tick and yield are in test_preempt.c.
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

#define RQ	this_rq()
#define CFS	(&this_rq()->cfs)

/* The absolute vruntime a not-yet-queued forked child will have. */
static u64 child_abs_vruntime(struct task *c)
{
	return c->se.vruntime + CFS->min_vruntime;
}

/* ---- (b) weight tables ---------------------------------------------------- */

static void test_prio_tables(void **state)
{
	assert_int_equal(prio_to_weight[20], 1024);		/* nice 0 */
	assert_int_equal(prio_to_wmult[20], 4194304);
	assert_int_equal(prio_to_weight[0], 88761);		/* nice -20 */
	assert_int_equal(prio_to_wmult[0], 48388);
	assert_int_equal(prio_to_weight[39], 15);		/* nice 19 */
	assert_int_equal(prio_to_wmult[39], 286331153);
	assert_int_equal(prio_to_weight[21], 820);
	assert_int_equal(prio_to_weight[25], 335);
	for (int i = 0; i < 40; i++) {
		/* wmult = 2^32 / weight, to within the rounding of the table */
		u64 prod = (u64)prio_to_weight[i] * prio_to_wmult[i];

		assert_true(prod <= (1ULL << 32) + prio_to_weight[i]);
		assert_true(prod >= (1ULL << 32) - prio_to_weight[i]);
		/* each step ~1.25x */
		if (i)
			assert_true(prio_to_weight[i - 1] >= prio_to_weight[i] * 6 / 5);
	}
}

static void test_set_load_weight(void **state)
{
	struct task *t = spawn("t", 5);

	assert_int_equal(t->se.load.weight, 335);
	assert_int_equal(t->se.load.inv_weight, 12820798);
	assert_int_equal(task_nice(t), 5);
	assert_int_equal(t->static_prio, 125);
	assert_int_equal(sched_setscheduler(t, SCHED_IDLE), 0);
	assert_int_equal(t->se.load.weight, 3);		/* WEIGHT_IDLEPRIO */
	assert_int_equal(t->se.load.inv_weight, 1431655765);
	assert_int_equal(sched_setscheduler(t, SCHED_FIFO), -22);	/* -EINVAL */
	assert_int_equal(sched_setscheduler(t, SCHED_NORMAL), 0);
	assert_int_equal(t->se.load.weight, 335);
}

/* ---- calc_delta_mine ------------------------------------------------------ */

/*
 * 2.6.35 computes the queue's inverse lazily as 1 + (2^32-1 - W/2)/(W+1),
 * which is ~1/W below 2^32/W: for W = 1024 it is 4190212, not 4194304.
 * The expected values below were worked out by hand from that formula
 * (a Python one-liner, independent of the C code).
 */
static void test_calc_delta_mine_exact(void **state)
{
	struct load_weight lw;

	lw = (struct load_weight){ 1024, 0 };
	assert_int_equal(calc_delta_mine(1000000, 1024, &lw), 999024);
	assert_int_equal(lw.inv_weight, 4190212);		/* cached */

	/* t > 2^32-1: the SRR(SRR(t,16)*inv,16) branch */
	lw = (struct load_weight){ 1024, 0 };
	assert_int_equal(calc_delta_mine(6000000, 1024, &lw), 5994146);
	lw = (struct load_weight){ 3 * 1024, 0 };
	assert_int_equal(calc_delta_mine(6000000, 1024, &lw), 1999349);
	lw = (struct load_weight){ 11 * 1024, 0 };
	assert_int_equal(calc_delta_mine(8250000, 1024, &lw), 749933);

	/* a precomputed inverse (prio_to_wmult) is used as given */
	lw = (struct load_weight){ 335, 12820798 };
	assert_int_equal(calc_delta_mine(1000000, 1024, &lw), 3056716);
	lw = (struct load_weight){ 3121, 1376151 };
	assert_int_equal(calc_delta_mine(1000000, 1024, &lw), 328100);

	lw = (struct load_weight){ 1844, 0 };
	assert_int_equal(calc_delta_mine(3000000, 820, &lw), 1333334);
	lw = (struct load_weight){ 3 * 1024 + 820, 0 };
	assert_int_equal(calc_delta_mine(123456789, 1024, &lw), 32473605);

	/* clamped to LONG_MAX of i686 */
	lw = (struct load_weight){ 15, 286331153 };
	assert_int_equal(calc_delta_mine(0xffffffffU, 88761, &lw), 0x7fffffff);
}

/*
 * Against exact division: the lazy inverse inv = floor((2^32-1-W/2)/(W+1))
 * + 1 lies between 2^32/(W+1) - 1/2 and 2^32/W + 1, and the pre-shift
 * SRR(t, 16) adds at most inv/2^17 ns, so the result is within
 *	[exact * W/(W+1) * (1 - 1/inv) - 1 - inv/2^16, exact * (1 + 1/inv) + 1].
 */
static void test_calc_delta_mine_close(void **state)
{
	u32 seed = 99;

	for (int i = 0; i < 20000; i++) {
		struct load_weight lw;
		u32 d, w, W;
		double exact, got;

		seed = seed * 1103515245 + 12345;
		d = seed % 50000000;
		seed = seed * 1103515245 + 12345;
		w = prio_to_weight[seed % 40];
		seed = seed * 1103515245 + 12345;
		W = w + (seed % 200000);
		lw = (struct load_weight){ W, 0 };
		got = calc_delta_mine(d, w, &lw);
		exact = (double)d * w / W;
		assert_true(got <= exact * (1.0 + 1.0 / lw.inv_weight) + 1);
		assert_true(got >= exact * W / (W + 1.0) * (1.0 - 1.0 / lw.inv_weight)
				   - 1 - lw.inv_weight / 65536.0);
	}
}

static void test_calc_delta_fair(void **state)
{
	struct task *t0 = spawn("n0", 0), *t5 = spawn("n5", 5);

	assert_int_equal(calc_delta_fair(1234567, &t0->se), 1234567);	/* nice 0 */
	assert_int_equal(calc_delta_fair(1000000, &t5->se), 3056716);
	assert_int_equal(sched_slice(CFS, &t0->se), sched_vslice(CFS, &t0->se));
}

/* ---- (e) period and slice table, per preset -------------------------------- */

struct slice_row {
	u32 n;
	u64 period;		/* exact */
	u32 slice;		/* exact 2.6.35 fixed point (see above) */
};

/* linux-2.6.35: nr_latency 3, min_gran 2 ms */
static const struct slice_row rows_2635[] = {
	{ 1, 6000000, 5994146 }, { 2, 6000000, 2998535 }, { 3, 6000000, 1999349 },
	{ 4, 8000000, 1999512 }, { 5, 10000000, 1999609 }, { 6, 12000000, 1999675 },
	{ 7, 14000000, 1999722 }, { 8, 16000000, 1999756 }, { 9, 18000000, 1999782 },
	{ 10, 20000000, 1999803 }, { 11, 22000000, 1999825 }, { 12, 24000000, 1999838 },
};

/* commit-0bf377bbb0be (and every preset built on it): nr_latency 8, 0.75 ms */
static const struct slice_row rows_0bf[] = {
	{ 1, 6000000, 5994146 }, { 2, 6000000, 2998535 }, { 3, 6000000, 1999349 },
	{ 4, 6000000, 1499634 }, { 5, 6000000, 1199766 }, { 6, 6000000, 999837 },
	{ 7, 6000000, 857024 }, { 8, 6000000, 749908 }, { 9, 6750000, 749920 },
	{ 10, 7500000, 749929 }, { 11, 8250000, 749933 }, { 12, 9000000, 749939 },
};

static void check_slice_table(const char *preset, const struct slice_row *rows)
{
	struct task *t[12];

	knob_set_ok("sched_preset", preset);
	for (u32 n = 1; n <= 12; n++) {
		const struct slice_row *r = &rows[n - 1];
		double rel;

		t[n - 1] = spawn("hog", 0);
		assert_int_equal(CFS->nr_running, n);
		assert_int_equal(__sched_period(n), r->period);
		for (u32 i = 0; i < n; i++)
			assert_int_equal(sched_slice(CFS, &t[i]->se), r->slice);
		/* and the slice is period/n to within 0.1% (the lazy inverse) */
		rel = (double)r->slice / ((double)r->period / n);
		assert_true(rel <= 1.0 && rel > 0.999);
		/* the next row's period: latency up to the threshold, then n * gran */
		{
			u32 nl = sched_feat(DYN_GRAN) ? sched_nr_latency_max
						      : sched_nr_latency;

			assert_int_equal(__sched_period(n + 1),
					 n + 1 <= nl ? sysctl_sched_latency
					 : (u64)(n + 1) * sysctl_sched_min_granularity);
		}
	}
}

static void test_slice_table_2635(void **state)
{
	check_slice_table("linux-2.6.35", rows_2635);
}

static void test_slice_table_0bf(void **state)
{
	check_slice_table("commit-0bf377bbb0be", rows_0bf);
}

/* Every other preset has [0bf]'s period: dyn-gran stretches it beyond
 * sched_nr_latency_max = 8, which is the same table. */
static void test_slice_table_other_presets(void **state)
{
	static const char *const presets[] = {
		"no-start-debit", "dyn-gran", "dyn-gran-sleeper", "start-nice",
		"start-nice-debit", "deadline", "cpt-fix",
	};

	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		sched_test_reset();
		check_slice_table(presets[i], rows_0bf);
	}
}

/* Unequal weights: s = p * w / W. */
static void test_slice_weighted(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 1);
	struct load_weight lw = { 1844, 0 };

	assert_int_equal(CFS->load.weight, 1844);
	assert_int_equal(sched_slice(CFS, &a->se), calc_delta_mine(6000000, 1024, &lw));
	assert_int_equal(sched_slice(CFS, &b->se), 2666659 /* ~6e6*820/1844 */);
}

/* ---- (c) place_entity: forks ------------------------------------------------ */

/* Run N nice-0 hogs for a while; returns with one of them current. */
static void start_hogs(struct task **t, int n, int nticks)
{
	for (int i = 0; i < n; i++)
		t[i] = spawn("hog", 0);
	resched_if_needed();
	ticks(nticks);
	assert_true(current != sched_idle_task());
}

/* vslice of a nice-0 entity joining the queue now: period(n+1)/(n+1). */
static u64 joining_vslice(void)
{
	struct load_weight lw = CFS->load;
	u32 n = CFS->nr_running + 1;

	lw.weight += 1024;
	lw.inv_weight = 0;
	return calc_delta_mine((u32)__sched_period(n), 1024, &lw);
}

static void check_fork_placement(const char *preset, int nhogs, int debit)
{
	struct task *hogs[16], *parent, *child;
	u64 expect;

	knob_set_ok("sched_preset", preset);
	start_hogs(hogs, nhogs, 37);
	parent = current;
	/* the fork's update_curr: make the clock move so it matters */
	fake_clock_advance(123456);
	update_rq_clock(RQ);
	update_curr(CFS);

	expect = CFS->min_vruntime + (debit ? joining_vslice() : 0);
	if ((s64)(parent->se.vruntime - expect) > 0)
		expect = parent->se.vruntime;	/* never before the parent */

	child = task_alloc("child");
	sched_fork(child);
	assert_int_equal(child->state, TASK_WAKING);
	assert_false(child->se.on_rq);
	assert_int_equal(child_abs_vruntime(child), expect);
	wake_up_new_task(child);
	assert_int_equal(child->se.vruntime, expect);	/* absolute once queued */
	assert_int_equal(child->state, TASK_RUNNING);
	/* placed behind the parent: no preemption of the parent on fork */
	assert_false(parent->need_resched);
}

static void test_start_debit_3(void **state)
{
	check_fork_placement("commit-0bf377bbb0be", 3, 1);
}

static void test_start_debit_10_2635(void **state)
{
	/* a fork under 10 hogs starts a 2 ms vslice past min_vruntime in
	 * 2.6.35 (0.75 ms with [0bf]): 10 + 1 tasks, period n * min_gran */
	check_fork_placement("linux-2.6.35", 10, 1);
	assert_int_equal(joining_vslice() / 1000, 1999);	/* ~2 ms */
}

static void test_start_debit_10_0bf(void **state)
{
	check_fork_placement("commit-0bf377bbb0be", 10, 1);
	assert_int_equal(joining_vslice() / 1000, 749);		/* ~0.75 ms */
}

static void test_no_start_debit(void **state)
{
	check_fork_placement("no-start-debit", 4, 0);
}

/* NO_START_DEBIT with a parent behind min_vruntime: child at min_vruntime. */
static void test_no_start_debit_parent_behind(void **state)
{
	struct task *hogs[3], *child;
	u64 minv;

	knob_set_ok("sched_preset", "no-start-debit");
	start_hogs(hogs, 3, 20);
	/* pretend the running parent is 2 ms behind min_vruntime */
	current->se.vruntime = CFS->min_vruntime - 2000000;
	minv = CFS->min_vruntime;
	child = task_alloc("child");
	sched_fork(child);
	assert_int_equal(child_abs_vruntime(child), minv);
	wake_up_new_task(child);
}

/* START_DEBIT under a parent far ahead: the child takes the parent's vruntime. */
static void test_start_debit_parent_ahead(void **state)
{
	struct task *hogs[3], *child;
	u64 pv;

	start_hogs(hogs, 3, 20);
	current->se.vruntime = CFS->min_vruntime + 50000000;	/* 50 ms ahead */
	pv = current->se.vruntime;
	child = task_alloc("child");
	sched_fork(child);
	assert_int_equal(child_abs_vruntime(child), pv);
	wake_up_new_task(child);
}

/* The first fork from the idle task (no cfs curr) starts from vruntime 0. */
static void test_fork_from_idle(void **state)
{
	struct task *t = task_alloc("first");

	assert_ptr_equal(current, sched_idle_task());
	sched_fork(t);
	wake_up_new_task(t);
	assert_true(sched_idle_task()->need_resched);	/* anything preempts idle */
	schedule();
	assert_ptr_equal(current, t);
	assert_ptr_equal(switch_last(0)->prev, sched_idle_task());
	assert_ptr_equal(switch_last(0)->next, t);
}

/* ---- (c) place_entity: wakeups ----------------------------------------------- */

/* A task that sleeps long wakes at min_vruntime - credit. */
static void check_sleeper_credit(int gentle, u64 credit)
{
	struct task *hogs[2], *s;
	u64 minv;

	if (!gentle)
		knob_set_ok("sched_features", "NO_GENTLE_FAIR_SLEEPERS");
	s = spawn("sleeper", 0);
	start_hogs(hogs, 2, 0);
	/* run until the sleeper is current, then it blocks */
	TICK_WHILE(current != s);
	block_current(TASK_INTERRUPTIBLE);
	assert_false(s->se.on_rq);
	ticks(200);				/* 200 ms: far behind now */
	assert_true((s64)(CFS->min_vruntime - s->se.vruntime) > (s64)credit);

	assert_int_equal(wake_up_process(s), 1);
	minv = CFS->min_vruntime;
	assert_int_equal(s->se.vruntime, minv - credit);
	assert_int_equal(s->state, TASK_RUNNING);
	/* slept ~200 ms: sum-sleep accounted */
	assert_true(s->se.statistics.sum_sleep_runtime >= 199000000);
}

static void test_sleeper_credit_gentle(void **state)
{
	check_sleeper_credit(1, 3000000);	/* latency / 2 */
}

static void test_sleeper_credit_full(void **state)
{
	check_sleeper_credit(0, 6000000);	/* latency */
}

/* A short sleeper keeps its own vruntime (never placed backwards). */
static void test_short_sleeper_keeps_vruntime(void **state)
{
	struct task *hogs[2], *s;
	u64 v;

	s = spawn("sleeper", 0);
	start_hogs(hogs, 2, 0);
	TICK_WHILE(current != s);
	block_current(TASK_INTERRUPTIBLE);
	v = s->se.vruntime;
	tick();					/* 1 ms only */
	assert_true((s64)(v - (CFS->min_vruntime - 3000000)) > 0);
	wake_up_process(s);
	assert_int_equal(s->se.vruntime, v);
}

/* ---- min_vruntime ------------------------------------------------------------- */

/* Starts at 2^64 - 2^20, wraps within ~1 ms, never decreases. */
static void test_min_vruntime_wraps(void **state)
{
	struct task *hogs[3];
	u64 prev;

	assert_int_equal(CFS->min_vruntime, (u64)-(1LL << 20));
	start_hogs(hogs, 3, 0);
	prev = CFS->min_vruntime;
	for (int i = 0; i < 100; i++) {
		tick();
		assert_true((s64)(CFS->min_vruntime - prev) >= 0);
		prev = CFS->min_vruntime;
	}
	assert_true(CFS->min_vruntime < (1ULL << 40));	/* wrapped past 0 */
	assert_int_equal(sched_verify(), 0);
}

/* ---- nice, runtime, exit -------------------------------------------------------- */

static void test_set_user_nice(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	struct task *other;

	resched_if_needed();
	ticks(3);
	other = current == a ? b : a;
	u64 v_other = other->se.vruntime, v_cur;

	/* the waiting task gets better: current must reschedule */
	current->need_resched = 0;
	set_user_nice(other, -5);
	/* requeued through a relative vruntime: the absolute one is kept */
	assert_int_equal(other->se.vruntime, v_other);
	assert_int_equal(other->se.load.weight, 3121);
	assert_int_equal(CFS->load.weight, 1024 + 3121);
	assert_true(current->need_resched);
	/* the running task gets worse: reschedule */
	current->need_resched = 0;
	v_cur = current->se.vruntime;
	set_user_nice(current, 3);
	assert_int_equal(current->se.vruntime, v_cur);
	assert_ptr_equal(CFS->curr, &current->se);
	assert_true(current->need_resched);
	assert_int_equal(CFS->load.weight, 526 + 3121);
	/* a waiting task gets worse: no reschedule */
	current->need_resched = 0;
	set_user_nice(other, 10);
	assert_false(current->need_resched);
	/* out of range and unchanged values are ignored */
	set_user_nice(other, 20);
	set_user_nice(other, -21);
	assert_int_equal(task_nice(other), 10);
	assert_int_equal(sched_verify(), 0);
}

/* Renicing a sleeper changes its weight only; it stays asleep. */
static void test_set_user_nice_sleeping(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);

	resched_if_needed();
	block_current(TASK_INTERRUPTIBLE);
	{
		struct task *sl = current == a ? b : a;	/* the sleeper */

		set_user_nice(sl, 7);
		assert_false(sl->se.on_rq);
		assert_int_equal(sl->se.load.weight, 215);
		assert_int_equal(CFS->load.weight, 1024);
	}
}

static void test_task_sched_runtime(void **state)
{
	struct task *a = spawn("a", 0);

	resched_if_needed();
	assert_ptr_equal(current, a);
	ticks(3);
	fake_clock_advance(400000);	/* 0.4 ms into the next tick */
	assert_int_equal(a->se.sum_exec_runtime, 3000000);
	assert_int_equal(task_sched_runtime(a), 3400000);
}

/* An exiting task is dequeued and never picked again. */
static void test_exit(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0), *dead;

	resched_if_needed();
	dead = current;
	block_current(TASK_DEAD);
	assert_false(dead->se.on_rq);
	assert_ptr_not_equal(current, dead);
	assert_int_equal(CFS->nr_running, 1);
	assert_int_equal(wake_up_process(dead), 0);	/* not in TASK_NORMAL */
	ticks(50);
	block_current(TASK_DEAD);			/* the other one exits too */
	assert_ptr_equal(current, sched_idle_task());
	assert_int_equal(RQ->nr_running, 0);
	ticks(5);
	assert_ptr_equal(current, sched_idle_task());
	(void)a;
	(void)b;
}

/* Waking a task that has not yet left the CPU only makes it runnable. */
static void test_wake_still_queued(void **state)
{
	struct task *a = spawn("a", 0);

	resched_if_needed();
	a->state = TASK_INTERRUPTIBLE;		/* about to sleep ... */
	assert_int_equal(try_to_wake_up(a, TASK_NORMAL, 0), 0); /* ... woken first */
	assert_int_equal(a->state, TASK_RUNNING);
	schedule();
	assert_ptr_equal(current, a);		/* stayed queued, runs on */
	assert_int_equal(a->nvcsw, 0);
}

/* Involuntary vs voluntary switches, per-task schedstats, rq counters. */
static void test_switch_counts(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);

	resched_if_needed();
	ticks(60);	/* two nice-0 hogs: they alternate by tick preemption */
	assert_true(a->nivcsw > 5 && b->nivcsw > 5);
	assert_int_equal(a->nvcsw + b->nvcsw, 0);
	assert_true(a->se.statistics.wait_max > 0);
	assert_true(a->se.statistics.wait_sum >= a->se.statistics.wait_max);
	assert_true(a->sched_info.run_delay > 0);
	assert_int_equal(RQ->nr_switches, switches.count);
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->nvcsw + b->nvcsw, 1);
}

/* ---- debug output and the checker ---------------------------------------------- */

static void test_sched_debug_show(void **state)
{
	struct task *a = spawn("alpha", 0), *b = spawn("beta", 0);

	resched_if_needed();
	ticks(10);
	capture_reset();
	sched_debug_show();
	assert_true(capture_contains("Sched Debug Version: v0.09"));
	assert_true(capture_contains("  .sysctl_sched_latency                    : 6.000000\n"));
	assert_true(capture_contains("  .sysctl_sched_min_granularity            : 0.750000\n"));
	assert_true(capture_contains("  .sysctl_sched_features                   : 15471\n"));
	assert_true(capture_contains("  .sysctl_sched_tunable_scaling            : 1 (logaritmic)\n"));
	assert_true(capture_contains("\ncpu#0\n  .nr_running                    : 2\n"));
	assert_true(capture_contains("  .load                          : 2048\n"));
	assert_true(capture_contains("\ncfs_rq[0]:\n  .exec_clock                    : 10.000000\n"));
	assert_true(capture_contains("  .nr_spread_over                : 0\n"));
	assert_true(capture_contains(
		"            task   PID         tree-key  switches  prio"
		"     exec-runtime         sum-exec        sum-sleep\n"));
	{
		char line[64];
		struct task *other = current == a ? b : a;

		/* "R" marks the running task; "%15s %5d " comm and pid */
		snprintf(line, sizeof(line), "\nR%15s %5d ", current->comm, current->pid);
		assert_true(capture_contains(line));
		snprintf(line, sizeof(line), "\n %15s %5d ", other->comm, other->pid);
		assert_true(capture_contains(line));
		assert_true(capture_contains("\nR          alpha     1 ") ||
			    capture_contains("\nR           beta     2 "));
	}

	capture_reset();
	proc_sched_show_task(a);
	assert_true(capture_contains("alpha (1, #threads: 1)\n"));
	assert_true(capture_contains("nr_involuntary_switches"));
	assert_true(capture_contains("se.load.weight                     :                 1024\n"));
}

static void test_verify_catches(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0), *c = spawn("c", 0);
	struct sched_entity *se;
	u64 saved;

	resched_if_needed();
	assert_int_equal(sched_verify(), 0);

	CFS->nr_running++;
	capture_reset();
	assert_int_equal(sched_verify(), 2);	/* cfs count and rq != cfs */
	assert_true(capture_contains("sched_verify: cfs nr_running 4, counted 3"));
	CFS->nr_running--;

	/* break the order: move the leftmost far right in place */
	se = __pick_next_entity(CFS);
	saved = se->vruntime;
	se->vruntime += 100000000;
	assert_true(sched_verify() >= 1);
	se->vruntime = saved;

	/* min_vruntime going back */
	CFS->min_vruntime -= 10;
	assert_int_equal(sched_verify(), 1);
	CFS->min_vruntime += 10;
	assert_int_equal(sched_verify(), 0);
	sched_verify_failures = 0;	/* the teardown checks the rest */
	(void)a;
	(void)b;
	(void)c;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, sched_test_teardown)
		T(test_prio_tables),
		T(test_set_load_weight),
		T(test_calc_delta_mine_exact),
		T(test_calc_delta_mine_close),
		T(test_calc_delta_fair),
		T(test_slice_table_2635),
		T(test_slice_table_0bf),
		T(test_slice_table_other_presets),
		T(test_slice_weighted),
		T(test_start_debit_3),
		T(test_start_debit_10_2635),
		T(test_start_debit_10_0bf),
		T(test_no_start_debit),
		T(test_no_start_debit_parent_behind),
		T(test_start_debit_parent_ahead),
		T(test_fork_from_idle),
		T(test_sleeper_credit_gentle),
		T(test_sleeper_credit_full),
		T(test_short_sleeper_keeps_vruntime),
		T(test_min_vruntime_wraps),
		T(test_set_user_nice),
		T(test_set_user_nice_sleeping),
		T(test_task_sched_runtime),
		T(test_exit),
		T(test_wake_still_queued),
		T(test_switch_counts),
		T(test_sched_debug_show),
		T(test_verify_catches),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
