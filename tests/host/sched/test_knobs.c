/*
 * tests/host/sched/test_knobs.c - the scheduler's boot knobs through the
 * real registry (kernel/cmdline.c):
 *   the feature mask (default 0x3C6F, NAME / NO_NAME parsing, unknown
 *   names refused whole), Linux's ranges, sched_nr_latency recomputed as
 *   ceil(latency / min_gran) after a write (and only then), the
 *   normalized values and the CPU-factor rule, the presets and
 *   left-to-right overriding, tools/presets agreeing with the table, and
 *   sched_print_tunables' exact output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "../../../kernel/sched/sched.h"
#include "../../../kernel/sched/stats.h"
#include <kernel/cmdline.h>
#include <kernel/errno.h>

#define F(x)	(1U << __SCHED_FEAT_##x)

/* cmdline_parse() modifies its argument: give it a copy. */
static int parse(const char *line)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s", line);
	return cmdline_parse(buf);
}

/* ---- features ------------------------------------------------------------------ */

static void test_feature_default(void **state)
{
	char buf[512];

	assert_int_equal(sched_features_default(), 0x3C6F);
	assert_int_equal(sysctl_sched_features, 0x3C6F);
	/* the 2.6.35 bit numbers */
	assert_int_equal(__SCHED_FEAT_GENTLE_FAIR_SLEEPERS, 0);
	assert_int_equal(__SCHED_FEAT_START_DEBIT, 1);
	assert_int_equal(__SCHED_FEAT_WAKEUP_PREEMPT, 2);
	assert_int_equal(__SCHED_FEAT_NEXT_BUDDY, 4);
	assert_int_equal(__SCHED_FEAT_LAST_BUDDY, 5);
	assert_int_equal(__SCHED_FEAT_HRTICK, 8);
	assert_int_equal(__SCHED_FEAT_DOUBLE_TICK, 9);
	assert_int_equal(__SCHED_FEAT_OWNER_SPIN, 13);
	sched_feat_snprint(buf, sizeof(buf));
	assert_string_equal(buf,
		"GENTLE_FAIR_SLEEPERS START_DEBIT WAKEUP_PREEMPT AFFINE_WAKEUPS "
		"NO_NEXT_BUDDY LAST_BUDDY CACHE_HOT_BUDDY NO_ARCH_POWER NO_HRTICK "
		"NO_DOUBLE_TICK LB_BIAS LB_SHARES_UPDATE ASYM_EFF_LOAD OWNER_SPIN "
		"NO_START_NICE NO_DYN_GRAN NO_DEADLINE NO_CPT_FIX");
}

static void test_feature_parse(void **state)
{
	knob_set_ok("sched_features", "NO_START_DEBIT,HRTICK");
	assert_int_equal(sysctl_sched_features, (0x3C6F & ~F(START_DEBIT)) | F(HRTICK));
	assert_false(sched_feat(START_DEBIT));
	assert_true(sched_feat(HRTICK));
	/* applies to the current mask, like writes to sched_features */
	knob_set_ok("sched_features", "NEXT_BUDDY");
	assert_int_equal(sysctl_sched_features,
			 (0x3C6F & ~F(START_DEBIT)) | F(HRTICK) | F(NEXT_BUDDY));
	knob_set_ok("sched_features", "START_DEBIT,NO_HRTICK,NO_NEXT_BUDDY");
	assert_int_equal(sysctl_sched_features, 0x3C6F);
	/* knobs_init restores the default */
	knob_set_ok("sched_features", "NO_GENTLE_FAIR_SLEEPERS");
	knobs_init();
	assert_int_equal(sysctl_sched_features, 0x3C6F);
}

