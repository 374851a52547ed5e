/*
 * user/tests/ut_job.c - usertests: process groups and sessions (setpgid,
 * getpgid, getpgrp, setsid, getsid), kill() and wait4() on a group, the
 * controlling terminal ioctls and the line discipline's raw reads
 * (kernel/proc/pgrp.c, kernel/tty.c, kernel/n_tty.c).
 *
 * Under usertests nobody types: fd 0 (the console) never has input, so a
 * raw read with VMIN = 0 returns 0 and a non-blocking canonical read -EAGAIN.
 */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ut.h"

#define INT_MIN_	((long)(int)0x80000000)
#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCFLSH		0x540B
#define TIOCSCTTY	0x540E
#define TIOCGPGRP	0x540F
#define TIOCSPGRP	0x5410
#define FIONREAD	0x541B
#define TIOCNOTTY	0x5422
#define TIOCGSID	0x5429
#define ICANON		0000002
#define VTIME		5
#define VMIN		6
#define O_NONBLOCK_	04000

struct termios32 { uint32_t iflag, oflag, cflag, lflag; uint8_t line, cc[19]; };

static const uint32_t badp[3] = { 0, 0xC0000000u, 0x40000000u };

/* A child that waits to be killed (in its own group if OWN_GROUP). */
static pid_t idle_child(int own_group)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (own_group)
			sys_setpgid(0, 0);
		for (;;)
			sys_rt_sigsuspend((long)&(uint64_t){0}, 8);
	}
	CHECK(pid > 0, "fork");
	return pid;
}

static void pgrp_calls(void)
{
	long me = getpid();

	EXPECT_RET(sys_getpgid(0), sys_getpgrp());
	EXPECT_RET(sys_getpgid(me), sys_getpgrp());
	EXPECT_RET(sys_getsid(me), sys_getsid(0));
	EXPECT_RET(sys_getpgid(99999), -ESRCH);
	EXPECT_RET(sys_getpgid(-1), -ESRCH);
	EXPECT_RET(sys_getsid(99999), -ESRCH);
	EXPECT_RET(sys_setpgid(0, -1), -EINVAL);
	EXPECT_RET(sys_setpgid(99999, 0), -ESRCH);
	EXPECT_RET(sys_setpgid(1, 0), -ESRCH);		/* init: not us, not our child */
	EXPECT_RET(sys_setpgid(0, 99999), -EPERM);	/* no such group in our session */
	EXPECT_RET(sys_setpgid(0, 0), 0);		/* our own group */
	EXPECT_RET(sys_getpgrp(), me);
	/* A child: moved into a group of its own, then back into ours. */
	pid_t c = idle_child(0);
	EXPECT_RET(sys_getpgid(c), me);
	EXPECT_RET(sys_setpgid(c, c), 0);
	EXPECT_RET(sys_getpgid(c), c);
	EXPECT_RET(sys_setpgid(c, me), 0);
	EXPECT_RET(sys_setpgid(c, 0), 0);
	/* kill() to a group: 0 = ours would hit us too, so -c. */
	EXPECT_RET(sys_kill(-99999, 0), -ESRCH);
	EXPECT_RET(sys_kill(INT_MIN_, 0), -ESRCH);
	EXPECT_RET(sys_kill(-c, 0), 0);
	EXPECT_RET(sys_kill(0, 0), 0);
	EXPECT_RET(sys_kill(-c, 99), -EINVAL);
	/* wait4 on a group: not ours (-ECHILD for our group: c left it). */
	EXPECT_RET(sys_wait4(INT_MIN_, 0, 0, 0), -ESRCH);
	EXPECT_RET(sys_wait4(0, 0, WNOHANG, 0), -ECHILD);
	EXPECT_RET(sys_wait4(-c, 0, WNOHANG | WUNTRACED | 8 /* WCONTINUED */, 0), 0);
	EXPECT_RET(sys_kill(-c, SIGKILL), 0);
	int st = 0;
	EXPECT_RET(sys_wait4(-c, (long)&st, 0, 0), c);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
	/* A child that exec'd can no longer be moved: -EACCES. */
	pid_t e = fork();
	if (e == 0) {
		char *argv[] = { "usertests", "--sleep", "50", "0", NULL }, *envp[] = { NULL };
		execve("/bin/usertests", argv, envp);
		_exit(99);
	}
	/* Until its exec, setpgid succeeds (and is harmless); after it, -EACCES. */
	long r;
	int tries = 0;
	while ((r = sys_setpgid(e, e)) == 0 && tries++ < 1000)
		ut_sleep_ns(100000);
	EXPECT_RET(r, -EACCES);
	CHECK(ut_wait(e) == 0, "the exec'd child failed");
}

