/*
 * tests/host/lib/test_ratelimit.c - kernel/lib/ratelimit.c (Linux's
 * ___ratelimit) and printk_ratelimit(): the burst, the interval, the
 * "callbacks suppressed" line, interval 0 = no limit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/printk.h>
#include <kernel/ratelimit.h>
#include "host_lib.h"

#define SEC	1000000000ull

static void test_burst_then_suppressed(void **state)
{
	struct ratelimit_state rs = RATELIMIT_STATE_INIT(5 * SEC, 10);
	int ok = 0;

	capture_reset();
	for (int i = 0; i < 2800; i++)		/* the single-step flood: 2800 in 0.12 s */
		ok += ___ratelimit(&rs, 1 * SEC + (u64)i * 43000, "user_exception");
	assert_int_equal(ok, 10);
	assert_int_equal(rs.missed, 2790);
	assert_int_equal(capture_len(), 0);	/* nothing said until the interval ends */
}

static void test_interval_end_reports_and_restarts(void **state)
{
	struct ratelimit_state rs = RATELIMIT_STATE_INIT(5 * SEC, 10);

	printk_set_clock(NULL);
	for (int i = 0; i < 15; i++)
		___ratelimit(&rs, 2 * SEC, "f");
	capture_reset();
	/* Exactly begin + interval is still inside (Linux: time_after). */
	assert_int_equal(___ratelimit(&rs, 7 * SEC, "f"), 0);
	assert_int_equal(capture_len(), 0);
	/* One ns later: the line, then a fresh burst. */
	assert_int_equal(___ratelimit(&rs, 7 * SEC + 1, "f"), 1);
	assert_string_equal(capture_text(), "[    0.000000] f: 6 callbacks suppressed\n");
	for (int i = 0; i < 9; i++)
		assert_int_equal(___ratelimit(&rs, 8 * SEC, "f"), 1);
	assert_int_equal(___ratelimit(&rs, 8 * SEC, "f"), 0);
	/* An interval with nothing missed ends silently. */
	struct ratelimit_state quiet = RATELIMIT_STATE_INIT(5 * SEC, 10);
	capture_reset();
	___ratelimit(&quiet, 1 * SEC, "g");
	assert_int_equal(___ratelimit(&quiet, 20 * SEC, "g"), 1);
	assert_int_equal(capture_len(), 0);
}

static void test_zero_interval_is_unlimited(void **state)
{
	struct ratelimit_state rs = RATELIMIT_STATE_INIT(0, 10);

	for (int i = 0; i < 100; i++)
		assert_int_equal(___ratelimit(&rs, 1, "h"), 1);
}

static void test_zero_burst_refuses_all(void **state)
{
	struct ratelimit_state rs = RATELIMIT_STATE_INIT(5 * SEC, 0);

	assert_int_equal(___ratelimit(&rs, 1, "z"), 0);
	assert_int_equal(rs.missed, 1);
}

/* A call at time 0 (before any clock) still starts the interval. */
static void test_time_zero(void **state)
{
	struct ratelimit_state rs = RATELIMIT_STATE_INIT(5 * SEC, 1);

	assert_int_equal(___ratelimit(&rs, 0, "t"), 1);
	assert_int_equal(___ratelimit(&rs, 0, "t"), 0);
	assert_int_equal(___ratelimit(&rs, 5 * SEC + 2, "t"), 1);
}

static u64 fake_ns;
static u64 fake_clock(void) { return fake_ns; }

/* printk_ratelimit(): 10 per 5 s of the printk clock, the caller's name. */
static void test_printk_ratelimit(void **state)
{
	int ok = 0;

	printk_set_clock(fake_clock);
	fake_ns = 1 * SEC;
	for (int i = 0; i < 30; i++)
		ok += printk_ratelimit();
	assert_int_equal(ok, 10);
	capture_reset();
	fake_ns = 7 * SEC;
	assert_int_equal(printk_ratelimit(), 1);
	assert_string_equal(capture_text(), "[    7.000000] test_printk_ratelimit: 20 callbacks suppressed\n");
	printk_set_clock(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_then_suppressed),
		cmocka_unit_test(test_interval_end_reports_and_restarts),
		cmocka_unit_test(test_zero_interval_is_unlimited),
		cmocka_unit_test(test_zero_burst_refuses_all),
		cmocka_unit_test(test_time_zero),
		cmocka_unit_test(test_printk_ratelimit),
	};

	capture_register();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
