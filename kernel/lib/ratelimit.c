/*
 * kernel/lib/ratelimit.c - ___ratelimit(), after Linux 2.6.35's
 * lib/ratelimit.c (see kernel/ratelimit.h).
 *
 * An interval starts at the first call (begin = now).  A call more than
 * INTERVAL after begin ends it: if any callers were refused in it, one line
 *	"FUNC: N callbacks suppressed"
 * is printed, and the counts restart with a new interval beginning now.
 * Then the call is let through if fewer than BURST were let through in the
 * current interval, else it is counted as missed.  Uniprocessor: the
 * caller masks interrupts if it can race with an interrupt handler (Linux
 * takes a spinlock with trylock semantics for the same reason).
 */
#include <kernel/printk.h>
#include <kernel/ratelimit.h>

int ___ratelimit(struct ratelimit_state *rs, u64 now_ns, const char *func)
{
	if (!rs->interval)
		return 1;
	if (!rs->begin)
		rs->begin = now_ns ? now_ns : 1;	/* 0 means "not started" */
	if (now_ns > rs->begin + rs->interval) {	/* time_is_before_jiffies(begin + interval) */
		if (rs->missed)
			printk("%s: %d callbacks suppressed\n", func, rs->missed);
		rs->begin = now_ns;
		rs->printed = 0;
		rs->missed = 0;
	}
	if (rs->burst && rs->burst > rs->printed) {
		rs->printed++;
		return 1;
	}
	rs->missed++;
	return 0;
}
