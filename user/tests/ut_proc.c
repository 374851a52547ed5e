/*
 * user/tests/ut_proc.c - usertests: fork, exec, exit, wait4 (and its rusage),
 * ids, kill, nice, zombies and orphans (xv6 forktest/exitwait/reparent/killstatus/preempt/
 * bigargtest, Pintos exec-* and wait-*).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define SIGCHLD_NR	17

static void ids(void)
{
	pid_t me = getpid();

	CHECK(gettid() == me, "gettid %d != getpid %d in a one-thread process", gettid(), me);
	CHECK(getppid() == ut_parent, "getppid %d, expected the runner %d", getppid(), ut_parent);
	CHECK(me != ut_parent && me > 1, "odd pid %d", me);
	for (int i = 0; i < 20; i++) {
		long pid = sys_fork();
		CHECK(pid >= 0, "fork: %ld", pid);
		if (pid == 0)
			_exit(getppid() != me ? 0 : gettid() != getpid() ? 1 : getpid() & 0x7f);
		CHECK(pid != me, "fork returned the parent's own pid");
		int st = ut_wait(pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == (pid & 0x7f),
		      "child %ld reported status %#x (pid/ppid mismatch)", pid, st);
	}
}

static void forklimit(void)
{
	long n = 0, r;

	for (;;) {
		r = sys_fork();
		if (r == 0)
			_exit(0);	/* stays a zombie: still holds a task slot */
		if (r < 0)
			break;
		if (++n > 2 * TASK_MAX)
			FAIL("%ld forks and no failure", n);
	}
	CHECK(r == -EAGAIN || r == -ENOMEM, "fork failed with %ld, expected EAGAIN/ENOMEM", r);
	CHECK(n > TASK_MAX / 2 && n < TASK_MAX, "fork failed after %ld children", n);
	for (long i = 0; i < n; i++) {
		long w = sys_wait4(-1, 0, 0, 0);
		if (w <= 0)
			FAIL("wait %ld of %ld returned %ld", i + 1, n, w);
	}
	EXPECT_RET(sys_wait4(-1, 0, 0, 0), -ECHILD);	/* exactly n children */
	r = sys_fork();		/* and the table has room again */
	if (r == 0)
		_exit(0);
	CHECK(r > 0, "fork after reaping all failed: %ld", r);
	ut_wait(r);
}

/* Every process forks up to 4 children down to depth 4 (4^5 > TASK_MAX). */
static void bomb(int depth)
{
	for (int i = 0; i < 4; i++) {
		long r = sys_fork();
		if (r == 0) {
			if (depth < 4)
				bomb(depth + 1);
			_exit(0);
		}
		if (r < 0 && r != -EAGAIN && r != -ENOMEM)
			_exit(9);
		if (r < 0)
			break;
	}
	int st, bad = 0;
	while (sys_wait4(-1, (long)&st, 0, 0) > 0)
		bad |= st != 0;
	if (bad)
		_exit(9);
}

static void forkbomb(void)
{
	long r = sys_fork();

	if (r == 0) {
		bomb(0);
		_exit(0);
	}
	CHECK(r > 0, "fork: %ld", r);
	int st = ut_wait(r);
	CHECK(st == 0, "fork bomb ended with status %#x", st);
	/* The system is still usable. */
	r = sys_fork();
	if (r == 0)
		_exit(7);
	CHECK(r > 0 && WEXITSTATUS(ut_wait(r)) == 7, "fork after the bomb failed");
}

static void exitwait(void)
{
	long pids[60];

	for (int i = 0; i < 60; i++) {
		pids[i] = sys_fork();
		CHECK(pids[i] >= 0, "fork: %ld", pids[i]);
		if (pids[i] == 0)
			_exit(i);
	}
	for (int i = 59; i >= 0; i--) {	/* in reverse: wait4 by pid */
		int st = ut_wait(pids[i]);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == i, "child %d: status %#x", i, st);
	}
	EXPECT_RET(sys_wait4(-1, 0, 0, 0), -ECHILD);
}