static void test_feature_unknown_refused(void **state)
{
	capture_reset();
	assert_int_equal(knob_apply("sched_features", "NO_START_DEBIT,FAIR_SLEEPERS"), -1);
	assert_int_equal(sysctl_sched_features, 0x3C6F);	/* all or nothing */
	assert_true(capture_contains("unknown feature 'FAIR_SLEEPERS'"));
	assert_true(capture_contains("known: GENTLE_FAIR_SLEEPERS START_DEBIT"));
	assert_true(capture_contains("OWNER_SPIN START_NICE DYN_GRAN DEADLINE CPT_FIX"));
	/* one line only: the registry adds no second "invalid" line */
	assert_true(capture_contains("; nothing changed\n"));
	assert_false(capture_contains("cmdline: sched_features="));
	/* NO_ alone and lower case are not names either */
	assert_int_equal(knob_apply("sched_features", "NO_"), -1);
	assert_int_equal(knob_apply("sched_features", "start_debit"), -1);
	assert_int_equal(sysctl_sched_features, 0x3C6F);
}

/* ---- sysctls, ranges, nr_latency --------------------------------------------------- */

static void test_knobs_registered(void **state)
{
	static const char *const names[] = {
		"sched_latency_ns", "sched_min_granularity_ns",
		"sched_wakeup_granularity_ns", "sched_tunable_scaling",
		"sched_child_runs_first", "sched_compat_yield", "sched_features",
		"sched_preset", "sched_verify", "sched_std_granularity_ns",
		"sched_nr_latency_max", "sched_sleeper_wakeup_slice_ns",
		"sched_fork_update_clock", "sched_nr_latency",
		"sched_migration_cost", "sched_nr_migrate",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(knob_find(names[i]));
	assert_non_null(knob_find("sysctl.kernel.sched_latency_ns"));
}

static void test_defaults(void **state)
{
	assert_int_equal(sysctl_sched_latency, 6000000);
	assert_int_equal(sysctl_sched_min_granularity, 750000);
	assert_int_equal(sysctl_sched_wakeup_granularity, 1000000);
	assert_int_equal(sched_nr_latency, 8);
	assert_int_equal(sysctl_sched_tunable_scaling, 1);
	assert_int_equal(sysctl_sched_child_runs_first, 0);
	assert_int_equal(sysctl_sched_compat_yield, 0);
	assert_string_equal(sched_preset_name(), "commit-0bf377bbb0be");
	assert_int_equal(normalized_sysctl_sched_min_granularity, 750000);
}

static void test_ranges(void **state)
{
	assert_int_equal(knob_apply("sched_latency_ns", "99999"), -1);
	assert_int_equal(knob_apply("sched_latency_ns", "1000000001"), -1);
	assert_int_equal(knob_apply("sched_min_granularity_ns", "99999"), -1);
	assert_int_equal(knob_apply("sched_wakeup_granularity_ns", "1000000001"), -1);
	assert_int_equal(knob_apply("sched_tunable_scaling", "3"), -1);
	assert_int_equal(sysctl_sched_latency, 6000000);
	assert_int_equal(sched_nr_latency, 8);		/* no write, no recompute */
	knob_set_ok("sched_latency_ns", "100000");
	knob_set_ok("sched_latency_ns", "1000000000");
	knob_set_ok("sched_wakeup_granularity_ns", "0");
	knob_set_ok("sched_tunable_scaling", "2");
	knob_set_ok("sched_child_runs_first", "1");
	assert_int_equal(sysctl_sched_child_runs_first, 1);
	/* the balancer's two: 2.6.35's defaults, bounded by 1 s and TASK_MAX */
	assert_int_equal(sysctl_sched_migration_cost, 500000);
	assert_int_equal(sysctl_sched_nr_migrate, 32);
	assert_int_equal(knob_apply("sched_migration_cost", "1000000001"), -1);
	assert_int_equal(knob_apply("sched_migration_cost", "-1"), -1);
	assert_int_equal(knob_apply("sched_nr_migrate", "1025"), -1);
	assert_int_equal(sysctl_sched_migration_cost, 500000);
	assert_int_equal(sysctl_sched_nr_migrate, 32);
	knob_set_ok("sched_migration_cost", "0");
	knob_set_ok("sched_nr_migrate", "1024");
	assert_int_equal(sysctl_sched_migration_cost + sysctl_sched_nr_migrate, 1024);
	knob_set_ok("sched_migration_cost", "500000");
	knob_set_ok("sched_nr_migrate", "32");
}

static void test_nr_latency_recomputed(void **state)
{
	knob_set_ok("sched_min_granularity_ns", "1000000");
	assert_int_equal(sched_nr_latency, 6);			/* 6 / 1 */
	knob_set_ok("sched_latency_ns", "10000000");
	knob_set_ok("sched_min_granularity_ns", "3000000");
	assert_int_equal(sched_nr_latency, 4);			/* ceil(10 / 3) */
	knob_set_ok("sched_latency_ns", "9000000");
	assert_int_equal(sched_nr_latency, 3);			/* exactly 3 */
	assert_int_equal(normalized_sysctl_sched_latency, 9000000);
	assert_int_equal(normalized_sysctl_sched_min_granularity, 3000000);
	assert_int_equal(__sched_period(4), 12000000);		/* 4 * 3 ms */
}

/* Any of the handler's sysctls recomputes it: wakeup gran and scaling too. */
static void test_nr_latency_other_writes(void **state)
{
	knob_set_ok("sched_preset", "linux-2.6.35");
	sysctl_sched_min_granularity = 750000;	/* as dyn-gran: 3 with 0.75 ms */
	sched_nr_latency = 3;
	knob_set_ok("sched_wakeup_granularity_ns", "1000000");
	assert_int_equal(sched_nr_latency, 8);
	sched_nr_latency = 3;
	knob_set_ok("sched_tunable_scaling", "0");
	assert_int_equal(sched_nr_latency, 8);
	/* child_runs_first is not one of them */
	sched_nr_latency = 3;
	knob_set_ok("sched_child_runs_first", "1");
	assert_int_equal(sched_nr_latency, 3);
}

static void test_tunable_factor(void **state)
{
	static const unsigned int log_f[] = { 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4 };

	for (unsigned int n = 1; n <= 16; n++) {
		assert_int_equal(sched_tunable_factor(SCHED_TUNABLESCALING_NONE, n), 1);
		assert_int_equal(sched_tunable_factor(SCHED_TUNABLESCALING_LOG, n), log_f[n]);
		assert_int_equal(sched_tunable_factor(SCHED_TUNABLESCALING_LINEAR, n),
				 n < 8 ? n : 8);
	}
	/* uniprocessor: the factor is 1 whatever the scaling */
	for (unsigned int s = 0; s < 3; s++) {
		sysctl_sched_tunable_scaling = s;
		assert_int_equal(get_update_sysctl_factor(), 1);
	}
	sysctl_sched_tunable_scaling = 1;
	update_sysctl();
	assert_int_equal(sysctl_sched_latency, normalized_sysctl_sched_latency);
	assert_int_equal(sysctl_sched_shares_ratelimit, 250000);
}

/* ---- presets ------------------------------------------------------------------- */

struct preset_expect {
	const char *name;
	u32 min_gran, nr_latency;
	unsigned int features;
	u32 sleeper_slice;
	int fork_clock;
};

static const struct preset_expect presets[] = {
	{ "linux-2.6.35",        2000000, 3, 0x3C6F, 0, 0 },
	{ "commit-0bf377bbb0be",  750000, 8, 0x3C6F, 0, 1 },
	{ "no-start-debit",       750000, 8, 0x3C6F & ~F(START_DEBIT), 0, 1 },
	{ "dyn-gran",             750000, 3, 0x3C6F | F(DYN_GRAN), 0, 0 },
	{ "dyn-gran-sleeper",     750000, 3, 0x3C6F | F(DYN_GRAN), 2000000, 0 },
	{ "start-nice",           750000, 8, (0x3C6F | F(START_NICE)) & ~F(START_DEBIT), 0, 1 },
	{ "start-nice-debit",     750000, 8, 0x3C6F | F(START_NICE), 0, 1 },
	{ "deadline",             750000, 8, 0x3C6F | F(DEADLINE), 0, 1 },
	{ "cpt-fix",              750000, 8, 0x3C6F | F(CPT_FIX), 0, 1 },
};

static void test_presets(void **state)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		const struct preset_expect *p = &presets[i];

		/* start from something else each time: a preset writes it all */
		assert_int_equal(parse("sched_latency_ns=9000000 sched_features=NEXT_BUDDY"), 0);
		knob_set_ok("sched_preset", p->name);
		assert_string_equal(sched_preset_name(), p->name);
		assert_int_equal(sysctl_sched_latency, 6000000);
		assert_int_equal(sysctl_sched_min_granularity, p->min_gran);
		assert_int_equal(sysctl_sched_wakeup_granularity, 1000000);
		assert_int_equal(sched_nr_latency, p->nr_latency);
		assert_int_equal(sysctl_sched_features, p->features);
		assert_int_equal(sysctl_sched_std_granularity, 2000000);
		assert_int_equal(sched_nr_latency_max, 8);
		assert_int_equal(sysctl_sched_sleeper_wakeup_slice, p->sleeper_slice);
		assert_int_equal(sysctl_sched_fork_update_clock, p->fork_clock);
		assert_int_equal(normalized_sysctl_sched_min_granularity, p->min_gran);
	}
	/* the older spellings are accepted too */
	knob_set_ok("sched_preset", "start-nice+debit");
	assert_string_equal(sched_preset_name(), "start-nice-debit");
	knob_set_ok("sched_preset", "dyn-gran+sleeper-slice");
	assert_string_equal(sched_preset_name(), "dyn-gran-sleeper");
}

