/*
 * tests/host/sched/test_eevdf_class.c - the EEVDF class (kernel/sched/
 * eevdf*.c), compiled unchanged, under sched_preset=linux-6.12, part 2:
 *   - DELAY_DEQUEUE: a sleeper with negative lag stays queued until the
 *     pick reaches it, and DELAY_ZERO clips what it leaves with;
 *   - RUN_TO_PARITY and PREEMPT_SHORT at wakeup; the tick's resched when
 *     the deadline passes, and a CPU-time clock read's;
 *   - custom slices (sched_setattr): the 0.1..100 ms clamp, fork and
 *     RESET_ON_FORK;
 *   - knobs: the preset, sched_base_slice_ns, the 6.12 feature names, a
 *     CFS knob under EEVDF (one line, nothing changes) and vice versa;
 *   - the simulator: nice shares, and seeded random workloads with the
 *     invariant checker (sched_verify_eevdf) on after every event.
 */
#include "eevdf_test.h"

/* ---- DELAY_DEQUEUE ------------------------------------------------------------ */


/*
 * A blocks with negative lag: instead of leaving (to come back later at
 * V - lag, or, after a sleep long enough to clamp or forget it, not
 * repaying it at all), it stays queued, delayed.  B runs; A stays queued
 * while its lag is negative; when the pick reaches it, it leaves, and
 * DELAY_ZERO clips its positive lag to 0.
 */
static void test_delay_dequeue(void **state)
{
	struct task *b, *a = ahead_of_V(&b);
	int delayed_ticks = 0;

	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, b);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(a->se.on_rq, 1);
	assert_int_equal(a->on_rq, 1);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 1);
	assert_int_equal(cfs->nr_running, 2);		/* still competing ... */
	assert_int_equal(this_rq()->nr_running, 1);	/* ... but counted out by core.c */
	assert_true(lag_of(a) < 0);

	while (a->se.sched_delayed && delayed_ticks < 50) {
		s64 lag = lag_of(a);

		tick();
		delayed_ticks++;
		/* it cannot have left while its lag was still negative */
		if (lag < 0 && lag_of(a) < 0)
			assert_int_equal(a->se.sched_delayed, 1);
	}
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(a->se.vlag, 0);		/* DELAY_ZERO: >= 0 clipped */
	assert_int_equal(this_rq()->nr_running, 1);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 0);
	assert_true(delayed_ticks >= 1);
	assert_int_equal(sched_verify(), 0);
}

/* A delayed sleeper woken early is simply requeued (ttwu_runnable). */
static void test_delayed_task_woken(void **state)
{
	struct task *b, *a = ahead_of_V(&b);

	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(wake_up_process(a), 0);	/* it was still queued */
	assert_int_equal(a->state, TASK_RUNNING);
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 0);
	assert_int_equal(this_rq()->nr_running, 2);
	assert_int_equal(lag_of(a), -500000);		/* still owes: not re-placed */
}

/* NO_DELAY_DEQUEUE: it leaves at once with its negative lag stored. */
static void test_no_delay_dequeue(void **state)
{
	struct task *b, *a = ahead_of_V(&b);

	knob_set_ok("sched_features", "NO_DELAY_DEQUEUE");
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(a->se.vlag, -500000);
	assert_int_equal(this_rq()->nr_running, 1);
}

/* ---- preemption ----------------------------------------------------------------- */

/*
 * a hogs alone; it has just been picked (its slice protected).  w wakes
 * at V (lag 0): eligible, with an earlier deadline than a's.  The
 * pick would choose w, but RUN_TO_PARITY keeps a until its deadline;
 * NO_RUN_TO_PARITY preempts; PREEMPT_SHORT preempts if w asks for a
 * shorter slice (0.1 ms).
 */
static struct task *parity_setup(void)
{
	struct task *a = spawn("a", 0), *w = spawn("w", 0);

	resched_if_needed();
	run_until(w);				/* put w to sleep */
	knob_set_ok("sched_features", "NO_DELAY_DEQUEUE");
	block_current(TASK_INTERRUPTIBLE);
	knob_set_ok("sched_features", "DELAY_DEQUEUE");
	run_until(a);
	/* a has just been picked with a long request (10 ms to its deadline) */
	a->se.deadline = a->se.vruntime + 10 * MSEC;
	set_protect_slice(&a->se);
	assert_true(entity_eligible(cfs, &a->se));
	w->se.vlag = 0;				/* w joins at V */
	return w;
}