static void exitcodes(void)
{
	static const struct { int code, want; } c[] = {
		{ 0, 0 }, { 1, 1 }, { 42, 42 }, { 255, 255 }, { 256, 0 }, { 257, 1 }, { -1, 255 },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		long pid = sys_fork();
		if (pid == 0)
			_exit(c[i].code);
		int st = ut_wait(pid);
		CHECK(WIFEXITED(st) && !WIFSIGNALED(st) && WEXITSTATUS(st) == c[i].want && (st & 0xff) == 0,
		      "_exit(%d) gave status %#x, expected %#x", c[i].code, st, c[i].want << 8);
	}
	long pid = sys_fork();
	if (pid == 0)
		for (;;)
			sys_exit(5);	/* exit (one thread), not exit_group */
	CHECK(ut_wait(pid) == 5 << 8, "sys_exit(5): wrong status");
}

static void spin(void)
{
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

static void killstatus(void)
{
	long pids[3];

	/* xv6 preempt: spinning children must not starve us, and die when killed. */
	for (int i = 0; i < 3; i++) {
		pids[i] = sys_fork();
		CHECK(pids[i] >= 0, "fork: %ld", pids[i]);
		if (pids[i] == 0)
			spin();
	}
	ut_sleep_ns(3000000);
	EXPECT_RET(sys_kill(pids[0], SIGKILL), 0);
	EXPECT_RET(sys_kill(pids[1], SIGTERM), 0);
	EXPECT_RET(sys_kill(pids[2], SIGSEGV), 0);
	CHECK(WTERMSIG(ut_wait(pids[0])) == SIGKILL, "spinner not killed by SIGKILL");
	CHECK(WTERMSIG(ut_wait(pids[1])) == SIGTERM, "spinner not killed by SIGTERM");
	CHECK(WTERMSIG(ut_wait(pids[2])) == SIGSEGV, "spinner not killed by SIGSEGV");

	/* A sleeper wakes up to die. */
	long pid = sys_fork();
	if (pid == 0) {
		ut_sleep_ns(10LL * 1000000000LL);
		_exit(0);
	}
	ut_sleep_ns(1000000);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	CHECK(WTERMSIG(ut_wait(pid)) == SIGKILL, "sleeper not killed by SIGKILL");

	/* kill(pid, 0) probes; bad pids and signals are refused. */
	EXPECT_RET(sys_kill(getpid(), 0), 0);
	EXPECT_RET(sys_kill(30000, SIGKILL), -ESRCH);
	EXPECT_RET(sys_kill(pid, SIGKILL), -ESRCH);	/* reaped */
	EXPECT_RET(sys_kill(getpid(), 65), -EINVAL);
	EXPECT_RET(sys_kill(getpid(), -1), -EINVAL);
}

static void waitnohang(void)
{
	EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);
	EXPECT_RET(sys_wait4(-1, 0, 0, 0), -ECHILD);
	EXPECT_RET(sys_wait4(1, 0, 0, 0), -ECHILD);		/* init is not our child */
	EXPECT_RET(sys_wait4(getpid(), 0, 0, 0), -ECHILD);
	EXPECT_RET(sys_wait4(30000, 0, 0, 0), -ECHILD);

	long pid = sys_fork();
	if (pid == 0) {
		ut_sleep_ns(5000000);
		_exit(3);
	}
	int st = -1;
	EXPECT_RET(sys_wait4(pid, (long)&st, WNOHANG, 0), 0);
	CHECK(st == -1, "WNOHANG with nothing to report wrote status %#x", st);
	EXPECT_RET(sys_wait4(-1, 0, 0x40000000, 0), -EINVAL);	/* unknown option */
	EXPECT_RET(sys_wait4(pid + 1000, 0, WNOHANG, 0), -ECHILD);	/* not a child */
	st = ut_wait(pid);
	CHECK(WEXITSTATUS(st) == 3, "status %#x", st);
	EXPECT_RET(sys_wait4(pid, 0, WNOHANG, 0), -ECHILD);
}

