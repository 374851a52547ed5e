/*
 * tests/host/sched/test_rt.c - the rt class (Linux 2.6.35's sched_rt.c on
 * one CPU, kernel/sched/rt.c): the priority bitmap, FIFO order within and
 * across priorities, RR rotation (the inherited first slice, then
 * DEF_TIMESLICE ticks), wakeup preemption of fair tasks by rt ones (and
 * never the reverse; CFS's last buddy), get_rr_interval per class,
 * throttling at sched_rt_runtime_us per sched_rt_period_us and the values
 * those knobs take, SCHED_RESET_ON_FORK, /proc/sched_debug's rt tasks and
 * the invariant checker's rt part.
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
#include <kernel/errno.h>
#include <kernel/cmdline.h>

#define RQ	this_rq()
#define RT	(&this_rq()->rt)

/* Fork NAME from current at POLICY / rt priority PRIO and wake it. */
static struct task *spawn_rt(const char *name, int policy, int prio)
{
	struct task *t = task_alloc(name);

	sched_fork(t);
	assert_int_equal(sched_setscheduler_prio(t, policy, prio), 0);
	wake_up_new_task(t);
	return t;
}

static void test_bitmap(void **state)
{
	u32 map[RT_BITMAP_WORDS] = { 0 };

	map[MAX_RT_PRIO / 32] |= 1U << (MAX_RT_PRIO % 32);
	assert_int_equal(sched_find_first_bit(map), MAX_RT_PRIO);
	map[2] |= 1U << 5;				/* prio 69 */
	assert_int_equal(sched_find_first_bit(map), 69);
	map[0] |= 1U << 31;				/* prio 31 */
	assert_int_equal(sched_find_first_bit(map), 31);
	/* the live rt_rq: empty, then one task at rt_priority 50 = prio 49 */
	assert_int_equal(sched_find_first_bit(RT->active.bitmap), MAX_RT_PRIO);
	struct task *a = spawn_rt("a", SCHED_FIFO, 50);
	assert_int_equal(a->prio, 49);
	assert_int_equal(sched_find_first_bit(RT->active.bitmap), 49);
	assert_int_equal(RT->highest_prio.curr, 49);
	assert_int_equal(RT->rt_nr_running, 1);
	assert_int_equal(sched_verify_rt(this_rq()), 0);
}

static void test_fifo_order(void **state)
{
	struct task *a = spawn_rt("a", SCHED_FIFO, 50);
	struct task *b = spawn_rt("b", SCHED_FIFO, 50);
	struct task *c = spawn_rt("c", SCHED_FIFO, 60);

	resched_if_needed();
	assert_ptr_equal(current, c);			/* the best prio first */
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, a);			/* then FIFO within 50 */
	ticks(100);					/* FIFO has no slice */
	assert_ptr_equal(current, a);
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, b);
	/* a waking c preempts b at once; b stays at the head (it ran) */
	assert_int_equal(wake_up_process(c), 1);
	assert_true(b->need_resched);
	resched_if_needed();
	assert_ptr_equal(current, c);
}

/*
 * RR rotation.  The first slice is what the task inherited: 2.6.35's
 * init_task starts with HZ ticks (1 s) and a fork copies the parent's
 * remainder (dup_task_struct); every refill is DEF_TIMESLICE (100 ms).
 */
static void test_rr_rotation(void **state)
{
	struct task *a, *b;
	unsigned int slice = sched_rr_timeslice();

	knob_set_ok("sched_rt_runtime_us", "-1");	/* 1 s unthrottled */
	a = spawn_rt("a", SCHED_RR, 10);
	b = spawn_rt("b", SCHED_RR, 10);
	assert_int_equal(slice, RR_TIMESLICE_MS * HZ / 1000);
	assert_int_equal(a->rt.time_slice, HZ);		/* init_task's */
	resched_if_needed();
	assert_ptr_equal(current, a);
	ticks((int)HZ - 1);
	assert_ptr_equal(current, a);			/* one tick short of 1 s */
	tick();
	assert_ptr_equal(current, b);			/* to the tail after its 1 s */
	assert_int_equal(a->rt.time_slice, slice);	/* refilled: 100 ms */
	ticks((int)HZ);
	assert_ptr_equal(current, a);
	ticks((int)slice - 1);
	assert_ptr_equal(current, a);
	tick();
	assert_ptr_equal(current, b);			/* 100 ms from now on */
	ticks((int)slice);
	assert_ptr_equal(current, a);
	/* FIFO at the same prio never rotates */
	assert_int_equal(sched_setscheduler_prio(a, SCHED_FIFO, 10), 0);
	resched_if_needed();
	ticks(3 * (int)slice);
	assert_ptr_equal(current, a);
}

