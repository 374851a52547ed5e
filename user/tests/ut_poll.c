/*
 * user/tests/ut_poll.c - usertests: poll, ppoll, select, pselect6 (both time
 * ABIs) and rt_sigsuspend (kernel/fs/select.c, kernel/signal.c).
 *
 * The files: fd 0 is the console with no input pending under usertests (never
 * readable: what a timeout or a signal must end), fd 1 the console for writing
 * (always writable).  A signal comes from a forked child that sleeps SIG_DELAY
 * and then sends SIGUSR1 to us.
 */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ut.h"

#define NBADP	3
static const uint32_t badp[NBADP] = { 0, 0xC0000000u, 0x40000000u };	/* NULL, kernel, unmapped */

struct pollfd { int fd; short events, revents; };
struct ts32 { int32_t sec, nsec; };
struct ts64 { int64_t sec, nsec; };
struct tv32 { int32_t sec, usec; };

#define POLLIN		0x0001
#define POLLOUT		0x0004
#define POLLNVAL	0x0020
#define SIG_DELAY	5000000LL	/* ns */

static volatile int got_usr1;
static void on_usr1(int sig) { (void)sig; got_usr1++; }

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* SIGUSR1 to us after SIG_DELAY; returns the child's pid. */
static pid_t usr1_later(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		ut_sleep_ns(SIG_DELAY);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	CHECK(pid > 0, "fork failed");
	return pid;
}

static void catch_usr1(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
}

static uint64_t blocked_now(void)
{
	uint64_t m;
	EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, 0, (long)&m, 8), 0);
	return m;
}

static void poll_calls(void)
{
	struct pollfd p[3];
	long long t0;

	/* nfds above RLIMIT_NOFILE (1024); an unreadable array. */
	EXPECT_RET(sys_poll((long)p, 1025, 0), -EINVAL);
	EXPECT_RET(sys_poll((long)p, 0x40000000, 0), -EINVAL);
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_poll(badp[i], 1, 0), -EFAULT);
	/* A negative fd is skipped, a closed one is POLLNVAL, fd 1 is writable. */
	p[0] = (struct pollfd){ -1, POLLIN, 0x55 };
	p[1] = (struct pollfd){ 40, POLLIN, 0 };
	p[2] = (struct pollfd){ 1, POLLIN | POLLOUT, 0 };
	EXPECT_RET(sys_poll((long)p, 3, 0), 2);
	CHECK(p[0].revents == 0, "negative fd: revents %#x", p[0].revents);
	CHECK(p[1].revents == POLLNVAL, "closed fd: revents %#x", p[1].revents);
	CHECK(p[2].revents == POLLOUT, "console fd 1: revents %#x", p[2].revents);
	/* Nothing ready: a zero timeout returns at once, 20 ms waits 20 ms. */
	p[0] = (struct pollfd){ 0, POLLIN, 0 };
	EXPECT_RET(sys_poll((long)p, 1, 0), 0);
	t0 = now_ns();
	EXPECT_RET(sys_poll((long)p, 1, 20), 0);
	CHECK(now_ns() - t0 >= 20000000LL, "poll(20 ms) returned after %lld ns", now_ns() - t0);
	CHECK(p[0].revents == 0, "timed out with revents %#x", p[0].revents);
	/* A caught signal without SA_RESTART ends an endless poll: -EINTR. */
	catch_usr1(0);
	pid_t pid = usr1_later();
	EXPECT_RET(sys_poll((long)p, 1, -1), -EINTR);
	CHECK(got_usr1 == 1, "handler ran %d times", got_usr1);
	ut_wait(pid);
	/* nfds 0 with a timeout is a sleep. */
	t0 = now_ns();
	EXPECT_RET(sys_poll(0, 0, 10), 0);
	CHECK(now_ns() - t0 >= 10000000LL, "poll(NULL, 0, 10) returned after %lld ns", now_ns() - t0);
}