static void test_run_to_parity(void **state)
{
	struct task *w = parity_setup();

	wake_up_process(w);
	assert_int_equal(current->need_resched, 0);
	assert_true(entity_eligible(cfs, &w->se));
	assert_true(entity_before(&w->se, &current->se));
}

static void test_no_run_to_parity(void **state)
{
	struct task *w;

	knob_set_ok("sched_features", "NO_RUN_TO_PARITY");
	w = parity_setup();
	wake_up_process(w);
	assert_int_equal(current->need_resched, 1);
	resched_if_needed();
	assert_ptr_equal(current, w);
}

static void test_preempt_short(void **state)
{
	struct task *w = parity_setup(), *a = current;

	w->se.custom_slice = 1;
	w->se.slice = 100000;
	wake_up_process(w);
	assert_int_equal(a->need_resched, 1);
	assert_false(protect_slice(&a->se));
	resched_if_needed();
	assert_ptr_equal(current, w);
}

static void test_no_preempt_short(void **state)
{
	struct task *w;

	knob_set_ok("sched_features", "NO_PREEMPT_SHORT");
	w = parity_setup();
	w->se.custom_slice = 1;
	w->se.slice = 100000;
	wake_up_process(w);
	assert_int_equal(current->need_resched, 0);
}

/*
 * The tick: update_curr() charges curr; once vruntime >= deadline a new
 * deadline (v + vslice) is set and, with others queued, curr is
 * rescheduled; before that, no tick preempts.
 */
static void test_tick_resched_at_deadline(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	u64 dl;

	knob_set_ok("sched_base_slice_ns", "3000000");	/* 3 ms: several ticks */
	resched_if_needed();
	run_until(a);
	a->se.deadline = a->se.vruntime + 3000000;	/* just picked, 3 ms request */
	set_protect_slice(&a->se);
	dl = a->se.deadline;
	for (int i = 0; i < 2; i++) {
		fake_clock_advance(MSEC);
		scheduler_tick();
		assert_int_equal(a->need_resched, 0);
	}
	fake_clock_advance(MSEC);
	scheduler_tick();
	assert_true(a->se.vruntime >= dl);
	assert_int_equal(a->need_resched, 1);
	assert_int_equal(a->se.deadline, a->se.vruntime + 3000000);
	(void)b;
}

/*
 * Reading the CPU-time clock (task_sched_runtime, clock_gettime's
 * CLOCK_THREAD_CPUTIME_ID) charges curr as Linux 6.12's does, through the
 * class's update_curr: a passed deadline is renewed and curr rescheduled
 * between ticks.  CFS keeps 2.6.35's, which only projects the running part.
 */
static void test_cputime_read_resched_at_deadline(void **state)
{
	struct task *a = spawn("a", 0), *b = spawn("b", 0);
	u64 dl, sum;

	assert_ptr_equal(task_sched_runtime, task_sched_runtime_612);
	knob_set_ok("sched_base_slice_ns", "3000000");
	resched_if_needed();
	run_until(a);
	a->se.deadline = a->se.vruntime + 3000000;
	set_protect_slice(&a->se);
	dl = a->se.deadline;
	sum = a->se.sum_exec_runtime;

	fake_clock_advance(2 * MSEC);			/* inside the slice */
	assert_int_equal(task_sched_runtime(a), sum + 2 * MSEC);
	assert_int_equal(a->se.sum_exec_runtime, sum + 2 * MSEC);	/* charged */
	assert_int_equal(a->need_resched, 0);

	fake_clock_advance(MSEC + 1);			/* past the deadline, no tick */
	assert_int_equal(task_sched_runtime(a), sum + 3 * MSEC + 1);
	assert_true(a->se.vruntime >= dl);
	assert_int_equal(a->se.deadline, a->se.vruntime + 3000000);
	assert_int_equal(a->need_resched, 1);
	assert_int_equal(task_sched_runtime(b), b->se.sum_exec_runtime); /* not running */

	/* CFS: the 2.6.35 projection, nothing charged */
	knob_set_ok("sched_preset", "linux-2.6.35");
	assert_ptr_equal(task_sched_runtime, task_sched_runtime_2635);
}