static void test_preset_unknown(void **state)
{
	capture_reset();
	assert_int_equal(knob_apply("sched_preset", "linux-2.6.36"), -1);
	assert_string_equal(sched_preset_name(), "commit-0bf377bbb0be");
	assert_true(capture_contains("expected one of linux-2.6.35|commit-0bf377bbb0be|"));
}

static void test_preset_then_override(void **state)
{
	assert_int_equal(parse("sched_preset=linux-2.6.35 sched_min_granularity_ns=1000000"), 0);
	assert_int_equal(sysctl_sched_min_granularity, 1000000);
	assert_int_equal(sched_nr_latency, 6);		/* recomputed by the write */
	assert_int_equal(sysctl_sched_latency, 6000000);
	assert_string_equal(sched_preset_name(), "linux-2.6.35");

	/* the other order: the preset wins */
	assert_int_equal(parse("sched_min_granularity_ns=1000000 sched_preset=linux-2.6.35"), 0);
	assert_int_equal(sysctl_sched_min_granularity, 2000000);
	assert_int_equal(sched_nr_latency, 3);

	/* features after a preset apply on top of it */
	assert_int_equal(parse("sysctl.kernel.sched_preset=no-start-debit sched_features=HRTICK"), 0);
	assert_int_equal(sysctl_sched_features, (0x3C6F & ~F(START_DEBIT)) | F(HRTICK));
	assert_int_equal(parse("sched_features=HRTICK sched_preset=no-start-debit"), 0);
	assert_int_equal(sysctl_sched_features, 0x3C6F & ~F(START_DEBIT));
}

