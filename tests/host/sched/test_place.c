/*
 * tests/host/sched/test_place.c - where a task goes at several CPUs
 * (kernel/sched/place.c, Linux 2.6.35): try_to_wake_up() asks
 * select_task_rq_fair() and moves the sleeper with its vruntime made
 * relative (task_waking_fair, ENQUEUE_WAKING); wake_up_new_task() places a
 * fork on the idlest CPU (SD_BALANCE_FORK); a wakeup of an idle CPU
 * averages how long it idled (rq->avg_idle); migration_cpu_stop() moves a
 * queued task, and set_cpus_allowed_ptr() through it.  Two packages of two cores (smp_topo.h); the placement
 * arithmetic itself is test_balance.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "smp_topo.h"
#include <kernel/errno.h>

static int place_setup(void **state)
{
	smp_setup(state);
	build_sched_domains(&all4, two_pkgs_two_cores);
	static_key_set(&sched_up_key, false);	/* more than one CPU online */
	return 0;
}

static int place_teardown(void **state)
{
	static_key_set(&sched_up_key, true);
	detach_sched_domains(&all4);
	return smp_teardown(state);
}

/* spawn_on() without fork balancing (as at one CPU): queued on CPU. */
static struct task *queue_on(int cpu, const char *name)
{
	struct task *p;

	static_key_set(&sched_up_key, true);
	p = spawn_on(cpu, name, 0);
	static_key_set(&sched_up_key, false);
	return p;
}

/* A task that ran on CPU 3 and sleeps there, CPU 3 still busy. */
static struct task *sleeper_on_3(s64 *rel)
{
	struct task *s = queue_on(3, "sleeper");

	run_on(3, 0);
	queue_on(3, "busy");
	load_cpu(3, 0, 0);
	on_cpu(3);
	assert_ptr_equal(current, s);
	block_current(TASK_INTERRUPTIBLE);
	*rel = (s64)(s->se.vruntime - cpu_rq(3)->cfs.min_vruntime);
	on_cpu(0);
	return s;
}

/*
 * Woken from idle CPU 0: the CPU domain spans CPU 3 too, CPU 0 carries no
 * load, so wake_affine() takes it and select_idle_sibling() keeps idle
 * CPU 0.  Its vruntime keeps its place against the new queue's minimum
 * (less the sleeper credit, at most sched_latency / 2 = 3 ms behind).
 */
static void test_wakeup_moves_to_the_idle_waker(void **state)
{
	struct task *s;
	u64 m0;
	s64 rel;

	(void)state;
	s = sleeper_on_3(&rel);
	m0 = cpu_rq(0)->cfs.min_vruntime;
	assert_int_equal(wake_up_process(s), 1);
	assert_int_equal(task_cpu(s), 0);
	assert_int_equal(s->state, TASK_RUNNING);
	assert_int_equal(s->se.nr_migrations, 1);
	assert_int_equal(cpu_rq(0)->nr_running, 1);
	assert_int_equal(cpu_rq(3)->nr_running, 1);
	assert_int_equal((s64)(s->se.vruntime - m0), rel > -3000000 ? rel : -3000000);
	/* CPU 0's idle task is preempted */
	assert_int_equal(smp_idle[0]->need_resched, 1);
}

/* At one CPU online (sched_up_key on) the same wakeup stays on CPU 3. */
static void test_wakeup_at_one_cpu_stays(void **state)
{
	struct task *s;
	s64 rel;

	(void)state;
	s = sleeper_on_3(&rel);
	static_key_set(&sched_up_key, true);
	assert_int_equal(wake_up_process(s), 1);
	assert_int_equal(task_cpu(s), 3);
	assert_int_equal(s->se.nr_migrations, 0);
}

/* Not allowed on CPU 0 (nor 1): wake_affine is not asked, the walk stays
 * on CPU 3 (no SD_BALANCE_WAKE domain), where it is allowed. */
static void test_wakeup_keeps_to_its_mask(void **state)
{
	struct task *s;
	s64 rel;

	(void)state;
	s = sleeper_on_3(&rel);
	s->cpus_allowed.bits = 0xc;
	assert_int_equal(wake_up_process(s), 1);
	assert_int_equal(task_cpu(s), 3);
	assert_int_equal(cpu_rq(3)->nr_running, 2);
}

/*
 * The waking CPU idled since idle_balance() stamped it, 200 us ago:
 *	avg_idle = 1,000,000 + (200,000 - 1,000,000) / 8 = 900,000 ns
 * and the stamp is cleared; an idle of 3 ms is capped at 2 * 0.5 ms.
 */
