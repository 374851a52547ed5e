/*
 * tests/host/sched/test_smp.c - the scheduler's per-CPU runqueues on four
 * fake CPUs (host_percpu_setup(): a copy of the per-CPU section each, the
 * running CPU is host_cpu): cpu_rq/this_rq/task_rq, the rq locks,
 * set_task_cpu's migration count, and vruntime carried across CPUs
 * relative to each queue's min_vruntime, as 2.6.35's pull_task() and
 * try_to_wake_up() + task_waking_fair() do it.  The domains and the
 * balancer are test_balance.c's; smp_fake.h builds the machine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "../../../kernel/sched/sched.h"

static void test_rq_per_cpu(void **state)
{
	(void)state;
	for (int cpu = 0; cpu < SMP_NCPUS; cpu++) {
		assert_int_equal(cpu_of(cpu_rq(cpu)), cpu);
		assert_ptr_equal(cpu_curr(cpu), smp_idle[cpu]);
		assert_int_equal(task_cpu(smp_idle[cpu]), cpu);
		assert_int_equal(smp_idle[cpu]->cpus_allowed.bits, 1u << cpu);
		for (int other = 0; other < cpu; other++)
			assert_ptr_not_equal(cpu_rq(cpu), cpu_rq(other));
	}
	on_cpu(2);
	assert_ptr_equal(this_rq(), cpu_rq(2));
	assert_ptr_equal(current, smp_idle[2]);
	on_cpu(0);
	assert_ptr_equal(this_rq(), cpu_rq(0));
}

/* A fork queues the child on the forking CPU's rq, with the parent's mask. */
static void test_fork_stays_on_cpu(void **state)
{
	struct task *p;

	(void)state;
	on_cpu(3);
	p = spawn("child", 0);
	on_cpu(0);
	assert_int_equal(task_cpu(p), 3);
	assert_ptr_equal(task_rq(p), cpu_rq(3));
	assert_int_equal(cpu_rq(3)->nr_running, 1);
	assert_int_equal(cpu_rq(0)->nr_running, 0);
	assert_int_equal(p->cpus_allowed.bits, smp_idle[3]->cpus_allowed.bits);
	assert_int_equal(p->se.nr_migrations, 0);
}

static void test_set_task_cpu_counts_moves(void **state)
{
	struct task *p = task_alloc("sleeper");

	(void)state;
	p->sched_class = &fair_sched_class;	/* set_task_cpu asks its class */
	p->cpu = 1;
	set_task_cpu(p, 1);
	assert_int_equal(p->se.nr_migrations, 0);	/* not a move */
	set_task_cpu(p, 2);
	set_task_cpu(p, 0);
	assert_int_equal(p->se.nr_migrations, 2);
	assert_int_equal(task_cpu(p), 0);
}

static void test_task_rq_lock(void **state)
{
	struct task *p = spawn_on(1, "t", 0);
	unsigned long flags;
	struct rq *rq;

	(void)state;
	rq = task_rq_lock(p, &flags);
	assert_ptr_equal(rq, cpu_rq(1));
	assert_true(raw_spin_is_locked(&cpu_rq(1)->lock));
	assert_false(raw_spin_is_locked(&cpu_rq(0)->lock));
	task_rq_unlock(rq, &flags);
	assert_false(raw_spin_is_locked(&cpu_rq(1)->lock));
}

/* Both locked whatever the argument order; one rq is locked once. */
static void test_double_rq_lock(void **state)
{
	struct rq *a = cpu_rq(0), *b = cpu_rq(3);

	(void)state;
	double_rq_lock(b, a);
	assert_true(raw_spin_is_locked(&a->lock));
	assert_true(raw_spin_is_locked(&b->lock));
	double_rq_unlock(b, a);
	assert_false(raw_spin_is_locked(&a->lock) || raw_spin_is_locked(&b->lock));

	double_rq_lock(a, a);
	assert_true(raw_spin_is_locked(&a->lock));
	double_rq_unlock(a, a);
	assert_false(raw_spin_is_locked(&a->lock));

	/* this_rq held, the other free: the trylock wins, nothing dropped */
	raw_spin_lock(&b->lock);
	assert_int_equal(double_lock_balance(b, a), 0);
	assert_true(raw_spin_is_locked(&a->lock));
	double_unlock_balance(b, a);
	assert_false(raw_spin_is_locked(&a->lock));
	raw_spin_unlock(&b->lock);
}

