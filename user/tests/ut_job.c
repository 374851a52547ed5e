/*
 * user/tests/ut_job.c - usertests: process groups and sessions (setpgid,
 * getpgid, getpgrp, setsid, getsid), kill() and wait4() on a group, the
 * controlling terminal ioctls, the line discipline's raw reads, and the
 * terminal's job control: SIGTTIN for background reads, SIGTTOU for
 * background writes under TOSTOP and background changes of the terminal
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
#define TOSTOP		0000400
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

static volatile int caught;
static void on_sig(int sig) { (void)sig; caught++; }

/* Into a background group of our own, with SIG 0 default, 1 ignored,
 * 2 blocked, 3 caught by on_sig() without SA_RESTART. */
static void go_background(int sig, int how)
{
	struct sigaction sa;
	uint64_t m = 1ull << (sig - 1);

	EXPECT_RET(sys_setpgid(0, 0), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = how == 1 ? SIG_IGN : how == 3 ? on_sig : SIG_DFL;
	CHECK(sigaction(sig, &sa, NULL) == 0, "sigaction");
	if (how == 2)
		EXPECT_RET(sys_rt_sigprocmask(SIG_BLOCK, (long)&m, 0, 8), 0);
}

/* In a background group of a session that has the console: */
static void bg_reader(uintptr_t how)
{
	char c;

	go_background(SIGTTIN, (int)how);
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

/* ---- SIGTTOU (Linux 6.1 tty_check_change, n_tty_write's job control) ---- */

enum ttou_call { TTOU_WRITE, TTOU_TCSETS, TTOU_TCFLSH, TTOU_TIOCSPGRP, TTOU_NR };
static const char *const ttou_names[] = { "write", "TCSETS", "TCFLSH", "TIOCSPGRP" };

/* One call that needs the foreground: an empty write (the check comes
 * before anything is written), the current settings again, a flush of
 * nothing, the foreground group the terminal already has. */
static long ttou_call(int call)
{
	struct termios32 t;
	int fg = 0;

	switch (call) {
	case TTOU_WRITE:
		return sys_write(1, (long)"", 0);
	case TTOU_TCSETS:
		if (sys_ioctl(0, TCGETS, (long)&t) < 0)
			return -1000;
		return sys_ioctl(0, TCSETS, (long)&t);
	case TTOU_TCFLSH:
		return sys_ioctl(0, TCFLSH, 0);
	default:
		if (sys_ioctl(0, TIOCGPGRP, (long)&fg) < 0)
			return -1000;
		return sys_ioctl(0, TIOCSPGRP, (long)&fg);
	}
}

/* HOW (go_background): 1 ignored, 2 blocked (the call goes ahead), 3 a
 * handler without SA_RESTART (the call fails with -EINTR after it ran). */
static void bg_ttou(uintptr_t arg)
{
	int call = (int)(arg & 0xff), how = (int)(arg >> 8);
	long r;

	go_background(SIGTTOU, how);
	r = ttou_call(call);
	if (how == 3) {
		CHECK(r == -EINTR && caught == 1, "%s: %ld with %d SIGTTOU handled, expected -EINTR "
		      "after one", ttou_names[call], r, caught);
	} else if (how) {
		CHECK(r == 0, "%s with SIGTTOU %s returned %ld, expected it to go ahead",
		      ttou_names[call], how == 1 ? "ignored" : "blocked", r);
	} else {
		FAIL("a background %s returned %ld instead of stopping", ttou_names[call], r);
	}
}

static void set_tostop(int on)
{
	struct termios32 t;

	EXPECT_RET(sys_ioctl(0, TCGETS, (long)&t), 0);
	t.lflag = on ? t.lflag | TOSTOP : t.lflag & ~TOSTOP;
	EXPECT_RET(sys_ioctl(0, TCSETS, (long)&t), 0);
}

/* CALL from a background child stops it with SIGTTOU; continued while
 * still in the background it stops again (the call restarted); made the
 * foreground group and continued, the call completes and it exits 0.
 * The caller ignores SIGTTOU, as a shell does, to hand the terminal over
 * from the background. */
static void ttou_stops(int call)
{
	int st = 0, fg;
	pid_t c = fork();

	if (c == 0) {
		signal(SIGTTOU, SIG_DFL);
		sys_setpgid(0, 0);
		_exit(ttou_call(call) == 0 ? 0 : 10);
	}
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED, 0), c);
	CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTTOU, "%s: status %#x", ttou_names[call], st);
	EXPECT_RET(sys_kill(c, SIGCONT), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, WUNTRACED, 0), c);
	CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTTOU, "%s again: status %#x", ttou_names[call], st);
	fg = c;
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&fg), 0);
	EXPECT_RET(sys_kill(c, SIGCONT), 0);
	EXPECT_RET(sys_wait4(c, (long)&st, 0, 0), c);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s in the foreground: status %#x",
	      ttou_names[call], st);
	fg = getpid();
	EXPECT_RET(sys_ioctl(0, TIOCSPGRP, (long)&fg), 0);
}

