/*
 * tests/host/lib/test_cmdline.c - kernel/cmdline.c: every knob type, range
 * edges, garbage, overflow, quoting, the sysctl.kernel. spelling, bare
 * flags, left-to-right override, ->changed hooks, the unknown-word list,
 * knobs_print() and the exact error lines (captured from printk through a
 * registered console).  Knobs live here and in test_knobs2.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include "host_lib.h"

/* ---- the knobs --------------------------------------------------------- */

int poweroff;
u32 sched_latency_ns = 6000000;
int nice_lvl;
u64 big_u64;
u32 u32full;
s32 s32full;
char run_prog[16];
int clockevent;
int hz_idx;

extern int aaa_first, feat_mask;
extern char zz_run[32];

static int latency_changes;
static void latency_changed(const struct knob *k)
{
	assert_string_equal(k->name, "sched_latency_ns");
	latency_changes++;
}

static const char *const clock_names[] = { "apic", "pit", NULL };
static const char *const hz_names[] = { "100", "250", "300", "1000", NULL };

DEFINE_KNOB_BOOL(poweroff, poweroff, 0, "power off when done");
__KNOB(sched_latency_ns) = {
	.name = "sched_latency_ns", .type = KNOB_UINT, .ptr = &sched_latency_ns,
	.def = 6000000, .min = 100000, .max = 1000000000,
	.help = "targeted preemption latency, ns", .changed = latency_changed,
};
DEFINE_KNOB_INT(nice_lvl, nice_lvl, 0, -20, 19, "a nice level");
DEFINE_KNOB_U64(big_u64, big_u64, 5, 0, INT64_MAX, "a u64");
DEFINE_KNOB_UINT(u32full, u32full, 0, 0, UINT32_MAX, "full u32 range");
DEFINE_KNOB_INT(s32full, s32full, 0, INT32_MIN, INT32_MAX, "full s32 range");
DEFINE_KNOB_STRING(run_prog, run_prog, "init", "program to run");
DEFINE_KNOB_ENUM(clockevent, clockevent, 0, clock_names, "tick source");
DEFINE_KNOB_ENUM(hz, hz_idx, 3, hz_names, "tick rate");

#define NR_KNOBS	12	/* 9 here + 3 in test_knobs2.c */
#define STAMP		"[    0.000000] "

/* ---- helpers ----------------------------------------------------------- */

static int setup(void **state)
{
	capture_register();
	return 0;
}

static int reset(void **state)
{
	knobs_init();
	latency_changes = 0;
	capture_reset();
	return 0;
}

/* The captured output must be exactly these lines, each stamped. */
static void expect_lines(const char *const *lines)
{
	char want[4096] = "";
	size_t n = 0;

	for (; *lines; lines++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, STAMP "%s\n", *lines);
	assert_string_equal(capture_text(), want);
	capture_reset();
}
#define EXPECT_LINES(...) expect_lines((const char *const[]){ __VA_ARGS__, NULL })
#define EXPECT_QUIET() assert_string_equal(capture_text(), "")

/* Apply one setting that must succeed silently. */
static void apply_ok(const char *name, const char *val)
{
	if (knob_apply(name, val) != 0)
		fail_msg("%s=%s refused: %s", name, val ? val : "(bare)",
			 capture_text());
	EXPECT_QUIET();
}

/* ---- tests ------------------------------------------------------------- */

static void test_section_and_find(void **state)
{
	const struct knob *k;
	int n = 0;

	for (k = __start_knobs; k < __stop_knobs; k++) {
		assert_non_null(k->name);
		assert_ptr_equal(knob_find(k->name), k);
		n++;
	}
	assert_int_equal(n, NR_KNOBS);
	assert_int_equal((char *)__stop_knobs - (char *)__start_knobs,
			 NR_KNOBS * sizeof(struct knob));
	assert_non_null(knob_find("aaa_first"));	/* other TU */
	assert_non_null(knob_find("features"));
	assert_ptr_equal(knob_find("sysctl.kernel.sched_latency_ns"),
			 knob_find("sched_latency_ns"));
	assert_ptr_equal(knob_find("sched-latency-ns"), knob_find("sched_latency_ns"));
	assert_null(knob_find("sysctl/kernel/sched_latency_ns"));
	assert_null(knob_find("sysctl.kernel."));
	assert_null(knob_find("sysctl.vm.poweroff"));
	assert_null(knob_find("sched_latency"));	/* no prefix match */
	assert_null(knob_find("sched_latency_nsx"));
	assert_null(knob_find(""));
}

