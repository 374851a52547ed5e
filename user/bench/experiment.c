/*
 * user/bench/experiment.c - the 2010 experiment from one command line.
 *
 *   run=experiment mode=thread load=kbuild:10,video duration=20
 *
 * init passes the kernel command line's unknown key=value words to every
 * program as environment strings ("mode=thread"), so the settings are read
 * with getenv("mode"); key=value arguments (experiment mode=signal) take
 * precedence.  Keys (defaults):
 *   mode       thread | signal                       (thread)
 *   load       none, or a comma list of kbuild[:N] (N jobs in flight, 10)
 *              and video[:burst_ms] (10)             (kbuild:10)
 *              On C > 1 CPUs kbuild:N keeps N jobs per CPU in flight
 *              (kbuild-load -j N*C, at most 256), so that each CPU sees the
 *              2010 machine's load, and the summary adds each CPU's busy time
 *              over the test (/proc/stat) and a RESULT line with it; the
 *              load's own RESULT line then has its migrations.
 *   duration   latency test length, s                (15)
 *   period_ms  timer period, ms                      (10)
 *   seed       kbuild-load seed                      (1)
 *   profile    kbuild-load profile canonical | chain (canonical)
 *   hist       1: print the latency histogram        (0)
 *   slice_us   the notifying threads' custom slice, µs (0: the base slice);
 *              EEVDF only, clamped by the kernel to 100..100000 (wl_run)
 *   notify_pad_us  µs of CPU the SIGEV_THREAD helper burns per expiry (0);
 *              read by the user library (user/lib/timer.c) from the
 *              environment: an argument is put in front of it
 *   measure    a program and its arguments to run as the measurement instead
 *              of the latency test (none): measure="cyclictest -t1 -i 10000
 *              -l 1000 -h 20000 -q".  The load starts 1 s ahead as before and
 *              runs duration + 2 s, so duration should cover the program's
 *              run; its output passes through and one RESULT line named after
 *              it follows (user/bench/measure.c).  mode, period_ms, hist and
 *              slice_us are then unused.
 * experiment --help lists them; a bad value is named with what is accepted.
 * The loads run as their own processes (kbuild-load, video-load) from
 * 1 s before the latency test to 1 s after it and print their own RESULT
 * lines; the latency test (user/bench/latency.c) runs in this process, so
 * its figures can go into the one-screen summary printed at the end.
 * Exit status: 0, or 1 if the latency test could not run (no timers).
 */
#include <bench.h>
#include <errno.h>
#include <latency.h>
#include <measure.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LOADS	4
#define MAX_CPUS	32	/* the busy figures of the first 32 CPUs */
#define LEAD_S		1	/* loads start this long before the test and end this long after */

static int nargs;
static char **args;
static int cpus = 1;		/* the CPUs this process may run on */

/* KEY from the arguments (key=value), else the environment, else DEF. */
static const char *setting(const char *key, const char *def)
{
	size_t kl = strlen(key);
	const char *v;

	for (int i = 1; i < nargs; i++)
		if (strncmp(args[i], key, kl) == 0 && args[i][kl] == '=')
			return args[i] + kl + 1;
	v = getenv(key);
	return v && *v ? v : def;
}

/* The settings, their defaults and what each accepts: --help prints this table,
 * and a bad value is reported by its own name (one line each, exit 2). */
struct knob {
	const char *key, *def;
	long lo, hi;		/* an integer in [lo, hi]; lo > hi: one of CHOICES, or VALID's */
	const char *choices;	/* "a|b" */
	const char *what;
	int (*valid)(const char *v, char *want, size_t len);	/* 0 or -1 + what is wrong */
};

static int load_valid(const char *v, char *want, size_t len);
static int measure_valid(const char *v, char *want, size_t len);

