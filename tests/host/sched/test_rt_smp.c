/*
 * tests/host/sched/test_rt_smp.c - the rt class on four fake CPUs
 * (kernel/sched/rt_smp.c, Linux 2.6.35's sched_rt.c CONFIG_SMP half):
 * the overload state and pushable list, push after a switch and when a
 * task becomes rt, pull when a CPU's prio drops, select_task_rq_rt() at
 * wakeup, and the checker's rt SMP part.  Two packages of two cores
 * (smp_topo.h), so find_lowest_rq()'s domain walk prefers the sibling.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "smp_topo.h"

#define PRIO(rtp)	(MAX_RT_PRIO - 1 - (rtp))

static int rt_smp_setup(void **state)
{
	smp_setup(state);
	build_sched_domains(&all4, two_pkgs_two_cores);
	init_defrootdomain();			/* as sched_init_smp() */
	for (int cpu = 0; cpu < SMP_NCPUS; cpu++)
		set_rq_online(cpu_rq(cpu));
	static_key_set(&sched_up_key, false);	/* more than one CPU online */
	return 0;
}

static int rt_smp_teardown(void **state)
{
	static_key_set(&sched_up_key, true);
	detach_sched_domains(&all4);
	return smp_teardown(state);
}

/* A fair task queued on CPU (no fork balancing), allowed on MASK. */
static struct task *queue_on(int cpu, const char *name, u32 mask)
{
	struct task *p;

	static_key_set(&sched_up_key, true);
	p = spawn_on(cpu, name, 0);
	static_key_set(&sched_up_key, false);
	p->cpus_allowed.bits = mask;
	return p;
}

static void make_fifo(struct task *p, int rtp)
{
	assert_int_equal(sched_setscheduler_prio(p, SCHED_FIFO, rtp), 0);
}

/* On CPU: schedule() if its curr was asked to, as the irq exit does. */
static void reschedule_on(int cpu)
{
	on_cpu(cpu);
	if (current->need_resched)
		schedule();
	on_cpu(0);
}

/* Two FIFO tasks queued on an idle CPU 0: the state before any push. */
static void test_overload_state(void **state)
{
	struct rq *rq = cpu_rq(0);
	struct task *a = queue_on(0, "a", 0xf), *b = queue_on(0, "b", 0xf);

	(void)state;
	make_fifo(a, 10);
	assert_int_equal(rq->rt.rt_nr_total, 1);
	assert_int_equal(rq->rt.rt_nr_migratory, 1);
	assert_int_equal(rq->rt.overloaded, 0);
	assert_int_equal(def_root_domain.cpupri.cpu_to_pri[0], 12);	/* rt 10: level 12 */

	/* b (rt 20) is better: the old best becomes next, b is first pushable;
	 * curr (idle) is worse than b, so switched_to_rt's push reschedules */
	make_fifo(b, 20);
	assert_int_equal(rq->rt.highest_prio.curr, PRIO(20));
	assert_int_equal(rq->rt.highest_prio.next, PRIO(10));
	assert_int_equal(rq->rt.overloaded, 1);
	assert_int_equal(def_root_domain.rto_mask.bits, 0x1);
	assert_int_equal(def_root_domain.rto_count, 1);
	assert_ptr_equal(rq->rt.pushable_tasks.next, &b->rt.pushable_tasks);
	assert_ptr_equal(rq->rt.pushable_tasks.prev, &a->rt.pushable_tasks);
	assert_int_equal(def_root_domain.cpupri.cpu_to_pri[0], 22);
	assert_true(rq->curr->need_resched);

	/* b runs; post_schedule pushes a to CPU 0's sibling, CPU 1 */
	reschedule_on(0);
	assert_ptr_equal(cpu_curr(0), b);
	assert_int_equal(task_cpu(a), 1);
	assert_int_equal(rq->rt.overloaded, 0);
	assert_int_equal(def_root_domain.rto_mask.bits, 0);
	assert_int_equal(def_root_domain.cpupri.cpu_to_pri[1], 12);
}