/* A fork copies the parent's slice remainder (2.6.35); 6.12 starts afresh. */
static void test_rr_fork_slice(void **state)
{
	struct task *a = spawn_rt("a", SCHED_RR, 10), *c;

	resched_if_needed();
	assert_ptr_equal(current, a);
	ticks(30);
	assert_int_equal(a->rt.time_slice, HZ - 30);
	c = spawn_rt("child", SCHED_RR, 10);
	assert_int_equal(c->rt.time_slice, HZ - 30);
	c = spawn("fair", 0);				/* any policy: it is the copy */
	assert_int_equal(c->rt.time_slice, HZ - 30);

	sched_test_reset();
	knob_set_ok("sched_preset", "linux-6.12");
	a = spawn_rt("a", SCHED_RR, 10);
	assert_int_equal(a->rt.time_slice, sched_rr_timeslice());
	resched_if_needed();
	ticks(30);
	c = spawn_rt("child", SCHED_RR, 10);
	assert_int_equal(c->rt.time_slice, sched_rr_timeslice());
}

static void test_rt_preempts_fair(void **state)
{
	struct task *f = spawn("fair", 0), *r;

	resched_if_needed();
	assert_ptr_equal(current, f);
	r = spawn_rt("rt", SCHED_FIFO, 1);		/* the lowest rt prio */
	assert_true(f->need_resched);
	resched_if_needed();
	assert_ptr_equal(current, r);
	/* a fair fork or wakeup never preempts an rt task */
	spawn("fair2", -20);
	assert_false(r->need_resched);
	ticks(50);
	assert_ptr_equal(current, r);
	/* back to SCHED_OTHER: the fair tasks share the CPU again */
	assert_int_equal(sched_setscheduler_prio(r, SCHED_NORMAL, 0), 0);
	assert_ptr_equal(r->sched_class, &fair_sched_class);
	assert_int_equal(r->prio, DEFAULT_PRIO);
}

/*
 * 2.6.35 asks the running task's class about a wakeup: CFS's
 * check_preempt_wakeup lets the rt waker preempt and, with
 * cfs.nr_running >= sched_nr_latency, makes the preempted task the last
 * buddy, so that it runs next when the rt task is done.
 */
static void test_rt_wakeup_sets_last_buddy(void **state)
{
	struct task *f, *r;

	for (int i = 0; i < (int)sched_nr_latency; i++)
		spawn("hog", 0);
	resched_if_needed();
	f = current;
	assert_null(RQ->cfs.last);
	r = spawn_rt("rt", SCHED_FIFO, 1);
	assert_true(f->need_resched);
	assert_ptr_equal(RQ->cfs.last, &f->se);
	resched_if_needed();
	assert_ptr_equal(current, r);
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, f);			/* the last buddy */

	/* under EEVDF (6.12's wakeup_preempt): preempted, no buddy */
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-6.12");
	for (int i = 0; i < 8; i++)
		spawn("hog", 0);
	resched_if_needed();
	f = current;
	r = spawn_rt("rt", SCHED_FIFO, 1);
	assert_true(f->need_resched);
	assert_null(RQ->cfs.last);
	resched_if_needed();
	assert_ptr_equal(current, r);
}