/* sched_nr_latency as a knob of its own (a preset's value, run-time writes
 * through /proc/sys/kernel): 1..10000, and a later latency write still
 * recomputes it. */
static void test_nr_latency_knob(void **state)
{
	knob_set_ok("sched_nr_latency", "3");
	assert_int_equal(sched_nr_latency, 3);
	assert_int_equal(knob_apply("sched_nr_latency", "0"), -1);
	assert_int_equal(knob_apply("sched_nr_latency", "10001"), -1);
	assert_int_equal(sched_nr_latency, 3);
	knob_set_ok("sched_latency_ns", "6000000");
	assert_int_equal(sched_nr_latency, 8);
}

/* At run time (knob_write: /proc/sys/kernel/sched_preset) a preset of the
 * other class is refused with one line of its own and changes nothing; one
 * of the running class applies as at boot; an unknown name gets the
 * registry's line. */
static void test_preset_at_runtime(void **state)
{
	const struct knob *k = knob_find("sched_preset");

	knob_set_ok("sched_preset", "linux-2.6.35");
	capture_reset();
	assert_int_equal(knob_write(k, "linux-6.12", "sysctl"), -1);
	assert_false(sched_eevdf());
	assert_string_equal(sched_preset_name(), "linux-2.6.35");
	assert_true(capture_contains("sysctl: sched_preset=linux-6.12: the scheduling class (EEVDF) is "
				     "chosen at boot: reboot with sched_preset=linux-6.12; keeping "
				     "linux-2.6.35\n"));
	assert_false(capture_contains("invalid"));
	assert_false(knob_at_runtime());
	assert_int_equal(knob_write(k, "no-start-debit", "sysctl"), 0);
	assert_string_equal(sched_preset_name(), "no-start-debit");
	assert_int_equal(sysctl_sched_min_granularity, 750000);
	assert_int_equal(sched_nr_latency, 8);
	assert_int_equal(sysctl_sched_features, 0x3C6F & ~F(START_DEBIT));
	capture_reset();
	assert_int_equal(knob_write(k, "nope", "sysctl"), -1);
	assert_true(capture_contains("sysctl: sched_preset=nope: invalid (expected one of "));
	/* At boot the class is free; then EEVDF keeps out the CFS presets. */
	knob_set_ok("sched_preset", "linux-6.12");
	assert_true(sched_eevdf());
	capture_reset();
	assert_int_equal(knob_write(k, "dyn-gran", "sysctl"), -1);
	assert_true(capture_contains("sysctl: sched_preset=dyn-gran: the scheduling class (CFS) is "
				     "chosen at boot: reboot with sched_preset=dyn-gran; keeping linux-6.12\n"));
	assert_true(sched_eevdf());
	assert_int_equal(knob_write(k, "linux-6.12", "sysctl"), 0);
	assert_true(sched_eevdf());
}