static void zombies(void)
{
	enum { N = 64 };
	long pids[N];
	int seen[N] = { 0 };

	for (int i = 0; i < N; i++) {
		pids[i] = sys_fork();
		CHECK(pids[i] >= 0, "fork: %ld", pids[i]);
		if (pids[i] == 0)
			_exit(i);
	}
	ut_sleep_ns(2000000);	/* all of them are zombies by now */
	for (int n = 0; n < N; n++) {
		int st;
		long w = sys_wait4(-1, (long)&st, WNOHANG, 0);
		CHECK(w > 0, "zombie %d of %d: WNOHANG wait4 returned %ld", n + 1, N, w);
		int i = WEXITSTATUS(st);
		CHECK(i < N && pids[i] == w && !seen[i], "wait4 returned pid %ld with status %#x", w, st);
		seen[i] = 1;
	}
	EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);
}

/*
 * Orphans: a middle process forks grandchildren - some exit at once
 * (zombies when the middle exits), some live on - and exits.  Every
 * grandchild must end up a child of init (pid 1), which reaps them: the
 * free frame count comes back.  A grandchild that sees a wrong parent
 * kills this test process with SIGUSR1 (its default action terminates).
 */
static void orphans(void)
{
	enum { N = 24 };
	pid_t tester = getpid();

	for (int round = 0; round < 3; round++) {
		long f0 = ut_frames();
		long mid = sys_fork();
		CHECK(mid >= 0, "fork: %ld", mid);
		if (mid == 0) {
			pid_t me = getpid();
			for (int i = 0; i < N; i++) {
				long r = sys_fork();
				if (r == 0) {
					if (i % 2 == 0)
						_exit(0);	/* zombie of the middle */
					for (int t = 0; t < 200 && getppid() == me; t++)
						ut_sleep_ns(500000);
					if (getppid() != 1)
						sys_kill(tester, SIGUSR1);
					_exit(0);
				}
				if (r < 0)
					_exit(2);
			}
			ut_sleep_ns(1000000);	/* let the even ones die first */
			_exit(0);
		}
		CHECK(ut_wait(mid) == 0, "middle process failed");
		EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);	/* not ours */
		if (f0 >= 0) {
			long f1 = ut_frames_settle(f0, 500);
			CHECK(f1 == f0, "round %d: orphans not reaped by init (%ld frames short)", round, f0 - f1);
		} else {
			ut_sleep_ns(200000000);
		}
	}
}

static void nice(void)
{
	errno = 0;
	CHECK(getpriority(PRIO_PROCESS, 0) == 0 && errno == 0, "initial nice %d", getpriority(PRIO_PROCESS, 0));
	static const struct { int set, want; } v[] = {
		{ 5, 5 }, { 19, 19 }, { -20, -20 }, { 0, 0 }, { 100, 19 }, { -100, -20 }, { 20, 19 }, { -21, -20 },
	};
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, v[i].set), 0);
		long raw = sys_getpriority(PRIO_PROCESS, 0);
		CHECK(raw == 20 - v[i].want, "nice %d: raw getpriority %ld, expected %d", v[i].set, raw,
		      20 - v[i].want);
		CHECK(getpriority(PRIO_PROCESS, getpid()) == v[i].want, "nice %d: getpriority by pid", v[i].set);
	}
	EXPECT_RET(sys_setpriority(7, 0, 0), -EINVAL);
	EXPECT_RET(sys_getpriority(7, 0), -EINVAL);
	EXPECT_RET(sys_setpriority(-1, 0, 0), -EINVAL);
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 30000, 0), -ESRCH);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, 30000), -ESRCH);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, -5), -ESRCH);

	/* Inherited by fork; settable on another process by pid. */
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, 7), 0);
	long pid = sys_fork();
	if (pid == 0) {
		if (getpriority(PRIO_PROCESS, 0) != 7)
			_exit(1);
		for (int t = 0; t < 100 && getpriority(PRIO_PROCESS, 0) != 3; t++)
			ut_sleep_ns(200000);
		_exit(getpriority(PRIO_PROCESS, 0) == 3 ? 0 : 2);
	}
	ut_sleep_ns(2000000);	/* the child checks the inherited value first */
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, pid, 3), 0);
	CHECK(getpriority(PRIO_PROCESS, pid) == 3, "getpriority(child) %d", getpriority(PRIO_PROCESS, pid));
	int st = ut_wait(pid);
	CHECK(st == 0, "child nice: status %#x (1: not inherited, 2: not set by pid)", st);
	EXPECT_RET(sys_getpriority(PRIO_PROCESS, pid), -ESRCH);	/* reaped */
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, 0), 0);
}