static void setsid_child(uintptr_t arg)
{
	long me = getpid();

	(void)arg;
	EXPECT_RET(sys_setsid(), me);
	EXPECT_RET(sys_getsid(0), me);
	EXPECT_RET(sys_getpgrp(), me);
	EXPECT_RET(sys_setsid(), -EPERM);		/* already leads a group */
	EXPECT_RET(sys_setpgid(0, 0), -EPERM);		/* a session leader stays */
	/* The terminal: not ours yet. */
	int v = 0;
	EXPECT_RET(sys_ioctl(0, TIOCGPGRP, (long)&v), -ENOTTY);
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&v), -ENOTTY);
	EXPECT_RET(sys_ioctl(0, TIOCGSID, (long)&v), -ENOTTY);
	EXPECT_RET(sys_ioctl(0, TIOCNOTTY, 0), -ENOTTY);
	EXPECT_RET(sys_ioctl(0, TIOCSCTTY, 0), 0);
	EXPECT_RET(sys_ioctl(0, TIOCSCTTY, 0), 0);	/* again: already ours */
	EXPECT_RET(sys_ioctl(0, TIOCGPGRP, (long)&v), 0);
	CHECK(v == me, "TIOCGPGRP %d", v);
	EXPECT_RET(sys_ioctl(0, TIOCGSID, (long)&v), 0);
	CHECK(v == me, "TIOCGSID %d", v);
	for (int i = 0; i < 3; i++) {
		EXPECT_RET(sys_ioctl(0, TIOCGPGRP, badp[i]), -EFAULT);
		EXPECT_RET(sys_ioctl(0, TIOCSPGRP, badp[i]), -EFAULT);
	}
	v = -1;
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&v), -EINVAL);
	v = 99999;
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&v), -ESRCH);
	v = 1;			/* init's group 0 is not a group of ours; init is pid 1 */
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&v), -ESRCH);
	v = me;
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&v), 0);
	EXPECT_RET(sys_ioctl(0, TIOCNOTTY, 0), 0);	/* give it back for the tests after us */
	EXPECT_RET(sys_ioctl(0, TIOCGPGRP, (long)&v), -ENOTTY);
}