/*
 * sched_setattr's sched_runtime (eevdf_set_slice, Linux 6.12's
 * __setscheduler_params): clamped to 0.1..100 ms, 0 = the base slice; a
 * fork inherits a custom slice unless the parent set RESET_ON_FORK, which
 * also resets a negative nice (sched_fork); the base slice follows the knob.
 */
static void test_custom_slice_clamps_and_fork(void **state)
{
	struct task *a = spawn("a", 0), *c;

	eevdf_set_slice(a, 1);
	assert_true(a->se.custom_slice);
	assert_int_equal(a->se.slice, 100000);			/* NSEC_PER_MSEC/10 */
	eevdf_set_slice(a, 99999);
	assert_int_equal(a->se.slice, 100000);
	eevdf_set_slice(a, 100000);
	assert_int_equal(a->se.slice, 100000);
	eevdf_set_slice(a, 3000000);
	assert_int_equal(a->se.slice, 3000000);			/* in range: kept */
	eevdf_set_slice(a, 100000001ULL);
	assert_int_equal(a->se.slice, 100000000);		/* NSEC_PER_MSEC*100 */
	eevdf_set_slice(a, 1ULL << 40);				/* > 32 bits too */
	assert_int_equal(a->se.slice, 100000000);
	eevdf_set_slice(a, 0);
	assert_false(a->se.custom_slice);
	assert_int_equal(a->se.slice, sysctl_sched_base_slice);

	/* fork from A (made current): the custom slice is inherited ... */
	eevdf_set_slice(a, 250000);
	resched_if_needed();
	run_until(a);
	c = spawn("c", 0);
	assert_true(c->se.custom_slice);
	assert_int_equal(c->se.slice, 250000);
	/* ... and place_entity keeps it (vd - v = slice / 2 for a fork) */
	assert_int_equal(c->se.deadline - c->se.vruntime, 125000);

	/* ... unless RESET_ON_FORK: base slice, and nice -5 becomes 0 */
	a->sched_reset_on_fork = 1;
	set_user_nice(a, -5);
	c = task_alloc("d");
	sched_fork(c);
	assert_false(c->se.custom_slice);
	assert_int_equal(c->se.slice, sysctl_sched_base_slice);
	assert_int_equal(task_nice(c), 0);
	assert_int_equal(c->sched_reset_on_fork, 0);		/* not passed on */
	wake_up_new_task(c);
	a->sched_reset_on_fork = 0;
}

/* ---- knobs ---------------------------------------------------------------------- */

static void test_knobs(void **state)
{
	u32 lat = sysctl_sched_latency;

	assert_true(sched_eevdf());
	assert_ptr_equal(fair_sched_class_rw.pick_next_task, eevdf_sched_class.pick_next_task);
	assert_int_equal(sysctl_sched_base_slice, 700000);
	assert_int_equal(sysctl_sched_features_eevdf, sched_features_eevdf_default());
	assert_true(sched_feat(PLACE_LAG) && sched_feat(DELAY_DEQUEUE) &&
		    !sched_feat(NEXT_BUDDY));

	capture_reset();
	assert_int_equal(knob_apply("sched_min_granularity_ns", "1000000"), -1);
	assert_true(capture_contains("sched_min_granularity_ns has no effect under "
				     "linux-6.12 (EEVDF); see sched_base_slice_ns\n"));
	assert_int_equal(knob_apply("sched_latency_ns", "1000000"), -1);
	assert_int_equal(sysctl_sched_latency, lat);
	assert_int_equal(knob_apply("sched_child_runs_first", "1"), -1);
	assert_true(capture_contains("sched_child_runs_first has no effect under "
				     "linux-6.12 (EEVDF)\n"));

	knob_set_ok("sched_base_slice_ns", "3000000");
	assert_int_equal(sysctl_sched_base_slice, 3000000);
	assert_int_equal(normalized_sysctl_sched_base_slice, 3000000);
	assert_int_equal(knob_apply("sched_base_slice_ns", "99999"), -1);
	assert_int_equal(sysctl_sched_base_slice, 3000000);

	knob_set_ok("sched_features", "NO_PLACE_LAG,NO_RUN_TO_PARITY");
	assert_false(sched_feat(PLACE_LAG) || sched_feat(RUN_TO_PARITY));
	assert_int_equal(knob_apply("sched_features", "START_DEBIT"), -1);	/* CFS's */
	assert_false(sched_feat(PLACE_LAG));

	/* back to CFS: the EEVDF knob is refused there */
	knob_set_ok("sched_preset", "commit-0bf377bbb0be");
	assert_false(sched_eevdf());
	assert_ptr_equal(fair_sched_class_rw.pick_next_task, cfs_sched_class.pick_next_task);
	capture_reset();
	assert_int_equal(knob_apply("sched_base_slice_ns", "1000000"), -1);
	assert_true(capture_contains("sched_base_slice_ns has no effect under "
				     "commit-0bf377bbb0be (CFS); see sched_min_granularity_ns\n"));
	knob_set_ok("sched_min_granularity_ns", "1000000");
}