/* --- exec --- */

static long exec_status(const char *path, char *const argv[], char *const envp[])
{
	long pid = sys_fork();

	if (pid == 0) {
		long r = sys_execve((long)path, (long)argv, (long)envp);
		_exit(r == -ENOENT ? 120 : r == -ENOEXEC ? 121 : r == -E2BIG ? 122 : 123);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	return ut_wait(pid);
}

static char *const noenv[] = { NULL };

static void exec_ok(void)
{
	char *argv[] = { "usertests", "--exit", "42", NULL };
	char *envp[] = { "A=1", "B=2", NULL };
	long f0 = ut_frames();

	CHECK(exec_status("usertests", argv, envp) == 42 << 8, "exec usertests --exit 42");
	CHECK(exec_status("/bin/usertests", argv, noenv) == 42 << 8, "exec /bin/usertests");
	CHECK(exec_status("/bin/./usertests", argv, NULL) == 42 << 8, "exec /bin/./usertests (envp NULL)");
	long f1 = ut_frames_settle(f0, 5);
	CHECK(f1 == f0, "fork+exec+exit changed the free frames by %ld", f1 - f0);
}

static void exec_noargs(void)
{
	char *const empty[] = { NULL };
	long st;

	st = exec_status("usertests", empty, empty);
	CHECK(st == 77 << 8, "exec with argv = { NULL }: status %#lx, expected exit 77", st);
	st = exec_status("usertests", NULL, NULL);
	CHECK(st == 77 << 8, "exec with argv = NULL: status %#lx, expected exit 77", st);
}

/* Build "usertests --args N LEN" + N strings of LEN bytes in BUF. */
static void big_argv(char **argv, char *buf, int n, int len, char *nbuf, char *lbuf)
{
	snprintf(nbuf, 12, "%d", n);
	snprintf(lbuf, 12, "%d", len);
	argv[0] = "usertests";
	argv[1] = "--args";
	argv[2] = nbuf;
	argv[3] = lbuf;
	for (int i = 0; i < n; i++) {
		char *s = buf + i * (len + 1);
		memset(s, 'a' + i % 26, len);
		s[len] = 0;
		argv[4 + i] = s;
	}
	argv[4 + n] = NULL;
}

static char argbuf[64 * 1024];
static char *bigv[400];

static void exec_bigarg(void)
{
	char nb[12], lb[12];

	big_argv(bigv, argbuf, 24, 1000, nb, lb);		/* 24 KB: more than a page */
	CHECK(exec_status("usertests", bigv, noenv) == 0, "exec with 24 KB of arguments");
	big_argv(bigv, argbuf, 200, 3, nb, lb);			/* many small ones */
	CHECK(exec_status("usertests", bigv, noenv) == 0, "exec with 204 arguments");
}

static void exec_e2big(void)
{
	char nb[12], lb[12];

	big_argv(bigv, argbuf, 40, 1000, nb, lb);		/* 40 KB > ARG_MAX (32 KiB) */
	CHECK(exec_status("usertests", bigv, noenv) == 122 << 8, "40 KB of arguments not E2BIG");
	big_argv(bigv, argbuf, 1, 40000, nb, lb);		/* one 40 KB string */
	CHECK(exec_status("usertests", bigv, noenv) == 122 << 8, "a 40 KB argument not E2BIG");
	big_argv(bigv, argbuf, 390, 1, nb, lb);			/* too many entries */
	CHECK(exec_status("usertests", bigv, noenv) == 122 << 8, "394 arguments not E2BIG");
	/* ... and the same in envp. */
	big_argv(bigv, argbuf, 40, 1000, nb, lb);
	char *argv[] = { "usertests", "--exit", "0", NULL };
	CHECK(exec_status("usertests", argv, bigv) == 122 << 8, "40 KB of environment not E2BIG");
	/* The caller survives every failure. */
	EXPECT_RET(sys_execve((long)"usertests", (long)bigv, (long)noenv), -E2BIG);
}

static void exec_enoent(void)
{
	char *argv[] = { "x", NULL };
	static const char *const paths[] = { "nosuchprogram", "", "usertests/", "usertest", "usertestsx",
					     "/usertests", "/bin/nosuch", "/bin/nosuch/../usertests" };
	char longpath[300];

	for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		long r = sys_execve((long)paths[i], (long)argv, (long)noenv);
		if (r != -ENOENT)
			FAIL("execve(\"%s\") returned %ld, expected ENOENT", paths[i], r);
	}
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = 0;
	EXPECT_RET(sys_execve((long)longpath, (long)argv, (long)noenv), -ENAMETOOLONG);
}

