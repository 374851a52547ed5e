/*
 * tests/host/sched/test_rtmutex.c - priority inheritance (kernel/sched/
 * rtmutex.c, Linux 2.6.35's kernel/rtmutex.c) and rt_mutex_setprio
 * (core.c), compiled unchanged.  The host cannot sleep in
 * rt_mutex_timed_lock(), so a task "blocks" as that function does: it
 * runs, queues its waiter (task_blocks_on_rt_mutex) and leaves the CPU
 * (block_current); a timeout or signal is its remove_waiter().
 * Tasks are SCHED_FIFO at distinct priorities so that who runs is known.
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
#include <kernel/rtmutex.h>
#include <kernel/proc.h>

#define PRIO(rtp)	(MAX_RT_PRIO - 1 - (rtp))	/* prio of rt_priority RTP */

/* Fork NAME at POLICY/PRIO (0: SCHED_NORMAL), wake it, let it preempt. */
static struct task *spawn_at(const char *name, int rtprio)
{
	struct task *t = task_alloc(name);

	sched_fork(t);
	if (rtprio)
		assert_int_equal(sched_setscheduler_prio(t, SCHED_FIFO, rtprio), 0);
	wake_up_new_task(t);
	resched_if_needed();
	return t;
}

/* T (running) blocks on LOCK as rt_mutex_timed_lock would; returns its result. */
static int block_on(struct rt_mutex *lock, struct rt_mutex_waiter *w, struct task *t)
{
	int ret;

	assert_ptr_equal(current, t);
	ret = task_blocks_on_rt_mutex(lock, w, t, 1);
	if (ret)
		return ret;
	block_current(TASK_INTERRUPTIBLE);
	return 0;
}

/* T's prio is what PI says, and its class follows it. */
static void assert_pi(struct task *t, int prio)
{
	assert_int_equal(t->prio, prio);
	assert_int_equal(rt_mutex_getprio(t), prio);
	assert_ptr_equal(t->sched_class, rt_prio(prio) ? &rt_sched_class : &fair_sched_class);
}

/* A nice-0 owner is boosted into rt by a FIFO 50 waiter, and back at unlock. */
static void test_boost_on_block_deboost_on_unlock(void **state)
{
	struct rt_mutex lock;
	struct rt_mutex_waiter w;
	struct task *l = spawn_at("low", 0), *h;

	rt_mutex_init(&lock);
	resched_if_needed();
	assert_int_equal(try_to_take_rt_mutex(&lock, l), 1);
	h = spawn_at("high", 50);
	assert_int_equal(block_on(&lock, &w, h), 0);
	assert_ptr_equal(h->pi_blocked_on, &w);
	assert_pi(l, PRIO(50));
	assert_pi(h, PRIO(50));
	assert_ptr_equal(current, l);		/* the boosted owner runs */
	assert_int_equal(sched_verify(), 0);

	rt_mutex_unlock(&lock);			/* as the owner */
	assert_ptr_equal(rt_mutex_owner(&lock), h);
	assert_null(h->pi_blocked_on);
	assert_false(rt_mutex_has_waiters(&lock));
	assert_pi(l, NICE_TO_PRIO(0));
	assert_int_equal(h->state, TASK_RUNNING);
	resched_if_needed();
	assert_ptr_equal(current, h);		/* the new owner preempts */
	assert_int_equal(sched_verify(), 0);
}

/*
 * The same under sched_preset=linux-6.12: a running EEVDF task leaves the
 * fair class for rt and comes back (its lag kept through the non-sleep
 * dequeue), with a second fair task and ticks in between; the invariant
 * checker (EEVDF's part too) stays clean.
 */
static void test_boost_under_eevdf(void **state)
{
	struct rt_mutex lock;
	struct rt_mutex_waiter w;
	struct task *l, *other, *h;

	knob_set_ok("sched_preset", "linux-6.12");
	l = spawn_at("low", 0);
	other = spawn_at("other", 0);
	TICK_WHILE(current != l);
	rt_mutex_init(&lock);
	try_to_take_rt_mutex(&lock, l);
	h = spawn_at("high", 50);
	assert_int_equal(block_on(&lock, &w, h), 0);
	assert_pi(l, PRIO(50));
	assert_ptr_equal(current, l);
	assert_int_equal(this_rq()->cfs.nr_running, 1);		/* only OTHER */
	ticks(20);						/* FIFO: L keeps the CPU */
	assert_ptr_equal(current, l);
	rt_mutex_unlock(&lock);
	assert_pi(l, NICE_TO_PRIO(0));
	assert_int_equal(this_rq()->cfs.nr_running, 2);
	resched_if_needed();
	assert_ptr_equal(current, h);
	block_current(TASK_INTERRUPTIBLE);
	ticks(20);
	assert_true(current == l || current == other);
	assert_int_equal(sched_verify(), 0);
}

