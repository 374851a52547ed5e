/*
 * user/tests/ut_itimer.c - alarm(2), setitimer(2), getitimer(2)
 * (kernel/time/itimer.c, Linux 2.6.35's kernel/itimer.c): when SIGALRM
 * comes (timed on CLOCK_MONOTONIC around a sigsuspend, not slept for),
 * alarm's rounded seconds left, alarm(0), periodic timers and their
 * skipped overruns, an ignored SIGALRM stopping one, getitimer, the errnos, and the timer's life: none
 * after fork, kept across exec (by the leader and by a thread), cancelled
 * with the process.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define BAD_PTR		0xC0000000L	/* kernel memory: -EFAULT */
#define MS		1000000LL

struct tv32 { int tv_sec, tv_usec; };
struct itv32 { struct tv32 it_interval, it_value; };

static volatile int alarms;
static volatile long long alarm_at[8];	/* CLOCK_MONOTONIC of each SIGALRM */

static long long now_ns(void)
{
	return ut_cpu_ns(CLOCK_MONOTONIC);
}

static void on_alarm(int sig)
{
	if (sig == SIGALRM && alarms < 8)
		alarm_at[alarms] = now_ns();
	alarms++;
}

static void catch_alarm(void)
{
	alarms = 0;
	signal(SIGALRM, on_alarm);
}

/* Sleep in rt_sigsuspend (nothing blocked) until N SIGALRMs came. */
static void wait_alarms(int n)
{
	unsigned long long none = 0;

	while (alarms < n)
		sys_rt_sigsuspend((long)&none, 8);
}

static long set_real(long long value_ns, long long interval_ns, struct itv32 *old)
{
	struct itv32 it = { { (int)(interval_ns / 1000000000), (int)(interval_ns % 1000000000 / 1000) },
			    { (int)(value_ns / 1000000000), (int)(value_ns % 1000000000 / 1000) } };

	return sys_setitimer(0, (long)&it, (long)old);
}

static long long tv_ns(struct tv32 tv)
{
	return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
}

/* alarm(1): one SIGALRM, 1 s later (to within 2 ms), then none. */
static void itimer_alarm_once(void)
{
	struct itv32 cur;

	catch_alarm();
	long long t0 = now_ns();
	EXPECT_RET(sys_alarm(1), 0);
	wait_alarms(1);
	long long late = alarm_at[0] - t0 - 1000 * MS;
	CHECK(late >= 0 && late < 2 * MS, "SIGALRM %lld ns after the second", late);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) == 0 && tv_ns(cur.it_interval) == 0, "still armed after it fired");
	ut_sleep_ns(5 * MS);
	CHECK(alarms == 1, "%d SIGALRMs from one alarm", alarms);
	EXPECT_RET(sys_alarm(0), 0);
}

/* alarm's return value, 2.6.35's alarm_setitimer: seconds left rounded to
 * nearest, less than one counts as one, 0 only when none was armed. */
static void itimer_alarm_left(void)
{
	catch_alarm();
	EXPECT_RET(sys_alarm(0), 0);		/* none armed */
	EXPECT_RET(sys_alarm(5), 0);
	EXPECT_RET(sys_alarm(3), 5);		/* 4.99.. s left: 5 */
	EXPECT_RET(sys_alarm(0), 3);		/* cancelled */
	EXPECT_RET(sys_alarm(0), 0);
	EXPECT_RET(set_real(2300 * MS, 0, NULL), 0);
	EXPECT_RET(sys_alarm(0), 2);		/* 2.29.. s: 2, rounded down */
	EXPECT_RET(set_real(2700 * MS, 0, NULL), 0);
	EXPECT_RET(sys_alarm(0), 3);		/* 2.69.. s: 3 */
	EXPECT_RET(set_real(200 * MS, 0, NULL), 0);
	EXPECT_RET(sys_alarm(0), 1);		/* 0.19.. s: 1, never 0 */
	/* alarm(0) cancels: a 2 ms timer never fires */
	EXPECT_RET(set_real(2 * MS, 0, NULL), 0);
	EXPECT_RET(sys_alarm(0), 1);
	ut_sleep_ns(5 * MS);
	CHECK(alarms == 0, "%d SIGALRMs after alarm(0)", alarms);
	/* capped at INT_MAX seconds on i386 (no negative timeval) */
	EXPECT_RET(sys_alarm(0xffffffffu), 0);
	EXPECT_RET(sys_alarm(0), 0x7fffffff);
}

