/*
 * tools/granule/sim/engine/workload.h - the experiment's programs on the simulated
 * machine: kbuild-load (make and its jobs), video-load, and the
 * wakeup-latency test (thread mode: the SIGEV_THREAD helper and a new
 * notification thread per expiry; signal mode: the handler in the
 * sleeping thread).  Each follows its user/bench/ source step by step;
 * the kernel's costs between the steps come from struct sim_costs.
 */
#ifndef TOOLS_SIMENG_WORKLOAD_H
#define TOOLS_SIMENG_WORKLOAD_H

#include "machine.h"

#define LEAD_NS		1000000000ULL	/* loads start this long before the test */
#define END_GRACE_NS	1000000000ULL	/* late notifications awaited this long */

struct wl_sim {
	/* configuration */
	int thread_mode;
	u64 period, duration;		/* ns */
	u64 pad;			/* notify_pad_us, ns */
	u64 slice;			/* slice_us, ns (EEVDF; 0: the base slice) */
	int kbuild_j;			/* 0: no kbuild load */
	u64 seed;
	int video_burst_ms;		/* 0: no video load */
	/* the latency test's state, as user/bench/latency.c's wl */
	u64 t0;				/* absolute expiry 0, ns since boot */
	int n, next_k, samples, overruns;
	s64 *lat;			/* ns; INT64_MIN: not recorded */
	struct mproc *helper;
	u64 helper_cpu, notify_cpu;	/* CPU of the path, summed */
	int expiries, threads;
	/* kbuild-load's report over its window */
	u64 kb_start, kb_end;
	long jobs, tail_jobs, as_children;
	u64 work;
	long migrations;		/* at > 1 CPU: its processes' moves after their
					   fork placed them (kbuild-load -m) */
	/* each CPU's idle time when the test starts and ends (cpu-busy) */
	u64 busy_from, busy_to, idle_from[M_MAX_CPUS], idle_to[M_MAX_CPUS];
	/* video-load's */
	long frames, late, dropped, met;
	u64 max_wake, sum_wake;
};

extern struct wl_sim wl;

/* Start the loads and the latency test on M (the "experiment" process). */
void wl_start(struct machine *m);
/* Run until the test has its samples (or the grace has passed). */
void wl_finish(struct machine *m);

#endif
