/*
 * tests/host/time/test_itimer.c - the conversions of <kernel/itimer.h> that
 * kernel/time/itimer.c runs: alarm()'s seconds left from the old timer
 * (2.6.35's alarm_setitimer rounding), Linux's timeval_valid, and the
 * timeval <-> ns conversions (usec truncated on the way back).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <kernel/itimer.h>

static unsigned int left(s32 sec, s32 usec)
{
	struct timeval32 tv = { sec, usec };

	return alarm_seconds_left(&tv);
}

static void test_alarm_seconds_left(void **state)
{
	assert_int_equal(left(0, 0), 0);		/* nothing pending: the only 0 */
	assert_int_equal(left(0, 1), 1);		/* 1 us left is a pending alarm */
	assert_int_equal(left(0, 499999), 1);
	assert_int_equal(left(0, 500000), 1);
	assert_int_equal(left(1, 0), 1);
	assert_int_equal(left(1, 499999), 1);		/* to nearest: down ... */
	assert_int_equal(left(1, 500000), 2);		/* ... and up from one half */
	assert_int_equal(left(4, 999999), 5);		/* alarm(5) read back at once */
	assert_int_equal(left(2, 300000), 2);
	assert_int_equal(left(0x7ffffffe, 999999), 0x7fffffffu);	/* the INT_MAX cap */
}

static void test_timeval_valid(void **state)
{
	struct timeval32 ok[] = { { 0, 0 }, { 0, 999999 }, { 0x7fffffff, 0 } };
	struct timeval32 bad[] = { { 0, 1000000 }, { 0, -1 }, { -1, 0 }, { -1, 999999 },
				   { 0, (s32)0x80000000 } };

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_true(timeval_valid(&ok[i]));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(timeval_valid(&bad[i]));
}

static void test_timeval_ns(void **state)
{
	struct timeval32 tv = { 2, 300000 }, max = { 0x7fffffff, 999999 }, back;

	assert_true(timeval_to_ns(&tv) == 2300000000ull);
	assert_true(timeval_to_ns(&max) == 2147483647999999000ull);	/* no overflow */
	back = ns_to_timeval(2147483647999999000ull);
	assert_int_equal(back.tv_sec, 0x7fffffff);
	assert_int_equal(back.tv_usec, 999999);
	back = ns_to_timeval(1999);				/* usec truncated */
	assert_int_equal(back.tv_sec, 0);
	assert_int_equal(back.tv_usec, 1);
	back = ns_to_timeval(999999999);
	assert_int_equal(back.tv_sec, 0);
	assert_int_equal(back.tv_usec, 999999);
	back = ns_to_timeval(0);
	assert_int_equal(back.tv_sec + back.tv_usec, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alarm_seconds_left),
		cmocka_unit_test(test_timeval_valid),
		cmocka_unit_test(test_timeval_ns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
