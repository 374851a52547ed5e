/*
 * bench.h - helpers shared by the 2010 experiment's programs
 * (wakeup-latency, kbuild-load, video-load, experiment, chainjob):
 * clocks in ns, CPU burning on the thread's own CPU clock, the splitmix64
 * PRNG, fixed-point formatting (the user printf has no %f), a small JSON
 * line builder and the kernel's effective scheduler parameters.
 */
#ifndef _BENCH_H
#define _BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

/* clock_gettime(CLK) in ns. */
int64_t now_ns(clockid_t clk);
static inline int64_t mono_ns(void) { return now_ns(CLOCK_MONOTONIC); }
struct timespec ns_to_ts(int64_t ns);
/* clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until T (ns), retrying EINTR. */
void sleep_until_ns(int64_t t);
/* Spin until this thread has used NS more ns of CPU (CLOCK_THREAD_CPUTIME_ID). */
void burn_cpu_ns(int64_t ns);

#include "kjob.h"	/* splitmix64, rng_for, rng_range, kjob_params */

/*
 * Fixed point: NUM / DEN rounded half away from zero to DECIMALS places
 * (0..6), written as "-12.3" into BUF (>= 32 bytes); returns BUF.
 */
char *fmt_ratio(char *buf, int64_t num, int64_t den, int decimals);
/* ns as µs with one decimal ("50107.8"). */
static inline char *fmt_us1(char *buf, int64_t ns) { return fmt_ratio(buf, ns, 1000, 1); }

/* A one-line JSON object: {"k":v,...}.  Appends are ignored once full. */
struct jline {
	char buf[2048];
	size_t len;
	int n;			/* members so far */
};
void jl_init(struct jline *j);
void jl_str(struct jline *j, const char *key, const char *val);
void jl_int(struct jline *j, const char *key, long long val);
void jl_raw(struct jline *j, const char *key, const char *val);	/* number/true/null as is */
const char *jl_end(struct jline *j);	/* closes the object; the text */

/*
 * The kernel's effective scheduler configuration (granule_sched_params,
 * a Granule-private call: "key=value\n" lines).  Adds to J: "preset", "hz",
 * "highres" (clock_getres(CLOCK_MONOTONIC) is 1 ns), every knob under its
 * own name (numbers as numbers), "sched_features" as the kernel's list
 * and one "feat_<NAME>": true|false per feature.  Counters (nr_switches,
 * nr_running) are left out.  On a kernel without the call (Linux) it adds
 * "preset" from the environment variable PRESET (or "unknown"), "hz" and
 * "highres" as null.
 */
void jl_sched_params(struct jline *j);
/* The value of KEY in the kernel's parameter text, copied to BUF; 0, or -1 if absent. */
int sched_param(const char *key, char *buf, size_t len);

/*
 * One kbuild-like job (kbuild-load, chainjob): its parameters depend only
 * on (seed, index).  CPU bursts a + b + c = work, uniform in [5, 60] ms,
 * split at two uniform points; sleeps s1, s2 uniform in [0, 2000] us; with
 * probability 1/2 an "as" grandchild burning as_ns, uniform in [1, 5] ms
 * (0 = none).  All in ns.
 */
/*
 * Where kbuild-load -P chain's stages live: chainjob under the names sh,
 * gcc, cc1 and as, in a directory of their own so that /bin/sh stays
 * busybox's shell.  Each stage is exec'd by this path (argv[0] the bare
 * name, so ps shows sh -> gcc -> cc1 -> as); tools/granule/peer/linux.py packs the
 * same directory into Linux's initramfs.
 */
#define KBUILD_CHAIN_DIR "/usr/lib/granule/kbuild/"

/* Run the job's own part: burn a, sleep s1, burn b, sleep s2, burn c. */
void kjob_body(const struct kjob *j);

/* getenv(NAME) as a long, or DEF when unset or not a number. */
long env_long(const char *name, long def);

/* The CPUs this process may run on: sched_getaffinity's mask (the online
 * CPUs of its affinity, on Granule and on Linux), at least 1. */
int bench_cpus(void);
/* This process's moves between CPUs: /proc/self/sched's se.nr_migrations
 * (2.6.35 and Linux 6.x print it), or -1 without the file or the line. */
long self_nr_migrations(void);
/* /proc/stat's cpuN lines: per CPU (up to MAX) the busy (all but idle and
 * iowait) and total USER_HZ ticks so far; the number of CPUs read. */
int proc_stat_busy(uint64_t *busy, uint64_t *total, int max);

#endif