/*
 * H -> L1 (T1) -> L2 (T2) -> L3 (T3): H's block boosts the far owner T3;
 * each unlock hands on and deboosts, and the new owner keeps the boost of
 * the waiters behind it.
 */
static void test_chain_boosts_far_owner(void **state)
{
	struct rt_mutex l1, l2, l3;
	struct rt_mutex_waiter w1, w2, wh;
	struct task *t3, *t2, *t1, *h;

	rt_mutex_init(&l1);
	rt_mutex_init(&l2);
	rt_mutex_init(&l3);
	t3 = spawn_at("t3", 10);
	try_to_take_rt_mutex(&l3, t3);
	t2 = spawn_at("t2", 20);
	try_to_take_rt_mutex(&l2, t2);
	assert_int_equal(block_on(&l3, &w2, t2), 0);
	assert_pi(t3, PRIO(20));
	t1 = spawn_at("t1", 30);
	try_to_take_rt_mutex(&l1, t1);
	assert_int_equal(block_on(&l2, &w1, t1), 0);
	assert_pi(t2, PRIO(30));
	assert_pi(t3, PRIO(30));		/* through T2's waiter on L3 */
	h = spawn_at("h", 40);
	assert_int_equal(block_on(&l1, &wh, h), 0);
	assert_pi(t1, PRIO(40));
	assert_pi(t2, PRIO(40));
	assert_pi(t3, PRIO(40));
	assert_ptr_equal(current, t3);
	assert_int_equal(sched_verify(), 0);

	rt_mutex_unlock(&l3);			/* T3 -> T2, which stays boosted */
	assert_pi(t3, PRIO(10));
	assert_ptr_equal(rt_mutex_owner(&l3), t2);
	assert_pi(t2, PRIO(40));
	resched_if_needed();
	assert_ptr_equal(current, t2);
	rt_mutex_unlock(&l2);
	assert_pi(t2, PRIO(20));
	assert_pi(t1, PRIO(40));
	resched_if_needed();
	assert_ptr_equal(current, t1);
	rt_mutex_unlock(&l1);
	assert_pi(t1, PRIO(30));
	resched_if_needed();
	assert_ptr_equal(current, h);
	assert_ptr_equal(rt_mutex_owner(&l1), h);
	assert_int_equal(sched_verify(), 0);
}

/*
 * The requeued waiter stops being its lock's top waiter, and the walk goes
 * on with the lock's new top waiter (2.6.35's "Deboost the owner" branch
 * sets waiter = rt_mutex_top_waiter(lock)): T3 (FIFO 1) holds M2; T2
 * (FIFO 2) holds M1 and blocks on M2; C (FIFO 20) then T1 (FIFO 30) block
 * on M1, so T2 and T3 run at 30.  T1 drops to FIFO 10: C is M1's top
 * waiter now, T2 runs at 20, and so must T3 beyond it (it stayed at 30).
 */
static void test_chain_walks_on_past_a_deboost(void **state)
{
	struct rt_mutex m1, m2;
	struct rt_mutex_waiter w2, wc, w1;
	struct task *t3, *t2, *c, *t1;

	rt_mutex_init(&m1);
	rt_mutex_init(&m2);
	t3 = spawn_at("t3", 1);
	try_to_take_rt_mutex(&m2, t3);
	t2 = spawn_at("t2", 2);
	try_to_take_rt_mutex(&m1, t2);
	assert_int_equal(block_on(&m2, &w2, t2), 0);
	c = spawn_at("c", 20);
	assert_int_equal(block_on(&m1, &wc, c), 0);
	t1 = spawn_at("t1", 30);
	assert_int_equal(block_on(&m1, &w1, t1), 0);
	assert_pi(t2, PRIO(30));
	assert_pi(t3, PRIO(30));
	assert_int_equal(sched_verify(), 0);

	assert_int_equal(sched_setscheduler_prio(t1, SCHED_FIFO, 10), 0);
	assert_int_equal(sched_verify(), 0);		/* the chain invariant */
	assert_ptr_equal(rt_mutex_top_waiter(&m1), &wc);
	assert_pi(t2, PRIO(20));
	assert_int_equal(w2.list_entry.prio, PRIO(20));	/* T2's waiter on M2 */
	assert_pi(t3, PRIO(20));
}

