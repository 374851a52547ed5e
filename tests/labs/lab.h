/*
 * tests/labs/lab.h - shared set-up of the labs' host checks: the
 * scheduler reset to a fixed preset (linux-2.6.35) so a lab's expected
 * figures do not move when the default preset does, and the checks'
 * assertions, which say what went wrong in words (report.c).
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

#define RQ	this_rq()
#define CFS	(&this_rq()->cfs)
#define MS	1000000LL

void lab_scenario(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lab_scenario_clear(void);

/* cmocka setup: defaults, then the 2.6.35 preset the figures were taken on */
static inline int lab_setup(void **state)
{
	sched_test_setup(state);
	lab_scenario_clear();
	knob_set_ok("sched_preset", "linux-2.6.35");
	return 0;
}

#define LAB_TEST(f)	cmocka_unit_test_setup_teardown(f, lab_setup, sched_test_teardown)

/*
 * The assertions of a check.  Each check first says what it sets up
 * (lab_scenario, printf-style, in words a student reads without opening
 * the test); an assertion that fails prints that scenario, WHAT it
 * checked, the value expected (the reference's) and the value got, and
 * the file and line of the assertion, then fails the check:
 *
 *	lab_scenario("one nice-5 task runs 1 ms; update_curr() charges it");
 *	LAB_EQ(t->se.vruntime - v, 3056716, "its vruntime grew by (ns)");
 *
 * LAB_EQ compares integers (printed signed), LAB_YES and LAB_NO a yes/no
 * question, LAB_TASK
 * the task behind two entities (printed by name), LAB_FAIL states the
 * failure itself.  tools/lab prints the block and how to run the check
 * alone.
 */
void lab_fail(const char *file, int line, const char *what, const char *want,
	      const char *got) __attribute__((noreturn));
/* fails unless GOT == WANT; with LAB_RECORD=1 in the environment it
 * prints "record: FILE:LINE: GOT" instead and goes on (how the figures
 * were taken from the reference) */
void lab_eq(const char *file, int line, const char *what, long long want, long long got);
void lab_fail_task(const char *file, int line, const char *what, struct sched_entity *want,
		   struct sched_entity *got) __attribute__((noreturn));

#define LAB_EQ(got, want, what)							\
	lab_eq(__FILE__, __LINE__, (what), (long long)(want), (long long)(got))
#define LAB_ANSWER(cond, want, what) do {					\
	int got_ = !!(cond), want_ = (want);					\
	if (got_ != want_)							\
		lab_fail(__FILE__, __LINE__, (what), want_ ? "yes" : "no",	\
			 got_ ? "yes" : "no");					\
} while (0)
#define LAB_YES(cond, what)	LAB_ANSWER(cond, 1, what)
#define LAB_NO(cond, what)	LAB_ANSWER(cond, 0, what)
#define LAB_TASK(got, want, what) do {						\
	struct sched_entity *got_ = (got), *want_ = (want);			\
	if (got_ != want_)							\
		lab_fail_task(__FILE__, __LINE__, (what), want_, got_);	\
} while (0)
#define LAB_FAIL(what, want, got)	lab_fail(__FILE__, __LINE__, (what), (want), (got))

/*
 * All labs' checks are one binary, build/host/labs (built once per tree;
 * tests/labs/main.c): `labs NAME` runs lab NAME's group, `labs NAME CHECK`
 * one check of it, `labs` all of them.  Each test_lab_NAME.c ends with
 * LAB_GROUP(NAME, its tests[]).
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
			X(pick_next_entity) X(eevdf_pick) X(start_nice) \
			X(find_busiest_group) X(wake_affine)

/* Each lab's property test (prop_NAME.c): its function against the reference. */
#define DECLARE_PROPERTY(lab)	void test_property_##lab(void **state);
LAB_NAMES(DECLARE_PROPERTY)
#undef DECLARE_PROPERTY

#endif