/* ---- the simulator ------------------------------------------------------------- */

static struct sim sim;
static struct sim_task storage[96];

static void test_sim_nice_shares(void **state)
{
	static const int pairs[][2] = { { 0, 1 }, { 0, 5 }, { -5, 5 } };

	for (size_t k = 0; k < 3; k++) {
		struct sim_task *h0, *h1;
		double w0 = prio_to_weight[pairs[k][0] + 20];
		double w1 = prio_to_weight[pairs[k][1] + 20];
		double got;

		eevdf_reset();
		sim_init(&sim, storage, 96, 1);
		h0 = sim_spawn(&sim, SIM_HOG, "h0", pairs[k][0], 0, 0);
		h1 = sim_spawn(&sim, SIM_HOG, "h1", pairs[k][1], 0, 0);
		sim_run(&sim, 10 * SEC);
		got = (double)h0->cpu_ns / (double)(h0->cpu_ns + h1->cpu_ns);
		if (got < w0 / (w0 + w1) - 0.01 || got > w0 / (w0 + w1) + 0.01)
			fail_msg("nice %d vs %d: %.4f, want %.4f", pairs[k][0], pairs[k][1],
				 got, w0 / (w0 + w1));
		assert_int_equal(sim_check_runtimes(&sim), 0);
		assert_int_equal(sched_verify_failures, 0);
	}
}

static void random_workload(u32 seed)
{
	static const unsigned int hzs[] = { 100, 250, 300, 1000 };
	int n;

	eevdf_reset();
	sim_init(&sim, storage, 48, seed);
	HZ = hzs[sim_rand(&sim) % 4];
	sim_init(&sim, storage, 48, seed);
	sim.random = 1;
	sim.max_live = 40;
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
}

static void test_random_workloads(void **state)
{
	unsigned long forks = 0, exits = 0, events = 0, delayed = 0;

	for (u32 seed = 1; seed <= 300; seed++) {
		random_workload(seed);
		forks += sim.forks;
		exits += sim.exits;
		events += sim.events;
		delayed += eevdf_rq(cfs)->h_nr_delayed;
	}
	print_message("300 EEVDF random workloads: %lu events, %lu forks, %lu exits\n",
		      events, forks, exits);
	assert_true(forks > 900 && exits > 300);
}

/*
 * A delayed sleeper is counted by the fair class but not by rq->nr_running,
 * so "nr_running == cfs.nr_running" does not mean "no rt task": with one
 * delayed sleeper and one SCHED_FIFO task queued the two are equal.
 * pick_next_task()'s fast path asks the rt class's own count instead, and
 * when rt wins, the put of the fair prev that EEVDF defers to its own pick
 * is finished (cfs_rq->curr is no longer b's entity).
 */
static void test_rt_beats_a_delayed_sleeper(void **state)
{
	struct task *b, *a = ahead_of_V(&b), *r = task_alloc("fifo");

	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, b);
	assert_int_equal(a->se.sched_delayed, 1);
	sched_fork(r);
	assert_int_equal(sched_setscheduler_prio(r, SCHED_FIFO, 50), 0);
	wake_up_new_task(r);
	assert_int_equal(this_rq()->nr_running, this_rq()->cfs.nr_running);
	resched_if_needed();
	assert_ptr_equal(current, r);
	assert_null(this_rq()->cfs.curr);	/* b's deferred put was finished */
	assert_int_equal(sched_verify(), 0);
}

