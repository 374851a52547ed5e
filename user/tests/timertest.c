/*
 * user/tests/timertest.c - checks of signals, POSIX timers and sleeps.
 *
 *   timertest [NAME...]       run all tests, or the named ones
 *
 * Each test runs in a forked child and prints "test NAME: OK" or
 * "test NAME: FAILED" (with a reason line); the run ends with
 * "ALL TESTS PASSED" or "SOME TESTS FAILED".  The accuracy test also prints
 * one line per period,
 *   timertest: period_us=P expiries=N late_min_ns=A late_max_ns=B overruns=O
 * that tests/system/test_time.py checks against the mode's bound: lateness
 * = time the waiting thread saw the signal - the expiry's due time
 * (T0 + k*P on CLOCK_MONOTONIC), measured under -icount.
 */
#include <errno.h>
#include <gen/user_syscalls.h>
#include <granule.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

#define CHECK(cond) do { if (!(cond)) { \
	printf("  check failed: %s (line %d, errno %d)\n", #cond, __LINE__, errno); \
	failures++; } } while (0)

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec ts_of(long long ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
	return ts;
}

static void block(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

static timer_t make_timer(int notify, int sig)
{
	struct sigevent ev;
	timer_t id = -1;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = notify;
	ev.sigev_signo = sig;
	ev.sigev_value.sival_int = 1234;
	if (timer_create(CLOCK_MONOTONIC, &ev, &id) < 0)
		return -1;
	return id;
}

static void arm_abs(timer_t id, long long first, long long period)
{
	struct itimerspec it = { ts_of(period), ts_of(first) };
	timer_settime(id, TIMER_ABSTIME, &it, NULL);
}

/* Periodic SIGEV_SIGNAL timer, taken with sigwaitinfo: lateness per expiry. */
static void accuracy_one(long long period)
{
	int n = (int)(period >= 10000000 ? 10 : period >= 1000000 ? 40 : 100);
	long long lmin = 1LL << 62, lmax = 0;
	int overruns = 0, k = 0;
	sigset_t set;
	siginfo_t si;

	block(SIGRTMIN);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	timer_t id = make_timer(SIGEV_SIGNAL, SIGRTMIN);
	CHECK(id >= 0);
	long long t0 = now_ns() + 1000000;
	arm_abs(id, t0, period);
	while (k < n) {
		CHECK(sigwaitinfo(&set, &si) == SIGRTMIN);
		long long late = now_ns() - (t0 + (long long)k * period);
		CHECK(si.si_code == SI_TIMER);
		int ov = timer_getoverrun(id);
		overruns += ov;
		k += 1 + ov;
		if (late < lmin) lmin = late;
		if (late > lmax) lmax = late;
	}
	timer_delete(id);
	printf("timertest: period_us=%lld expiries=%d late_min_ns=%lld late_max_ns=%lld overruns=%d\n",
	       period / 1000, k, lmin, lmax, overruns);
}

static void t_accuracy(void)
{
	static const long long periods[] = { 100000, 1000000, 10000000, 100000000 };
	for (unsigned i = 0; i < sizeof(periods) / sizeof(periods[0]); i++)
		accuracy_one(periods[i]);
}

/* The waiter stays away for k periods: the k-1 folded expiries are overruns. */
static void t_overrun(void)
{
	sigset_t set;
	siginfo_t si;
	long long P = 2000000;

	block(SIGRTMIN);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	timer_t id = make_timer(SIGEV_SIGNAL, SIGRTMIN);
	long long t0 = now_ns() + 1000000;
	arm_abs(id, t0, P);
	CHECK(sigwaitinfo(&set, &si) == SIGRTMIN);	/* expiry 0 */
	CHECK(si.si_overrun == 0);
	/* Sleep past expiries 1..5 (due t0+P .. t0+5P), wake before 6. */
	struct timespec until = ts_of(t0 + 5 * P + P / 2);
	CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == 0);
	CHECK(sigwaitinfo(&set, &si) == SIGRTMIN);	/* expiry 1, with 2..5 folded */
	CHECK(si.si_overrun == 4);
	CHECK(timer_getoverrun(id) == 4);
	CHECK(sigwaitinfo(&set, &si) == SIGRTMIN);	/* expiry 6: on time again */
	CHECK(si.si_overrun == 0 && timer_getoverrun(id) == 0);
	CHECK(si.si_value.sival_int == 1234);
	timer_delete(id);
}

