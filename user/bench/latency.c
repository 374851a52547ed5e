/*
 * user/bench/latency.c - the wakeup-latency measurement and its report
 * (definition in <latency.h> and docs/EXPERIMENT.md).
 *
 * Output, in this order:
 *   the seeds' three lines, byte for byte in form:
 *	maximum latency: 50107.8 µs
 *	average latency: 6609.2 µs
 *	missed timer events: 0
 *   schbench-style percentiles (exact nearest-rank values, integer µs;
 *   "(n samples)" counts the samples since the previous percentile):
 *	Wakeup Latencies percentiles (usec) runtime 15 (s) (1500 total samples)
 *		  50.0th: 6512       (750 samples)
 *		* 99.0th: ...
 *		  min=12, max=50108
 *   a cyclictest-style histogram ("%06d %06lu" per non-empty bucket; the
 *   first column is the bucket's lower bound in µs; footers as cyclictest),
 *   and one line  RESULT {"bench":"wakeup-latency",...}.
 */
#include <latency.h>
#include <sched.h>
#include <bench.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread.h>
#include <time.h>
#include "../lib/ulib.h"

#define UNRECORDED	INT64_MIN
#define END_GRACE_NS	NSEC_PER_SEC	/* wait for late notifications past T0 + N*P */
#define SIGNAL_MODE_SIG	SIGALRM

/* State shared with the notification (signal handler or new thread). */
static struct {
	timer_t id;
	int64_t t0, period;
	int n;
	volatile int next_k;		/* next expiry index to claim */
	volatile int samples, overruns;
	int64_t *lat;
} wl;

const char *wl_mode_name(enum wl_mode m)
{
	return m == WL_SIGNAL ? "signal" : "thread";
}

void wl_defaults(struct wl_config *c)
{
	c->mode = WL_THREAD;
	c->period_ns = 10 * NSEC_PER_MSEC;
	c->duration_s = 15;
	c->load = "none";
	c->hist_bucket_us = 100;
	c->hist_max_us = 100000;
	c->show_hist = 1;
	c->slice_us = 0;
}


#define SCHED_FLAG_KEEP_POLICY	0x08

int wl_set_slice(long long ns)
{
	struct sched_attr a;

	memset(&a, 0, sizeof(a));
	if (sys_sched_getattr(0, (long)&a, sizeof(a), 0) < 0)	/* keeps nice */
		return -1;
	a.size = sizeof(a);
	a.sched_flags = SCHED_FLAG_KEEP_POLICY;
	a.sched_runtime = (uint64_t)ns;
	return sys_sched_setattr(0, (long)&a, 0) < 0 ? -1 : 0;
}