static const struct knob knobs[] = {
	{ "mode", "thread", 1, 0, "thread|signal",
	  "thread: a SIGEV_THREAD timer (a new thread per expiry); signal: a signal to a sleeping thread", NULL },
	{ "load", "kbuild:10", 1, 0, NULL,
	  "none, or a comma list of kbuild[:N] (N jobs in flight, 1..64) and video[:burst_ms] (1..1000)",
	  load_valid },
	{ "duration", "15", 1, 3600, NULL, "latency test length, s", NULL },
	{ "period_ms", "10", 1, 1000, NULL, "timer period, ms", NULL },
	{ "seed", "1", 0, 2147483647, NULL, "kbuild-load's random seed", NULL },
	{ "profile", "canonical", 1, 0, "canonical|chain", "kbuild-load's job profile", NULL },
	{ "hist", "0", 0, 1, NULL, "1: print the latency histogram", NULL },
	{ "slice_us", "0", 0, 1000000, NULL,
	  "the notifying threads' slice, us (EEVDF only; 0: the base slice; the kernel clamps to 100..100000)", NULL },
	{ "notify_pad_us", "0", 0, 1000, NULL,
	  "CPU the SIGEV_THREAD helper burns per expiry, us (the user library's environment word)", NULL },
	{ "measure", "", 1, 0, NULL,
	  "a program and its arguments measured instead of the latency test, under the load\n"
	  "             (measure=\"cyclictest -t1 -i 10000 -l 1000 -h 20000 -q\"; duration covers it)",
	  measure_valid },
};
#define NKNOBS	(sizeof(knobs) / sizeof(knobs[0]))

static void usage(void)
{
	printf("usage: experiment [KEY=VALUE ...]   (or the same words on the boot line)\n"
	       "The 2010 experiment: start the load, measure a periodic timer's wakeup latency, print\n"
	       "the seeds' lines, percentiles, a RESULT line and a summary (docs/EXPERIMENT.md).\n");
	for (unsigned i = 0; i < NKNOBS; i++) {
		const struct knob *k = &knobs[i];
		if (k->choices)
			printf("  %-10s %s (default %s): %s\n", k->key, k->choices, k->def, k->what);
		else if (k->lo <= k->hi)
			printf("  %-10s %ld..%ld (default %s): %s\n", k->key, k->lo, k->hi, k->def, k->what);
		else
			printf("  %-10s (default %s): %s\n", k->key, *k->def ? k->def : "none", k->what);
	}
}

/* "N" in [lo, hi], digits only; else -1 (every valid value here is >= 0). */
static long number(const char *v, long lo, long hi)
{
	char *end;
	long n;

	if (!*v || *v < '0' || *v > '9')
		return -1;
	n = strtol(v, &end, 10);
	return *end || n < lo || n > hi ? -1 : n;
}

/* The load list's own check: each word kbuild[:1..64], video[:1..1000] or none. */
static int load_ok(const char *v)
{
	char buf[128], *save;

	if (strlen(v) >= sizeof(buf))
		return 0;
	strcpy(buf, v);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		if (colon)
			*colon++ = '\0';
		if (strcmp(tok, "none") == 0 && !colon)
			continue;
		if (strcmp(tok, "kbuild") && strcmp(tok, "video"))
			return 0;
		if (colon && number(colon, 1, strcmp(tok, "kbuild") ? 1000 : 64) < 0)
			return 0;
	}
	return 1;
}

static int load_valid(const char *v, char *want, size_t len)
{
	snprintf(want, len, "expected none, kbuild[:1..64], video[:1..1000], comma-separated");
	return load_ok(v) ? 0 : -1;
}

/* measure=: none, or a program that can run (measure.c says what is wrong). */
static int measure_valid(const char *v, char *want, size_t len)
{
	return *v ? measure_check(v, want, len) : 0;
}