static void ppoll_calls(void)
{
	struct pollfd p = { 0, POLLIN, 0 };
	struct ts32 ts = { 0, 1000000000 };
	struct ts64 t64 = { 0, -1 };
	uint64_t none = 0, usr1 = 1ull << (SIGUSR1 - 1);

	EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, 0, 8), -EINVAL);	/* tv_nsec = 1e9 */
	ts = (struct ts32){ -1, 0 };
	EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, 0, 8), -EINVAL);
	EXPECT_RET(sys_ppoll_time64((long)&p, 1, (long)&t64, 0, 8), -EINVAL);
	ts = (struct ts32){ 0, 0 };
	EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, (long)&none, 4), -EINVAL);	/* sigsetsize */
	EXPECT_RET(sys_ppoll((long)&p, 1025, (long)&ts, 0, 8), -EINVAL);
	for (int i = 0; i < NBADP; i++) {
		if (badp[i]) {	/* NULL is "no timeout" / "no mask" */
			EXPECT_RET(sys_ppoll((long)&p, 1, badp[i], 0, 8), -EFAULT);
			EXPECT_RET(sys_ppoll_time64((long)&p, 1, badp[i], 0, 8), -EFAULT);
			EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, badp[i], 8), -EFAULT);
		}
		EXPECT_RET(sys_ppoll(badp[i], 1, (long)&ts, 0, 8), -EFAULT);
	}
	/* A timeout is written back with what is left: 0 after expiry. */
	ts = (struct ts32){ 0, 10000000 };
	EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, 0, 8), 0);
	CHECK(ts.sec == 0 && ts.nsec == 0, "time left %d.%09d", ts.sec, ts.nsec);
	t64 = (struct ts64){ 0, 10000000 };
	EXPECT_RET(sys_ppoll_time64((long)&p, 1, (long)&t64, 0, 8), 0);
	CHECK(t64.sec == 0 && t64.nsec == 0, "time64 left %lld", (long long)t64.nsec);
	/* SIGUSR1 blocked, ppoll unblocks it for the call: the handler runs
	 * (-EINTR) and afterwards SIGUSR1 is blocked again. */
	catch_usr1(SA_RESTART);	/* ppoll is never restarted after a handler */
	got_usr1 = 0;
	EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, (long)&usr1, 0, 8), 0);
	pid_t pid = usr1_later();
	ts = (struct ts32){ 5, 0 };
	EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, (long)&none, 8), -EINTR);
	CHECK(got_usr1 == 1, "handler ran %d times", got_usr1);
	CHECK(blocked_now() & usr1, "the mask was not restored: %#llx", (unsigned long long)blocked_now());
	CHECK(ts.sec < 5 && ts.sec >= 4, "time left %d.%09d", ts.sec, ts.nsec);
	ut_wait(pid);
	/* A mask the call could not use leaves ours alone. */
	EXPECT_RET(sys_ppoll((long)&p, 1, (long)&ts, (long)&none, 16), -EINVAL);
	CHECK(blocked_now() & usr1, "a refused ppoll changed the mask");
}

static void select_calls(void)
{
	uint32_t rd[2], wr[2], ex[2];
	struct tv32 tv = { 0, 0 };
	long long t0;

	EXPECT_RET(sys__newselect(-1, 0, 0, 0, (long)&tv), -EINVAL);
	tv.usec = -1;
	EXPECT_RET(sys__newselect(1, 0, 0, 0, (long)&tv), -EINVAL);
	tv = (struct tv32){ -1, 0 };
	EXPECT_RET(sys__newselect(1, 0, 0, 0, (long)&tv), -EINVAL);
	tv = (struct tv32){ 0, 0 };
	for (int i = 1; i < NBADP; i++) {
		EXPECT_RET(sys__newselect(1, badp[i], 0, 0, (long)&tv), -EFAULT);
		EXPECT_RET(sys__newselect(1, 0, badp[i], 0, (long)&tv), -EFAULT);
		EXPECT_RET(sys__newselect(1, 0, 0, badp[i], (long)&tv), -EFAULT);
		EXPECT_RET(sys__newselect(1, 0, 0, 0, badp[i]), -EFAULT);
	}
	/* A closed fd in a set: -EBADF; n past the table is cut, not refused. */
	rd[0] = 1u << 9; rd[1] = 0;
	EXPECT_RET(sys__newselect(10, (long)rd, 0, 0, (long)&tv), -EBADF);
	rd[0] = 1; wr[0] = 2; ex[0] = 0; rd[1] = wr[1] = ex[1] = 0;
	EXPECT_RET(sys__newselect(100000, (long)rd, (long)wr, (long)ex, (long)&tv), 1);
	CHECK(rd[0] == 0 && wr[0] == 2 && ex[0] == 0, "sets after select: %#x %#x %#x", rd[0], wr[0], ex[0]);
	/* 10 ms timeout, written back as 0 left. */
	rd[0] = 1;
	tv = (struct tv32){ 0, 10000 };
	t0 = now_ns();
	EXPECT_RET(sys__newselect(1, (long)rd, 0, 0, (long)&tv), 0);
	CHECK(now_ns() - t0 >= 10000000LL, "select(10 ms) returned after %lld ns", now_ns() - t0);
	CHECK(tv.sec == 0 && tv.usec == 0 && rd[0] == 0, "left %d.%06d, rd %#x", tv.sec, tv.usec, rd[0]);
	/* A signal: -EINTR with a handler without SA_RESTART. */
	catch_usr1(0);
	got_usr1 = 0;
	pid_t pid = usr1_later();
	rd[0] = 1;
	EXPECT_RET(sys__newselect(1, (long)rd, 0, 0, 0), -EINTR);
	CHECK(got_usr1 == 1, "handler ran %d times", got_usr1);
	ut_wait(pid);
}