/* Deleting a timer whose signal is queued leaves no stray signal. */
static void t_delete_pending(void)
{
	sigset_t set, pend;
	struct timespec zero = { 0, 0 };
	siginfo_t si;

	block(SIGRTMIN);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	timer_t id = make_timer(SIGEV_SIGNAL, SIGRTMIN);
	arm_abs(id, now_ns() + 100000, 0);
	usleep(2000);
	sigpending(&pend);
	CHECK(sigismember(&pend, SIGRTMIN));
	CHECK(timer_delete(id) == 0);
	sigpending(&pend);
	CHECK(!sigismember(&pend, SIGRTMIN));
	errno = 0;
	CHECK(sigtimedwait(&set, &si, &zero) < 0 && errno == EAGAIN);
	CHECK(timer_delete(id) < 0 && errno == EINVAL);
}

/* A process exiting with armed periodic timers leaves nothing behind. */
static void t_exit_armed(void)
{
	long before = 0;
	/* Round 0 warms the kernel heap's slab caches; count from round 1. */
	for (int round = 0; round < 6; round++) {
		if (round == 1)
			before = granule_frames();
		pid_t pid = fork();
		if (pid == 0) {
			for (int i = 0; i < 8; i++) {
				timer_t id = make_timer(SIGEV_SIGNAL, SIGRTMIN + 1);
				struct itimerspec it = { { 0, 200000 }, { 0, 200000 } };
				timer_settime(id, 0, &it, NULL);
			}
			block(SIGRTMIN + 1);
			usleep(3000);
			_exit(7);
		}
		int st;
		CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7);
	}
	usleep(5000);		/* nothing may fire into us now */
	CHECK(granule_frames() == before);
}

