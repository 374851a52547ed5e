/*
 * tests/host/lib/test_printk.c - kernel/printk.c: replay of early output to
 * the first console, the "[%5lu.%06lu] " stamp at every line start, raw
 * console_write, the 16 KiB ring, truncation, and panic().
 *
 * The tests share printk's global state and run in order: the first one
 * must run before any console is registered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/printk.h>
#include <kernel/machine.h>
#include <arch/irqflags.h>
#include "host_lib.h"

/* The newest min(LEN, retained) bytes of the ring, as dmesg reads them
 * (syslog READ_ALL): through printk_log_bounds() and printk_log_copy(). */
static size_t log_read(char *buf, size_t len)
{
	u32 first, end, next;
	size_t n;

	printk_log_bounds(&first, &end);
	n = end - first < len ? end - first : len;
	n = printk_log_copy(buf, end - (u32)n, n, &next);
	assert_int_equal(next, end);
	return n;
}

static u64 fake_ns;
static u64 fake_clock(void) { return fake_ns; }

/* A second console, to check that only the first gets the replay. */
static char second_buf[4096];
static size_t second_len;
static void second_write(const char *s, size_t n)
{
	if (second_len + n >= sizeof(second_buf))
		return;		/* full: later tests do not look at it */
	memcpy(second_buf + second_len, s, n);
	second_len += n;
	second_buf[second_len] = '\0';
}
static struct console second = { .name = "second", .write = second_write };

static void test_replay_before_console(void **state)
{
	char log[256];
	size_t n;

	assert_int_equal(printk("early %d\n", 1), 15 + 8);
	printk("two\nlines\n");
	printk("partial");
	capture_register();
	assert_string_equal(capture_text(),
		"[    0.000000] early 1\n"
		"[    0.000000] two\n"
		"[    0.000000] lines\n"
		"[    0.000000] partial");
	n = log_read(log, sizeof(log));
	assert_int_equal(n, capture_len());
	assert_memory_equal(log, capture_text(), n);

	/* registering again is a no-op; a second console sees no replay */
	capture_register();
	register_console(&second);
	assert_int_equal(second_len, 0);
	printk(" end\n");
	assert_string_equal(second_buf, " end\n");
	assert_string_equal(capture_text() + n, " end\n");
	assert_int_equal(capture_writes(), 2);	/* one replay, one " end\n" */
}

static void test_timestamp_format(void **state)
{
	static const struct { u64 ns; const char *stamp; } cases[] = {
		{ 0, "[    0.000000] " },
		{ 999, "[    0.000000] " },			/* ns below 1 us */
		{ 1000, "[    0.000001] " },
		{ 1234567891, "[    1.234567] " },
		{ 59999999999ULL, "[   59.999999] " },
		{ 99999000000000ULL, "[99999.000000] " },
		{ 123456789012345ULL, "[123456.789012] " },	/* widens */
		{ 4294967295999999999ULL, "[4294967295.999999] " },
	};
	char want[128];

	printk_set_clock(fake_clock);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		fake_ns = cases[i].ns;
		capture_reset();
		int n = printk("msg %zu\n", i);
		snprintf(want, sizeof(want), "%smsg %zu\n", cases[i].stamp, i);
		assert_string_equal(capture_text(), want);
		assert_int_equal(n, (int)strlen(want));	/* stamp counted */
	}

	/* every line of one printk is stamped; a continuation is not */
	fake_ns = 2000000;
	capture_reset();
	printk("a\nb\n");
	printk("c");
	fake_ns = 3000000;
	printk("d\n");
	printk("\n");
	assert_string_equal(capture_text(),
		"[    0.002000] a\n"
		"[    0.002000] b\n"
		"[    0.002000] cd\n"
		"[    0.003000] \n");
	printk_set_clock(NULL);
}

static void test_console_write_raw(void **state)
{
	capture_reset();
	console_write("  table = 1\n", 12);
	printk("x\n");
	console_write("abc", 3);
	printk("def\n");
	console_write("", 0);
	assert_string_equal(capture_text(),
		"  table = 1\n"
		"[    0.000000] x\n"
		"abcdef\n");
}

static void test_long_message_truncated(void **state)
{
	char big[3000];

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	capture_reset();
	int n = printk("%s\n", big);
	assert_int_equal(n, 15 + 1023);
	assert_int_equal(capture_len(), 15 + 1023);
	/* The cut line keeps its newline: 1022 q's, then '\n'. */
	assert_int_equal(capture_text()[15 + 1021], 'q');
	assert_int_equal(capture_text()[15 + 1022], '\n');
	/* ... so the next printk starts a new stamped line. */
	capture_reset();
	printk("next\n");
	assert_string_equal(capture_text(), "[    0.000000] next\n");
}

static void test_ring_keeps_last_16k(void **state)
{
	static char log[32768];
	char line[64];
	size_t n;

	capture_reset();
	for (int i = 0; i < 1000; i++) {	/* ~26 KB */
		snprintf(line, sizeof(line), "ring line %04d\n", i);
		printk("%s", line);
	}
	assert_true(capture_len() > 16384);
	n = log_read(log, sizeof(log));
	assert_int_equal(n, 16384);
	assert_memory_equal(log, capture_text() + capture_len() - n, n);
	/* a short read gives the newest bytes */
	n = log_read(log, 30);
	assert_int_equal(n, 30);
	assert_memory_equal(log, "[    0.000000] ring line 0999\n", 30);
	/* a position the ring has overwritten moves up to the oldest byte */
	{
		u32 first, end, next;

		printk_log_bounds(&first, &end);
		assert_int_equal(end - first, 16384);
		n = printk_log_copy(log, 0, 10, &next);
		assert_int_equal(n, 10);
		assert_int_equal(next, first + 10);
		assert_memory_equal(log, capture_text() + capture_len() - 16384, 10);
	}
}

static void test_irqs_restored(void **state)
{
	local_irq_enable();
	printk("irq\n");
	console_write("x\n", 2);
	assert_false(irqs_disabled());
	local_irq_disable();
	printk("irq off\n");
	assert_true(irqs_disabled());		/* not re-enabled */
	local_irq_enable();
}

/* Last: after the first panic every later one counts as recursive. */
static void test_panic(void **state)
{
	jmp_buf env;
	volatile int step = 0;

	fake_machine_jmp = &env;
	local_irq_enable();
	capture_reset();
	switch (setjmp(env)) {
	case 0:
		printk("half a line");
		step = 1;
		panic("bad value %d", 42);
		fail_msg("panic returned");
		break;
	case 1:				/* machine_power_off */
		assert_int_equal(step, 1);
		assert_int_equal(fake_power_off_calls, 1);
		assert_int_equal(fake_power_off_status, EXIT_PANIC);
		assert_true(irqs_disabled());
		assert_string_equal(capture_text(),
			"[    0.000000] half a line\n"
			"[    0.000000] Kernel panic - not syncing: bad value 42\n");
		step = 2;
		panic("again");		/* recursive: just halts */
		fail_msg("panic returned");
		break;
	case 2:				/* machine_halt */
		assert_int_equal(step, 2);
		assert_int_equal(fake_halt_calls, 1);
		assert_int_equal(fake_power_off_calls, 1);
		break;
	}
	assert_int_equal(step, 2);
	fake_machine_jmp = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_before_console),
		cmocka_unit_test(test_timestamp_format),
		cmocka_unit_test(test_console_write_raw),
		cmocka_unit_test(test_long_message_truncated),
		cmocka_unit_test(test_ring_keeps_last_16k),
		cmocka_unit_test(test_irqs_restored),
		cmocka_unit_test(test_panic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