/* it_interval: a signal every interval after the first it_value. */
static void itimer_interval(void)
{
	struct itv32 cur;

	catch_alarm();
	long long t0 = now_ns();
	EXPECT_RET(set_real(3 * MS, 2 * MS, NULL), 0);
	wait_alarms(5);
	EXPECT_RET(set_real(0, 0, &cur), 0);	/* stopped; the old one reported */
	CHECK(tv_ns(cur.it_interval) == 2 * MS, "interval read back %lld", tv_ns(cur.it_interval));
	long long first = alarm_at[0] - t0 - 3 * MS;
	/* within a tick: highres=off runs timers from the 1 ms tick */
	CHECK(first >= 0 && first < 3 * MS / 2, "first SIGALRM %lld ns late", first);
	for (int i = 1; i < 5; i++) {
		long long gap = alarm_at[i] - alarm_at[i - 1];
		CHECK(gap > MS && gap < 3 * MS, "gap %d: %lld ns", i, gap);
	}
	ut_sleep_ns(6 * MS);
	CHECK(alarms == 5, "%d SIGALRMs, 5 expected after it was stopped", alarms);
}

/* Expiries missed while SIGALRM is blocked are skipped: one signal, and
 * the timer is forwarded past now (the next within an interval), not
 * replayed in a burst. */
static void itimer_overrun_skipped(void)
{
	struct itv32 cur;
	sigset_t alrm;

	catch_alarm();
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	EXPECT_RET(set_real(MS, MS, NULL), 0);
	ut_sleep_ns(10 * MS);			/* 10 expiries due */
	/* fired, its SIGALRM queued: stopped (2.6.35's getitimer reads 0) */
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) == 0 && tv_ns(cur.it_interval) == MS,
	      "while queued: %lld ns left, every %lld", tv_ns(cur.it_value), tv_ns(cur.it_interval));
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);	/* handled here: the dequeue re-arms */
	CHECK(alarms == 1, "%d SIGALRMs on unblocking", alarms);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) > 0 && tv_ns(cur.it_value) <= MS, "re-armed %lld ns ahead",
	      tv_ns(cur.it_value));
	wait_alarms(3);
	CHECK(alarm_at[2] - alarm_at[1] > MS / 2, "a burst: %lld ns apart", alarm_at[2] - alarm_at[1]);
	EXPECT_RET(set_real(0, 0, NULL), 0);
}

/* 2.6.35: an ignored SIGALRM is never queued, so never dequeued, and the
 * periodic timer it would have re-armed stays stopped (a handler installed
 * later gets nothing); kill()'s SIGALRM, once dequeued, restarts it. */
static void itimer_ignored_stops(void)
{
	struct itv32 cur;

	signal(SIGALRM, SIG_IGN);
	EXPECT_RET(set_real(MS, MS, NULL), 0);
	ut_sleep_ns(3 * MS);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) == 0 && tv_ns(cur.it_interval) == MS,
	      "ignored: %lld ns left, every %lld", tv_ns(cur.it_value), tv_ns(cur.it_interval));
	catch_alarm();
	ut_sleep_ns(3 * MS);
	CHECK(alarms == 0, "%d SIGALRMs from a stopped timer", alarms);
	EXPECT_RET(sys_kill(sys_getpid(), SIGALRM), 0);	/* taken on the way out */
	CHECK(alarms == 1, "kill's SIGALRM: %d", alarms);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) > 0 && tv_ns(cur.it_value) <= MS, "not restarted: %lld ns left",
	      tv_ns(cur.it_value));
	wait_alarms(2);
	EXPECT_RET(set_real(0, 0, NULL), 0);
}