/*
 * sched_rr_get_interval(2) asks the class P runs in (2.6.35's
 * get_rr_interval): SCHED_RR its slice, FIFO 0, a SCHED_OTHER task boosted
 * into rt 0 too (rt asks the policy), a fair task its slice in whole ticks
 * while fair tasks are queued, the idle task 0.
 */
static void test_rr_interval_by_class(void **state)
{
	struct task *f = spawn("fair", 0), *r = spawn_rt("rr", SCHED_RR, 5);

	assert_int_equal(r->sched_class->get_rr_interval(RQ, r), sched_rr_timeslice());
	assert_int_equal(f->sched_class->get_rr_interval(RQ, f),
			 (unsigned int)(sched_slice(&RQ->cfs, &f->se) / (1000000000ULL / HZ)));
	assert_true(f->sched_class->get_rr_interval(RQ, f) > 0);
	assert_int_equal(sched_setscheduler_prio(r, SCHED_FIFO, 5), 0);
	assert_int_equal(r->sched_class->get_rr_interval(RQ, r), 0);
	rt_mutex_setprio(f, MAX_RT_PRIO - 1 - 30);	/* as a PI boost would */
	assert_ptr_equal(f->sched_class, &rt_sched_class);
	assert_int_equal(f->sched_class->get_rr_interval(RQ, f), 0);
	rt_mutex_setprio(f, f->normal_prio);
	assert_int_equal(RQ->idle->sched_class->get_rr_interval(RQ, RQ->idle), 0);
}

static void test_throttling(void **state)
{
	struct task *f = spawn("fair", 0), *r;
	u64 start, rt0, f0;

	resched_if_needed();
	r = spawn_rt("hog", SCHED_FIFO, 99);
	resched_if_needed();
	assert_ptr_equal(current, r);
	/* align on a period start: the tick-driven period timer */
	while (RT->rt_time)
		tick();
	start = fake_clock_ns;
	rt0 = r->se.sum_exec_runtime;
	f0 = f->se.sum_exec_runtime;
	while (fake_clock_ns - start < 1000000000ULL)
		tick();
	/* 950 ms per 1 s to the rt hog, rounded to ticks; the rest to fair */
	u64 rt_ran = r->se.sum_exec_runtime - rt0;
	u64 tick_ns = 1000000000ULL / HZ;
	assert_true(rt_ran >= 950000000ULL && rt_ran <= 950000000ULL + tick_ns);
	assert_true(f->se.sum_exec_runtime - f0 >= 50000000ULL - tick_ns);
	/* runtime -1: no throttling at all */
	knob_set_ok("sched_rt_runtime_us", "-1");
	ticks(2 * HZ);
	assert_ptr_equal(current, r);
	assert_int_equal(RT->rt_throttled, 0);
}

/*
 * 2.6.35's sched_rt_handler: any runtime but 0 (EBUSY); one above the
 * period never throttles, any negative one is no limit.  A period must be
 * positive.
 */
static void test_rt_runtime_values(void **state)
{
	struct task *r;

	spawn("fair", 0);
	resched_if_needed();
	assert_int_equal(knob_apply("sched_rt_runtime_us", "0"), KNOB_BUSY);
	assert_true(capture_contains("sched_rt_runtime_us=0 refused (EBUSY)"));
	assert_int_equal(sysctl_sched_rt_runtime, 950000);
	assert_int_equal(knob_apply("sched_rt_period_us", "0"), -1);
	assert_int_equal(knob_apply("sched_rt_period_us", "-5"), -1);
	knob_set_ok("sched_rt_runtime_us", "2000000");	/* above the period */
	r = spawn_rt("hog", SCHED_FIFO, 99);
	resched_if_needed();
	ticks(3 * HZ);
	assert_ptr_equal(current, r);
	assert_int_equal(RT->rt_throttled, 0);
	knob_set_ok("sched_rt_runtime_us", "-5");	/* any negative: RUNTIME_INF */
	assert_true(sched_rt_runtime() == RUNTIME_INF);
	ticks(2 * HZ);
	assert_ptr_equal(current, r);
}