/* The measurement itself: raw system calls only (no errno, async-signal-safe). */
static void notified(void)
{
	struct timespec ts;
	int64_t now;
	long ov;
	int k;

	sys_clock_gettime(CLOCK_MONOTONIC, L(&ts));
	now = (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	ov = timer_getoverrun(wl.id);	/* sets errno only on failure */
	if (ov < 0)
		ov = 0;
	k = __sync_fetch_and_add(&wl.next_k, 1 + (int)ov);
	__sync_fetch_and_add(&wl.overruns, (int)ov);
	if (k >= wl.n)
		return;
	wl.lat[k] = now - (wl.t0 + (int64_t)k * wl.period);
	__sync_fetch_and_add(&wl.samples, 1);
}

static void on_signal(int sig)
{
	notified();
}

static void on_thread(union sigval v)
{
	notified();
}

static void shell_sort(int64_t *a, int n)
{
	static const int gaps[] = { 1750, 701, 301, 132, 57, 23, 10, 4, 1 };

	for (unsigned g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
		int gap = gaps[g];

		for (int i = gap; i < n; i++) {
			int64_t v = a[i];
			int j = i;

			for (; j >= gap && a[j - gap] > v; j -= gap)
				a[j] = a[j - gap];
			a[j] = v;
		}
	}
}

/* Nearest rank: the smallest sample with at least PERMILLE/1000 of them <= it. */
static int rank(int n, int permille)
{
	int idx = (int)(((int64_t)n * permille + 999) / 1000) - 1;

	return idx < 0 ? 0 : idx;
}

static void summarise(struct wl_result *r)
{
	int n = 0;

	r->samples = 0;
	r->min_ns = r->max_ns = r->sum_ns = 0;
	for (int k = 0; k < r->expected; k++)
		if (r->lat_ns[k] != UNRECORDED)
			r->sorted_ns[n++] = r->lat_ns[k];
	r->samples = n;
	r->missed = r->expected - n;
	shell_sort(r->sorted_ns, n);
	for (int i = 0; i < n; i++)
		r->sum_ns += r->sorted_ns[i];
	if (n) {
		r->min_ns = r->sorted_ns[0];
		r->max_ns = r->sorted_ns[n - 1];
		r->p50_ns = r->sorted_ns[rank(n, 500)];
		r->p90_ns = r->sorted_ns[rank(n, 900)];
		r->p99_ns = r->sorted_ns[rank(n, 990)];
		r->p999_ns = r->sorted_ns[rank(n, 999)];
	}
}

/*
 * With the kernel tracing (trace_event=), one trace_marker line per sample,
 * so that tools/trace can tie each sample to the events around its expiry:
 *	wakeup-latency: sample=K expiry=NS latency=NS
 * (expiry on CLOCK_MONOTONIC, the trace clock; latency -1: missed).  The
 * first call tells whether anyone listens: -ENOSYS (no tracer, or Linux)
 * stops it.  Called after the measurement, so it cannot disturb it; only
 * the wakeup-latency program calls it, so that the experiment driver's
 * image (whose size sets the phase of its timer: exec copies it) stays as
 * it was and tools/trace finds its samples from the timer events instead.
 */
void wl_trace_mark(const struct wl_result *r)
{
	char line[96];

	for (int k = 0; k < r->expected; k++) {
		int64_t lat = r->lat_ns[k] == UNRECORDED ? -1 : r->lat_ns[k];
		int n = snprintf(line, sizeof(line), "wakeup-latency: sample=%d expiry=%lld latency=%lld",
				 k, (long long)(wl.t0 + (int64_t)k * wl.period), (long long)lat);

		if (sys_granule_trace_marker(L(line), n) < 0)
			return;
	}
}

/*
 * Thread mode: the helper's and the notification threads' CPU time per
 * expiry over the run (the accounting in user/lib/timer.c, read before
 * the timer starts and after the last thread finished); -1 in signal mode.
 */
static void per_expiry_cpu(const struct wl_config *c, const struct timer_thread_cpu *cpu0,
			   struct wl_result *r)
{
	struct timer_thread_cpu cpu1;
	int expiries, threads;

	r->helper_cpu_ns = r->notify_cpu_ns = -1;
	__timer_thread_cpu(&cpu1);
	r->notify_pad_us = cpu1.pad_us;
	if (c->mode != WL_THREAD)
		return;
	expiries = cpu1.expiries - cpu0->expiries;
	threads = cpu1.threads - cpu0->threads;
	if (expiries > 0)
		r->helper_cpu_ns = (cpu1.helper_ns - cpu0->helper_ns) / expiries;
	if (threads > 0)
		r->notify_cpu_ns = (cpu1.notify_ns - cpu0->notify_ns) / threads;
}

int wl_run(const struct wl_config *c, struct wl_result *r)
{
	struct timer_thread_cpu cpu0;
	struct sigevent sev;
	struct itimerspec its;
	struct sigaction sa;
	int64_t end, deadline;
	int base_threads;

	memset(r, 0, sizeof(*r));
	memset(&sev, 0, sizeof(sev));
	r->expected = (int)((int64_t)c->duration_s * NSEC_PER_SEC / c->period_ns);
	if (r->expected < 1)
		r->expected = 1;
	r->lat_ns = malloc(sizeof(int64_t) * (size_t)r->expected);
	r->sorted_ns = malloc(sizeof(int64_t) * (size_t)r->expected);
	if (!r->lat_ns || !r->sorted_ns)
		return -1;
	for (int k = 0; k < r->expected; k++)
		r->lat_ns[k] = UNRECORDED;
	wl.n = r->expected;
	wl.lat = r->lat_ns;
	wl.period = c->period_ns;
	wl.next_k = wl.samples = wl.overruns = 0;

	if (c->mode == WL_SIGNAL) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGNAL_MODE_SIG, &sa, NULL) < 0)
			return -1;
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGNAL_MODE_SIG;
	} else {
		sev.sigev_notify = SIGEV_THREAD;
		sev.sigev_notify_function = on_thread;
	}
	/*
	 * slice_us: the threads that take the notifications get that slice.
	 * Signal mode: this thread (its handler).  Thread mode: the helper
	 * thread timer_create() starts on the first SIGEV_THREAD timer copies
	 * this thread's slice at its clone, and every notification thread the
	 * helper clones copies the helper's; this thread then goes back to the
	 * base slice (sched_runtime 0).
	 */
	if (c->slice_us > 0 && wl_set_slice((long long)c->slice_us * 1000) < 0)
		printf("wakeup-latency: slice_us=%d: sched_setattr failed, base slice kept\n",
		       c->slice_us);
	if (timer_create(CLOCK_MONOTONIC, &sev, &wl.id) < 0)
		return -1;
	if (c->slice_us > 0 && c->mode == WL_THREAD)
		wl_set_slice(0);
	base_threads = thread_running();	/* the SIGEV_THREAD helper included */
	__timer_thread_cpu(&cpu0);

	/* Absolute T0, one period from now; expiry k is due at T0 + k*P. */
	wl.t0 = mono_ns() + c->period_ns;
	its.it_value = ns_to_ts(wl.t0);
	its.it_interval = ns_to_ts(c->period_ns);
	if (timer_settime(wl.id, TIMER_ABSTIME, &its, NULL) < 0) {
		int e = errno;

		timer_delete(wl.id);
		errno = e;
		return -1;
	}

	/* Sleep through the test; then poll each period for late notifications. */
	end = wl.t0 + (int64_t)r->expected * c->period_ns;
	deadline = end + END_GRACE_NS;
	sleep_until_ns(end);
	while (wl.next_k < r->expected && mono_ns() < deadline)
		sleep_until_ns(mono_ns() + c->period_ns);
	timer_delete(wl.id);
	/* Let notification threads still running finish (bounded). */
	deadline = mono_ns() + 2 * NSEC_PER_SEC;
	while (thread_running() > base_threads && mono_ns() < deadline)
		sleep_until_ns(mono_ns() + NSEC_PER_MSEC);
	if (c->mode == WL_SIGNAL)
		signal(SIGNAL_MODE_SIG, SIG_IGN);
	r->overruns = wl.overruns;
	summarise(r);
	per_expiry_cpu(c, &cpu0, r);
	return 0;
}

