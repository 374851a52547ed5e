/*
 * tools/granule/sim/engine/experiment.c - `tools/sim experiment`: the 2010 experiment of
 * user/bench/experiment.c on the simulated machine (machine.c) with its
 * programs (workload.c) and the kernel's measured costs (calib.c).
 *
 * Output, as the image's experiment prints it: the seeds' three lines,
 * schbench-style percentiles, the load's RESULT line and, last, one
 * RESULT {json} line with "kernel":"Granule sim".  At --cpus N > 1, as the
 * image at -smp N: kbuild:J runs J jobs per CPU, and before that last line
 * come kbuild-load's migrations line, RESULT cpu-busy and the summary's
 * CPU line; the RESULT line adds cpus, migrations and migrations_per_s.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "calib.h"
#include "cpus.h"
#include "validated.h"
#include "workload.h"
#include "../../tests/host/sched/fake.h"
#include "../../kernel/sched/sched.h"
#include <kernel/cmdline.h>

static const char experiment_help[] =
"usage: tools/sim experiment [--preset P] [--mode thread|signal] [--load L] [--duration S]\n"
"                            [--seed N] [--hz H] [--period-ms P] [--pad US] [--calib FILE]\n"
"                            [--cpus N]\n"
"                            [KNOB=VALUE ...]\n"
"  The image's `experiment` (docs/EXPERIMENT.md) simulated on the host with the real\n"
"  kernel/sched code and the kernel's costs measured on the image (tools/sim calibrate).\n"
"  --preset P     sched_preset=P (linux-2.6.35, commit-0bf377bbb0be, no-start-debit, linux-6.12 ...)\n"
"  --mode M       thread (SIGEV_THREAD: a new thread per expiry; default) or signal\n"
"  --load L       none, or a comma list of kbuild[:N] (1..64) and video[:burst_ms]; default kbuild:10\n"
"  --duration S   latency test length, s (1..3600; default 15)\n"
"  --seed N       kbuild-load's seed (default 1)\n"
"  --hz H         100, 250, 300 or 1000 (default 1000)\n"
"  --period-ms P  timer period, ms (1..1000; default 10)\n"
"  --pad US       notify_pad_us: CPU the SIGEV_THREAD helper burns per expiry (0..1000)\n"
"  --slice-us US  slice_us: the notifying threads' EEVDF slice (0: the base slice)\n"
"  --cpus N       N CPUs (1..8, default 1), as the image at -smp N: kbuild:J keeps J jobs\n"
"                 per CPU in flight (-j J*N, at most 256); adds the jobs' migrations, each\n"
"                 CPU's busy share (RESULT cpu-busy) and the summary's CPU line; charges\n"
"                 the IPI, balance, migration and stopper costs measured at -smp 2\n"
"                 (smp.* in the calibration); N > 1 warns\n"
"  --calib FILE   the costs (default: $SIM_CALIB, else tools/granule/sim/engine/calibration)\n"
"  --rt-app FILE  an rt-app workload instead: its threads' logs, as rt-app writes them, and\n"
"                 a summary line each (--preset, --hz and knobs as here; --tick-phase US:\n"
"                 rt-app's start US past a tick; --trace OUT: its switches and wakeups,\n"
"                 ftrace's text; docs/RTAPP.md)\n"
"  --settings     print the run's settings (NAME VALUE lines, the knobs as set) and stop\n"
"  KNOB=VALUE     any boot-line knob (sched_latency_ns=..., sched_features=...); a *_ns\n"
"                 knob also takes a time (750us, 2ms), as tools/sim sweep does\n"
"  A run whose settings lie outside what was cross-validated against QEMU\n"
"  ($SIM_VALIDATED, else tools/granule/sim/engine/validated) gets one line of warning on stderr.\n";

struct exp_opts {
	const char *preset, *load, *calib;
	long duration, seed, period_ms, pad_us, slice_us;
	int thread_mode, hz, settings;
};

static long number_opt(const char *name, const char *v, long lo, long hi)
{
	char *end, range[64];
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < lo || n > hi) {
		snprintf(range, sizeof(range), "%ld..%ld", lo, hi);
		fprintf(stderr, "sim: %s %s: not an integer in %s\n", name, v, range);
		exit(2);
	}
	return n;
}

/* "kbuild[:N]", "video[:burst_ms]", "none", comma-separated */
static void parse_load(const char *v)
{
	char buf[128], *save;

	if (strlen(v) >= sizeof(buf))
		die("--load %s: too long%s", v, "");
	strcpy(buf, v);
	wl.kbuild_j = wl.video_burst_ms = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');

		if (colon)
			*colon++ = '\0';
		if (!strcmp(tok, "none") && !colon)
			continue;
		if (!strcmp(tok, "kbuild"))
			wl.kbuild_j = colon ? (int)number_opt("--load kbuild:", colon, 1, 64) : 10;
		else if (!strcmp(tok, "video"))
			wl.video_burst_ms = colon ? (int)number_opt("--load video:", colon, 1, 1000) : 10;
		else
			die("--load %s: expected none, or a comma list of kbuild[:N] and video[:burst_ms]%s",
			    v, "");
	}
}