/* tools/presets lists exactly the presets the kernel accepts, in order. */
static void test_tools_presets_file(void **state)
{
	char path[512], line[512];
	const char *src = __FILE__;	/* tests/host/sched/test_knobs.c */
	size_t i = 0;
	int eevdf = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%.*stools/presets",
		 (int)(strstr(src, "tests/host/sched/") - src), src);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (run the test from the repository root)", path);
	while (fgets(line, sizeof(line), f)) {
		char *tab;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		tab = strchr(line, '\t');
		assert_non_null(tab);
		*tab = '\0';
		assert_true(strlen(tab + 1) > 10);		/* a description */
		assert_null(strchr(tab + 1, '\''));		/* grub.cfg quoting */
		if (!strcmp(line, "linux-6.12")) {	/* EEVDF, last: test_eevdf.c */
			assert_int_equal(i, sizeof(presets) / sizeof(presets[0]));
			assert_int_equal(sched_preset_apply(line), 0);
			eevdf = 1;
			continue;
		}
		assert_true(i < sizeof(presets) / sizeof(presets[0]));
		assert_string_equal(line, presets[i].name);
		assert_int_equal(sched_preset_apply(line), 0);
		i++;
	}
	fclose(f);
	assert_int_equal(i, sizeof(presets) / sizeof(presets[0]));
	assert_true(eevdf);
}

/* ---- printing ------------------------------------------------------------------- */

static void test_print_tunables(void **state)
{
	capture_reset();
	sched_print_tunables();
	assert_string_equal(capture_buf,
		"kernel.sched_child_runs_first = 0\n"
		"kernel.sched_compat_yield = 0\n"
		"kernel.sched_latency_ns = 6000000\n"
		"kernel.sched_min_granularity_ns = 750000\n"
		"kernel.sched_tunable_scaling = 1\n"
		"kernel.sched_wakeup_granularity_ns = 1000000\n"
		"sched_features = GENTLE_FAIR_SLEEPERS START_DEBIT WAKEUP_PREEMPT "
		"AFFINE_WAKEUPS NO_NEXT_BUDDY LAST_BUDDY CACHE_HOT_BUDDY NO_ARCH_POWER "
		"NO_HRTICK NO_DOUBLE_TICK LB_BIAS LB_SHARES_UPDATE ASYM_EFF_LOAD "
		"OWNER_SPIN NO_START_NICE NO_DYN_GRAN NO_DEADLINE NO_CPT_FIX\n"
		"sched_nr_latency = 8\n"
		"sched_preset = commit-0bf377bbb0be\n"
		"sched_std_granularity_ns = 2000000\n"
		"sched_nr_latency_max = 8\n"
		"sched_sleeper_wakeup_slice_ns = 0\n"
		"sched_fork_update_clock = 1\n");

	assert_int_equal(parse("sched_preset=linux-2.6.35 sched_features=NO_START_DEBIT"), 0);
	capture_reset();
	sched_print_tunables();
	assert_true(capture_contains("kernel.sched_min_granularity_ns = 2000000\n"));
	assert_true(capture_contains("GENTLE_FAIR_SLEEPERS NO_START_DEBIT WAKEUP_PREEMPT"));
	assert_true(capture_contains("sched_nr_latency = 3\n"));
}

