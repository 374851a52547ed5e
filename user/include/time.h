/* time.h - clocks, sleeping and POSIX per-process timers (Linux i386 ABI). */
#ifndef _TIME_H
#define _TIME_H

#include <sys/types.h>
#include <signal.h>

#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3

#define TIMER_ABSTIME	1	/* clock_nanosleep / timer_settime flag */

struct timespec {
	time_t tv_sec;
	long tv_nsec;		/* 0 .. 999999999 */
};

struct itimerspec {
	struct timespec it_interval;	/* period; 0 = one shot */
	struct timespec it_value;	/* first expiry; 0 = disarm */
};

int clock_gettime(clockid_t clk, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
/* Returns the error number itself (not -1/errno), as POSIX specifies. */
int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
		    struct timespec *rem);

int timer_create(clockid_t clk, struct sigevent *sev, timer_t *id);
int timer_settime(timer_t id, int flags, const struct itimerspec *val,
		  struct itimerspec *old);
int timer_gettime(timer_t id, struct itimerspec *val);
int timer_getoverrun(timer_t id);
int timer_delete(timer_t id);

#endif