/*
 * pull_task(): a queued task REL ns ahead of CPU 0's min_vruntime arrives
 * REL ns ahead of CPU 1's, a different clock altogether.
 */
static void test_pull_task_keeps_relative_vruntime(void **state)
{
	struct task *first, *p, *r;
	u64 m0, m1, rel, v;

	(void)state;
	/* CPU 1 runs r for 30 ms: its min_vruntime moves far from CPU 0's */
	r = spawn_on(1, "r", 0);
	run_on(1, 30);
	assert_ptr_equal(cpu_curr(1), r);
	/* CPU 0: two queued, first (leftmost) keeps min_vruntime in place */
	first = spawn_on(0, "first", 0);
	p = spawn_on(0, "p", 0);
	if (p->se.vruntime < first->se.vruntime) {	/* pull the rightmost */
		struct task *t = p;

		p = first;
		first = t;
	}
	m0 = cpu_rq(0)->cfs.min_vruntime;
	m1 = cpu_rq(1)->cfs.min_vruntime;
	assert_true(m1 != m0);
	v = p->se.vruntime;
	rel = v - m0;
	assert_true(rel > 0 && rel < 10000000);	/* START_DEBIT: a slice or so */

	double_rq_lock(cpu_rq(1), cpu_rq(0));
	on_cpu(1);
	pull_task(cpu_rq(0), p, cpu_rq(1), 1);
	double_rq_unlock(cpu_rq(1), cpu_rq(0));

	assert_int_equal(task_cpu(p), 1);
	assert_int_equal(p->se.nr_migrations, 1);
	/* dequeue_entity() makes it relative after update_min_vruntime():
	 * CPU 0's minimum is then first's vruntime (no curr, first leftmost) */
	if ((s64)(first->se.vruntime - m0) > 0)	/* max(), across the wrap */
		m0 = first->se.vruntime;
	assert_int_equal(cpu_rq(0)->cfs.min_vruntime, m0);
	rel = v - m0;
	assert_int_equal(p->se.vruntime - m1, rel);
	assert_int_equal(cpu_rq(0)->nr_running, 1);
	assert_int_equal(cpu_rq(1)->nr_running, 2);
	assert_int_equal(cpu_rq(0)->load.weight, 1024);
	assert_int_equal(cpu_rq(1)->load.weight, 2048);
	/* the balancer's lists follow: newest first on the destination */
	assert_ptr_equal(cpu_rq(1)->cfs.tasks.next, &p->se.group_node);
	assert_ptr_equal(cpu_rq(0)->cfs.tasks.next, &first->se.group_node);
	assert_ptr_equal(cpu_rq(0)->cfs.tasks.prev, &first->se.group_node);
	on_cpu(0);
}

/*
 * A sleeper woken onto another CPU (2.6.35 try_to_wake_up): vruntime made
 * relative to the old queue by task_waking_fair(), then ENQUEUE_WAKEUP |
 * ENQUEUE_WAKING adds the new queue's min_vruntime before place_entity()
 * applies the sleeper credit (at most sched_latency / 2 = 3 ms behind).
 */