/* The registry's boot table shows the feature list and the preset. */
static void test_knobs_print(void **state)
{
	capture_reset();
	knobs_print();
	assert_true(capture_contains("  sched_features = 0x3C6F (default)\n"));
	assert_true(capture_contains("  sched_preset = commit-0bf377bbb0be\n"));
	assert_true(capture_contains("  sched_latency_ns = 6000000\n"));
	knob_set_ok("sched_features", "HRTICK,NO_START_DEBIT");
	capture_reset();
	knobs_print();
	assert_true(capture_contains("  sched_features = 0x3D6D (NO_START_DEBIT,HRTICK)\n"));
}

/* granule_sched_params(2): key=value lines, snprintf-style truncation. */
static void test_sched_params(void **state)
{
	char buf[1024], small[16];
	long n;

	knob_set_ok("sched_preset", "linux-2.6.35");
	knob_set_ok("sched_features", "HRTICK");
	n = sys_granule_sched_params(buf, sizeof(buf));
	assert_true(n > 0 && n < (long)sizeof(buf));
	assert_int_equal(strlen(buf), n);
	assert_true(!strncmp(buf, "sched_preset=linux-2.6.35\n", 26));
	assert_non_null(strstr(buf, "\nsched_min_granularity_ns=2000000\n"));
	assert_non_null(strstr(buf, "\nsched_latency_ns=6000000\n"));
	assert_non_null(strstr(buf, "\nsched_nr_latency=3\n"));
	assert_non_null(strstr(buf, "\nsched_fork_update_clock=0\n"));
	assert_non_null(strstr(buf, "\nsched_features=GENTLE_FAIR_SLEEPERS START_DEBIT"));
	assert_non_null(strstr(buf, " HRTICK NO_DOUBLE_TICK "));
	assert_non_null(strstr(buf, "\nsched_features_mask=0x3D6F\n"));
	assert_non_null(strstr(buf, "\nhz=1000\n"));
	assert_non_null(strstr(buf, "\nnr_switches="));
	assert_int_equal(buf[n - 1], '\n');

	/* truncated: LEN - 1 bytes and a NUL, the full length returned */
	memset(small, 'x', sizeof(small));
	assert_int_equal(sys_granule_sched_params(small, 10), n);
	assert_string_equal(small, "sched_pre");
	assert_int_equal(small[10], 'x');
	assert_int_equal(sys_granule_sched_params(small, 0), n);
	assert_int_equal(sys_granule_sched_params(small, -1), -EINVAL);
	assert_int_equal(sys_granule_sched_params(NULL, 10), -EFAULT);
}

/* sched_debug=end: the dump, the schedstats table and the end marker. */
static void test_report_at_end(void **state)
{
	capture_reset();
	sched_report_at_end();				/* off by default */
	assert_false(capture_contains("Sched Debug Version"));
	assert_false(capture_contains("schedstats:"));

	knob_set_ok("sched_debug", "end");
	knob_set_ok("sched_verify", "1");
	capture_reset();
	sched_report_at_end();
	assert_true(capture_contains("sched_verify: 0 violations\n"));
	assert_true(capture_contains("Sched Debug Version: v0.09, granule " GRANULE_VERSION "\n"));
	assert_true(capture_contains("\nrunnable tasks:\n"));
	assert_true(capture_contains("\nschedstats: (times in ms;"));
	assert_true(capture_contains("         swapper     0     0 R   120 "));
	assert_true(capture_contains("\nrq: nr_switches 0 sched_count 0 "));
	assert_true(capture_contains("sched_debug: end of report\n"));
}