static int exp_args(int argc, char **argv, struct exp_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(experiment_help, stdout);
			return 1;
		}
		if (!strcmp(a, "--settings")) {
			o->settings = 1;
			continue;
		}
		if (strncmp(a, "--", 2)) {		/* KNOB=VALUE */
			char name[64];
			const char *eq = strchr(a, '=');

			if (!eq || eq == a || (size_t)(eq - a) >= sizeof(name))
				die("%s: expected an option or KNOB=VALUE%s", a, " (see tools/sim experiment --help)");
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = '\0';
			apply_knob(name, eq + 1);
			continue;
		}
		if (!v)
			die("%s needs a value%s", a, " (see tools/sim experiment --help)");
		i++;
		if (!strcmp(a, "--preset"))
			;				/* applied first, by cmd_experiment */
		else if (!strcmp(a, "--mode") && (!strcmp(v, "thread") || !strcmp(v, "signal")))
			o->thread_mode = !strcmp(v, "thread");
		else if (!strcmp(a, "--mode"))
			die("--mode %s: expected thread or signal%s", v, "");
		else if (!strcmp(a, "--load"))
			parse_load(v), o->load = v;
		else if (!strcmp(a, "--duration"))
			o->duration = number_opt(a, v, 1, 3600);
		else if (!strcmp(a, "--seed"))
			o->seed = number_opt(a, v, 0, 2147483647);
		else if (!strcmp(a, "--hz"))
			apply_hz(v);
		else if (!strcmp(a, "--period-ms"))
			o->period_ms = number_opt(a, v, 1, 1000);
		else if (!strcmp(a, "--pad"))
			o->pad_us = number_opt(a, v, 0, 1000);
		else if (!strcmp(a, "--slice-us"))
			o->slice_us = number_opt(a, v, 0, 1000000);
		else if (!strcmp(a, "--calib"))
			o->calib = v;
		else if (!strcmp(a, "--cpus"))
			;				/* read by cpus_arg() before the boot */
		else
			die("%s: unknown option%s", a, " (see tools/sim experiment --help)");
	}
	return 0;
}

/* ns as µs with one decimal, rounded half away from zero (bench.c's fmt_us1) */
static const char *us1(char *buf, s64 num, s64 den)
{
	s64 q;

	if (!den)
		return strcpy(buf, "nan");
	q = (num * 10 + (num >= 0 ? den / 2 : -den / 2)) / den;
	sprintf(buf, "%s%lld.%lld", q < 0 ? "-" : "", (long long)(q < 0 ? -q : q) / 10,
		(long long)(q < 0 ? -q : q) % 10);
	return buf;
}

static int cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank: the smallest sample with at least PERMILLE/1000 of them <= it */
static int rank(int n, int permille)
{
	int idx = (int)(((s64)n * permille + 999) / 1000) - 1;

	return idx < 0 ? 0 : idx;
}

static void report_kbuild(int ncpus)
{
	u64 window = wl.duration + 2 * LEAD_NS;

	printf("kbuild-load: %ld jobs in %llu s, work_frac %.3f, %ld as-children\n",
	       wl.jobs, (unsigned long long)(window / 1000000000ULL),
	       (double)wl.work / (double)window, wl.as_children);
	if (ncpus > 1)				/* kbuild-load -m's line */
		printf("kbuild-load: %ld migrations in the window (%.1f per s) on %d CPUs\n",
		       wl.migrations, (double)wl.migrations * 1e9 / (double)window, ncpus);
}

