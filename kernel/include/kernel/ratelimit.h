/*
 * kernel/ratelimit.h - Linux's ratelimit (include/linux/ratelimit.h,
 * lib/ratelimit.c, 2.6.35): let at most BURST callers through in each
 * INTERVAL; the rest are counted, and the first caller let through after
 * the interval prints "FUNC: N callbacks suppressed".
 *
 * Time is in nanoseconds of kernel time (Linux counts jiffies); the caller
 * passes it in, so the helper has no clock of its own and is host-tested.
 */
#ifndef KERNEL_RATELIMIT_H
#define KERNEL_RATELIMIT_H

#include <kernel/types.h>

#define DEFAULT_RATELIMIT_INTERVAL	(5 * 1000000000ull)	/* 5 s, Linux's 5 * HZ */
#define DEFAULT_RATELIMIT_BURST		10

struct ratelimit_state {
	u64 interval;		/* ns; 0 = no limit */
	int burst;		/* callers let through per interval */
	int printed;		/* let through in this interval */
	int missed;		/* refused in this interval */
	u64 begin;		/* start of this interval; 0 = none yet */
};

#define RATELIMIT_STATE_INIT(iv, b)	{ .interval = (iv), .burst = (b) }
#define DEFINE_RATELIMIT_STATE(name, iv, b) \
	struct ratelimit_state name = RATELIMIT_STATE_INIT(iv, b)

/* 1: go ahead (print); 0: suppressed.  NOW_NS: kernel time, FUNC: the
 * caller's name for the "callbacks suppressed" line. */
int ___ratelimit(struct ratelimit_state *rs, u64 now_ns, const char *func);

#endif
