/*
 * user/tests/ut_limits.c - the kernel's limits on what one program may
 * cost everyone else: POSIX timers with tiny intervals (re-armed only as
 * their signals are taken, ignored ones at most once a tick, SIGEV_NONE
 * never queued), RLIMIT_SIGPENDING on queued signals, and long console
 * writes (a scheduling point between chunks, ended by SIGKILL).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <granule.h>
#include "ut.h"

#define MS	1000000LL

static long long mono_ns(void)
{
	return ut_cpu_ns(CLOCK_MONOTONIC);
}

/* A fixed amount of user work; returns how long it took (ns). */
static long long work(void)
{
	static volatile unsigned sink;
	long long t0 = mono_ns();

	for (unsigned i = 0; i < 3000000; i++)
		sink += i;
	return mono_ns() - t0;
}

static timer_t timer_1ns(int notify, int sig)
{
	struct sigevent ev;
	struct itimerspec its = { { 0, 1 }, { 0, 1 } };	/* 1 ns, every 1 ns */
	timer_t id;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = notify;
	ev.sigev_signo = sig;
	CHECK(timer_create(CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create");
	CHECK(timer_settime(id, 0, &its, NULL) == 0, "timer_settime");
	return id;
}

static volatile unsigned long handled;

static volatile unsigned long exit_after;

static void count_sig(int sig)
{
	(void)sig;
	if (++handled == exit_after)
		_exit(9);
}

/*
 * Child: a 1 ns timer with a handler.  The timer is re-armed as each signal
 * is taken and fires again while the handler runs, so a new one is always
 * pending when the handler returns: this process spends its time taking
 * signals (as it would on Linux) and never gets back to its main loop.
 */
static void hog_1ns(uintptr_t after)
{
	exit_after = after;		/* 0: never */
	signal(SIGUSR1, count_sig);
	timer_1ns(SIGEV_SIGNAL, SIGUSR1);
	for (;;)
		;
}

/*
 * A process with a 1 ns periodic timer used to take the whole machine (an
 * interrupt for every expiry, in whoever's time).  Now its timer is
 * re-armed only when it has taken the previous signal, so it costs its own
 * CPU time: another process still gets about its fair share (half), a
 * sleeper wakes on time, and SIGKILL ends the hog.  "Beside" means on one
 * CPU, so the test pins itself and the hog there (ut_one_cpu).
 */
static void timer_1ns_hog(void)
{
	ut_one_cpu();				/* the hog too */
	long long solo = work();
	int st = ut_run_child(hog_1ns, 1000);	/* its handler runs, again and again */

	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 9, "1000 signals of a 1 ns timer: status %#x", st);
	pid_t pid = sys_fork();
	if (pid == 0)
		hog_1ns(0);
	CHECK(pid > 0, "fork");
	ut_sleep_ns(1 * MS);		/* the hog is at it by now */
	long long t0 = mono_ns();
	ut_sleep_ns(2 * MS);
	long long slept = mono_ns() - t0;
	long long shared = work();
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	st = ut_wait(pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the hog: status %#x", st);
	CHECK(slept < 4 * MS, "a 2 ms sleep took %lld ns beside a 1 ns timer", slept);
	CHECK(shared < 3 * solo, "work took %lld ns beside a 1 ns timer, %lld alone", shared, solo);
}

/*
 * Blocked, the signal stays queued and the timer stopped: the expiries
 * missed meanwhile are counted, not run.  10 ms at 1 ns is ~10^7 overruns.
 */
static void timer_1ns_overrun(void)
{
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	long long ta = mono_ns();
	timer_t id = timer_1ns(SIGEV_SIGNAL, SIGRTMIN);
	ut_sleep_ns(10 * MS);
	long long t0 = mono_ns();
	CHECK(sigwaitinfo(&set, &si) == SIGRTMIN, "sigwaitinfo");
	long long t1 = mono_ns();
	/* One overrun per ns from the first expiry (just after ta) to the
	 * dequeue (between t0 and t1); 50 us for timer_create + settime. */
	CHECK(si.si_overrun >= t0 - ta - 50000 && si.si_overrun <= t1 - ta && t0 - ta >= 10 * MS,
	      "si_overrun %d after %lld ns of a 1 ns timer", si.si_overrun, t1 - ta);
	CHECK(timer_getoverrun(id) == si.si_overrun, "timer_getoverrun %d", timer_getoverrun(id));
	/* Re-armed at the dequeue: the next one comes at once, few missed. */
	CHECK(sigwaitinfo(&set, &si) == SIGRTMIN, "sigwaitinfo 2");
	long long dt = mono_ns() - t0;
	CHECK(si.si_overrun > 0 && si.si_overrun <= dt, "second si_overrun %d in %lld ns", si.si_overrun, dt);
	struct itimerspec cur;
	CHECK(timer_gettime(id, &cur) == 0 && cur.it_interval.tv_nsec == 1 && cur.it_value.tv_sec == 0 &&
	      cur.it_value.tv_nsec >= 1, "timer_gettime %ld.%09ld", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
	timer_delete(id);
}

/*
 * An ignored signal is never queued, so nothing re-arms the timer: it is
 * forwarded at once, but at most once a tick.  SIGEV_NONE timers are not
 * queued at all.  Either way our own work is barely slowed.
 */
static void timer_1ns_ignored(void)
{
	long long solo = work();

	signal(SIGUSR2, SIG_IGN);
	timer_t a = timer_1ns(SIGEV_SIGNAL, SIGUSR2);
	timer_t b = timer_1ns(SIGEV_NONE, 0);
	long long t0 = mono_ns();
	ut_sleep_ns(2 * MS);
	long long slept = mono_ns() - t0;
	long long busy = work();
	CHECK(slept < 3 * MS, "a 2 ms sleep took %lld ns", slept);
	CHECK(busy < solo + solo / 4, "work took %lld ns beside 1 ns timers, %lld alone", busy, solo);
	struct itimerspec cur;
	CHECK(timer_gettime(b, &cur) == 0 && cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 1 &&
	      cur.it_interval.tv_nsec == 1, "SIGEV_NONE timer_gettime %ld.%09ld",
	      (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
	timer_delete(a);
	timer_delete(b);
}

/*
 * RLIMIT_SIGPENDING (1024 queued signals, as Linux's default for a 128 MiB
 * machine): beyond it a real-time signal from tgkill is refused with
 * EAGAIN, one from kill() sets only the pending bit (its siginfo lost, as
 * in Linux 2.6.35), so the kernel's memory stays bounded however often we
 * try; a standard signal still gets through.
 */
#define SIGPENDING_MAX	1024

static void sigpending_limit(void)
{
	sigset_t set;
	siginfo_t si;
	int queued = 0, again = 0, me = (int)sys_getpid();
	long frames0 = ut_frames();

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, SIGRTMIN + 1);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < 2 * SIGPENDING_MAX; i++) {
		long r = sys_tgkill(me, me, SIGRTMIN);
		if (r == 0)
			queued++;
		else if (r == -EAGAIN)
			again++;
		else
			FAIL("kill/tgkill returned %ld", r);
	}
	CHECK(queued > SIGPENDING_MAX - 16 && queued <= SIGPENDING_MAX && again == 2 * SIGPENDING_MAX - queued,
	      "%d queued, %d EAGAIN", queued, again);
	for (int i = 0; i < 20000; i++)
		EXPECT_RET(sys_kill(me, SIGRTMIN + 1), 0);	/* the bare bit, no memory */
	EXPECT_RET(sys_tgkill(me, me, SIGRTMIN + 1), -EAGAIN);
	EXPECT_RET(sys_kill(me, SIGUSR1), 0);	/* a standard signal still gets through */
	long frames1 = ut_frames();
	CHECK(frames0 < 0 || frames0 - frames1 < 100, "%ld frames used by queued signals", frames0 - frames1);
	/* Drain: exactly the queued ones come back, then the limit is free. */
	struct timespec zero = { 0, 0 };
	int got = 0;
	sigset_t rt;
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigaddset(&rt, SIGRTMIN + 1);
	int s;
	while ((s = sigtimedwait(&rt, &si, &zero)) == SIGRTMIN)
		got++;
	CHECK(got == queued, "dequeued %d of %d", got, queued);
	CHECK(s == SIGRTMIN + 1 && si.si_code == SI_USER && si.si_pid == 0,
	      "the 20000 kills of SIGRTMIN+1: signal %d, si_code %d (one, siginfo lost)", s, si.si_code);
	CHECK(sigtimedwait(&rt, &si, &zero) == -1, "more than one SIGRTMIN+1 delivered");
	EXPECT_RET(sys_kill(me, SIGRTMIN), 0);
	CHECK(sigtimedwait(&set, &si, &zero) == SIGUSR1, "SIGUSR1 not pending");
}

/*
 * One write() of 64 KiB to the console: the writer must be preemptible
 * between chunks (a sleeper wakes on time) and killable (SIGKILL ends the
 * write part-way; before, the kill came after the whole write).
 */
static void bigwrite_child(uintptr_t unused)
{
	static char buf[64 * 1024];

	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (i % 64 == 63) ? '\n' : '.';
	sys_write(1, (long)buf, sizeof(buf));
	_exit(0);
}

static void tty_bigwrite(void)
{
	pid_t pid = sys_fork();

	if (pid == 0)
		bigwrite_child(0);
	CHECK(pid > 0, "fork");
	long long t0 = mono_ns();
	ut_sleep_ns(1 * MS);
	long long slept = mono_ns() - t0;
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	long long t1 = mono_ns();
	int st = ut_wait(pid);
	long long reaped = mono_ns() - t1;
	printf("\n");		/* end the cut line */
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the writer was not killed mid-write (status %#x)", st);
	CHECK(slept < 2 * MS, "a 1 ms sleep took %lld ns beside a 64 KiB write", slept);
	CHECK(reaped < 1 * MS, "SIGKILL took %lld ns to end a console write", reaped);
}

/*
 * "init=usertests run=--oom-init": pid 1 itself runs out of memory.  A
 * child takes all but a few free frames and holds them for 20 ms; pid 1
 * then touches more pages than are left.  Its faults must wait for memory
 * (the kernel cannot OOM-kill init: that would be "Attempted to kill
 * init!"), and go through once the child has exited.  Powers off with 0.
 */
int ut_oom_init(void)
{
	if (sys_getpid() != 1)
		return 2;
	pid_t pid = sys_fork();
	if (pid == 0) {
		while (ut_frames() >= 48) {
			volatile char *p = sbrk(16 * PAGE_SIZE);
			if (p == (void *)-1)
				_exit(3);
			for (int i = 0; i < 16; i++)
				p[i * PAGE_SIZE] = 1;
		}
		ut_sleep_ns(20 * MS);
		_exit(0);
	}
	while (ut_frames() >= 64)
		ut_sleep_ns(1 * MS);
	for (int i = 0; i < 256; i++) {
		volatile char *p = sbrk(PAGE_SIZE);
		if (p == (void *)-1)
			break;
		p[0] = 1;
	}
	int st = ut_wait(pid);
	printf("oom-init: pid 1 survived; the hog exited with status %d\n",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	granule_poweroff(WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1);
	return 1;
}

static void segv_child(uintptr_t unused)
{
	*(volatile int *)0 = 1;
}

/*
 * "usertests --trap-flood": 25 faulting children at once, then 5.1 s of
 * sleep and one more.  The kernel logs 10 of the first 25 (printk_ratelimit:
 * 10 per 5 s) and, with the 26th, "user_exception: 15 callbacks suppressed".
 * Exit 0 if every child died of SIGSEGV.
 */
int ut_trap_flood(void)
{
	for (int i = 0; i < 26; i++) {
		if (i == 25)
			ut_sleep_ns(5100 * MS);
		int st = ut_run_child(segv_child, 0);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			return 1;
	}
	return 0;
}

const struct ut_test ut_limits_tests[] = {
	{ timer_1ns_hog, "timer_1ns_hog" },
	{ timer_1ns_overrun, "timer_1ns_overrun" },
	{ timer_1ns_ignored, "timer_1ns_ignored" },
	{ sigpending_limit, "sigpending_limit" },
	{ tty_bigwrite, "tty_bigwrite" },
	{ NULL, NULL },
};