/* Paths through the initrd's tree: "/bin" is a directory, "." and ".."
 * and repeated slashes work as on Linux, links are followed. */
static void exec_paths(void)
{
	char *argv[] = { "usertests", "--exit", "9", NULL };
	static const char *const ok[] = { "/bin/usertests", "bin/usertests", "/bin/./usertests",
					  "/bin/../bin/usertests", "//bin//usertests", "/../bin/usertests",
					  "/bin/ut-link" };
	static const char *const dirs[] = { "/", "/bin", "/bin/", "/bin/..", "." };
	static const char *const notdir[] = { "/bin/usertests/", "/bin/usertests/x", "/bin/usertests/.." };

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK(exec_status(ok[i], argv, noenv) == 9 << 8, "execve(\"%s\") did not run usertests", ok[i]);
	for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		EXPECT_RET(sys_execve((long)dirs[i], (long)argv, (long)noenv), -EACCES);
	for (unsigned i = 0; i < sizeof(notdir) / sizeof(notdir[0]); i++)
		EXPECT_RET(sys_execve((long)notdir[i], (long)argv, (long)noenv), -ENOTDIR);
	EXPECT_RET(sys_execve((long)"/bin/ut-loop", (long)argv, (long)noenv), -ELOOP);
	EXPECT_RET(sys_execve((long)"/bin/ut-dangling", (long)argv, (long)noenv), -ENOENT);
}

static void exec_enoexec(void)
{
	char *argv[] = { "notelf", NULL };

	EXPECT_RET(sys_execve((long)"notelf", (long)argv, (long)noenv), -ENOEXEC);
	CHECK(exec_status("notelf", argv, noenv) == 121 << 8, "exec of a non-ELF file");
	/* Still ourselves: the old image survived the failed exec. */
	CHECK(getppid() == ut_parent, "lost our identity");
}

static void sleeptime(void)
{
	struct timespec a, b, req = { 0, 2000000 };

	EXPECT_RET(sys_clock_gettime(CLOCK_MONOTONIC, (long)&a), 0);
	EXPECT_RET(sys_nanosleep((long)&req, 0), 0);
	EXPECT_RET(sys_clock_gettime(CLOCK_MONOTONIC, (long)&b), 0);
	long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	CHECK(ns >= 2000000 && ns < 50000000, "nanosleep(2 ms) took %lld ns", ns);
	req.tv_nsec = 1000000000;
	EXPECT_RET(sys_nanosleep((long)&req, 0), -EINVAL);
	req.tv_nsec = -1;
	EXPECT_RET(sys_nanosleep((long)&req, 0), -EINVAL);
	EXPECT_RET(sys_clock_gettime(12345, (long)&a), -EINVAL);
}