static void pselect_calls(void)
{
	uint32_t rd[2] = { 1, 0 };
	struct ts32 ts = { 0, 0 };
	struct ts64 t64 = { 0, 0 };
	uint64_t none = 0, usr1 = 1ull << (SIGUSR1 - 1);
	uint32_t sig[2] = { (uint32_t)&none, 8 };

	EXPECT_RET(sys_pselect6(-1, 0, 0, 0, (long)&ts, 0), -EINVAL);
	ts.nsec = 1000000000;
	EXPECT_RET(sys_pselect6(1, (long)rd, 0, 0, (long)&ts, 0), -EINVAL);
	t64.sec = -1;
	EXPECT_RET(sys_pselect6_time64(1, (long)rd, 0, 0, (long)&t64, 0), -EINVAL);
	ts.nsec = 0;
	t64.sec = 0;
	sig[1] = 4;
	EXPECT_RET(sys_pselect6(1, (long)rd, 0, 0, (long)&ts, (long)sig), -EINVAL);
	sig[1] = 8;
	for (int i = 1; i < NBADP; i++) {
		EXPECT_RET(sys_pselect6(1, (long)rd, 0, 0, (long)&ts, badp[i]), -EFAULT);
		EXPECT_RET(sys_pselect6(1, (long)rd, 0, 0, badp[i], 0), -EFAULT);
		EXPECT_RET(sys_pselect6_time64(1, (long)rd, 0, 0, badp[i], 0), -EFAULT);
		uint32_t badsig[2] = { badp[i], 8 };
		EXPECT_RET(sys_pselect6(1, (long)rd, 0, 0, (long)&ts, (long)badsig), -EFAULT);
	}
	rd[0] = 1;
	EXPECT_RET(sys_pselect6_time64(1, (long)rd, 0, 0, (long)&t64, (long)sig), 0);
	/* The mask swap, as ppoll's. */
	catch_usr1(SA_RESTART);
	got_usr1 = 0;
	EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, (long)&usr1, 0, 8), 0);
	pid_t pid = usr1_later();
	rd[0] = 1;
	EXPECT_RET(sys_pselect6(1, (long)rd, 0, 0, 0, (long)sig), -EINTR);
	CHECK(got_usr1 == 1, "handler ran %d times", got_usr1);
	CHECK(blocked_now() & usr1, "the mask was not restored");
	ut_wait(pid);
}

static void sigsuspend_calls(void)
{
	uint64_t none = 0, usr1 = 1ull << (SIGUSR1 - 1);

	EXPECT_RET(sys_rt_sigsuspend((long)&none, 4), -EINVAL);
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_rt_sigsuspend(badp[i], 8), -EFAULT);
	catch_usr1(SA_RESTART);
	got_usr1 = 0;
	EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, (long)&usr1, 0, 8), 0);
	pid_t pid = usr1_later();
	EXPECT_RET(sys_rt_sigsuspend((long)&none, 8), -EINTR);
	CHECK(got_usr1 == 1, "handler ran %d times", got_usr1);
	CHECK(blocked_now() & usr1, "the mask was not restored");
	ut_wait(pid);
}

const struct ut_test ut_poll_tests[] = {
	{ poll_calls, "poll" },
	{ ppoll_calls, "ppoll" },
	{ select_calls, "select" },
	{ pselect_calls, "pselect6" },
	{ sigsuspend_calls, "rt_sigsuspend" },
	{ NULL, NULL },
};
