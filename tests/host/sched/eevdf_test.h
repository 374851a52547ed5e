/*
 * tests/host/sched/eevdf_test.h - helpers shared by the EEVDF host tests
 * (test_eevdf.c, test_eevdf_class.c): reset under sched_preset=linux-6.12,
 * V and lag computed without side effects, tick until a task runs.
 * Included once per test binary (static definitions).
 */
#ifndef TESTS_HOST_SCHED_EEVDF_TEST_H
#define TESTS_HOST_SCHED_EEVDF_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "sim.h"
#include <kernel/cmdline.h>
#include "../../../kernel/sched/eevdf.h"

#define SEC		1000000000ULL
#define MSEC		1000000ULL

static struct cfs_rq *cfs;

static void eevdf_reset(void)
{
	sched_test_reset();
	knob_set_ok("sched_preset", "linux-6.12");
	cfs = &this_rq()->cfs;
}

static __attribute__((unused)) int setup(void **state)
{
	eevdf_reset();
	return 0;
}

/* For tests that build trees by hand: only clean up afterwards. */
static __attribute__((unused)) int teardown_raw(void **state)
{
	sched_test_reset();
	return 0;
}

/* V - v0 = floor(S / W) over the tree and a queued curr, without side effects. */
static __attribute__((unused)) s64 V_key(void)
{
	s64 S = eevdf_rq(cfs)->avg_vruntime;
	s64 W = (s64)eevdf_rq(cfs)->avg_load;

	if (cfs->curr && cfs->curr->on_rq) {
		S += entity_key(cfs, cfs->curr) * cfs->curr->load.weight;
		W += cfs->curr->load.weight;
	}
	if (!W)
		return 0;
	if (S < 0)
		S -= W - 1;
	return S / W;
}

static __attribute__((unused)) s64 lag_of(struct task *t)		/* V - v, virtual ns */
{
	return V_key() - entity_key(cfs, &t->se);
}

/* Tick until T runs (the pick reaches it). */
static __attribute__((unused)) void run_until(struct task *t)
{
	for (int i = 0; i < 1000 && current != t; i++)
		tick();
	assert_ptr_equal(current, t);
}


/*
 * Two nice-0 hogs with a 3 ms base slice: the first one picked (A) runs a
 * whole tick (1 ms) ahead of B, so V = (vA + vB) / 2 and A's lag is
 * -0.5 ms (virtual) when it blocks, still inside its slice.
 */
static __attribute__((unused)) struct task *ahead_of_V(struct task **other)
{
	struct task *x, *y;

	knob_set_ok("sched_base_slice_ns", "3000000");
	x = spawn("a", 0);
	y = spawn("b", 0);
	resched_if_needed();
	*other = current == x ? y : x;
	x = current;
	tick();
	assert_ptr_equal(current, x);
	assert_int_equal(lag_of(x), -500000);
	return x;
}

/* Make the zeroed task T a nice-NICE one at v - v0 = VKEY, deadline v0 + DKEY, not queued. */
static __attribute__((unused)) struct task *mk_at(struct task *t, int nice, s64 vkey, s64 dkey)
{
	t->policy = SCHED_NORMAL;
	t->static_prio = t->normal_prio = t->prio = NICE_TO_PRIO(nice);
	set_load_weight(t);
	t->sched_class = &fair_sched_class;
	t->se.vruntime = eevdf_rq(cfs)->zero_vruntime + (u64)vkey;
	t->se.deadline = eevdf_rq(cfs)->zero_vruntime + (u64)dkey;
	t->se.slice = sysctl_sched_base_slice;
	return t;
}

/* A nice-NICE task at v - v0 = VKEY, deadline v0 + DKEY, not queued (hand-built trees). */
static __attribute__((unused)) struct task *mk(const char *name, int nice, s64 vkey, s64 dkey)
{
	return mk_at(task_alloc(name), nice, vkey, dkey);
}

/* Queue T in the tree by hand (no accounting beyond nr_running). */
static __attribute__((unused)) void put(struct task *t)
{
	__enqueue_entity(cfs, &t->se);
	t->se.on_rq = 1;
	cfs->nr_running++;
}

#endif