/* Four FIFO 50 tasks made rt on CPU 0 end up on four CPUs, nearest first. */
static void test_push_spreads_equal_tasks(void **state)
{
	struct task *t[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		t[i] = queue_on(0, "spin", 0xf);
	make_fifo(t[0], 50);
	reschedule_on(0);
	assert_ptr_equal(cpu_curr(0), t[0]);
	for (int i = 1; i < 4; i++)
		make_fifo(t[i], 50);
	/* t1 to the sibling, then the other package in order */
	assert_int_equal(task_cpu(t[1]), 1);
	assert_int_equal(task_cpu(t[2]), 2);
	assert_int_equal(task_cpu(t[3]), 3);
	for (int cpu = 1; cpu < 4; cpu++) {
		reschedule_on(cpu);
		assert_ptr_equal(cpu_curr(cpu), t[cpu]);
	}
}

/*
 * CPU 1 runs rt 80 with rt 60 queued behind it, which cannot be pushed:
 * CPU 0 runs rt 70, CPUs 2 and 3 run pinned rt 90 tasks.  When CPU 0's
 * task sleeps, its prio drops and pre_schedule_rt pulls the rt 60 task.
 */
static void test_pull_when_prio_drops(void **state)
{
	struct task *p2 = queue_on(2, "pin2", 0x4), *p3 = queue_on(3, "pin3", 0x8);
	struct task *a = queue_on(0, "a", 0xf), *x = queue_on(1, "x", 0xf);
	struct task *y = queue_on(1, "y", 0xf);

	(void)state;
	make_fifo(p2, 90);
	make_fifo(p3, 90);
	make_fifo(a, 70);
	make_fifo(x, 80);
	for (int cpu = 0; cpu < 4; cpu++)
		reschedule_on(cpu);
	assert_ptr_equal(cpu_curr(1), x);
	make_fifo(y, 60);
	assert_int_equal(task_cpu(y), 1);		/* nowhere lower to go */
	assert_int_equal(cpu_rq(1)->rt.overloaded, 1);

	on_cpu(0);
	assert_ptr_equal(current, a);
	block_current(TASK_INTERRUPTIBLE);		/* schedule(): pull */
	assert_int_equal(task_cpu(y), 0);
	assert_ptr_equal(cpu_curr(0), y);
	assert_int_equal(cpu_rq(1)->rt.overloaded, 0);
	on_cpu(0);
}

/*
 * A woken rt 50 task whose CPU runs rt 80 goes straight to the lowest CPU
 * (select_task_rq_rt -> find_lowest_rq): CPU 0's sibling, CPU 1.
 */
static void test_wakeup_goes_to_lowest_cpu(void **state)
{
	struct task *b = queue_on(0, "b", 0xf), *a;

	(void)state;
	make_fifo(b, 50);
	reschedule_on(0);
	on_cpu(0);
	assert_ptr_equal(current, b);
	block_current(TASK_INTERRUPTIBLE);
	a = queue_on(0, "a", 0xf);
	make_fifo(a, 80);
	reschedule_on(0);
	assert_ptr_equal(cpu_curr(0), a);

	assert_int_equal(wake_up_process(b), 1);
	assert_int_equal(task_cpu(b), 1);
	/* a pinned one stays and waits */
	on_cpu(1);
	reschedule_on(1);
	on_cpu(1);
	assert_ptr_equal(current, b);
	b->cpus_allowed.bits = 0x2;
	block_current(TASK_INTERRUPTIBLE);
	on_cpu(0);
}

/* sched_verify's rt SMP part sees an rto_mask that disagrees. */
static void test_verify_catches_rto_mask(void **state)
{
	struct task *a = queue_on(0, "a", 0xf);

	(void)state;
	make_fifo(a, 10);
	cpumask_set_cpu(0, &def_root_domain.rto_mask);	/* not overloaded */
	capture_reset();
	assert_int_not_equal(sched_verify_rt(cpu_rq(0)), 0);
	assert_true(capture_contains("rt overloaded 0"));
	cpumask_clear_cpu(0, &def_root_domain.rto_mask);
	assert_int_equal(sched_verify_rt(cpu_rq(0)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_overload_state, rt_smp_setup, rt_smp_teardown),
		cmocka_unit_test_setup_teardown(test_push_spreads_equal_tasks, rt_smp_setup,
						rt_smp_teardown),
		cmocka_unit_test_setup_teardown(test_pull_when_prio_drops, rt_smp_setup,
						rt_smp_teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_goes_to_lowest_cpu, rt_smp_setup,
						rt_smp_teardown),
		cmocka_unit_test_setup_teardown(test_verify_catches_rto_mask, rt_smp_setup,
						rt_smp_teardown),
	};

	return SMP_RUN_TESTS(tests);
}