/* --- clone without CLONE_THREAD: a process sharing our memory or signal state --- */

static char clone_stack[16384] __attribute__((aligned(16)));

static void exit_group_5(void)
{
	sys_exit_group(5);
}

/*
 * THEN_EXEC: after a CLONE_SIGHAND|CLONE_VM sibling process (no
 * CLONE_THREAD) ended with exit_group(5), exec "usertests --exit 42";
 * else exit_group(7).  The sibling's group exit is its own process's: it
 * must neither make our exec fail (-EAGAIN: 93) nor give us its status.
 */
static void sighand_sibling(uintptr_t then_exec)
{
	char *argv[] = { "usertests", "--exit", "42", NULL };
	int st = 0;
	long pid = ut_clone(CLONE_VM | CLONE_SIGHAND | SIGCHLD_NR, clone_stack, sizeof(clone_stack),
			    0, 0, exit_group_5);

	if (pid < 0)
		_exit(90);
	if (sys_wait4(pid, (long)&st, 0, 0) != pid)
		_exit(91);
	if (st != 5 << 8)
		_exit(92);
	if (then_exec) {
		long r = sys_execve((long)"usertests", (long)argv, (long)noenv);
		_exit(r == -EAGAIN ? 93 : 94);
	}
	sys_exit_group(7);
}

static void sighand_exit_group(void)
{
	int st = ut_run_child(sighand_sibling, 1);
	CHECK(st == 42 << 8, "exec after a CLONE_SIGHAND sibling's exit_group(5): status %#x "
	      "(42 << 8 expected; 90-92: sibling clone/wait/status, 93: exec -EAGAIN, 94: other error)",
	      st);
	st = ut_run_child(sighand_sibling, 0);
	CHECK(st == 7 << 8, "exit_group(7) after a CLONE_SIGHAND sibling's exit_group(5): status %#x "
	      "(7 << 8 expected; 90-92: sibling clone/wait/status)", st);
}

static volatile int vm_tid;
static volatile int watchdog;

static void on_watchdog(int sig)
{
	watchdog = 1;
}

static void exec_sleeper(void)
{
	char *argv[] = { "usertests", "--sleep", "50", "43", NULL };

	sys_execve((long)"usertests", (long)argv, (long)noenv);
	sys_exit_group(100);
}

/*
 * A CLONE_VM|CLONE_CHILD_CLEARTID child that is not a thread execs: its
 * old address space (ours) lives on, so the exec clears its tid word and
 * wakes the word's futex waiters (Linux's mm_release), while the new image
 * still runs.  A 2 s POSIX timer ends a wait that nothing would end.
 */
static void vm_cleartid_exec(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec its = { { 0, 0 }, { 2, 0 } };
	int id, v;

	signal(SIGALRM, on_watchdog);
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), 0);
	EXPECT_RET(sys_timer_settime(id, 0, (long)&its, 0), 0);
	vm_tid = -1;
	long pid = ut_clone(CLONE_VM | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID | SIGCHLD_NR,
			    clone_stack, sizeof(clone_stack), &vm_tid, &vm_tid, exec_sleeper);
	CHECK(pid > 0, "clone: %ld", pid);
	while ((v = vm_tid) != 0) {
		CHECK(v == pid, "tid word %d, child %ld", v, pid);
		long r = sys_futex((long)&vm_tid, FUTEX_WAIT, v, 0, 0, 0);
		CHECK(!watchdog, "tid word still %d after 2 s: the child's exec did not clear it", vm_tid);
		CHECK(r == 0 || r == -EAGAIN, "FUTEX_WAIT on the tid word returned %ld", r);
	}
	EXPECT_RET(sys_wait4(pid, 0, WNOHANG, 0), 0);	/* cleared by the exec, not an exit */
	int st = ut_wait(pid);
	CHECK(st == 43 << 8, "exec'ed child: status %#x (43 << 8 expected, 100: exec failed)", st);
	EXPECT_RET(sys_timer_delete(id), 0);
}