static void test_wakeup_of_an_idle_cpu_averages_its_idle(void **state)
{
	struct task *s;
	s64 rel;

	(void)state;
	s = sleeper_on_3(&rel);
	assert_int_equal(cpu_rq(0)->avg_idle, 1000000);
	cpu_rq(0)->idle_stamp = sched_clock() - 200000;
	wake_up_process(s);
	assert_int_equal(task_cpu(s), 0);
	assert_int_equal(cpu_rq(0)->avg_idle, 900000);
	assert_int_equal(cpu_rq(0)->idle_stamp, 0);
	run_on(0, 0);
	on_cpu(0);
	assert_ptr_equal(current, s);
	block_current(TASK_INTERRUPTIBLE);
	cpu_rq(0)->avg_idle = 0;
	cpu_rq(0)->idle_stamp = sched_clock() - 3000000;
	on_cpu(3);
	wake_up_process(s);			/* back to CPU 0, idle again */
	on_cpu(0);
	assert_int_equal(task_cpu(s), 0);
	assert_int_equal(cpu_rq(0)->avg_idle, 1000000);
}

/*
 * Fork balancing: loads 1024, 1024, 0, 1024; the CPU domain's idlest
 * group is {2,3} and its idlest CPU 2 (test_balance.c's sums), so the
 * child of CPU 0's task starts on CPU 2.
 */
static void test_fork_goes_to_the_idlest_cpu(void **state)
{
	struct task *child;

	(void)state;
	spawn_on(0, "parent", 0);
	run_on(0, 0);
	load_cpu(0, 0, 0);
	load_cpu(1, 1, 0);
	load_cpu(3, 1, 0);
	on_cpu(0);
	child = spawn("child", 0);
	assert_int_equal(task_cpu(child), 2);
	assert_int_equal(cpu_rq(2)->nr_running, 1);
	assert_int_equal(cpu_rq(0)->nr_running, 1);
	assert_int_equal(child->state, TASK_RUNNING);
	assert_int_equal(smp_idle[2]->need_resched, 1);
}

/*
 * The stopper of CPU 1 moves its queued, not running task B to CPU 2;
 * a sleeper is left to its next wakeup; a CPU outside the mask refused.
 */
static void test_migration_cpu_stop(void **state)
{
	struct migration_arg arg;
	struct task *a, *b;

	(void)state;
	a = queue_on(1, "a");
	run_on(1, 0);
	b = queue_on(1, "b");
	assert_ptr_equal(cpu_curr(1), a);
	assert_true(migrate_task(b, 2));
	arg = (struct migration_arg){ b, 2 };
	assert_int_equal(stop_one_cpu(1, migration_cpu_stop, &arg), 0);
	assert_int_equal(task_cpu(b), 2);
	assert_int_equal(b->se.on_rq, 1);
	assert_int_equal(cpu_rq(1)->nr_running, 1);
	assert_int_equal(cpu_rq(2)->nr_running, 1);
	/* not allowed on CPU 3: stays */
	b->cpus_allowed.bits = 0x7;
	arg = (struct migration_arg){ b, 3 };
	stop_one_cpu(2, migration_cpu_stop, &arg);
	assert_int_equal(task_cpu(b), 2);
}

/*
 * set_cpus_allowed_ptr(): a queued task whose CPU leaves its mask is moved
 * by its CPU's stopper to the mask's first online CPU; one whose CPU stays
 * allowed stays; no online CPU in the mask, or a bound kernel thread
 * (kthread_bind), is -EINVAL and the mask unchanged.
 */
static void test_set_cpus_allowed(void **state)
{
	const struct cpumask cpu3 = { 0x8 }, cpu2_3 = { 0xc }, offline = { 0x30 };
	unsigned long calls = host_stop_calls;
	struct task *b, *k;

	(void)state;
	queue_on(1, "a");
	run_on(1, 0);
	b = queue_on(1, "b");
	assert_int_equal(set_cpus_allowed_ptr(b, &offline), -EINVAL);
	assert_int_equal(b->cpus_allowed.bits, 0xf);
	assert_int_equal(set_cpus_allowed_ptr(b, &cpu2_3), 0);
	assert_int_equal(host_stop_calls, calls + 1);
	assert_int_equal(task_cpu(b), 2);
	assert_int_equal(cpu_rq(2)->nr_running, 1);
	assert_int_equal(set_cpus_allowed_ptr(b, &all4), 0);	/* CPU 2 stays allowed */
	assert_int_equal(task_cpu(b), 2);
	assert_int_equal(host_stop_calls, calls + 1);
	k = task_alloc("kthread");
	k->sched_class = &fair_sched_class;	/* as sched_fork() leaves it */
	kthread_bind(k, 3);
	assert_int_equal(set_cpus_allowed_ptr(k, &all4), -EINVAL);
	assert_int_equal(set_cpus_allowed_ptr(k, &cpu3), 0);	/* the same mask */
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, place_setup, place_teardown)
	const struct CMUnitTest tests[] = {
		T(test_wakeup_moves_to_the_idle_waker),
		T(test_wakeup_at_one_cpu_stays),
		T(test_wakeup_keeps_to_its_mask),
		T(test_wakeup_of_an_idle_cpu_averages_its_idle),
		T(test_fork_goes_to_the_idlest_cpu),
		T(test_migration_cpu_stop),
		T(test_set_cpus_allowed),
	};

	return SMP_RUN_TESTS(tests);
}