/* A owns LA, B owns LB and waits for LA: A blocking on LB closes a cycle. */
static void test_deadlock_cycle(void **state)
{
	struct rt_mutex la, lb;
	struct rt_mutex_waiter wb, wa;
	struct task *a, *b;

	rt_mutex_init(&la);
	rt_mutex_init(&lb);
	a = spawn_at("a", 10);
	try_to_take_rt_mutex(&la, a);
	b = spawn_at("b", 20);
	try_to_take_rt_mutex(&lb, b);
	assert_int_equal(block_on(&la, &wb, b), 0);
	assert_pi(a, PRIO(20));
	assert_ptr_equal(current, a);
	assert_int_equal(task_blocks_on_rt_mutex(&lb, &wa, a, 1), -EDEADLK);
	remove_waiter(&lb, &wa);		/* as the slow lock's error path */
	assert_null(a->pi_blocked_on);
	assert_pi(a, PRIO(20));			/* still lent B's prio */
	assert_pi(b, PRIO(20));
	assert_true(plist_head_empty(&lb.wait_list));
	/* and the cycle closed through a lock where A is not the top waiter */
	assert_int_equal(sched_verify(), 0);
}

/* A cycle A -> LB (B) -> LA (A) where the waiter is not B's top pi waiter. */
static void test_deadlock_cycle_not_top_waiter(void **state)
{
	struct rt_mutex la, lb, lc;
	struct rt_mutex_waiter wb, wc, wa;
	struct task *a, *b, *c;

	rt_mutex_init(&la);
	rt_mutex_init(&lb);
	rt_mutex_init(&lc);
	a = spawn_at("a", 10);
	try_to_take_rt_mutex(&la, a);
	b = spawn_at("b", 20);
	try_to_take_rt_mutex(&lb, b);
	try_to_take_rt_mutex(&lc, b);
	c = spawn_at("c", 60);			/* B's top pi waiter, on LC */
	assert_int_equal(block_on(&lc, &wc, c), 0);
	assert_ptr_equal(current, b);
	assert_int_equal(block_on(&la, &wb, b), 0);
	assert_pi(a, PRIO(60));
	assert_int_equal(task_blocks_on_rt_mutex(&lb, &wa, a, 1), -EDEADLK);
	remove_waiter(&lb, &wa);
	assert_pi(b, PRIO(60));
	assert_int_equal(sched_verify(), 0);
}

/* A waiter that times out leaves, and the owner drops to its own prio. */
static void test_timeout_removes_waiter_and_deboosts(void **state)
{
	struct rt_mutex lock;
	struct rt_mutex_waiter wm, wh;
	struct task *l = spawn_at("low", 5), *m, *h;

	rt_mutex_init(&lock);
	try_to_take_rt_mutex(&lock, l);
	m = spawn_at("mid", 30);
	assert_int_equal(block_on(&lock, &wm, m), 0);
	h = spawn_at("high", 50);
	assert_int_equal(block_on(&lock, &wh, h), 0);
	assert_pi(l, PRIO(50));
	wake_up_process(h);			/* the hrtimer sleeper fires */
	resched_if_needed();
	assert_ptr_equal(current, l);		/* equal prio: FIFO, no preemption */
	sched_yield();
	assert_ptr_equal(current, h);
	remove_waiter(&lock, &wh);		/* -ETIMEDOUT */
	assert_null(h->pi_blocked_on);
	assert_pi(l, PRIO(30));			/* the next waiter's prio */
	assert_ptr_equal(rt_mutex_top_waiter(&lock), &wm);
	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, l);
	rt_mutex_unlock(&lock);
	assert_pi(l, PRIO(5));
	assert_ptr_equal(rt_mutex_owner(&lock), m);
	assert_int_equal(sched_verify(), 0);
}

/* sched_setscheduler of a blocked waiter re-walks the chain (rt_mutex_adjust_pi). */
static void test_setscheduler_of_waiter_rewalks(void **state)
{
	struct rt_mutex l1, l2;
	struct rt_mutex_waiter wm, ww;
	struct task *t = spawn_at("t", 5), *m, *w;

	rt_mutex_init(&l1);
	rt_mutex_init(&l2);
	try_to_take_rt_mutex(&l2, t);
	m = spawn_at("m", 10);
	try_to_take_rt_mutex(&l1, m);
	assert_int_equal(block_on(&l2, &wm, m), 0);
	w = spawn_at("w", 20);
	assert_int_equal(block_on(&l1, &ww, w), 0);
	assert_pi(t, PRIO(20));
	assert_int_equal(sched_setscheduler_prio(w, SCHED_FIFO, 70), 0);
	assert_int_equal(ww.list_entry.prio, PRIO(70));
	assert_pi(m, PRIO(70));
	assert_pi(t, PRIO(70));
	assert_int_equal(sched_setscheduler_prio(w, SCHED_FIFO, 1), 0);
	assert_pi(m, PRIO(10));			/* its own again */
	assert_pi(t, PRIO(10));			/* M's, lent on */
	assert_int_equal(sched_verify(), 0);
}