static void print_percentiles(const struct wl_config *c, const struct wl_result *r)
{
	static const int pm[] = { 500, 900, 990, 999 };
	int prev = -1;

	printf("Wakeup Latencies percentiles (usec) runtime %d (s) (%d total samples)\n",
	       c->duration_s, r->samples);
	for (unsigned i = 0; i < 4 && r->samples; i++) {
		int idx = rank(r->samples, pm[i]);

		printf("\t%s%d.%dth: %-10lld (%d samples)\n", pm[i] == 990 ? "* " : "  ",
		       pm[i] / 10, pm[i] % 10, (long long)((r->sorted_ns[idx] + 500) / 1000),
		       idx - prev);
		prev = idx;
	}
	printf("\t  min=%lld, max=%lld\n", (long long)((r->min_ns + 500) / 1000),
	       (long long)((r->max_ns + 500) / 1000));
}

/* cyclictest -h: one bucket per line, empty buckets omitted, then the footers. */
static void print_histogram(const struct wl_config *c, const struct wl_result *r)
{
	int bw = c->hist_bucket_us > 0 ? c->hist_bucket_us : 1;
	int nb = c->hist_max_us / bw, overflows = 0, listed = 0;
	int64_t avg = r->samples ? r->sum_ns / r->samples : 0;

	printf("# Histogram bucket width: %d us (first column: the bucket's lower bound in us)\n", bw);
	printf("# Histogram\n");
	for (int i = 0, b = 0; b < nb && i < r->samples; b++) {
		int count = 0;

		while (i < r->samples && r->sorted_ns[i] / 1000 < (int64_t)(b + 1) * bw) {
			count++;
			i++;
		}
		if (count)
			printf("%06d %06d\n", b * bw, count);
	}
	for (int i = 0; i < r->samples; i++)
		if (r->sorted_ns[i] / 1000 >= (int64_t)nb * bw)
			overflows++;
	printf("# Total: %09d\n", r->samples - overflows);
	printf("# Min Latencies: %05lld\n", (long long)(r->min_ns / 1000));
	printf("# Avg Latencies: %05lld\n", (long long)(avg / 1000));
	printf("# Max Latencies: %05lld\n", (long long)(r->max_ns / 1000));
	printf("# Histogram Overflows: %05d\n", overflows);
	printf("# Histogram Overflow at cycle number:\n# Thread 0:");
	for (int k = 0; k < r->expected; k++) {
		if (r->lat_ns[k] == UNRECORDED || r->lat_ns[k] / 1000 < (int64_t)nb * bw)
			continue;
		if (listed++ < 10)
			printf(" %05d", k);
	}
	if (listed > 10)
		printf(" # %05d others", listed - 10);
	printf("\n");
}

