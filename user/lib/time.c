/*
 * user/lib/time.c - clocks, sleeps and POSIX timers over the Linux i386
 * calls (all times are struct timespec: 32-bit seconds + nanoseconds).
 */
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include "ulib.h"

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	/*
	 * The vDSO returns what the system call would: 0 or -errno, but it
	 * writes *TS in user mode, so a bad pointer faults (SIGSEGV, as with
	 * glibc on Linux).  A pointer past user space still gets the system
	 * call's -EFAULT: it goes to the kernel.
	 */
	if (__vdso_clock_gettime_fn && (unsigned long)ts <= 0xC0000000ul - sizeof(*ts)) {
		int r = __vdso_clock_gettime_fn(clk, ts);

		return __builtin_expect(r == 0, 1) ? 0 : SYSRET(r);
	}
	return SYSRET(sys_clock_gettime(clk, L(ts)));
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return SYSRET(sys_nanosleep(L(req), L(rem)));
}

int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
		    struct timespec *rem)
{
	return (int)-sys_clock_nanosleep(clk, flags, L(req), L(rem));
}

unsigned int sleep(unsigned int seconds)
{
	struct timespec ts = { (time_t)seconds, 0 };

	if (nanosleep(&ts, &ts) == 0)
		return 0;
	return (unsigned int)ts.tv_sec + (ts.tv_nsec > 0);
}

unsigned int alarm(unsigned int seconds)
{
	return (unsigned int)sys_alarm(seconds);	/* never fails */
}

int usleep(unsigned int usec)
{
	struct timespec ts = { (time_t)(usec / 1000000), (long)(usec % 1000000) * 1000 };

	return nanosleep(&ts, NULL);
}

/* SIGEV_THREAD is made in user space over SIGEV_THREAD_ID: user/lib/timer.c. */
int __timer_create_thread(clockid_t clk, const struct sigevent *sev, timer_t *id);
void __timer_delete_thread(timer_t id);
int __timer_thread_overrun(timer_t id);

int timer_create(clockid_t clk, struct sigevent *sev, timer_t *id)
{
	if (sev && sev->sigev_notify == SIGEV_THREAD)
		return __timer_create_thread(clk, sev, id);
	return SYSRET(sys_timer_create(clk, L(sev), L(id)));
}

int timer_settime(timer_t id, int flags, const struct itimerspec *val,
		  struct itimerspec *old)
{
	return SYSRET(sys_timer_settime(id, flags, L(val), L(old)));
}

int timer_gettime(timer_t id, struct itimerspec *val)
{
	return SYSRET(sys_timer_gettime(id, L(val)));
}

int timer_getoverrun(timer_t id)
{
	int ov = __timer_thread_overrun(id);	/* in a SIGEV_THREAD notification */

	return ov >= 0 ? ov : SYSRET(sys_timer_getoverrun(id));
}

int timer_delete(timer_t id)
{
	long r = SYSRET(sys_timer_delete(id));

	if (r == 0)
		__timer_delete_thread(id);
	return r;
}