/*
 * A boosted owner keeps its boost through its own policy and nice changes
 * (2.6.35: __setscheduler's p->prio = rt_mutex_getprio(p), effective_prio
 * in set_user_nice), and gets the new normal_prio when the lock goes.
 */
static void test_boost_survives_policy_and_nice(void **state)
{
	struct rt_mutex lock;
	struct rt_mutex_waiter w;
	struct task *l = spawn_at("low", 0), *h;

	rt_mutex_init(&lock);
	try_to_take_rt_mutex(&lock, l);
	h = spawn_at("high", 50);
	assert_int_equal(block_on(&lock, &w, h), 0);
	assert_ptr_equal(current, l);
	set_user_nice(l, 5);
	assert_int_equal(l->static_prio, NICE_TO_PRIO(5));
	assert_int_equal(l->normal_prio, NICE_TO_PRIO(5));
	assert_pi(l, PRIO(50));
	assert_int_equal(sched_setscheduler_prio(l, SCHED_FIFO, 10), 0);
	assert_int_equal(l->normal_prio, PRIO(10));
	assert_pi(l, PRIO(50));
	assert_int_equal(sched_setscheduler_prio(l, SCHED_FIFO, 60), 0);
	assert_pi(l, PRIO(60));			/* its own is better now */
	assert_int_equal(sched_setscheduler_prio(l, SCHED_NORMAL, 0), 0);
	assert_pi(l, PRIO(50));
	rt_mutex_unlock(&lock);
	assert_pi(l, NICE_TO_PRIO(5));
	assert_int_equal(sched_verify(), 0);
}

/* The chain walk stops at max_lock_depth (here 2): the far owner is not reached. */
static void test_max_lock_depth(void **state)
{
	struct rt_mutex l[3];
	struct rt_mutex_waiter w[3];
	struct task *t[4];
	int saved = max_lock_depth;

	for (int i = 0; i < 3; i++)
		rt_mutex_init(&l[i]);
	t[3] = spawn_at("t3", 10);
	try_to_take_rt_mutex(&l[2], t[3]);
	for (int i = 2; i >= 1; i--) {
		t[i] = spawn_at(i == 2 ? "t2" : "t1", 40 - 10 * i);
		try_to_take_rt_mutex(&l[i - 1], t[i]);
		assert_int_equal(block_on(&l[i], &w[i], t[i]), 0);
	}
	knob_set_ok("max_lock_depth", "1");		/* kernel.max_lock_depth */
	t[0] = spawn_at("h", 50);
	assert_int_equal(task_blocks_on_rt_mutex(&l[0], &w[0], t[0], 0), 0);
	assert_pi(t[1], PRIO(50));		/* the direct owner */
	assert_pi(t[2], PRIO(50));		/* depth 1 */
	assert_pi(t[3], PRIO(30));		/* beyond: not reached */
	assert_true(capture_contains("Maximum lock depth 1 reached task: h ("));
	max_lock_depth = saved;
	remove_waiter(&l[0], &w[0]);
	assert_pi(t[3], PRIO(30));
	assert_int_equal(sched_verify(), 0);
}

/*
 * The tests leave tasks blocked on locks and waiters of their own stack
 * frames (each test checks sched_verify() while they live); before the
 * common teardown checks the runqueue, forget them.
 */
static int rtmutex_teardown(void **state)
{
	struct task *p;

	list_for_each_entry(p, &task_list, tasks)
		p->pi_blocked_on = NULL;
	return sched_test_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, sched_test_setup, rtmutex_teardown)
		T(test_boost_on_block_deboost_on_unlock),
		T(test_boost_under_eevdf),
		T(test_chain_boosts_far_owner),
		T(test_chain_walks_on_past_a_deboost),
		T(test_deadlock_cycle),
		T(test_deadlock_cycle_not_top_waiter),
		T(test_timeout_removes_waiter_and_deboosts),
		T(test_setscheduler_of_waiter_rewalks),
		T(test_boost_survives_policy_and_nice),
		T(test_max_lock_depth),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