/*
 * A delayed sleeper woken while another class runs (here rt; at several
 * CPUs also the idle task) is requeued by the wakeup itself, as 6.12's
 * ttwu_runnable() does before wakeup_preempt(), not by the fair class's
 * preemption check, which only a running fair task calls.  Otherwise it
 * stays delayed though TASK_RUNNING, counted out of rq->nr_running, and
 * when the rt task blocks the pick takes B, which is eligible, and leaves
 * A waiting there.
 */
static void test_delayed_sleeper_woken_under_rt(void **state)
{
	struct task *b, *a = ahead_of_V(&b), *r = task_alloc("fifo");

	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->se.sched_delayed, 1);
	sched_fork(r);
	assert_int_equal(sched_setscheduler_prio(r, SCHED_FIFO, 50), 0);
	wake_up_new_task(r);
	resched_if_needed();
	assert_ptr_equal(current, r);

	assert_int_equal(wake_up_process(a), 0);	/* it was still queued */
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 0);
	assert_int_equal(this_rq()->nr_running, 3);
	assert_int_equal(sched_verify(), 0);

	block_current(TASK_INTERRUPTIBLE);		/* r sleeps: a fair pick */
	assert_ptr_equal(current->sched_class, &fair_sched_class);
	assert_int_equal(this_rq()->nr_running, 2);
	assert_int_equal(sched_verify(), 0);
}

/*
 * A delayed sleeper moved to SCHED_FIFO (Linux 6.12's __sched_setscheduler:
 * "if (prev_class != next_class && p->se.sched_delayed) dequeue_task(...
 * DEQUEUE_DELAYED)"): it leaves the fair class first, so it is on no
 * runqueue while it sleeps, the invariants hold, and its wakeup queues it
 * in the rt class, where it preempts the fair task.
 */
static void test_delayed_sleeper_changes_class(void **state)
{
	struct task *b, *a = ahead_of_V(&b);

	block_current(TASK_INTERRUPTIBLE);
	assert_ptr_equal(current, b);
	assert_int_equal(a->se.sched_delayed, 1);
	assert_int_equal(sched_setscheduler_prio(a, SCHED_FIFO, 50), 0);
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(this_rq()->rt.rt_nr_running, 0);
	assert_int_equal(eevdf_rq(cfs)->h_nr_delayed, 0);
	assert_int_equal(cfs->nr_running, 1);
	assert_int_equal(this_rq()->nr_running, 1);
	assert_int_equal(sched_verify(), 0);

	assert_int_equal(wake_up_process(a), 1);	/* queued anew */
	assert_ptr_equal(a->sched_class, &rt_sched_class);
	assert_int_equal(this_rq()->rt.rt_nr_running, 1);
	resched_if_needed();
	assert_ptr_equal(current, a);
	assert_int_equal(sched_verify(), 0);
}

/* The same through a PI boost (Linux 6.12's rt_mutex_setprio), and back. */
static void test_delayed_sleeper_boosted(void **state)
{
	struct task *b, *a = ahead_of_V(&b);

	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(a->se.sched_delayed, 1);
	rt_mutex_setprio(a, MAX_RT_PRIO - 1 - 50);
	assert_ptr_equal(a->sched_class, &rt_sched_class);
	assert_int_equal(a->se.sched_delayed, 0);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(this_rq()->rt.rt_nr_running, 0);
	assert_int_equal(sched_verify(), 0);
	rt_mutex_setprio(a, a->normal_prio);	/* deboosted while asleep */
	assert_ptr_equal(a->sched_class, &fair_sched_class);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(wake_up_process(a), 1);
	assert_int_equal(cfs->nr_running, 2);
	assert_int_equal(sched_verify(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, sched_test_teardown)
		T(test_delay_dequeue),
		T(test_rt_beats_a_delayed_sleeper),
		T(test_delayed_sleeper_woken_under_rt),
		T(test_delayed_sleeper_changes_class),
		T(test_delayed_sleeper_boosted),
		T(test_delayed_task_woken),
		T(test_no_delay_dequeue),
		T(test_run_to_parity),
		T(test_no_run_to_parity),
		T(test_preempt_short),
		T(test_no_preempt_short),
		T(test_tick_resched_at_deadline),
		T(test_cputime_read_resched_at_deadline),
		T(test_custom_slice_clamps_and_fork),
		T(test_knobs),
		T(test_sim_nice_shares),
		T(test_random_workloads),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