static void t_bad_args(void)
{
	struct sigevent ev;
	timer_t id;
	struct itimerspec it = { { 0, 0 }, { 0, 1000 } };

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	errno = 0; CHECK(timer_create(CLOCK_MONOTONIC, &ev, NULL) < 0 && errno == EFAULT);
	errno = 0; CHECK(timer_create(CLOCK_MONOTONIC, &ev, (timer_t *)0xc0000000) < 0 && errno == EFAULT);
	/* raw syscall: the library itself reads sigev_notify */
	CHECK(sys_timer_create(CLOCK_MONOTONIC, 0x40000000, (long)&id) == -EFAULT);
	errno = 0; CHECK(timer_create(42, &ev, &id) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id) < 0 && errno == EINVAL);
	ev.sigev_notify = 77;
	errno = 0; CHECK(timer_create(CLOCK_MONOTONIC, &ev, &id) < 0 && errno == EINVAL);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = 65;
	errno = 0; CHECK(timer_create(CLOCK_MONOTONIC, &ev, &id) < 0 && errno == EINVAL);
	ev.sigev_signo = SIGUSR1;
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_notify_thread_id = 99999;
	errno = 0; CHECK(timer_create(CLOCK_MONOTONIC, &ev, &id) < 0 && errno == EINVAL);
	ev.sigev_notify = SIGEV_SIGNAL;
	CHECK(timer_create(CLOCK_MONOTONIC, &ev, &id) == 0);
	it.it_value.tv_nsec = -1;
	errno = 0; CHECK(timer_settime(id, 0, &it, NULL) < 0 && errno == EINVAL);
	it.it_value.tv_nsec = 1000000000;
	errno = 0; CHECK(timer_settime(id, 0, &it, NULL) < 0 && errno == EINVAL);
	it.it_value.tv_nsec = 0;
	it.it_value.tv_sec = -5;
	errno = 0; CHECK(timer_settime(id, 0, &it, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_settime(id, 0, NULL, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_settime(id, 0, (struct itimerspec *)0xc0001000, NULL) < 0 && errno == EFAULT);
	errno = 0; CHECK(timer_settime(id, 8, &it, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_settime(id + 100, 0, &it, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_gettime(id + 100, (struct itimerspec *)&it) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_gettime(id, NULL) < 0 && errno == EFAULT);
	errno = 0; CHECK(timer_getoverrun(-1) < 0 && errno == EINVAL);
	errno = 0; CHECK(timer_delete(12345) < 0 && errno == EINVAL);
	CHECK(timer_delete(id) == 0);
	struct timespec bad = { 0, 1000000000 };
	errno = 0; CHECK(nanosleep(&bad, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(nanosleep(NULL, NULL) < 0 && errno == EFAULT);
	CHECK(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &bad, NULL) == EINVAL);
	errno = 0; CHECK(clock_gettime(9, (struct timespec *)&bad) < 0 && errno == EINVAL);
	errno = 0; CHECK(clock_gettime(CLOCK_MONOTONIC, (struct timespec *)0xc0000000) < 0 && errno == EFAULT);
	errno = 0; CHECK(sigprocmask(7, (sigset_t *)&it, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(sigaction(SIGKILL, &(struct sigaction){ 0 }, NULL) < 0 && errno == EINVAL);
	errno = 0; CHECK(sigaction(0, NULL, NULL) < 0 && errno == EINVAL);
}

/* The per-process limit: the 65th timer gets EAGAIN; deleting frees a slot. */
static void t_limit(void)
{
	timer_t ids[64];
	int n = 0;

	while (n < 64 && (ids[n] = make_timer(SIGEV_NONE, 0)) >= 0)
		n++;
	CHECK(n == 64);
	errno = 0;
	CHECK(make_timer(SIGEV_NONE, 0) < 0 && errno == EAGAIN);
	CHECK(timer_delete(ids[10]) == 0);
	CHECK((ids[10] = make_timer(SIGEV_NONE, 0)) >= 0);
	for (int i = 0; i < n; i++)
		CHECK(timer_delete(ids[i]) == 0);
}

static volatile int handled[65];
static void count_handler(int sig) { handled[sig]++; }

/* Many processes, many timers each: every timer fires its exact count. */
static void t_many(void)
{
	pid_t pids[4];
	for (int p = 0; p < 4; p++) {
		if ((pids[p] = fork()) == 0) {
			sigset_t set;
			siginfo_t si;
			int got[16] = { 0 }, bad = 0;
			block(SIGRTMIN + 2);
			sigemptyset(&set);
			sigaddset(&set, SIGRTMIN + 2);
			long long t0 = now_ns() + 1000000;
			for (int i = 0; i < 16; i++) {
				struct sigevent ev;
				timer_t id;
				memset(&ev, 0, sizeof(ev));
				ev.sigev_notify = SIGEV_SIGNAL;
				ev.sigev_signo = SIGRTMIN + 2;
				ev.sigev_value.sival_int = i;
				timer_create(CLOCK_MONOTONIC, &ev, &id);
				/* timer i: 5 expiries, 1 ms + i*37 us apart */
				arm_abs(id, t0 + i * 10000, 1000000 + i * 37000);
			}
			/* until every timer has expired 5 times (bounded) */
			for (int k = 0, done = 0; !done && k < 16 * 20; k++) {
				if (sigwaitinfo(&set, &si) != SIGRTMIN + 2 ||
				    si.si_value.sival_int < 0 || si.si_value.sival_int >= 16) {
					bad++;
					break;
				}
				got[si.si_value.sival_int] += 1 + si.si_overrun;
				done = 1;
				for (int i = 0; i < 16; i++)
					done &= got[i] >= 5;
			}
			for (int i = 0; i < 16; i++)
				bad += got[i] < 5;
			_exit(bad ? 1 : 0);
		}
	}
	for (int p = 0; p < 4; p++) {
		int st;
		CHECK(waitpid(pids[p], &st, 0) == pids[p] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
}

/* A blocked signal waits in sigpending; unblocking delivers it once. */
static void t_mask(void)
{
	struct sigaction sa;
	sigset_t s, pend;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_handler;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGRTMIN + 3, &sa, NULL);
	block(SIGUSR1);
	block(SIGRTMIN + 3);
	for (int i = 0; i < 3; i++) {
		kill(getpid(), SIGUSR1);
		kill(getpid(), SIGRTMIN + 3);
	}
	CHECK(handled[SIGUSR1] == 0 && handled[SIGRTMIN + 3] == 0);
	sigpending(&pend);
	CHECK(sigismember(&pend, SIGUSR1) && sigismember(&pend, SIGRTMIN + 3));
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGRTMIN + 3);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	CHECK(handled[SIGUSR1] == 1);		/* standard signals coalesce */
	CHECK(handled[SIGRTMIN + 3] == 3);	/* realtime signals queue */
	/* SIG_IGN discards and ignores. */
	signal(SIGUSR2, SIG_IGN);
	kill(getpid(), SIGUSR2);
	sigpending(&pend);
	CHECK(!sigismember(&pend, SIGUSR2));
}

static void alarm_handler(int sig) { handled[sig]++; }

/* SA_RESTART restarts wait4; without it wait4 fails with EINTR. */
static void t_restart(void)
{
	for (int restart = 0; restart < 2; restart++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = alarm_handler;
		sa.sa_flags = restart ? SA_RESTART : 0;
		sigaction(SIGALRM, &sa, NULL);
		handled[SIGALRM] = 0;
		pid_t pid = fork();
		if (pid == 0) {
			usleep(30000);
			_exit(3);
		}
		timer_t id = make_timer(SIGEV_SIGNAL, SIGALRM);
		struct itimerspec it = { { 0, 0 }, { 0, 5000000 } };
		timer_settime(id, 0, &it, NULL);
		int st;
		errno = 0;
		pid_t r = waitpid(pid, &st, 0);
		CHECK(handled[SIGALRM] == 1);
		if (restart) {
			CHECK(r == pid && WEXITSTATUS(st) == 3);
		} else {
			CHECK(r < 0 && errno == EINTR);
			CHECK(waitpid(pid, &st, 0) == pid);
		}
		timer_delete(id);
	}
}

/* nanosleep: relative, absolute, and EINTR with the time left. */
static void t_sleep(void)
{
	long long t = now_ns();
	struct timespec d = { 0, 3000000 }, rem;
	CHECK(nanosleep(&d, NULL) == 0);
	long long slept = now_ns() - t;
	CHECK(slept >= 3000000 && slept < 3000000 + 1100000);
	t = now_ns() + 2500000;
	struct timespec abs_ts = ts_of(t);
	CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs_ts, NULL) == 0);
	CHECK(now_ns() >= t);
	/* interrupted */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarm_handler;
	sigaction(SIGALRM, &sa, NULL);
	timer_t id = make_timer(SIGEV_SIGNAL, SIGALRM);
	struct itimerspec it = { { 0, 0 }, { 0, 2000000 } };
	timer_settime(id, 0, &it, NULL);
	d.tv_sec = 1;
	d.tv_nsec = 0;
	errno = 0;
	CHECK(nanosleep(&d, &rem) < 0 && errno == EINTR);
	CHECK(rem.tv_sec == 0 && rem.tv_nsec > 900000000);
	timer_delete(id);
	/* sigtimedwait times out with EAGAIN */
	sigset_t set;
	siginfo_t si;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	block(SIGUSR2);
	struct timespec to = { 0, 4000000 };
	t = now_ns();
	errno = 0;
	CHECK(sigtimedwait(&set, &si, &to) < 0 && errno == EAGAIN);
	CHECK(now_ns() - t >= 4000000);
}

static volatile int info_ok;
static void info_handler(int sig, siginfo_t *si, void *uc)
{
	info_ok = si->si_signo == sig && si->si_code == SI_TIMER && si->si_value.sival_int == 1234;
}

/* SIGEV_THREAD_ID targets one thread; an SA_SIGINFO handler sees siginfo. */
static void t_siginfo_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = info_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN + 4, &sa, NULL);
	struct sigevent ev;
	timer_t id;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGRTMIN + 4;
	ev.sigev_notify_thread_id = gettid();
	ev.sigev_value.sival_int = 1234;
	CHECK(timer_create(CLOCK_MONOTONIC, &ev, &id) == 0);
	struct itimerspec it = { { 0, 0 }, { 0, 1000000 } };
	timer_settime(id, 0, &it, NULL);
	struct timespec d = { 0, 5000000 };
	nanosleep(&d, NULL);	/* interrupted or not: the handler has run */
	CHECK(info_ok);
	struct itimerspec cur;
	CHECK(timer_gettime(id, &cur) == 0 && cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0);
	timer_delete(id);
}

/*
 * The siginfo a timer's signal carries is filled once, at timer_create
 * (kernel/time/posix_timers.c): every expiry of every timer still reports
 * its own si_timerid and si_value (the default value is the timer id), an
 * overrun of one dequeue does not stay for the next, and a standard signal
 * already pending takes the timer's expiry into its one delivery (the kill's
 * siginfo, SI_USER; nothing more queued).
 */
static void t_siginfo_fields(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t alrm, rt;
	siginfo_t si;
	timer_t a = -1, b;

	block(SIGALRM);
	block(SIGRTMIN + 2);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 2);
	CHECK(timer_create(CLOCK_MONOTONIC, NULL, &a) == 0);	/* SIGALRM, value = id */
	b = make_timer(SIGEV_SIGNAL, SIGRTMIN + 2);		/* value 1234 */
	CHECK(b >= 0 && b != a);
	long long t0 = now_ns() + 500000, P = 1000000;
	arm_abs(a, t0, 0);
	arm_abs(b, t0 + 1000, P);
	for (int k = 0; k < 3; k++) {
		CHECK(sigwaitinfo(&rt, &si) == SIGRTMIN + 2);
		CHECK(si.si_signo == SIGRTMIN + 2 && si.si_code == SI_TIMER);
		CHECK(si.si_timerid == b && si.si_value.sival_int == 1234);
		CHECK(si.si_overrun == (k == 1 ? 1 : 0));	/* expiry 2 folded into 1 */
		if (k == 0) {		/* stay away past expiries 1 and 2 */
			struct timespec until = ts_of(t0 + 1000 + 2 * P + P / 2);
			CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == 0);
		}
	}
	CHECK(sigwaitinfo(&alrm, &si) == SIGALRM);
	CHECK(si.si_code == SI_TIMER && si.si_timerid == a && si.si_value.sival_int == (int)a);
	CHECK(si.si_overrun == 0);
	/* a kill's SIGALRM pending when the timer expires: one delivery, the kill's */
	CHECK(kill(getpid(), SIGALRM) == 0);
	arm_abs(a, now_ns() + 200000, 0);
	struct timespec past = ts_of(now_ns() + 400000);
	CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &past, NULL) == 0);
	CHECK(sigwaitinfo(&alrm, &si) == SIGALRM && si.si_code == SI_USER && si.si_pid == getpid());
	errno = 0;
	CHECK(sigtimedwait(&alrm, &si, &zero) == -1 && errno == EAGAIN);
	timer_delete(a);
	timer_delete(b);
}

