/*
 * tests/labs/suite_filter.c - run one test of a host suite alone:
 *	LAB_TEST=test_x build/host/labs.suite/sched_fair
 * The labs' copies of the suites (tests/labs/rules.mk) are linked with
 * --wrap=_cmocka_run_group_tests, so the suite's own main() reaches this
 * wrapper, which sets cmocka's filter (a name or a glob) from LAB_TEST.
 * It also makes stdout line-buffered, so that cmocka's messages (stderr)
 * stay beside the test that printed them when both go to one pipe.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

int __real__cmocka_run_group_tests(const char *group_name,
				   const struct CMUnitTest *const tests,
				   const size_t num_tests,
				   CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown);

int __wrap__cmocka_run_group_tests(const char *group_name,
				   const struct CMUnitTest *const tests,
				   const size_t num_tests,
				   CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown)
{
	const char *only = getenv("LAB_TEST");

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (only && *only)
		cmocka_set_test_filter(only);
	return __real__cmocka_run_group_tests(group_name, tests, num_tests,
					      group_setup, group_teardown);
}