/* getitimer and setitimer's old value; a NULL new value disarms (2.6.35). */
static void itimer_getitimer(void)
{
	struct itv32 cur, old;

	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(!cur.it_value.tv_sec && !cur.it_value.tv_usec && !cur.it_interval.tv_sec,
	      "a fresh process has an alarm");
	EXPECT_RET(set_real(10000 * MS, 1000 * MS, NULL), 0);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) > 9990 * MS && tv_ns(cur.it_value) <= 10000 * MS,
	      "value %lld", tv_ns(cur.it_value));
	CHECK(cur.it_interval.tv_sec == 1 && cur.it_interval.tv_usec == 0, "interval %d.%06d",
	      cur.it_interval.tv_sec, cur.it_interval.tv_usec);
	EXPECT_RET(set_real(5000 * MS, 0, &old), 0);
	CHECK(tv_ns(old.it_value) <= tv_ns(cur.it_value) && tv_ns(old.it_value) > 9990 * MS,
	      "old value %lld", tv_ns(old.it_value));
	CHECK(tv_ns(old.it_interval) == 1000 * MS, "old interval %lld", tv_ns(old.it_interval));
	EXPECT_RET(sys_setitimer(0, 0, (long)&old), 0);	/* NULL: a zero value */
	CHECK(old.it_value.tv_sec == 4 && old.it_interval.tv_sec == 0, "old %d s every %d s",
	      old.it_value.tv_sec, old.it_interval.tv_sec);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(!tv_ns(cur.it_value) && !tv_ns(cur.it_interval), "NULL did not disarm");
}

/* -EINVAL for a bad which or timeval, -EFAULT for bad pointers. */
static void itimer_errors(void)
{
	struct itv32 cur, ok = { { 0, 0 }, { 100, 0 } };
	static const struct tv32 bad[] = { { 0, 1000000 }, { 0, -1 }, { -1, 0 } };

	EXPECT_RET(sys_getitimer(3, (long)&cur), -EINVAL);
	EXPECT_RET(sys_getitimer(-1, (long)&cur), -EINVAL);
	EXPECT_RET(sys_getitimer(1, (long)&cur), -EINVAL);	/* ITIMER_VIRTUAL: not here */
	EXPECT_RET(sys_getitimer(2, (long)&cur), -EINVAL);	/* ITIMER_PROF: not here */
	EXPECT_RET(sys_getitimer(0, 0), -EFAULT);
	EXPECT_RET(sys_getitimer(3, 0), -EFAULT);		/* the pointer first (2.6.35) */
	EXPECT_RET(sys_getitimer(0, BAD_PTR), -EFAULT);
	EXPECT_RET(sys_setitimer(0, BAD_PTR, 0), -EFAULT);
	EXPECT_RET(sys_setitimer(3, (long)&ok, 0), -EINVAL);
	EXPECT_RET(sys_setitimer(1, (long)&ok, 0), -EINVAL);
	EXPECT_RET(sys_setitimer(2, (long)&ok, 0), -EINVAL);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct itv32 v = { { 0, 0 }, bad[i] }, iv = { bad[i], { 1, 0 } };
		EXPECT_RET(sys_setitimer(0, (long)&v, 0), -EINVAL);
		EXPECT_RET(sys_setitimer(0, (long)&iv, 0), -EINVAL);
	}
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(!tv_ns(cur.it_value), "a refused setitimer armed the timer");
	/* a bad old-value pointer: -EFAULT, but the new timer is set (Linux) */
	EXPECT_RET(sys_setitimer(0, (long)&ok, BAD_PTR), -EFAULT);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(cur.it_value.tv_sec == 99, "%d s left after the -EFAULT", cur.it_value.tv_sec);
	EXPECT_RET(sys_alarm(0), 100);
}

static void die_by_alarm(uintptr_t unused)
{
	signal(SIGALRM, SIG_DFL);
	set_real(MS, 0, NULL);
	for (;;)
		sys_rt_sigsuspend((long)&(unsigned long long){ 0 }, 8);
}

/* SIGALRM's default action ends the process. */
static void itimer_default_kills(void)
{
	ut_expect_killed(die_by_alarm, 0, SIGALRM, "SIG_DFL alarm");
}