/* CPU's busy share of the test in tenths of a percent (experiment.c's
 * busy_permille(), from the idle time instead of /proc/stat's ticks). */
static long busy_permille(int cpu)
{
	u64 total = wl.busy_to - wl.busy_from, idle = wl.idle_to[cpu] - wl.idle_from[cpu];

	return total ? (long)(((total - idle) * 1000 + total / 2) / total) : -1;
}

/* At > 1 CPU, as the image's experiment: RESULT cpu-busy and the summary's
 * CPU line (before the last RESULT line, which tools/sim sweep reads). */
static int kbuild_each;			/* kbuild:J's J, jobs per CPU */

static void report_cpus(int ncpus, const char *load)
{
	printf("RESULT {\"bench\":\"cpu-busy\",\"cpus\":%d,\"busy_pct\":[", ncpus);
	for (int c = 0; c < ncpus; c++)
		printf("%s%ld.%ld", c ? "," : "", busy_permille(c) / 10, busy_permille(c) % 10);
	printf("]}\n");
	if (wl.kbuild_j)
		printf("%d CPUs, %d jobs each (the RESULT line has the migrations);", ncpus,
		       kbuild_each);
	else
		printf("%d CPUs, load %s;", ncpus, load);
	printf(" busy over the test:");
	for (int c = 0; c < ncpus; c++)
		printf(" cpu%d %ld.%ld %%", c, busy_permille(c) / 10, busy_permille(c) % 10);
	printf("\n");
}

/* The seeds' lines, the percentiles, one RESULT line (user/bench/latency.c). */
static void report(const struct exp_opts *o, const struct machine *m, double host_s)
{
	s64 *s = malloc(sizeof(*s) * (size_t)wl.n), sum = 0;
	static const int pm[] = { 500, 900, 990, 999 };
	const char *keys[] = { "p50_us", "p90_us", "p99_us", "p999_us" };
	char b[32];
	int n = 0, prev = -1;

	for (int k = 0; k < wl.n; k++)
		if (wl.lat[k] != INT64_MIN)
			s[n++] = wl.lat[k], sum += wl.lat[k];
	qsort(s, (size_t)n, sizeof(*s), cmp_s64);
	printf("maximum latency: %s \xc2\xb5s\n", us1(b, n ? s[n - 1] : 0, 1000));
	printf("average latency: %s \xc2\xb5s\n", us1(b, sum, n ? (s64)n * 1000 : 1000));
	printf("missed timer events: %d\n", wl.n - n);
	printf("Wakeup Latencies percentiles (usec) runtime %ld (s) (%d total samples)\n", o->duration, n);
	for (unsigned i = 0; i < 4 && n; i++) {
		int idx = rank(n, pm[i]);

		printf("\t%s%d.%dth: %-10lld (%d samples)\n", pm[i] == 990 ? "* " : "  ", pm[i] / 10,
		       pm[i] % 10, (long long)((s[idx] + 500) / 1000), idx - prev);
		prev = idx;
	}
	if (n)
		printf("\t  min=%lld, max=%lld\n", (long long)((s[0] + 500) / 1000),
		       (long long)((s[n - 1] + 500) / 1000));
	if (wl.kbuild_j)
		report_kbuild(m->ncpus);
	if (m->ncpus > 1)
		report_cpus(m->ncpus, o->load);

	printf("RESULT {\"bench\":\"wakeup-latency\",\"kernel\":\"Granule sim\",\"preset\":\"%s\",\"hz\":%u,",
	       o->preset, HZ);
	printf("\"mode\":\"%s\",\"load\":\"%s\",\"seed\":%ld,\"duration_s\":%ld,\"period_us\":%ld,",
	       o->thread_mode ? "thread" : "signal", o->load, o->seed, o->duration, o->period_ms * 1000);
	if (o->slice_us)
		printf("\"slice_us\":%ld,", o->slice_us);
	printf("\"expected\":%d,\"samples\":%d,\"max_us\":%s,", wl.n, n, us1(b, n ? s[n - 1] : 0, 1000));
	printf("\"avg_us\":%s,", us1(b, sum, n ? (s64)n * 1000 : 1000));
	printf("\"min_us\":%s", us1(b, n ? s[0] : 0, 1000));
	for (unsigned i = 0; i < 4; i++)
		printf(",\"%s\":%s", keys[i], us1(b, n ? s[rank(n, pm[i])] : 0, 1000));
	printf(",\"missed\":%d,\"overruns\":%d,", wl.n - n, wl.overruns);
	printf("\"helper_cpu_us\":%s,", o->thread_mode && wl.expiries ?
	       us1(b, (s64)wl.helper->cpu_ns, (s64)wl.expiries * 1000) : "-1");
	printf("\"notify_cpu_us\":%s,\"notify_pad_us\":%ld", o->thread_mode && wl.threads ?
	       us1(b, (s64)wl.notify_cpu, (s64)wl.threads * 1000) : "-1", o->pad_us);
	if (wl.kbuild_j)
		printf(",\"jobs\":%ld,\"work_frac\":%.3f", wl.jobs,
		       (double)wl.work / (double)(wl.duration + 2 * LEAD_NS));
	if (m->ncpus > 1)
		printf(",\"cpus\":%d", m->ncpus);
	if (m->ncpus > 1 && wl.kbuild_j)
		printf(",\"migrations\":%ld,\"migrations_per_s\":%.1f", wl.migrations,
		       (double)wl.migrations * 1e9 / (double)(wl.duration + 2 * LEAD_NS));
	if (wl.video_burst_ms)
		printf(",\"video_frames\":%ld,\"video_dropped\":%ld", wl.frames, wl.dropped);
	printf(",\"switches\":%lu,\"calib\":\"%s\",\"host_s\":%.3f}\n", m->switches, m->cost.commit,
	       host_s);
	free(s);
}