static void test_defaults(void **state)
{
	poweroff = 7;
	sched_latency_ns = 1;
	nice_lvl = 5;
	big_u64 = 0;
	strcpy(run_prog, "zzz");
	clockevent = 1;
	feat_mask = 0;
	knobs_init();
	assert_int_equal(poweroff, 0);
	assert_int_equal(sched_latency_ns, 6000000);
	assert_int_equal(nice_lvl, 0);
	assert_true(big_u64 == 5);
	assert_string_equal(run_prog, "init");
	assert_int_equal(clockevent, 0);
	assert_int_equal(hz_idx, 3);
	assert_int_equal(aaa_first, 3);
	assert_string_equal(zz_run, "");
	assert_int_equal(feat_mask, 1);			/* ->set("A") */
	assert_int_equal(latency_changes, 0);		/* no hooks at init */
	EXPECT_QUIET();
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "1", "y", "Y", "yes", "YES", "on", "On", "true", "TRUE" };
	static const char *const no[] = { "0", "n", "N", "no", "off", "OFF", "false", "False" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		poweroff = 0;
		apply_ok("poweroff", yes[i]);
		assert_int_equal(poweroff, 1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		poweroff = 1;
		apply_ok("poweroff", no[i]);
		assert_int_equal(poweroff, 0);
	}
	apply_ok("poweroff", NULL);			/* bare flag */
	assert_int_equal(poweroff, 1);

	poweroff = 0;
	assert_int_equal(knob_apply("poweroff", "maybe"), -1);
	EXPECT_LINES("cmdline: poweroff=maybe: invalid (expected 0 or 1); keeping 0");
	assert_int_equal(knob_apply("poweroff", ""), -1);
	EXPECT_LINES("cmdline: poweroff=: invalid (expected 0 or 1); keeping 0");
	assert_int_equal(knob_apply("poweroff", "2"), -1);
	assert_int_equal(knob_apply("poweroff", "yess"), -1);
	assert_int_equal(knob_apply("poweroff", "o"), -1);
	assert_int_equal(poweroff, 0);
}

