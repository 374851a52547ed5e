/*
 * user/bench/wakeup-latency.c - the 2010 experiment's measurement.
 *
 *   wakeup-latency [-m thread|signal] [-p period_ms] [-d duration_s]
 *                  [-l load-label] [-b bucket_us] [-H hist_max_us] [-q]
 *                  [-s slice_us]
 *
 * A CLOCK_MONOTONIC POSIX timer with absolute first expiry T0 and interval
 * P (default 10 ms) over N = duration / P expiries (default 15 s); each
 * notification records now - (T0 + k*P) for the index k it claims
 * (timer_getoverrun() folds count as missed).  Mode thread: SIGEV_THREAD
 * (a new thread per expiry, glibc's design, user/lib/timer.c); mode
 * signal: SIGEV_SIGNAL (SIGALRM wakes the sleeping main thread).
 * Prints the seeds' three lines, schbench percentiles, a cyclictest
 * histogram (-q: none) and one RESULT line; see user/bench/latency.c.
 * -l only labels the RESULT line (default: the environment's "load", else
 * "none").  -s (or the environment's slice_us=): the notifying threads run
 * with that custom slice, sched_setattr's sched_runtime in µs (EEVDF; the
 * kernel clamps it to 100..100000; see wl_run).  Exit status 0, or 1 when the timer cannot be made (e.g. a
 * kernel without timer_create: "wakeup-latency: timer: ...").
 */
#include <bench.h>
#include <errno.h>
#include <latency.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: wakeup-latency [-m thread|signal] [-p period_ms] [-d duration_s]\n"
			"                      [-l load-label] [-b bucket_us] [-H hist_max_us] [-q]\n"
			"                      [-s slice_us]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: wakeup-latency [-m thread|signal] [-p period_ms] [-d duration_s]\n                      [-l load-label] [-b bucket_us] [-H hist_max_us] [-q] [-s slice_us]\nMathieu Desnoyers' wakeup-latency test alone (experiment adds the load).\n");
	struct wl_config c;
	struct wl_result r;
	int opt;

	wl_defaults(&c);
	if (getenv("load"))
		c.load = getenv("load");
	if (getenv("slice_us"))
		c.slice_us = atoi(getenv("slice_us"));
	while ((opt = getopt(argc, argv, "m:p:d:l:b:H:qs:")) != -1) {
		switch (opt) {
		case 'm':
			if (strcmp(optarg, "thread") == 0)
				c.mode = WL_THREAD;
			else if (strcmp(optarg, "signal") == 0)
				c.mode = WL_SIGNAL;
			else
				usage();
			break;
		case 'p':
			c.period_ns = atol(optarg) * NSEC_PER_MSEC;
			break;
		case 'd':
			c.duration_s = atoi(optarg);
			break;
		case 'l':
			c.load = optarg;
			break;
		case 'b':
			c.hist_bucket_us = atoi(optarg);
			break;
		case 'H':
			c.hist_max_us = atoi(optarg);
			break;
		case 'q':
			c.show_hist = 0;
			break;
		case 's':
			c.slice_us = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (c.period_ns <= 0 || c.duration_s <= 0 || c.hist_bucket_us <= 0 ||
	    c.slice_us < 0 || c.slice_us > 1000000)
		usage();
	printf("wakeup-latency: mode %s, period %lld ms, duration %d s, load %s\n",
	       wl_mode_name(c.mode), (long long)(c.period_ns / NSEC_PER_MSEC), c.duration_s, c.load);
	if (wl_run(&c, &r) < 0) {
		printf("wakeup-latency: timer: %s\n", strerror(errno));
		return 1;
	}
	wl_report(&c, &r);
	wl_trace_mark(&r);
	return 0;
}