static void test_wakeup_on_another_cpu(void **state)
{
	struct task *s;
	u64 m0, m1, v;
	s64 rel;

	(void)state;
	spawn_on(1, "r1", 0);
	run_on(1, 25);
	s = spawn_on(0, "sleeper", 0);
	run_on(0, 2);
	assert_ptr_equal(current, s);
	block_current(TASK_INTERRUPTIBLE);	/* dequeued with DEQUEUE_SLEEP */
	assert_int_equal(s->se.on_rq, 0);
	m0 = cpu_rq(0)->cfs.min_vruntime;
	v = s->se.vruntime;
	rel = (s64)(v - m0);

	task_waking_fair(cpu_rq(0), s);
	assert_int_equal((s64)s->se.vruntime, rel);
	set_task_cpu(s, 1);
	on_cpu(1);
	m1 = cpu_rq(1)->cfs.min_vruntime;
	s->state = TASK_RUNNING;
	activate_task(cpu_rq(1), s, ENQUEUE_WAKEUP | ENQUEUE_WAKING);
	/* place_entity: max(m1 + rel, m1 - 3 ms); curr's update_curr came
	 * after the add, so m1 is the value the add used */
	if (rel > -3000000)
		assert_int_equal((s64)(s->se.vruntime - m1), rel);
	else
		assert_int_equal((s64)(s->se.vruntime - m1), -3000000);
	assert_int_equal(task_rq(s), cpu_rq(1));
	assert_int_equal(s->se.nr_migrations, 1);
	on_cpu(0);
}

/*
 * With more than one CPU online (sched_up_key off: schedule()'s SMP copy),
 * a task is on_cpu from before its switch in until its CPU has finished
 * switching it out: during the switch both PREV and NEXT are, after it
 * only NEXT.  reap_dead_tasks() and wait4 free a dead task only once
 * on_cpu is clear, so a task exiting on one CPU is not freed by another
 * while its stack is still in use.
 */
static void test_on_cpu_until_switched_out(void **state)
{
	const struct switch_record *r;
	struct task *p;

	(void)state;
	static_key_set(&sched_up_key, false);
	p = spawn_on(1, "exiter", 0);
	run_on(1, 3);
	assert_ptr_equal(cpu_curr(1), p);
	r = switch_last(0);
	assert_ptr_equal(r->next, p);
	assert_int_equal(r->prev_on_cpu, 1);	/* the idle task, still switching out */
	assert_int_equal(r->next_on_cpu, 1);
	assert_int_equal(p->on_cpu, 1);
	assert_int_equal(smp_idle[1]->on_cpu, 0);
	on_cpu(1);
	block_current(TASK_DEAD);		/* its last switch */
	r = switch_last(0);
	assert_ptr_equal(r->prev, p);
	assert_int_equal(r->prev_on_cpu, 1);	/* not to be freed during it */
	assert_int_equal(p->on_cpu, 0);		/* and free to go after */
	assert_int_equal(smp_idle[1]->on_cpu, 1);
	on_cpu(0);
	static_key_set(&sched_up_key, true);
}

/*
 * resched_task() of a task running on another CPU sends that CPU the
 * reschedule IPI, once until it has rescheduled; of one here, none.
 */
static void test_resched_remote_sends_ipi(void **state)
{
	struct task *p;
	unsigned long before = fake_resched_ipis[2];

	(void)state;
	static_key_set(&sched_up_key, false);
	p = spawn_on(2, "remote", 0);
	run_on(2, 0);
	assert_ptr_equal(cpu_curr(2), p);
	p->need_resched = 0;
	resched_task(p);			/* from CPU 0 */
	assert_int_equal(p->need_resched, 1);
	assert_int_equal(fake_resched_ipis[2], before + 1);
	resched_task(p);			/* already asked: no second IPI */
	assert_int_equal(fake_resched_ipis[2], before + 1);
	before = fake_resched_ipis[0];
	current->need_resched = 0;
	resched_task(current);			/* this CPU: the flag only */
	assert_int_equal(current->need_resched, 1);
	assert_int_equal(fake_resched_ipis[0], before);
	current->need_resched = 0;
	static_key_set(&sched_up_key, true);
}