/* --- wait4's rusage --- */

/* Burn NS of this process's CPU time, then exit with CODE. */
static void burn_and_exit(long long ns, int code)
{
	long long end = ut_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) + ns;

	while (ut_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) < end)
		;
	_exit(code);
}

static long long ru_us(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000LL +
	       ru->ru_utime.tv_usec + ru->ru_stime.tv_usec;
}

static void wait_rusage(void)
{
	struct rusage ru, kids;
	int st;
	long pid;

	/* A child that burns 20 ms of CPU. */
	pid = sys_fork();
	if (pid == 0)
		burn_and_exit(20000000, 5);
	CHECK(pid > 0, "fork: %ld", pid);
	memset(&ru, 0xff, sizeof(ru));
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, (long)&ru), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 5, "status %#x", st);
	long long us = ru_us(&ru);
	CHECK(us >= 15000 && us < 1000000, "20 ms child: rusage %lld us", us);
	CHECK(ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000 &&
	      ru.ru_stime.tv_usec >= 0 && ru.ru_stime.tv_usec < 1000000, "tv_usec out of range");
	CHECK(ru.ru_maxrss != -1 && ru.ru_nivcsw != -1, "rusage not filled entirely");
	/* ... and added to our RUSAGE_CHILDREN. */
	CHECK(getrusage(RUSAGE_CHILDREN, &kids) == 0 && ru_us(&kids) >= us, "RUSAGE_CHILDREN %lld us < %lld",
	      ru_us(&kids), us);
	CHECK(getrusage(7, &kids) == -1 && errno == EINVAL, "getrusage(7) did not fail with EINVAL");

	/* A child whose reaped grandchild burnt the time (Linux: RUSAGE_BOTH). */
	pid = sys_fork();
	if (pid == 0) {
		long g = sys_fork();
		if (g == 0)
			burn_and_exit(20000000, 0);
		_exit(sys_wait4(g, 0, 0, 0) == g ? 6 : 7);
	}
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, (long)&ru), pid);
	CHECK(WEXITSTATUS(st) == 6, "middle child: status %#x", st);
	us = ru_us(&ru);
	CHECK(us >= 15000 && us < 1000000, "child with a 20 ms grandchild: rusage %lld us", us);

	/* A bad rusage pointer: -EFAULT, and the child is reaped all the same. */
	pid = sys_fork();
	if (pid == 0)
		_exit(8);
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, 1), -EFAULT);
	EXPECT_RET(sys_wait4(pid, 0, WNOHANG, 0), -ECHILD);
	pid = sys_fork();
	if (pid == 0)
		_exit(8);
	EXPECT_RET(sys_wait4(pid, 0, 0, 0xc0000000), -EFAULT);	/* kernel memory */

	/* NULL rusage. */
	pid = sys_fork();
	if (pid == 0)
		_exit(9);
	st = 0;
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, 0), pid);
	CHECK(WEXITSTATUS(st) == 9, "status %#x", st);
	EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);
}

const struct ut_test ut_proc_tests[] = {
	{ ids, "ids" },
	{ exitwait, "exitwait" },
	{ exitcodes, "exitcodes" },
	{ waitnohang, "waitnohang" },
	{ killstatus, "killstatus" },
	{ zombies, "zombies" },
	{ orphans, "orphans" },
	{ forklimit, "forklimit" },
	{ forkbomb, "forkbomb" },
	{ nice, "nice" },
	{ exec_ok, "exec_ok" },
	{ exec_noargs, "exec_noargs" },
	{ exec_bigarg, "exec_bigarg" },
	{ exec_e2big, "exec_e2big" },
	{ exec_enoent, "exec_enoent" },
	{ exec_enoexec, "exec_enoexec" },
	{ exec_paths, "exec_paths" },
	{ sleeptime, "sleeptime" },
	{ wait_rusage, "wait_rusage" },
	{ sighand_exit_group, "sighand_exit_group" },
	{ vm_cleartid_exec, "vm_cleartid_exec" },
	{ NULL, NULL },
};