static void test_uint_range(void **state)
{
	apply_ok("sched_latency_ns", "100000");			/* min */
	assert_int_equal(sched_latency_ns, 100000);
	apply_ok("sched_latency_ns", "1000000000");		/* max */
	assert_int_equal(sched_latency_ns, 1000000000);
	apply_ok("sched_latency_ns", "0x186a0");		/* hex min */
	assert_int_equal(sched_latency_ns, 100000);
	apply_ok("sched_latency_ns", "030000000");		/* octal */
	assert_int_equal(sched_latency_ns, 030000000);
	apply_ok("sched_latency_ns", "+6000000");
	assert_int_equal(sched_latency_ns, 6000000);
	assert_int_equal(latency_changes, 5);

	assert_int_equal(knob_apply("sched_latency_ns", "abc"), -1);
	EXPECT_LINES("cmdline: sched_latency_ns=abc: invalid (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "5"), -1);
	EXPECT_LINES("cmdline: sched_latency_ns=5: out of range (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "99999"), -1);	/* min-1 */
	EXPECT_LINES("cmdline: sched_latency_ns=99999: out of range (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "1000000001"), -1); /* max+1 */
	EXPECT_LINES("cmdline: sched_latency_ns=1000000001: out of range (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "-1"), -1);
	EXPECT_LINES("cmdline: sched_latency_ns=-1: out of range (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "99999999999999999999"), -1);
	EXPECT_LINES("cmdline: sched_latency_ns=99999999999999999999: out of range (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "6000000x"), -1);
	EXPECT_LINES("cmdline: sched_latency_ns=6000000x: invalid (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", "-abc"), -1);
	EXPECT_LINES("cmdline: sched_latency_ns=-abc: invalid (expected an integer 100000..1000000000); keeping 6000000");
	assert_int_equal(knob_apply("sched_latency_ns", ""), -1);
	assert_int_equal(knob_apply("sched_latency_ns", " 6000000"), -1);
	assert_int_equal(knob_apply("sched_latency_ns", "6e6"), -1);
	capture_reset();
	assert_int_equal(knob_apply("sched_latency_ns", NULL), -1);
	EXPECT_LINES("cmdline: sched_latency_ns: missing value (expected an integer 100000..1000000000)");
	assert_int_equal(sched_latency_ns, 6000000);
	assert_int_equal(latency_changes, 5);		/* refusals: no hook */

	/* full u32 range: 0x1_0000_0000 is one too many */
	apply_ok("u32full", "4294967295");
	assert_true(u32full == UINT32_MAX);
	apply_ok("u32full", "0");
	assert_int_equal(knob_apply("u32full", "0x100000000"), -1);
	EXPECT_LINES("cmdline: u32full=0x100000000: out of range (expected an integer 0..4294967295); keeping 0");
	assert_int_equal(knob_apply("u32full", "4294967296"), -1);
	assert_int_equal(u32full, 0);
}

static void test_int_range(void **state)
{
	apply_ok("nice_lvl", "-20");
	assert_int_equal(nice_lvl, -20);
	apply_ok("nice_lvl", "19");
	assert_int_equal(nice_lvl, 19);
	apply_ok("nice_lvl", "-0x5");
	assert_int_equal(nice_lvl, -5);
	assert_int_equal(knob_apply("nice_lvl", "-21"), -1);
	EXPECT_LINES("cmdline: nice_lvl=-21: out of range (expected an integer -20..19); keeping -5");
	assert_int_equal(knob_apply("nice_lvl", "20"), -1);
	EXPECT_LINES("cmdline: nice_lvl=20: out of range (expected an integer -20..19); keeping -5");
	assert_int_equal(knob_apply("nice_lvl", "--1"), -1);
	EXPECT_LINES("cmdline: nice_lvl=--1: invalid (expected an integer -20..19); keeping -5");
	assert_int_equal(nice_lvl, -5);

	apply_ok("s32full", "-2147483648");
	assert_int_equal(s32full, INT32_MIN);
	apply_ok("s32full", "2147483647");
	assert_int_equal(s32full, INT32_MAX);
	assert_int_equal(knob_apply("s32full", "2147483648"), -1);
	EXPECT_LINES("cmdline: s32full=2147483648: out of range (expected an integer -2147483648..2147483647); keeping 2147483647");
	assert_int_equal(knob_apply("s32full", "-2147483649"), -1);
	assert_int_equal(knob_apply("s32full", "-99999999999999999999"), -1);
	assert_int_equal(s32full, INT32_MAX);
}

static void test_u64_range(void **state)
{
	apply_ok("big_u64", "9223372036854775807");
	assert_true(big_u64 == INT64_MAX);
	apply_ok("big_u64", "0");
	assert_true(big_u64 == 0);
	assert_int_equal(knob_apply("big_u64", "9223372036854775808"), -1);
	EXPECT_LINES("cmdline: big_u64=9223372036854775808: out of range (expected an integer 0..9223372036854775807); keeping 0");
	assert_int_equal(knob_apply("big_u64", "18446744073709551616"), -1);
	EXPECT_LINES("cmdline: big_u64=18446744073709551616: out of range (expected an integer 0..9223372036854775807); keeping 0");
	assert_int_equal(knob_apply("big_u64", "-5"), -1);
	EXPECT_LINES("cmdline: big_u64=-5: out of range (expected an integer 0..9223372036854775807); keeping 0");
	assert_true(big_u64 == 0);
}

static void test_string(void **state)
{
	apply_ok("run_prog", "hello world");
	assert_string_equal(run_prog, "hello world");
	apply_ok("run_prog", "123456789012345");		/* 15 = max - 1 */
	assert_string_equal(run_prog, "123456789012345");
	assert_int_equal(knob_apply("run_prog", "1234567890123456"), -1);
	EXPECT_LINES("cmdline: run_prog=1234567890123456: too long (expected a string of at most 15 characters); keeping 123456789012345");
	apply_ok("run_prog", "");
	assert_string_equal(run_prog, "");
	assert_int_equal(knob_apply("run_prog", "01234567890123456789"), -1);
	EXPECT_LINES("cmdline: run_prog=01234567890123456789: too long (expected a string of at most 15 characters); keeping \"\"");
	assert_int_equal(knob_apply("run_prog", NULL), -1);
	EXPECT_LINES("cmdline: run_prog: missing value (expected a string of at most 15 characters)");
}

static void test_enum(void **state)
{
	apply_ok("clockevent", "pit");
	assert_int_equal(clockevent, 1);
	apply_ok("clockevent", "apic");
	assert_int_equal(clockevent, 0);
	assert_int_equal(knob_apply("clockevent", "foo"), -1);
	EXPECT_LINES("cmdline: clockevent=foo: invalid (expected one of apic|pit); keeping apic");
	assert_int_equal(knob_apply("clockevent", "PIT"), -1);		/* exact */
	assert_int_equal(knob_apply("clockevent", "1"), -1);		/* no index */
	assert_int_equal(knob_apply("clockevent", ""), -1);
	capture_reset();
	assert_int_equal(knob_apply("hz", NULL), -1);
	EXPECT_LINES("cmdline: hz: missing value (expected one of 100|250|300|1000)");
	apply_ok("hz", "250");
	assert_int_equal(hz_idx, 1);
	assert_int_equal(clockevent, 0);
}

static void test_custom(void **state)
{
	apply_ok("features", "A,B");
	assert_int_equal(feat_mask, 3);
	apply_ok("features", "none");
	assert_int_equal(feat_mask, 0);
	assert_int_equal(knob_apply("features", "C"), -1);
	EXPECT_LINES("cmdline: features=C: invalid (expected none, A, B or A,B); keeping none");
	assert_int_equal(knob_apply("features", NULL), -1);
	EXPECT_LINES("cmdline: features: missing value (expected none, A, B or A,B)");
	assert_int_equal(feat_mask, 0);
}

static void test_unknown_apply(void **state)
{
	assert_int_equal(knob_apply("foo", "1"), -1);
	EXPECT_LINES("cmdline: unknown parameter 'foo'");
	assert_int_equal(knob_apply("sysctl.kernel.foo", NULL), -1);
	EXPECT_LINES("cmdline: unknown parameter 'sysctl.kernel.foo'");
	assert_int_equal(knob_apply("sched_latency", "1"), -1);	/* a prefix of a knob's name */
	EXPECT_LINES("cmdline: unknown parameter 'sched_latency' (did you mean sched_latency_ns?)");
}

/* A word close to a knob's name gets its own line and a suggestion; the
 * programs' settings (short, or far from every knob) one line together. */
static void test_suggest(void **state)
{
	char line[] = "mode=thread sched_latncy_ns=1 load=kbuild:10 clockevnt=pit duration=10 "
		      "sysctl.kernel.poweroff_=1 seed=3";
	const char **words;

	assert_int_equal(cmdline_parse(line), 7);
	EXPECT_LINES("cmdline: unknown parameter 'sched_latncy_ns' (did you mean sched_latency_ns?); "
		     "passed to init's programs",
		     "cmdline: unknown parameter 'clockevnt' (did you mean clockevent?); passed to init's programs",
		     "cmdline: unknown parameter 'sysctl.kernel.poweroff_' (did you mean poweroff?); "
		     "passed to init's programs",
		     "cmdline: passed to init's programs: mode=thread load=kbuild:10 duration=10 seed=3");
	assert_int_equal(cmdline_unknown(&words), 7);
	assert_null(knob_suggest("mode"));		/* too short to be a typo of a knob */
	assert_null(knob_suggest("duration"));
	assert_null(knob_suggest("completely_different"));
	assert_ptr_equal(knob_suggest("sched-latency-ns2"), knob_find("sched_latency_ns"));
}

static void test_parse_line(void **state)
{
	char line[] = "  poweroff  \tsched_latency_ns=2000000 foo "
		      "run_prog=\"a b=c\" sysctl.kernel.nice_lvl=-3 bar=1\t"
		      "\"clockevent=pit\" sched_latency_ns=3000000 hz=300 ";
	const char **words;
	int n;

	assert_int_equal(cmdline_parse(line), 2);
	assert_int_equal(poweroff, 1);
	assert_int_equal(sched_latency_ns, 3000000);	/* last one wins */
	assert_int_equal(latency_changes, 2);		/* hook per write */
	assert_string_equal(run_prog, "a b=c");
	assert_int_equal(nice_lvl, -3);
	assert_int_equal(clockevent, 1);
	assert_int_equal(hz_idx, 2);
	EXPECT_LINES("cmdline: passed to init's programs: foo bar=1");
	n = cmdline_unknown(&words);
	assert_int_equal(n, 2);
	assert_string_equal(words[0], "foo");
	assert_string_equal(words[1], "bar=1");		/* whole word for init */
	assert_true(words[0] >= line && words[0] < line + sizeof(line));
}

static void test_parse_errors_and_order(void **state)
{
	char line[] = "sched_latency_ns=abc sched_latency_ns=4000000 "
		      "sched_latency_ns=5 poweroff=maybe \"\" hz";

	assert_int_equal(cmdline_parse(line), 4);
	assert_int_equal(sched_latency_ns, 4000000);
	assert_int_equal(latency_changes, 1);
	EXPECT_LINES(
	    "cmdline: sched_latency_ns=abc: invalid (expected an integer 100000..1000000000); keeping 6000000",
	    "cmdline: sched_latency_ns=5: out of range (expected an integer 100000..1000000000); keeping 4000000",
	    "cmdline: poweroff=maybe: invalid (expected 0 or 1); keeping 0",
	    "cmdline: hz: missing value (expected one of 100|250|300|1000)");
	assert_int_equal(hz_idx, 3);
}

static void test_parse_sysctl_and_quotes(void **state)
{
	char line[] = "sysctl.kernel.sched_latency_ns=0x2dc6c0 "
		      "sysctl.kernel.poweroff run_prog=\"x  y\"z "
		      "sysctl.kernel.clockevent=bad \"unterminated=a b";
	const char **words;

	assert_int_equal(cmdline_parse(line), 2);
	assert_int_equal(sched_latency_ns, 3000000);
	assert_int_equal(poweroff, 1);
	assert_string_equal(run_prog, "x  yz");
	EXPECT_LINES("cmdline: sysctl.kernel.clockevent=bad: invalid (expected one of apic|pit); keeping apic",
		     "cmdline: passed to init's programs: unterminated=a b");
	assert_int_equal(cmdline_unknown(&words), 1);
	assert_string_equal(words[0], "unterminated=a b");
}

static void test_parse_empty_and_dashes(void **state)
{
	char empty[] = "";
	char blanks[] = "  \t \n ";
	char line[] = "poweroff -- hz=100 nice_lvl=5 \"x y\"";
	const char **words;

	assert_int_equal(cmdline_parse(empty), 0);
	assert_int_equal(cmdline_unknown(&words), 0);
	assert_int_equal(cmdline_parse(blanks), 0);
	EXPECT_QUIET();

	/* after "--" nothing is parsed: all for init, no errors printed */
	assert_int_equal(cmdline_parse(line), 0);
	EXPECT_QUIET();
	assert_int_equal(poweroff, 1);
	assert_int_equal(hz_idx, 3);
	assert_int_equal(nice_lvl, 0);
	assert_int_equal(cmdline_unknown(&words), 3);
	assert_string_equal(words[0], "hz=100");
	assert_string_equal(words[1], "nice_lvl=5");
	assert_string_equal(words[2], "x y");
}

static void test_unknown_cap(void **state)
{
	char line[40 * 4 + 1];
	const char **words;
	size_t n = 0;

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "u%02d ", i);
	assert_int_equal(cmdline_parse(line), 40);	/* all count as errors */
	assert_int_equal(cmdline_unknown(&words), CMDLINE_MAX_UNKNOWN);
	assert_string_equal(words[0], "u00");
	assert_string_equal(words[31], "u31");
	/* a long name (> 63 chars) is unknown, not truncated to a match */
	char longname[] = "poweroffpoweroffpoweroffpoweroffpoweroffpoweroffpoweroffpoweroff=1";
	capture_reset();
	assert_int_equal(cmdline_parse(longname), 1);
	assert_int_equal(poweroff, 0);
}

/* The first word past the unknown-word limit is named, once. */
static void test_unknown_cap_reported(void **state)
{
	char line[40 * 4 + 1];
	size_t n = 0;

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "u%02d ", i);
	capture_reset();
	cmdline_parse(line);
	const char *t = capture_text();
	assert_non_null(strstr(t, "cmdline: more than 32 unknown words: 'u32' and later ones are "
			       "not passed to init\n"));
	assert_null(strstr(strstr(t, "more than 32") + 1, "more than 32"));
}

/*
 * cmdline_clip(): a boot line longer than the buffer.  LINE is what fit,
 * FULL the whole line's length, NEXT the first byte cut off.
 */
static void test_clip_fits(void **state)
{
	char line[] = "hz=100 run=x";

	capture_reset();
	assert_int_equal(cmdline_clip(line, strlen(line), '\0'), 0);
	assert_string_equal(line, "hz=100 run=x");
	EXPECT_QUIET();
}

static void test_clip_cut_in_word(void **state)
{
	/* sched_latency_ns=6000000 cut one digit short: it must not become
	 * 600000 (a valid value). */
	char line[] = "poweroff=0 sched_latency_ns=600000";
	unsigned before = sched_latency_ns;

	capture_reset();
	assert_int_equal(cmdline_clip(line, 2000, '0'), 2000 - 11);
	assert_string_equal(line, "poweroff=0 ");
	EXPECT_LINES("cmdline: boot line too long (2000 bytes, limit 34): dropped the cut word "
		     "'sched_latency_ns=600000' and the 1966 bytes after it");
	assert_int_equal(cmdline_parse(line), 0);
	assert_int_equal(sched_latency_ns, before);	/* untouched */
}

static void test_clip_cut_between_words(void **state)
{
	char line[] = "poweroff=0 hz=250";

	capture_reset();
	assert_int_equal(cmdline_clip(line, 30, ' '), 13);
	assert_string_equal(line, "poweroff=0 hz=250");
	EXPECT_LINES("cmdline: boot line too long (30 bytes, limit 17): dropped the last 13 bytes");
	/* The cut after a blank: nothing of a word is lost. */
	char line2[] = "poweroff=0 ";
	capture_reset();
	assert_int_equal(cmdline_clip(line2, 12, 'h'), 1);
	assert_string_equal(line2, "poweroff=0 ");
}

static void test_clip_cut_in_quotes(void **state)
{
	/* The cut falls inside a quoted value: the blank in it does not end
	 * the word, so the whole run="..." goes. */
	char line[] = "poweroff=0 run=\"hello; spin 3";
	char name_long[80];

	capture_reset();
	assert_int_equal(cmdline_clip(line, 40, ' '), 40 - 11);
	assert_string_equal(line, "poweroff=0 ");
	EXPECT_LINES("cmdline: boot line too long (40 bytes, limit 29): dropped the cut word "
		     "'run=\"hello; spin 3' and the 11 bytes after it");
	/* One word filling the whole buffer: all of it goes. */
	memset(name_long, 'x', 79);
	name_long[79] = '\0';
	capture_reset();
	assert_int_equal(cmdline_clip(name_long, 100, 'x'), 100);
	assert_string_equal(name_long, "");
	EXPECT_LINES("cmdline: boot line too long (100 bytes, limit 79): dropped the cut word "
		     "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' and the 21 bytes after it");
}

static void test_knobs_print(void **state)
{
	nice_lvl = -3;
	strcpy(run_prog, "sh");
	strcpy(zz_run, "secret");
	knobs_print();
	/* sorted by name, quiet zz_run left out, no timestamps (raw table) */
	assert_string_equal(capture_text(),
		"  aaa_first = 3\n"
		"  big_u64 = 5\n"
		"  clockevent = apic\n"
		"  features = A\n"
		"  hz = 1000\n"
		"  nice_lvl = -3\n"
		"  poweroff = 0\n"
		"  run_prog = sh\n"
		"  s32full = 0\n"
		"  sched_latency_ns = 6000000\n"
		"  u32full = 0\n");
}

static void test_show(void **state)
{
	char buf[8];

	sched_latency_ns = 123456789;
	knob_show(knob_find("sched_latency_ns"), buf, sizeof(buf));
	assert_string_equal(buf, "1234567");		/* truncated, terminated */
	clockevent = 7;					/* corrupt index */
	knob_show(knob_find("clockevent"), buf, sizeof(buf));
	assert_string_equal(buf, "?7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_section_and_find, reset),
		cmocka_unit_test_setup(test_defaults, reset),
		cmocka_unit_test_setup(test_bool, reset),
		cmocka_unit_test_setup(test_uint_range, reset),
		cmocka_unit_test_setup(test_int_range, reset),
		cmocka_unit_test_setup(test_u64_range, reset),
		cmocka_unit_test_setup(test_string, reset),
		cmocka_unit_test_setup(test_enum, reset),
		cmocka_unit_test_setup(test_custom, reset),
		cmocka_unit_test_setup(test_unknown_apply, reset),
		cmocka_unit_test_setup(test_suggest, reset),
		cmocka_unit_test_setup(test_parse_line, reset),
		cmocka_unit_test_setup(test_parse_errors_and_order, reset),
		cmocka_unit_test_setup(test_parse_sysctl_and_quotes, reset),
		cmocka_unit_test_setup(test_parse_empty_and_dashes, reset),
		cmocka_unit_test_setup(test_unknown_cap, reset),
		cmocka_unit_test_setup(test_unknown_cap_reported, reset),
		cmocka_unit_test_setup(test_clip_fits, reset),
		cmocka_unit_test_setup(test_clip_cut_in_word, reset),
		cmocka_unit_test_setup(test_clip_cut_between_words, reset),
		cmocka_unit_test_setup(test_clip_cut_in_quotes, reset),
		cmocka_unit_test_setup(test_knobs_print, reset),
		cmocka_unit_test_setup(test_show, reset),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