/*
 * /proc/stat's procs_running and ctxt are every CPU's, read from any:
 * 2.6.35's nr_running() sums the online CPUs' rq->nr_running, and
 * nr_context_switches() the possible CPUs' rq->nr_switches.
 */
static void test_counts_sum_every_cpu(void **state)
{
	u64 switches = 0;

	(void)state;
	spawn_on(1, "a", 0);
	spawn_on(3, "b", 0);
	spawn_on(3, "c", 0);
	run_on(1, 2);
	run_on(3, 2);
	for (int cpu = 0; cpu < SMP_NCPUS; cpu++)
		switches += cpu_rq(cpu)->nr_switches;
	assert_true(cpu_rq(1)->nr_switches > 0 && cpu_rq(3)->nr_switches > 0);
	for (int cpu = 0; cpu < SMP_NCPUS; cpu++) {
		on_cpu(cpu);
		assert_int_equal(nr_running(), 3);
		assert_int_equal(nr_context_switches(), switches);
	}
	on_cpu(0);
}

/*
 * sched_verify() checks the running CPU's own queue: corrupt CPU 1's and
 * only a check on CPU 1 reports it.  SMP's own invariant: a queued task's
 * task_cpu() is its queue's CPU, which its mask allows (unless a move off
 * that CPU is pending, rq->migration_pending) and which is online.
 */
static void test_verify_checks_each_cpu(void **state)
{
	struct task *a = spawn_on(1, "a", 0), *b = spawn_on(1, "b", 0);
	struct rq *rq1 = cpu_rq(1);

	(void)state;
	run_on(1, 3);
	on_cpu(1);
	assert_int_equal(sched_verify(), 0);

	rq1->cfs.nr_running++;
	capture_reset();
	on_cpu(0);
	assert_int_equal(sched_verify(), 0);		/* CPU 0's queue is sound */
	on_cpu(1);
	assert_int_equal(sched_verify(), 2);		/* cfs count and rq != cfs */
	assert_true(capture_contains("sched_verify: cfs nr_running 3, counted 2"));
	rq1->cfs.nr_running--;

	b->cpu = 0;					/* queued on CPU 1 */
	capture_reset();
	assert_int_equal(sched_verify(), 1);
	assert_true(capture_contains("sched_verify: b/"));
	assert_true(capture_contains(" is queued on CPU 1 but its cpu is 0\n"));
	b->cpu = 1;

	cpumask_clear_cpu(1, &b->cpus_allowed);		/* a move not asked for */
	capture_reset();
	assert_int_equal(sched_verify(), 1);
	assert_true(capture_contains(" is queued on CPU 1, which its mask 0xd does not allow\n"));
	rq1->migration_pending++;			/* set_cpus_allowed_ptr's */
	assert_int_equal(sched_verify(), 0);
	rq1->migration_pending--;
	cpumask_set_cpu(1, &b->cpus_allowed);

	cpumask_clear_cpu(1, &__cpu_online_mask);
	capture_reset();
	assert_int_equal(sched_verify(), 2);		/* a and b */
	assert_true(capture_contains(" is queued on CPU 1, which is offline\n"));
	cpumask_set_cpu(1, &__cpu_online_mask);
	on_cpu(0);
	sched_verify_failures = 0;
	(void)a;
}

/*
 * EEVDF: a DELAY_DEQUEUE sleeper stays queued but is counted out of
 * rq->nr_running when it blocks (eevdf_class.c).  The balancer may move it
 * (Linux 6.12 does: it stays delayed there); neither queue's nr_running
 * may change for it.  Before move_queued_task() the source went one below
 * its queued tasks and the destination one above (sched_verify at -smp 4
 * under sched_preset=linux-6.12 counted thousands of violations).
 */
/*
 * Under linux-6.12, c on CPU 2 and two tasks taking turns on CPU 1; half a
 * tick into a turn the runner's vruntime is past V (it owes: its lag is
 * negative), so it would block delayed.  Returns it, running, on CPU 1.
 */
