/*
 * tests/labs/lab.h - shared set-up of the labs' host checks: the
 * scheduler reset to a fixed preset (linux-2.6.35) so a lab's expected
 * figures do not move when the default preset does.
 */
#ifndef TESTS_LABS_LAB_H
#define TESTS_LABS_LAB_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "../host/sched/fake.h"
#include "../../kernel/sched/sched.h"

#define RQ	(&runqueue)
#define CFS	(&runqueue.cfs)

/* cmocka setup: defaults, then the 2.6.35 preset the figures were taken on */
static inline int lab_setup(void **state)
{
	sched_test_setup(state);
	knob_set_ok("sched_preset", "linux-2.6.35");
	return 0;
}

#define LAB_TEST(f)	cmocka_unit_test_setup_teardown(f, lab_setup, sched_test_teardown)

/*
 * All labs' checks are one binary, build/host/labs (built once per tree;
 * tests/labs/main.c): `labs NAME` runs lab NAME's group, `labs` all of
 * them.  Each test_lab_NAME.c ends with LAB_GROUP(NAME, its tests[]).
 */
struct lab_group {
	const char *name;
	const struct CMUnitTest *tests;
	size_t count;
};

#define LAB_GROUP(lab, t)						\
	const struct lab_group lab_group_##lab = {			\
		#lab, t, sizeof(t) / sizeof((t)[0]) }

/* the labs, in tools/lab's order */
#define LAB_NAMES(X)	X(update_curr) X(place_entity) X(check_preempt_tick) \
			X(pick_next_entity) X(eevdf_pick) X(start_nice)

#endif