static void session_calls(void)
{
	/* Not a session leader: no terminal to take. */
	EXPECT_RET(sys_ioctl(0, TIOCSCTTY, 0), -EPERM);
	/* A child in another session cannot be moved by us: -EPERM. */
	pid_t c = fork();
	if (c == 0) {
		sys_setsid();
		for (;;)
			sys_rt_sigsuspend((long)&(uint64_t){0}, 8);
	}
	for (int tries = 0; sys_getsid(c) != c && tries < 1000; tries++)
		ut_sleep_ns(100000);	/* until its setsid() */
	EXPECT_RET(sys_getsid(c), c);
	EXPECT_RET(sys_setpgid(c, c), -EPERM);
	sys_kill(c, SIGKILL);
	ut_wait(c);
	CHECK(ut_run_child(setsid_child, 0) == 0, "the session leader's checks failed");
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void ldisc_calls(void)
{
	struct termios32 t, raw;
	char c;
	int n = -1;

	EXPECT_RET(sys_ioctl(0, TCGETS, (long)&t), 0);
	EXPECT_RET(sys_ioctl(0, TCFLSH, 3), -EINVAL);
	EXPECT_RET(sys_ioctl(0, TCFLSH, 0), 0);
	EXPECT_RET(sys_ioctl(0, FIONREAD, (long)&n), 0);
	CHECK(n == 0, "FIONREAD %d", n);
	EXPECT_RET(sys_ioctl(0, FIONREAD, 0xC0000000u), -EFAULT);
	/* Canonical, O_NONBLOCK: nothing typed is -EAGAIN. */
	long fd = sys_open((long)"/dev/tty", O_NONBLOCK_, 0);
	CHECK(fd >= 0, "open /dev/tty: %ld", fd);
	EXPECT_RET(sys_read(fd, (long)&c, 1), -EAGAIN);
	sys_close(fd);
	/* Raw, VMIN 0 VTIME 0: returns at once with 0; VTIME 1: after 100 ms. */
	raw = t;
	raw.lflag &= ~ICANON;
	raw.cc[VMIN] = 0;
	raw.cc[VTIME] = 0;
	EXPECT_RET(sys_ioctl(0, TCSETS, (long)&raw), 0);
	EXPECT_RET(sys_read(0, (long)&c, 1), 0);
	raw.cc[VTIME] = 1;
	EXPECT_RET(sys_ioctl(0, TCSETS, (long)&raw), 0);
	long long t0 = now_ns();
	EXPECT_RET(sys_read(0, (long)&c, 1), 0);
	CHECK(now_ns() - t0 >= 100000000LL, "VTIME=1 returned after %lld ns", now_ns() - t0);
	EXPECT_RET(sys_ioctl(0, TCSETS, (long)&t), 0);
}

static volatile int chld;
static void on_chld(int sig) { (void)sig; chld++; }

/* SIGSTOP stops a child: wait4(WUNTRACED) reports 0x137f once, the parent
 * gets SIGCHLD; SIGCONT resumes it: WCONTINUED reports 0xffff; a stopped
 * child dies of SIGKILL.  With SA_NOCLDSTOP no SIGCHLD comes for a stop. */
static void stop_calls(void)
{
	struct sigaction sa;
	int st = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	CHECK(sigaction(SIGCHLD, &sa, NULL) == 0, "sigaction");
	pid_t c = idle_child(0);
	EXPECT_RET(sys_kill(c, SIGSTOP), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED, 0), c);
	CHECK(st == 0x137f && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "stop status %#x", st);
	CHECK(chld == 1, "SIGCHLD for the stop: %d", chld);
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED | WNOHANG, 0), 0);	/* reported once */
	EXPECT_RET(sys_kill(c, SIGCONT), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, 8 /* WCONTINUED */, 0), c);
	CHECK(st == 0xffff, "continue status %#x", st);
	CHECK(chld == 2, "SIGCHLD for the continue: %d", chld);
	/* Stopped again, then killed. */
	EXPECT_RET(sys_kill(c, SIGSTOP), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED, 0), c);
	CHECK(WIFSTOPPED(st), "status %#x", st);
	EXPECT_RET(sys_kill(c, SIGKILL), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, 0, 0), c);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
	/* SA_NOCLDSTOP: the stop is still reported to wait4, without SIGCHLD. */
	sa.sa_flags = SA_NOCLDSTOP;
	CHECK(sigaction(SIGCHLD, &sa, NULL) == 0, "sigaction");
	chld = 0;
	c = idle_child(0);
	EXPECT_RET(sys_kill(c, SIGSTOP), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED, 0), c);
	CHECK(chld == 0, "SIGCHLD despite SA_NOCLDSTOP");
	EXPECT_RET(sys_kill(c, SIGKILL), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, 0, 0), c);
}

/* In a background group of a session that has the console: */
static void bg_reader(uintptr_t how)
{
	char c;

	EXPECT_RET(sys_setpgid(0, 0), 0);
	if (how == 1)
		signal(SIGTTIN, SIG_IGN);
	if (how == 2) {
		uint64_t m = 1ull << (SIGTTIN - 1);
		EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, (long)&m, 0, 8), 0);
	}
	long r = sys_read(0, (long)&c, 1);
	if (how)
		EXPECT_RET(r, -EIO);
	else
		FAIL("a background read returned %ld instead of stopping", r);
}

static void ttin_leader(uintptr_t arg)
{
	int st = 0;

	(void)arg;
	EXPECT_RET(sys_setsid(), getpid());
	EXPECT_RET(sys_ioctl(0, TIOCSCTTY, 0), 0);
	CHECK(ut_run_child(bg_reader, 1) == 0, "ignored SIGTTIN: not -EIO");
	CHECK(ut_run_child(bg_reader, 2) == 0, "blocked SIGTTIN: not -EIO");
	pid_t c = fork();
	if (c == 0) {
		bg_reader(0);
		_exit(0);
	}
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED, 0), c);
	CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTTIN, "status %#x", st);
	EXPECT_RET(sys_kill(c, SIGKILL), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, 0, 0), c);
	EXPECT_RET(sys_ioctl(0, TIOCNOTTY, 0), 0);
}

/* A background reader of the controlling terminal: SIGTTIN stops it;
 * -EIO if it ignores or blocks SIGTTIN. */
static void ttin_calls(void)
{
	CHECK(ut_run_child(ttin_leader, 0) == 0, "the session leader's checks failed");
}

const struct ut_test ut_job_tests[] = {
	{ ttin_calls, "sigttin" },
	{ stop_calls, "stop" },
	{ pgrp_calls, "pgrp" },
	{ session_calls, "session" },
	{ ldisc_calls, "ldisc" },
	{ NULL, NULL },
};