/* In an orphaned background group (its parent has gone: init adopted it,
 * from another session) nobody would continue a stop: -EIO instead
 * (TIOCSPGRP: -ENOTTY), but an ignored SIGTTOU still lets the call go
 * ahead, and a read is -EIO as well.  Reports through FD (its exit status
 * goes to init): one byte once every check passed. */
static void orphan_checks(int fd)
{
	char c;

	EXPECT_RET(sys_setpgid(0, 0), 0);
	for (int tries = 0; sys_getppid() != 1 && tries < 1000; tries++)
		ut_sleep_ns(100000);
	CHECK(sys_getppid() == 1, "not adopted by init");
	for (int call = 0; call < TTOU_NR; call++)
		EXPECT_RET(ttou_call(call), call == TTOU_TIOCSPGRP ? -ENOTTY : -EIO);
	EXPECT_RET(sys_read(0, (long)&c, 1), -EIO);
	signal(SIGTTOU, SIG_IGN);
	for (int call = 0; call < TTOU_NR; call++)
		EXPECT_RET(ttou_call(call), 0);
	EXPECT_RET(sys_write(fd, (long)"k", 1), 1);
}

static void ttou_leader(uintptr_t arg)
{
	int p[2];
	char c = 0;

	(void)arg;
	EXPECT_RET(sys_setsid(), getpid());
	EXPECT_RET(sys_ioctl(0, TIOCSCTTY, 0), 0);
	set_tostop(1);
	for (int call = 0; call < TTOU_NR; call++)
		for (int how = 1; how <= 3; how++)
			CHECK(ut_run_child(bg_ttou, (uintptr_t)(how << 8 | call)) == 0,
			      "%s, SIGTTOU way %d: failed", ttou_names[call], how);
	signal(SIGTTOU, SIG_IGN);
	for (int call = 0; call < TTOU_NR; call++)
		ttou_stops(call);
	/* Without TOSTOP a background write goes ahead; changing the terminal
	 * still stops. */
	set_tostop(0);
	pid_t w = fork();
	if (w == 0) {
		signal(SIGTTOU, SIG_DFL);
		sys_setpgid(0, 0);
		_exit(sys_write(1, (long)"", 0) == 0 ? 0 : 10);
	}
	CHECK(ut_wait(w) == 0, "a background write without TOSTOP did not go ahead");
	for (int call = TTOU_TCSETS; call < TTOU_NR; call++)
		ttou_stops(call);
	signal(SIGTTOU, SIG_DFL);
	/* The orphaned group, in a grandchild. */
	set_tostop(1);
	EXPECT_RET(sys_pipe((long)p), 0);
	pid_t m = fork();
	if (m == 0) {
		if (fork() == 0) {
			sys_close(p[0]);
			orphan_checks(p[1]);
			_exit(0);
		}
		_exit(0);
	}
	CHECK(ut_wait(m) == 0, "the middle child failed");
	sys_close(p[1]);
	CHECK(sys_read(p[0], (long)&c, 1) == 1 && c == 'k', "the orphaned group's checks failed");
	set_tostop(0);
	EXPECT_RET(sys_ioctl(0, TIOCNOTTY, 0), 0);
}

/* Background writes under TOSTOP, and background changes of the terminal
 * whatever TOSTOP says, get SIGTTOU for their group. */
static void ttou_calls(void)
{
	CHECK(ut_run_child(ttou_leader, 0) == 0, "the session leader's checks failed");
}

const struct ut_test ut_job_tests[] = {
	{ ttin_calls, "sigttin" },
	{ ttou_calls, "sigttou" },
	{ stop_calls, "stop" },
	{ pgrp_calls, "pgrp" },
	{ session_calls, "session" },
	{ ldisc_calls, "ldisc" },
	{ NULL, NULL },
};