static struct machine mach;

int cmd_experiment(int argc, char **argv)
{
	struct exp_opts o = { .preset = "linux-2.6.35", .load = "kbuild:10", .duration = 15,
			      .seed = 1, .period_ms = 10, .thread_mode = 1 };
	const char *env = getenv("SIM_CALIB"), *valid = getenv("SIM_VALIDATED");
	struct sim_costs costs;
	struct run_settings rs;
	u64 phase, period;
	struct timespec a, b;
	int ncpus = cpus_arg(argc, argv);

	cpus_boot(ncpus);			/* at one CPU: sched_test_reset() */
	sysctl_sched_verify = 0;		/* as the image runs: the checker off */
	memset(&wl, 0, sizeof(wl));
	wl.kbuild_j = 10;
	o.calib = env && *env ? env : "tools/granule/sim/engine/calibration";
	/* the preset first (it resets the knobs the others then change) */
	for (int i = 0; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--preset"))
			o.preset = argv[i + 1];
	apply_knob("sched_preset", o.preset);
	if (exp_args(argc, argv, &o))
		return 0;
	cpus_online(ncpus);
	kbuild_each = wl.kbuild_j;
	if (wl.kbuild_j && ncpus > 1)		/* kbuild:J keeps J jobs per CPU */
		wl.kbuild_j = wl.kbuild_j * ncpus > 256 ? 256 : wl.kbuild_j * ncpus;
	rs = (struct run_settings){ .cpus = ncpus, .load = o.load, .period_ms = o.period_ms,
				    .pad_us = o.pad_us,
				    .slice_us = o.slice_us, .thread_mode = o.thread_mode };
	settings_collect(&rs);
	if (o.settings) {
		settings_print();
		return 0;
	}
	validated_check(valid && *valid ? valid : "tools/granule/sim/engine/validated");
	calib_load(o.calib, &costs, sched_eevdf());
	clock_gettime(CLOCK_MONOTONIC, &a);
	wl.thread_mode = o.thread_mode;
	wl.period = (u64)o.period_ms * MSEC;
	wl.duration = (u64)o.duration * 1000000000ULL;
	wl.seed = (u64)o.seed;
	wl.pad = (u64)o.pad_us * 1000;
	wl.slice = (u64)o.slice_us * 1000;
	printf("experiment: preset %s, mode %s, load %s, duration %ld s, period %ld ms (simulated)\n",
	       o.preset, o.thread_mode ? "thread" : "signal", o.load, o.duration, o.period_ms);
	calib_hz(&costs, HZ, &phase, &period);
	m_init(&mach, &costs, phase, period);
	if (ncpus > 1)
		m_init_cpus(&mach, ncpus);
	wl_start(&mach);
	wl_finish(&mach);
	clock_gettime(CLOCK_MONOTONIC, &b);
	report(&o, &mach, (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