void wl_report(const struct wl_config *c, const struct wl_result *r)
{
	char b[32];
	struct jline j;
	int64_t avg_den = r->samples ? r->samples * 1000LL : 1000;	/* ns sum -> µs mean */

	/* The seeds' three lines ("µs" is UTF-8 U+00B5). */
	printf("maximum latency: %s \xc2\xb5s\n", fmt_us1(b, r->max_ns));
	printf("average latency: %s \xc2\xb5s\n", fmt_ratio(b, r->sum_ns, avg_den, 1));
	printf("missed timer events: %d\n", r->missed);
	print_percentiles(c, r);
	if (c->show_hist)
		print_histogram(c, r);

	jl_init(&j);
	jl_str(&j, "bench", "wakeup-latency");
	jl_sched_params(&j);
	jl_str(&j, "mode", wl_mode_name(c->mode));
	jl_str(&j, "load", c->load);
	jl_int(&j, "duration_s", c->duration_s);
	jl_int(&j, "period_us", c->period_ns / 1000);
	if (c->slice_us > 0)			/* only when asked: old lines unchanged */
		jl_int(&j, "slice_us", c->slice_us);
	jl_int(&j, "expected", r->expected);
	jl_int(&j, "samples", r->samples);
	jl_raw(&j, "max_us", fmt_us1(b, r->max_ns));
	jl_raw(&j, "avg_us", fmt_ratio(b, r->sum_ns, avg_den, 1));
	jl_raw(&j, "min_us", fmt_us1(b, r->min_ns));
	jl_raw(&j, "p50_us", fmt_us1(b, r->p50_ns));
	jl_raw(&j, "p90_us", fmt_us1(b, r->p90_ns));
	jl_raw(&j, "p99_us", fmt_us1(b, r->p99_ns));
	jl_raw(&j, "p999_us", fmt_us1(b, r->p999_ns));
	jl_int(&j, "missed", r->missed);
	jl_int(&j, "overruns", r->overruns);
	/* appended: the path's CPU per expiry (thread mode; -1 = not measured) */
	jl_raw(&j, "helper_cpu_us", r->helper_cpu_ns < 0 ? "-1" : fmt_us1(b, r->helper_cpu_ns));
	jl_raw(&j, "notify_cpu_us", r->notify_cpu_ns < 0 ? "-1" : fmt_us1(b, r->notify_cpu_ns));
	jl_int(&j, "notify_pad_us", r->notify_pad_us);
	printf("RESULT %s\n", jl_end(&j));
}