/*
 * schedstats=enable|disable (boot spelling) and sched_schedstats 0/1
 * (/proc/sys): both drive the same switch; bad values change nothing and
 * get one line; a CFS preset turns them on, linux-6.12 off; sched_debug
 * says they were off.
 */
static void test_schedstats_knob(void **state)
{
	const struct knob *k = knob_find("sched_schedstats");
	char buf[16];

	assert_non_null(k);
	assert_int_equal(sysctl_sched_schedstats, 1);		/* default preset: on */
	assert_true(static_key_enabled(&sched_schedstats_key));
	sched_schedstats_were_off = 0;

	capture_reset();
	assert_int_equal(knob_apply("schedstats", "off"), -1);
	assert_true(capture_contains("schedstats=off: invalid (expected enable|disable); keeping enable"));
	assert_int_equal(knob_apply("schedstats", ""), -1);
	assert_int_equal(knob_apply("sched_schedstats", "2"), -1);
	assert_int_equal(knob_apply("sched_schedstats", "enable"), -1);
	capture_reset();
	assert_int_equal(knob_write(k, "-1", "sysctl"), -1);
	assert_true(capture_contains("sysctl: sched_schedstats=-1:"));
	assert_true(capture_contains("keeping 1"));
	assert_int_equal(sysctl_sched_schedstats, 1);
	assert_true(static_key_enabled(&sched_schedstats_key));
	assert_int_equal(sched_schedstats_were_off, 0);

	knob_set_ok("schedstats", "disable");
	assert_int_equal(sysctl_sched_schedstats, 0);
	assert_false(static_key_enabled(&sched_schedstats_key));
	knob_show(knob_find("schedstats"), buf, sizeof(buf));
	assert_string_equal(buf, "disable");
	knob_show(k, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	assert_int_equal(knob_write(k, "1", "sysctl"), 0);
	assert_true(static_key_enabled(&sched_schedstats_key));
	knob_show(knob_find("schedstats"), buf, sizeof(buf));
	assert_string_equal(buf, "enable");
	assert_int_equal(sched_schedstats_were_off, 1);

	knob_set_ok("sched_schedstats", "0");
	knob_set_ok("sched_preset", "linux-2.6.35");		/* 2.6.35: compiled in */
	assert_int_equal(sysctl_sched_schedstats, 1);
	knob_set_ok("sched_preset", "linux-6.12");		/* Linux 6.12: off */
	assert_int_equal(sysctl_sched_schedstats, 0);
	assert_false(static_key_enabled(&sched_schedstats_key));
	knob_set_ok("schedstats", "enable");			/* later words win */
	assert_int_equal(sysctl_sched_schedstats, 1);

	knob_set_ok("sched_debug", "end");
	capture_reset();
	sched_report_at_end();
	assert_true(capture_contains("sched_debug: schedstats were off (schedstats=disable or "
				     "kernel.sched_schedstats=0) for all or part of the run"));
	assert_true(capture_contains("  .sysctl_sched_schedstats                 : 1 (off for all"));
	sched_schedstats_were_off = 0;
	capture_reset();
	sched_report_at_end();
	assert_false(capture_contains("schedstats were off"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup(f, sched_test_setup)
		T(test_feature_default),
		T(test_feature_parse),
		T(test_feature_unknown_refused),
		T(test_knobs_registered),
		T(test_schedstats_knob),
		T(test_defaults),
		T(test_ranges),
		T(test_nr_latency_recomputed),
		T(test_nr_latency_other_writes),
		T(test_tunable_factor),
		T(test_presets),
		T(test_preset_unknown),
		T(test_preset_then_override),
		T(test_nr_latency_knob),
		T(test_preset_at_runtime),
		T(test_tools_presets_file),
		T(test_print_tunables),
		T(test_knobs_print),
		T(test_sched_params),
		T(test_report_at_end),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
