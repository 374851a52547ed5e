/*
 * tests/host/sched/test_eevdf_setattr.c - the EEVDF class (kernel/sched/
 * eevdf*.c) under sched_preset=linux-6.12: what a change of a task's
 * parameters does to its lag, deadline and slice protection.
 *   - nice (set_user_nice): Linux 6.12 dequeues with DEQUEUE_SAVE before
 *     set_load_weight(), so reweight_entity() sees a dequeued entity and
 *     scales only the stored lag, vlag' = vlag * w / w' (lag_i = w_i * vlag_i
 *     is kept); place_entity() then restores V - lag and the saved relative
 *     deadline (reweight_eevdf() is reached only by a queued entity, a
 *     group's, which Granule does not have);
 *   - the slice alone (sched_setattr's sched_runtime, eevdf_change_slice):
 *     dequeue, new slice, enqueue, set_next_task(): the lag and relative
 *     deadline are kept and current's slice protection is renewed.
 */
#include "eevdf_test.h"


static void assert_near(s64 a, s64 b, s64 tol)
{
	assert_true(a - b <= tol && b - a <= tol);
}

/*
 * Queued B (lag +0.5 ms virtual at weight 1024) goes to nice -5 (weight
 * 3121): its real lag w * vlag is kept, so vlag becomes 0.5 ms * 1024 /
 * 3121; its relative deadline (virtual) is restored unchanged.
 */
static void test_nice_scales_lag(void **state)
{
	struct task *b, *a = ahead_of_V(&b);
	s64 lag = lag_of(b), rel = (s64)(b->se.deadline - b->se.vruntime);

	(void)a;
	assert_int_equal(lag, 500000);
	set_user_nice(b, -5);
	assert_int_equal(b->se.load.weight, 3121);
	assert_near(lag_of(b), lag * 1024 / 3121, 2);
	assert_int_equal((s64)(b->se.deadline - b->se.vruntime), rel);
	assert_int_equal(sched_verify(), 0);
	run_until(b);			/* it is owed time: the pick reaches it */
}

/*
 * Running A asks for a 0.3 ms slice: it is requeued (lag and relative
 * deadline kept), the slice is its own from now on, and set_next_entity()
 * renews its protection even if a wakeup had cancelled it.
 */
static void test_slice_change_requeues_and_protects(void **state)
{
	struct task *b, *a = ahead_of_V(&b);
	s64 lag = lag_of(a), rel = (s64)(a->se.deadline - a->se.vruntime);
	s64 lag_b = lag_of(b);

	cancel_protect_slice(&a->se);
	assert_false(protect_slice(&a->se));
	eevdf_change_slice(a, 300000);
	assert_ptr_equal(current, a);
	assert_true(a->se.custom_slice);
	assert_int_equal(a->se.slice, 300000);
	assert_true(protect_slice(&a->se));		/* renewed */
	assert_near(lag_of(a), lag, 2);
	assert_near(lag_of(b), lag_b, 2);
	assert_int_equal((s64)(a->se.deadline - a->se.vruntime), rel);
	assert_int_equal(a->se.on_rq, 1);
	assert_int_equal(cfs->nr_running, 2);
	assert_int_equal(sched_verify(), 0);

	/* the same slice again: nothing to change, protection stays cancelled */
	cancel_protect_slice(&a->se);
	eevdf_change_slice(a, 300000);
	assert_false(protect_slice(&a->se));

	/* a queued task: requeued with its lag, slice back to the base */
	eevdf_change_slice(b, 0);
	assert_false(b->se.custom_slice);
	assert_int_equal(b->se.slice, 3000000);
	assert_near(lag_of(b), lag_b, 2);
	assert_int_equal(sched_verify(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, sched_test_teardown)
		T(test_nice_scales_lag),
		T(test_slice_change_requeues_and_protects),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
