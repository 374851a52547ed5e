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
 *   duration   latency test length, s                (15)
 *   period_ms  timer period, ms                      (10)
 *   seed       kbuild-load seed                      (1)
 *   profile    kbuild-load profile canonical | chain (canonical)
 *   hist       1: print the latency histogram        (0)
 *   slice_us   the notifying threads' custom slice, µs (0: the base slice);
 *              EEVDF only, clamped by the kernel to 100..100000 (wl_run)
 * The loads run as their own processes (kbuild-load, video-load) from
 * 1 s before the latency test to 1 s after it and print their own RESULT
 * lines; the latency test (user/bench/latency.c) runs in this process, so
 * its figures can go into the one-screen summary printed at the end.
 * Exit status: 0, or 1 if the latency test could not run (no timers).
 */
#include <bench.h>
#include <errno.h>
#include <latency.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LOADS	4
#define LEAD_S		1	/* loads start this long before the test and end this long after */

static int nargs;
static char **args;

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
	const char *mode, *what;
	const char *max, *avg;
};

/* The seeds' published figures (tools/seeds.json; tags: docs/DEBATE.md). */
static const struct seed_row seeds[] = {
	{ "thread", "2.6.35.2 mainline, make -j10 [0bf]", "45762.1", "7348.6" },
	{ "thread", "min_gran 0.75 ms only, make -j10 [0bf]", "29100.6", "6684.1" },
	{ "thread", "START_DEBIT, make -j10 [SN]", "26409.0", "6762.1" },
	{ "thread", "NO_START_DEBIT, make -j10 [SN]", "10001.8", "1618.7" },
	{ "thread", "START_NICE, make -j10 [SN]", "8351.2", "1597.7" },
	{ "signal", "2.6.35 + video + make -j10 [M1/2]", "8608.3", "101.3" },
	{ "signal", "dyn-gran + video + make -j10 [M1/2]", "3030.4", "129.3" },
};

int main(int argc, char **argv)
{
	struct wl_config c;
	struct wl_result r;
	static char jarg[16], darg[16], sarg[24], barg[16], loadbuf[128], preset[64];
	char *load_argv[MAX_LOADS][12];
	pid_t pids[MAX_LOADS];
	int nloads = 0, rc, statuses[MAX_LOADS];
	const char *mode, *profile;
	long duration, period, seed, slice_us;
	char b1[32], b2[32], b3[32];

	nargs = argc;
	args = argv;
	mode = setting("mode", "thread");
	duration = strtol(setting("duration", "15"), NULL, 10);
	period = strtol(setting("period_ms", "10"), NULL, 10);
	seed = strtol(setting("seed", "1"), NULL, 10);
	profile = setting("profile", "canonical");
	slice_us = strtol(setting("slice_us", "0"), NULL, 10);
	strncpy(loadbuf, setting("load", "kbuild:10"), sizeof(loadbuf) - 1);
	if ((strcmp(mode, "thread") && strcmp(mode, "signal")) || duration < 1 || period < 1 ||
	    slice_us < 0 || slice_us > 1000000) {
		printf("experiment: bad settings: mode=%s duration=%ld period_ms=%ld slice_us=%ld "
		       "(slice_us: 0..1000000)\n", mode, duration, period, slice_us);
		return 2;
	}
	wl_defaults(&c);
	c.mode = strcmp(mode, "signal") == 0 ? WL_SIGNAL : WL_THREAD;
	c.duration_s = (int)duration;
	c.period_ns = period * NSEC_PER_MSEC;
	c.load = setting("load", "kbuild:10");
	c.show_hist = strcmp(setting("hist", "0"), "0") != 0;
	c.slice_us = (int)slice_us;
	if (sched_param("sched_preset", preset, sizeof(preset)) < 0)
		strcpy(preset, getenv("PRESET") ? getenv("PRESET") : "unknown");
	printf("experiment: preset %s, mode %s, load %s, duration %ld s, period %ld ms\n",
	       preset, mode, c.load, duration, period);

	/* Loads: "kbuild[:N]" and "video[:burst_ms]", comma-separated; "none". */
	snprintf(darg, sizeof(darg), "%ld", duration + 2 * LEAD_S);
	snprintf(sarg, sizeof(sarg), "%ld", seed);
	for (char *save, *tok = strtok_r(loadbuf, ",", &save); tok && nloads < MAX_LOADS;
	     tok = strtok_r(NULL, ",", &save)) {
		char **a = load_argv[nloads], *colon = strchr(tok, ':');
		int n = 0;

		if (colon)
			*colon++ = '\0';
		if (strcmp(tok, "none") == 0)
			continue;
		if (strcmp(tok, "kbuild") == 0) {
			snprintf(jarg, sizeof(jarg), "%s", colon ? colon : "10");
			a[n++] = "kbuild-load"; a[n++] = "-j"; a[n++] = jarg;
			a[n++] = "-d"; a[n++] = darg; a[n++] = "-s"; a[n++] = sarg;
			a[n++] = "-P"; a[n++] = (char *)profile;
		} else if (strcmp(tok, "video") == 0) {
			snprintf(barg, sizeof(barg), "%s", colon ? colon : "10");
			a[n++] = "video-load"; a[n++] = "-b"; a[n++] = barg;
			a[n++] = "-d"; a[n++] = darg;
		} else {
			printf("experiment: unknown load '%s' (expected none, kbuild[:N], video[:burst_ms])\n", tok);
			return 2;
		}
		a[n] = NULL;
		nloads++;
	}
	for (int i = 0; i < nloads; i++)
		pids[i] = spawn(load_argv[i]);
	if (nloads)
		sleep_until_ns(mono_ns() + LEAD_S * NSEC_PER_SEC);

	rc = wl_run(&c, &r);
	if (rc < 0)
		printf("experiment: wakeup-latency timer: %s\n", strerror(errno));
	else
		wl_report(&c, &r);
	for (int i = 0; i < nloads; i++) {
		statuses[i] = -1;
		if (pids[i] > 0 && waitpid(pids[i], &statuses[i], 0) < 0)
			statuses[i] = -1;
	}

	printf("\n======== experiment summary ========\n");
	printf("preset %s | mode %s | load %s | %ld s x %ld ms\n", preset, mode, c.load, duration, period);
	if (rc == 0) {
		printf("wakeup latency (us): max %s  avg %s  p99 %s  missed %d of %d\n",
		       fmt_us1(b1, r.max_ns), fmt_ratio(b2, r.sum_ns, r.samples ? r.samples * 1000LL : 1000, 1),
		       fmt_us1(b3, r.p99_ns), r.missed, r.expected);
	} else {
		printf("wakeup latency: not measured (the kernel has no POSIX timers?)\n");
	}
	for (int i = 0; i < nloads; i++)
		printf("load %-12s %s (its RESULT line is above)\n", load_argv[i][0],
		       statuses[i] >= 0 && WIFEXITED(statuses[i]) && WEXITSTATUS(statuses[i]) == 0 ?
		       "finished" : "FAILED");
	printf("seeds, %s mode (Pentium M 2.0 GHz, UP), max / avg us:\n", mode);
	for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		if (strcmp(seeds[i].mode, mode) == 0)
			printf("  %-40s %9s / %s\n", seeds[i].what, seeds[i].max, seeds[i].avg);
	printf("====================================\n");
	return rc < 0 ? 1 : 0;
}