/* Every setting valid?  Names each bad one, with the value and what is accepted. */
static int check_settings(void)
{
	int bad = 0;

	for (int i = 1; i < nargs; i++) {	/* a key=value argument that is no setting */
		const char *eq = strchr(args[i], '=');
		unsigned k = 0;
		while (eq && k < NKNOBS && (strncmp(args[i], knobs[k].key, eq - args[i]) ||
					    knobs[k].key[eq - args[i]]))
			k++;
		if (!eq || k == NKNOBS) {
			printf("experiment: unknown setting '%s' (try experiment --help)\n", args[i]);
			bad = 1;
		}
	}
	for (unsigned i = 0; i < NKNOBS; i++) {
		const struct knob *k = &knobs[i];
		const char *v = setting(k->key, k->def);
		char want[160];
		int ok;

		if (k->choices) {
			size_t n = strlen(v);
			const char *c = strstr(k->choices, v);
			ok = n && c && (c == k->choices || c[-1] == '|') && (!c[n] || c[n] == '|');
			snprintf(want, sizeof(want), "expected %s", k->choices);
		} else if (k->lo <= k->hi) {
			ok = number(v, k->lo, k->hi) >= 0;
			snprintf(want, sizeof(want), "expected an integer %ld..%ld", k->lo, k->hi);
		} else {
			ok = k->valid(v, want, sizeof(want)) == 0;
		}
		if (!ok) {
			printf("experiment: %s=%s: invalid (%s)\n", k->key, v, want);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static pid_t spawn(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execve(argv[0], argv, environ);
		printf("experiment: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

struct seed_row {
	const char *mode, *what, *preset;
	long max, avg;		/* 0.1 us (the libc's printf has no %f) */
};

/* The seeds' published figures (tools/seeds.json; tags: docs/DEBATE.md), with
 * the preset each one is replayed by.  The first row of a mode is its mainline. */
static const struct seed_row seeds[] = {
	{ "thread", "2.6.35.2 mainline, make -j10 [0bf]", "linux-2.6.35", 457621, 73486 },
	{ "thread", "min_gran 0.75 ms only, make -j10 [0bf]", "commit-0bf377bbb0be", 291006, 66841 },
	{ "thread", "START_DEBIT, make -j10 [SN]", "commit-0bf377bbb0be", 264090, 67621 },
	{ "thread", "NO_START_DEBIT, make -j10 [SN]", "no-start-debit", 100018, 16187 },
	{ "thread", "START_NICE, make -j10 [SN]", "start-nice", 83512, 15977 },
	{ "signal", "2.6.35 + video + make -j10 [M1/2]", "linux-2.6.35", 86083, 1013 },
	{ "signal", "dyn-gran + video + make -j10 [M1/2]", "dyn-gran", 30304, 1293 },
};

/*
 * The one-screen summary: what was measured, the seeds' rows with the first
 * row of this run's preset marked, each row as a ratio to its mode's
 * mainline row, and why the microseconds differ from 2010's (this run's own
 * ratio to a mainline run needs that run: `make run` prints it below,
 * tools/granule/run/summary.py).
 */
/* /proc/stat's per-CPU ticks when the test starts and when it ends (> 1 CPU). */
static struct cpu_ticks {
	int n;
	uint64_t busy[MAX_CPUS], total[MAX_CPUS];
} ticks_before, ticks_after;

/* CPU I's busy share of the test in tenths of a percent; -1 if not read. */
static long busy_permille(int i)
{
	uint64_t total = ticks_after.total[i] - ticks_before.total[i];

	if (i >= ticks_before.n || i >= ticks_after.n || !total)
		return -1;
	return (long)(((ticks_after.busy[i] - ticks_before.busy[i]) * 1000 + total / 2) / total);
}

/* RESULT {"bench":"cpu-busy","cpus":C,"busy_pct":[..]}: each CPU over the test. */
static void cpus_result(void)
{
	char list[MAX_CPUS * 8 + 4], *p = list;
	struct jline jl;

	*p++ = '[';
	for (int i = 0; i < ticks_after.n; i++) {
		long b = busy_permille(i);
		p += snprintf(p, list + sizeof(list) - p, "%s%ld.%ld", i ? "," : "", b / 10, b % 10);
	}
	snprintf(p, list + sizeof(list) - p, "]");
	jl_init(&jl);
	jl_str(&jl, "bench", "cpu-busy");
	jl_int(&jl, "cpus", cpus);
	jl_raw(&jl, "busy_pct", list);
	printf("RESULT %s\n", jl_end(&jl));
}

static void summary(const char *preset, const char *mode, const char *load, long duration,
		    long period, int rc, const struct wl_result *r)
{
	char b1[32], b2[32], b3[32];
	const struct seed_row *base = NULL;
	int marked = 0;

	printf("\n======== experiment summary ========\n");
	printf("preset %s | mode %s | load %s | %ld s x %ld ms\n", preset, mode, load, duration, period);
	printf("(a timer fires every %ld ms for %ld s; wakeup latency = how late the woken thread runs)\n",
	       period, duration);
	if (rc == 0)
		printf("wakeup latency (us): max %s  avg %s  p99 %s  missed %d of %d\n",
		       fmt_us1(b1, r->max_ns), fmt_ratio(b2, r->sum_ns, r->samples ? r->samples * 1000LL : 1000, 1),
		       fmt_us1(b3, r->p99_ns), r->missed, r->expected);
	else
		printf("wakeup latency: not measured (the kernel has no POSIX timers?)\n");
	if (cpus > 1) {
		if (!strncmp(load, "kbuild", 6))	/* kbuild:N runs N jobs per CPU */
			printf("%d CPUs, %d jobs each (kbuild-load's RESULT has the migrations);", cpus,
			       (int)strtol(strchr(load, ':') ? strchr(load, ':') + 1 : "10", NULL, 10));
		else
			printf("%d CPUs, load %s;", cpus, load);
		printf(" busy over the test:");
		for (int i = 0; i < ticks_after.n; i++) {
			long b = busy_permille(i);
			printf(" cpu%d %ld.%ld %%", i, b / 10, b % 10);
		}
		printf("\n");
	}
	printf("seeds, %s mode (Pentium M 2.0 GHz, UP), max / avg us, and x their mainline row:\n", mode);
	for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		const struct seed_row *s = &seeds[i];
		if (strcmp(s->mode, mode))
			continue;
		if (!base)
			base = s;
		int mine = !marked && strcmp(s->preset, preset) == 0;	/* one row */
		marked |= mine;
		long rmax = (s->max * 100 + base->max / 2) / base->max;	/* hundredths */
		long ravg = (s->avg * 100 + base->avg / 2) / base->avg;
		printf("  %-40s %6ld.%ld / %5ld.%ld  x%ld.%02ld / x%ld.%02ld%s\n", s->what,
		       s->max / 10, s->max % 10, s->avg / 10, s->avg % 10, rmax / 100, rmax % 100,
		       ravg / 100, ravg % 100, mine ? "  <- this preset" : "");
	}
	printf("tags: [0bf] commit 0bf377bbb0be, [SN] START_NICE v2 mail, [M1/2] dyn-gran RFC (docs/DEBATE.md)\n");
	if (!marked)
		printf("no seed row used preset %s: compare it with another preset's run\n", preset);
	printf("Compare ratios, not us: the load keeps ten jobs runnable throughout, so every wait is\n"
	       "longer than in 2010; Linux on the same QEMU and load shows the same (docs/RESULTS.md).\n"
	       "This run's own ratio: divide it by a sched_preset=linux-2.6.35 run of the same settings\n"
	       "(make run prints it after the summary when the image's calibration has that run).\n");
	printf("====================================\n");
}

/*
 * notify_pad_us=N given as an argument: the user library reads it from the
 * environment (user/lib/timer.c), so put the argument in front of environ.
 */
static void pad_to_environment(void)
{
	static char *env[64];
	int n = 0;

	for (int i = 1; i < nargs; i++)
		if (strncmp(args[i], "notify_pad_us=", 14) == 0)
			env[n++] = args[i];
	if (!n)
		return;
	for (char **e = environ; e && *e && n < 63; e++)
		env[n++] = *e;
	env[n] = NULL;
	environ = env;
}

/* The loads of the comma list LOADBUF (cut in place), running DURATION + 2 * LEAD_S s. */
struct loads {
	int n;
	char *argv[MAX_LOADS][12];
	pid_t pids[MAX_LOADS];
	int statuses[MAX_LOADS];
};

static void start_loads(struct loads *l, char *loadbuf, long duration, long seed, const char *profile)
{
	static char jarg[16], darg[16], sarg[24], barg[16];

	snprintf(darg, sizeof(darg), "%ld", duration + 2 * LEAD_S);
	snprintf(sarg, sizeof(sarg), "%ld", seed);
	l->n = 0;
	for (char *save, *tok = strtok_r(loadbuf, ",", &save); tok && l->n < MAX_LOADS;
	     tok = strtok_r(NULL, ",", &save)) {
		char **a = l->argv[l->n], *colon = strchr(tok, ':');
		int n = 0;

		if (colon)
			*colon++ = '\0';
		if (strcmp(tok, "kbuild") == 0) {
			long j = strtol(colon ? colon : "10", NULL, 10) * cpus;
			snprintf(jarg, sizeof(jarg), "%ld", j > 256 ? 256 : j);	/* kbuild-load's MAX_J */
			a[n++] = "kbuild-load"; a[n++] = "-j"; a[n++] = jarg;
			a[n++] = "-d"; a[n++] = darg; a[n++] = "-s"; a[n++] = sarg;
			a[n++] = "-P"; a[n++] = (char *)profile;
			if (cpus > 1)
				a[n++] = "-m";		/* its migrations */
		} else if (strcmp(tok, "video") == 0) {
			snprintf(barg, sizeof(barg), "%s", colon ? colon : "10");
			a[n++] = "video-load"; a[n++] = "-b"; a[n++] = barg;
			a[n++] = "-d"; a[n++] = darg;
		} else {
			continue;	/* "none" (check_settings() refused anything else) */
		}
		a[n] = NULL;
		l->n++;
	}
	for (int i = 0; i < l->n; i++)
		l->pids[i] = spawn(l->argv[i]);
	if (l->n)
		sleep_until_ns(mono_ns() + LEAD_S * NSEC_PER_SEC);
}

static void wait_loads(struct loads *l)
{
	for (int i = 0; i < l->n; i++) {
		l->statuses[i] = -1;
		if (l->pids[i] > 0 && waitpid(l->pids[i], &l->statuses[i], 0) < 0)
			l->statuses[i] = -1;
	}
}

static void loads_summary(const struct loads *l)
{
	for (int i = 0; i < l->n; i++)
		printf("load %-12s %s (its RESULT line is above)\n", l->argv[i][0],
		       l->statuses[i] >= 0 && WIFEXITED(l->statuses[i]) && WEXITSTATUS(l->statuses[i]) == 0 ?
		       "finished" : "FAILED");
}

/*
 * measure=CMD: CMD under the load instead of the latency test.  Exit status 0
 * if it exited 0, else 1 (its RESULT line has its status).
 */
static int run_measure(const char *cmd, const char *preset, const char *load, char *loadbuf,
		       long duration, long seed, const char *profile)
{
	struct loads l;
	int64_t wall_ns = 0;
	int status;

	printf("experiment: preset %s, measure %s, load %s for %ld s\n", preset, cmd, load, duration);
	start_loads(&l, loadbuf, duration, seed, profile);
	status = measure_run(cmd, load, &wall_ns);
	wait_loads(&l);
	printf("\n======== experiment summary ========\n");
	printf("preset %s | measure %s | load %s\n", preset, cmd, load);
	if (status < 0)
		printf("measure: %s could not be started\n", cmd);
	else
		printf("measure: exited with status %d after %lld ms (its RESULT line is above)\n",
		       status, (long long)(wall_ns / NSEC_PER_MSEC));
	if (l.n && wall_ns > (duration + LEAD_S) * NSEC_PER_SEC)	/* cyclictest -h prints long */
		printf("measure: it ran past the load's end at %ld ms: raise duration if it was still "
		       "measuring then\n", (duration + LEAD_S) * 1000);
	loads_summary(&l);
	printf("====================================\n");
	return status == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct wl_config c;
	struct wl_result r;
	struct loads l;
	static char loadbuf[128], preset[64];
	const char *mode, *profile, *measure;
	long duration, period, seed, slice_us;
	int rc;

	nargs = argc;
	args = argv;
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage();
		return 0;
	}
	if (check_settings())
		return 2;
	cpus = bench_cpus();
	pad_to_environment();
	mode = setting("mode", "thread");
	duration = strtol(setting("duration", "15"), NULL, 10);
	period = strtol(setting("period_ms", "10"), NULL, 10);
	seed = strtol(setting("seed", "1"), NULL, 10);
	profile = setting("profile", "canonical");
	slice_us = strtol(setting("slice_us", "0"), NULL, 10);
	measure = setting("measure", "");
	strncpy(loadbuf, setting("load", "kbuild:10"), sizeof(loadbuf) - 1);
	if (sched_param("sched_preset", preset, sizeof(preset)) < 0)
		strcpy(preset, getenv("PRESET") ? getenv("PRESET") : "unknown");
	if (*measure)
		return run_measure(measure, preset, setting("load", "kbuild:10"), loadbuf, duration,
				   seed, profile);
	wl_defaults(&c);
	c.mode = strcmp(mode, "signal") == 0 ? WL_SIGNAL : WL_THREAD;
	c.duration_s = (int)duration;
	c.period_ns = period * NSEC_PER_MSEC;
	c.load = setting("load", "kbuild:10");
	c.show_hist = strcmp(setting("hist", "0"), "0") != 0;
	c.slice_us = (int)slice_us;
	printf("experiment: preset %s, mode %s, load %s, duration %ld s, period %ld ms\n",
	       preset, mode, c.load, duration, period);

	start_loads(&l, loadbuf, duration, seed, profile);
	if (cpus > 1)
		ticks_before.n = proc_stat_busy(ticks_before.busy, ticks_before.total, MAX_CPUS);
	rc = wl_run(&c, &r);
	if (cpus > 1)
		ticks_after.n = proc_stat_busy(ticks_after.busy, ticks_after.total, MAX_CPUS);
	if (rc < 0)
		printf("experiment: wakeup-latency timer: %s\n", strerror(errno));
	else
		wl_report(&c, &r);
	if (cpus > 1)
		cpus_result();
	wait_loads(&l);
	summary(preset, mode, c.load, duration, period, rc, &r);
	loads_summary(&l);
	return rc < 0 ? 1 : 0;
}