static struct task *runner_that_owes(void)
{
	knob_set_ok("sched_preset", "linux-6.12");
	spawn_on(2, "c", 0);
	spawn_on(1, "a", 0);
	spawn_on(1, "b", 0);
	run_on(2, 1);
	run_on(1, 3);
	on_cpu(1);
	fake_clock_ns += 500000;
	return current;
}

static void test_delayed_sleeper_moves_uncounted(void **state)
{
	struct task *a;

	(void)state;
	a = runner_that_owes();
	block_current(TASK_INTERRUPTIBLE);
	on_cpu(1);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(cpu_rq(1)->nr_running, 1);
	assert_int_equal(cpu_rq(2)->nr_running, 1);

	double_rq_lock(cpu_rq(1), cpu_rq(2));
	pull_task(cpu_rq(1), a, cpu_rq(2), 2);
	double_rq_unlock(cpu_rq(1), cpu_rq(2));
	assert_int_equal(task_cpu(a), 2);
	assert_int_equal(a->se.sched_delayed, 1);	/* still delayed there */
	assert_int_equal(cpu_rq(1)->nr_running, 1);
	assert_int_equal(cpu_rq(2)->nr_running, 1);
	assert_int_equal(cpu_rq(2)->eevdf.h_nr_delayed, 1);
	assert_int_equal(sched_verify(), 0);
	on_cpu(2);
	assert_int_equal(sched_verify(), 0);
	assert_int_equal(wake_up_process(a), 0);	/* requeued, counted in */
	assert_int_equal(cpu_rq(2)->nr_running, 2);
	on_cpu(0);
}

/*
 * EEVDF: a sleeper whose dequeue __schedule() delayed is still rq->curr
 * while idle_balance() has the rq lock dropped.  Its on_rq flags stay set
 * (6.12's block_task()), so a wakeup from another CPU requeues it, as
 * 6.12's ttwu_runnable(), and does not enqueue it a second time: that
 * counted it twice in its queue and left it delayed though TASK_RUNNING.
 */
static void test_delayed_prev_woken_in_idle_balance(void **state)
{
	struct task *a;
	struct rq *rq1 = cpu_rq(1);

	(void)state;
	a = runner_that_owes();
	/* __schedule() up to idle_balance(), whose lock drop lets CPU 0 in */
	a->state = TASK_INTERRUPTIBLE;
	deactivate_task(rq1, a, DEQUEUE_SLEEP);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(rq1->cfs.nr_running, 2);
	assert_int_equal(a->on_rq, 1);	/* still queued (6.12: TASK_ON_RQ_QUEUED) */
	assert_int_equal(a->se.on_rq, 1);

	on_cpu(0);
	static_key_set(&sched_up_key, false);	/* try_to_wake_up_smp() */
	assert_int_equal(wake_up_process(a), 0);	/* still queued: requeued */
	static_key_set(&sched_up_key, true);
	assert_int_equal(task_cpu(a), 1);
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(a->se.on_rq, 1);
	assert_int_equal(rq1->cfs.nr_running, 2);
	assert_int_equal(rq1->nr_running, 2);
	on_cpu(1);
	assert_int_equal(sched_verify(), 0);
	on_cpu(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rq_per_cpu, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_fork_stays_on_cpu, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_set_task_cpu_counts_moves, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_task_rq_lock, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_double_rq_lock, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_pull_task_keeps_relative_vruntime,
						smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_on_another_cpu, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_on_cpu_until_switched_out, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_resched_remote_sends_ipi, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_counts_sum_every_cpu, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_verify_checks_each_cpu, smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_delayed_sleeper_moves_uncounted,
						smp_setup, smp_teardown),
		cmocka_unit_test_setup_teardown(test_delayed_prev_woken_in_idle_balance,
						smp_setup, smp_teardown),
	};

	return SMP_RUN_TESTS(tests);
}