static void test_reset_on_fork(void **state)
{
	struct task *r = spawn_rt("rt", SCHED_RR, 30), *c;

	resched_if_needed();
	assert_ptr_equal(current, r);
	c = spawn_rt("child", SCHED_RR, 30);		/* rt children stay rt */
	assert_int_equal(c->policy, SCHED_RR);
	r->sched_reset_on_fork = 1;
	c = task_alloc("reset");
	sched_fork(c);
	assert_int_equal(c->policy, SCHED_NORMAL);
	assert_int_equal(c->rt_priority, 0);
	assert_ptr_equal(c->sched_class, &fair_sched_class);
	wake_up_new_task(c);
	assert_false(r->need_resched);
}

/*
 * cyclictest's check_privs() under START_NICE: SCHED_FIFO 1 and back.
 * Under CFS the bytes of EEVDF's se.sched_delayed hold CFS's own fields (a
 * union): on i686 the low byte of [SN]'s fork_nice_penality, 1 after a
 * fork.  The class change must not take that for a delayed sleeper (it
 * did: the task left the fair tree, was never queued in rt, and the CPU
 * idled with it runnable).  The host's x86-64 layout puts other bytes
 * there, so the test writes the byte as i686 has it.
 */
static void test_class_change_ignores_eevdf_bytes_under_cfs(void **state)
{
	struct task *p;

	(void)state;
	knob_set_ok("sched_preset", "start-nice");
	spawn("hog", 0);
	resched_if_needed();
	p = current;
	p->se.sched_delayed = 1;			/* i686: fork_nice_penality 1 */
	assert_int_equal(sched_setscheduler_prio(p, SCHED_FIFO, 1), 0);
	assert_int_equal(sched_verify(), 0);
	assert_int_equal(RT->rt_nr_running, 1);
	assert_int_equal(sched_setscheduler_prio(p, SCHED_NORMAL, 0), 0);
	assert_int_equal(sched_verify(), 0);
	assert_int_equal(RQ->nr_running, RQ->cfs.nr_running);
}

/* /proc/sched_debug's runnable tasks list the queued rt tasks, under
 * linux-6.12 as under 2.6.35 (6.12 lists every task of the CPU). */
static void test_sched_debug_lists_rt_tasks(void **state)
{
	static const char *const presets[] = { "linux-2.6.35", "linux-6.12" };

	for (int i = 0; i < 2; i++) {
		sched_test_reset();
		knob_set_ok("sched_preset", presets[i]);
		spawn("fairtask", 0);
		spawn_rt("rttask", SCHED_FIFO, 50);
		resched_if_needed();
		capture_reset();
		sched_debug_show();
		assert_true(capture_contains("runnable tasks:"));
		assert_true(capture_contains(" fairtask "));
		assert_true(capture_contains(" rttask "));
	}
}

static void test_bad_args(void **state)
{
	struct task *a = spawn("a", 0);

	assert_int_equal(sched_setscheduler_prio(a, SCHED_FIFO, 0), -EINVAL);
	assert_int_equal(sched_setscheduler_prio(a, SCHED_FIFO, 100), -EINVAL);
	assert_int_equal(sched_setscheduler_prio(a, SCHED_NORMAL, 5), -EINVAL);
	assert_int_equal(sched_setscheduler_prio(a, 4, 0), -EINVAL);
	assert_int_equal(sched_setscheduler(a, SCHED_RR), -EINVAL);
	assert_int_equal(sched_setscheduler_prio(RQ->idle, SCHED_FIFO, 1), -EINVAL);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, sched_test_teardown)
	const struct CMUnitTest tests[] = {
		T(test_bitmap),
		T(test_fifo_order),
		T(test_rr_rotation),
		T(test_rr_fork_slice),
		T(test_rt_wakeup_sets_last_buddy),
		T(test_rr_interval_by_class),
		T(test_rt_preempts_fair),
		T(test_throttling),
		T(test_rt_runtime_values),
		T(test_reset_on_fork),
		T(test_class_change_ignores_eevdf_bytes_under_cfs),
		T(test_sched_debug_lists_rt_tasks),
		T(test_bad_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