/* A forked child has no timer; the parent keeps its own. */
static void itimer_fork(void)
{
	struct itv32 cur;

	EXPECT_RET(set_real(10000 * MS, 1000 * MS, NULL), 0);
	long pid = sys_fork();
	if (pid == 0) {
		if (sys_getitimer(0, (long)&cur) || tv_ns(cur.it_value) || tv_ns(cur.it_interval))
			_exit(3);
		_exit(sys_alarm(0) == 0 ? 0 : 4);
	}
	CHECK(pid > 0, "fork %ld", pid);
	int st = ut_wait(pid);
	CHECK(st == 0, "child status %#x (3: armed, 4: alarm(0) found one)", st);
	EXPECT_RET(sys_getitimer(0, (long)&cur), 0);
	CHECK(tv_ns(cur.it_value) > 9000 * MS && tv_ns(cur.it_interval) == 1000 * MS,
	      "the parent's timer changed: %lld", tv_ns(cur.it_value));
	EXPECT_RET(sys_alarm(0), 10);
}

/* --- exec keeps the timer --- */

static char *const left_argv[] = { "usertests", "--itimer-left", NULL };
static char *const no_env[] = { NULL };
static char thread_stack[16384] __attribute__((aligned(16)));

static void exec_left(void)
{
	sys_execve((long)"/bin/usertests", (long)left_argv, (long)no_env);
	sys_exit_group(5);
}

/* LEADER_EXECS: the leader execs, else a thread does (and takes the
 * leader's place, with its timer). */
static void exec_with_alarm(uintptr_t leader_execs)
{
	if (sys_alarm(100) != 0)
		sys_exit_group(6);
	if (leader_execs)
		exec_left();
	if (ut_clone(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD, thread_stack, sizeof(thread_stack),
		     0, 0, exec_left) < 0)
		sys_exit_group(7);
	for (;;)
		ut_sleep_ns(1000 * MS);	/* killed by the thread's exec */
}

int ut_itimer_left(void)
{
	struct itv32 cur;

	if (sys_getitimer(0, (long)&cur))
		return 43;
	if (cur.it_value.tv_sec < 90 || cur.it_value.tv_sec > 99 || tv_ns(cur.it_interval))
		return 44;
	return sys_alarm(0) == 100 ? 42 : 45;
}

static void itimer_exec(void)
{
	for (int leader = 1; leader >= 0; leader--) {
		int st = ut_run_child(exec_with_alarm, (uintptr_t)leader);
		CHECK(st == 42 << 8, "%s exec: status %#x (43-45: the alarm is lost, 5-7: setup)",
		      leader ? "leader" : "thread", st);
	}
}

/* --- no expiry finds a dead process --- */

static void arm_and_exit(int i)
{
	signal(SIGALRM, on_alarm);
	/* every 500 us, the children's expiries 50 us apart (not in one
	 * cluster that the hrtimer interrupt would call a hang) */
	set_real(500000 + 50000 * i, 500000, NULL);
	ut_sleep_ns(1500000);			/* a few taken */
	_exit(0);
}

/*
 * Processes exit with a 500 us periodic timer armed: left as zombies
 * across many of its expiries, or reaped at once; their task memory is
 * then reused by the next children.  A timer left queued would fire
 * into the zombie, then into freed memory (the hrtimer tree breaks).
 */
static void itimer_exit(void)
{
	for (int round = 0; round < 2; round++) {
		long pids[8];
		for (int i = 0; i < 8; i++) {
			pids[i] = sys_fork();
			if (pids[i] == 0)
				arm_and_exit(i);
			CHECK(pids[i] > 0, "fork %ld", pids[i]);
			if (round)
				CHECK(ut_wait(pids[i]) == 0, "child %d died", i);
		}
		if (!round) {
			ut_sleep_ns(5 * MS);	/* zombies: 10 expiries each, were they armed */
			for (int i = 0; i < 8; i++)
				CHECK(ut_wait(pids[i]) == 0, "zombie %d's status changed", i);
		}
	}
}

const struct ut_test ut_itimer_tests[] = {
	{ itimer_alarm_once, "itimer_alarm_once" },
	{ itimer_alarm_left, "itimer_alarm_left" },
	{ itimer_interval, "itimer_interval" },
	{ itimer_overrun_skipped, "itimer_overrun_skipped" },
	{ itimer_ignored_stops, "itimer_ignored_stops" },
	{ itimer_getitimer, "itimer_getitimer" },
	{ itimer_errors, "itimer_errors" },
	{ itimer_default_kills, "itimer_default_kills" },
	{ itimer_fork, "itimer_fork" },
	{ itimer_exec, "itimer_exec" },
	{ itimer_exit, "itimer_exit" },
	{ 0, 0 },
};
