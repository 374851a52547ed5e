/*
 * latency.h - the wakeup-latency measurement (user/bench/latency.c), shared
 * by the wakeup-latency program and experiment (which runs it in-process
 * so that its one-screen summary has the figures: Granule has no pipes).
 *
 * Definition (docs/EXPERIMENT.md): one CLOCK_MONOTONIC POSIX timer, armed
 * with an absolute first expiry T0 and interval P, so expiry k is due at
 * T0 + k*P; the test covers N = duration / P expiries (k = 0 .. N-1).
 * Each notification - the signal handler (mode signal, SIGEV_SIGNAL with
 * SIGALRM) or the first instruction of the new thread (mode thread,
 * SIGEV_THREAD: a new thread per expiry) - reads the clock and
 * timer_getoverrun(), claims k = next; next += 1 + overrun (atomically;
 * folded expiries are missed), and records latency = now - (T0 + k*P).
 * missed = N - samples: overruns plus expiries never notified before the
 * test ended (T0 + N*P + 1 s at the latest).
 */
#ifndef _LATENCY_H
#define _LATENCY_H

#include <stdint.h>

enum wl_mode { WL_THREAD, WL_SIGNAL };

struct wl_config {
	enum wl_mode mode;
	int64_t period_ns;		/* P, default 10 ms */
	int duration_s;			/* default 15 s */
	const char *load;		/* label for RESULT: "none", "kbuild:10,video" ... */
	int hist_bucket_us;		/* histogram bucket width, default 100 us */
	int hist_max_us;		/* histogram range, default 100000 us */
	int show_hist;			/* print the cyclictest-style histogram */
	int slice_us;			/* >0: the notifying threads' custom slice (sched_setattr) */
};

struct wl_result {
	int expected;			/* N */
	int samples;			/* notifications recorded (claimed k < N) */
	int missed;			/* N - samples */
	int overruns;			/* sum of timer_getoverrun() seen */
	int64_t min_ns, max_ns, sum_ns;
	int64_t p50_ns, p90_ns, p99_ns, p999_ns;
	int64_t *lat_ns;		/* [N], by expiry index; INT64_MIN = not recorded */
	int64_t *sorted_ns;		/* [samples], ascending */
	/* thread mode: CPU time per expiry (CPU-time clocks), ns; -1 = none */
	int64_t helper_cpu_ns;		/* the SIGEV_THREAD helper's */
	int64_t notify_cpu_ns;		/* a notification thread's, whole life to fn's end */
	int notify_pad_us;		/* the notify_pad_us environment word in force */
};

void wl_defaults(struct wl_config *c);
/* Run the test; 0, or -1 + errno when the timer cannot be made (ENOSYS ...). */
int wl_run(const struct wl_config *c, struct wl_result *r);
/* The seeds' three lines, percentiles, histogram (if asked), RESULT line. */
void wl_report(const struct wl_config *c, const struct wl_result *r);
/* One trace_marker line per sample if the kernel traces (see latency.c). */
void wl_trace_mark(const struct wl_result *r);
const char *wl_mode_name(enum wl_mode m);
/* Set this thread's custom slice (sched_setattr's sched_runtime, ns; 0 =
 * the base slice), keeping policy and nice; 0, or -1 if the call failed. */
int wl_set_slice(long long ns);

#endif