/* CLOCK_REALTIME comes from the RTC (QEMU is pinned to 2010-09-14 12:00). */
static void t_realtime(void)
{
	struct timespec rt;
	CHECK(clock_gettime(CLOCK_REALTIME, &rt) == 0);
	CHECK(rt.tv_sec >= 1284465600 && rt.tv_sec < 1284465600 + 600);
	struct timespec cpu1, cpu2;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
	for (volatile int i = 0; i < 200000; i++)
		;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu2);
	CHECK((cpu2.tv_sec - cpu1.tv_sec) * 1000000000LL + cpu2.tv_nsec - cpu1.tv_nsec > 100000);
}

static const struct { const char *name; void (*fn)(void); } tests[] = {
	{ "accuracy", t_accuracy },
	{ "overrun", t_overrun },
	{ "delete_pending", t_delete_pending },
	{ "exit_armed", t_exit_armed },
	{ "bad_args", t_bad_args },
	{ "limit", t_limit },
	{ "many", t_many },
	{ "mask", t_mask },
	{ "restart", t_restart },
	{ "sleep", t_sleep },
	{ "siginfo_handler", t_siginfo_handler },
	{ "siginfo_fields", t_siginfo_fields },
	{ "realtime", t_realtime },
};

static int run(int i)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		tests[i].fn();
		_exit(failures ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	printf("test %s: %s\n", tests[i].name, ok ? "OK" : "FAILED");
	return ok;
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: timertest\nSignals, POSIX timers and sleeps, checked from user space.\n");
	int all_ok = 1, ran = 0;

	for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		int wanted = argc < 2;
		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], tests[i].name);
		if (wanted) {
			all_ok &= run(i);
			ran++;
		}
	}
	if (!ran) {
		printf("timertest: no such test\n");
		return 2;
	}
	printf(all_ok ? "ALL TESTS PASSED\n" : "SOME TESTS FAILED\n");
	return all_ok ? 0 : 1;
}
