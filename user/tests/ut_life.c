/*
 * user/tests/ut_life.c - usertests: lifetimes that a hostile program can
 * try to abuse.  init cannot be killed (SIGNAL_UNKILLABLE), not even as the
 * new parent of an orphan whose exit signal is SIGKILL; a process's POSIX
 * timers die with its last thread, even when another process shares its
 * signal state; the children of a thread group belong to the group (fork
 * after the leader exited); kill() reaches a process whose leader exited;
 * clone() refuses an exit signal that is not a signal and honours
 * CLONE_CHILD_SETTID without CLONE_VM.  Most end with an exact free frame
 * count: a task struct left behind is a leak of its kernel stack.
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define SIGCHLD_NR	17
#define SIGKILL_NR	9
#define POSIX_TIMER_MAX	64	/* the kernel's per-process limit */

static const unsigned long thread_flags = CLONE_VM | CLONE_SIGHAND | CLONE_THREAD;
static char stack_a[16384] __attribute__((aligned(16)));

/* The free frame count must come back to F0 (orphans are init's to reap). */
static void frames_back(long f0, const char *what)
{
	if (f0 < 0)
		return;
	long f1 = ut_frames_settle(f0, 50);
	CHECK(f1 == f0, "%s: %ld free frames lost", what, f0 - f1);
}

/* --- init --- */

/*
 * kill(1, SIG) for signals init has no handler for: 0 (it exists) and
 * nothing happens - before, SIGKILL or SIGTERM ended init and the kernel
 * panicked "Attempted to kill init!".  (SIGTERM, SIGUSR1 and SIGUSR2 are
 * init's reboot, halt and power-off requests, as busybox init's: not here.)
 */
static void kill_init(void)
{
	static const int sigs[] = { SIGKILL, SIGQUIT, SIGINT, SIGHUP, SIGALRM, SIGSEGV, 34, 64, 0 };

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		EXPECT_RET(sys_kill(1, sigs[i]), 0);
		ut_sleep_ns(200000);	/* init runs, and would die here */
	}
	EXPECT_RET(sys_tgkill(1, 1, SIGKILL), 0);
	EXPECT_RET(sys_tgkill(1, 1, SIGQUIT), 0);
	ut_sleep_ns(1000000);
	EXPECT_RET(sys_kill(1, 0), 0);
	EXPECT_RET(sys_kill(1, 65), -EINVAL);
}

static void sleep_then_exit(void)
{
	ut_sleep_ns(3000000);
	sys_exit_group(0);
}

/*
 * A process whose children chose SIGKILL as their exit signal (clone's low
 * byte) exits: one child is already a zombie, one still runs.  Both pass to
 * init, which must get SIGCHLD for them (Linux's reparent_leader), not
 * SIGKILL - before, the orphan's exit killed init.
 */
static void orphan_parent(uintptr_t unused)
{
	long runner = sys_clone(SIGKILL_NR, 0, 0, 0, 0);
	if (runner == 0)
		sleep_then_exit();
	long zombie = sys_clone(SIGKILL_NR, 0, 0, 0, 0);
	if (zombie == 0)
		sys_exit_group(0);
	if (zombie < 0 || runner < 0)
		sys_exit_group(2);
	ut_sleep_ns(2000000);	/* the second child's exit signal kills us in here */
	sys_exit_group(3);
}

static void orphan_exit_signal(void)
{
	long f0 = ut_frames();

	for (int i = 0; i < 3; i++) {
		int st = ut_run_child(orphan_parent, 0);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		      "parent of the SIGKILL-exit-signal children: status %#x (SIGKILL, its "
		      "child's exit signal, expected; 2: clone, 3: not delivered)", st);
	}
	ut_sleep_ns(5000000);	/* the running orphans have exited too */
	EXPECT_RET(sys_kill(1, 0), 0);
	frames_back(f0, "orphans with exit signal SIGKILL");
}

/* --- POSIX timers die with their process --- */

static volatile int usr1_count;
static volatile long sib_ret;
static volatile int sib_ids[POSIX_TIMER_MAX];

static void on_usr1(int sig)
{
	usr1_count++;
}

/*
 * The sibling (CLONE_VM|CLONE_SIGHAND, its own process): fills the timer
 * limit of the signal state it shares with us, arms the first timer every
 * 100 us, takes a few expiries, and exits with the timers still armed.
 */
static void timer_sibling(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { { 0, 100000 }, { 0, 100000 } };
	int id;

	for (int i = 0; i < POSIX_TIMER_MAX; i++) {
		long r = sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id);
		if (r) {
			sib_ret = r;
			sys_exit(3);
		}
		sib_ids[i] = id;
	}
	sib_ret = sys_timer_settime(sib_ids[0], 0, (long)&its, 0);
	while (usr1_count < 5)
		ut_sleep_ns(100000);
	sys_exit(0);
}

static void innocent(uintptr_t unused)
{
	signal(SIGUSR1, SIG_DFL);	/* a stray SIGUSR1 would kill it */
	ut_sleep_ns(2000000);
}

static void timer_sighand_run(uintptr_t unused)
{
	struct sigevent ev = { .sigev_notify = SIGEV_NONE };
	int id;

	signal(SIGUSR1, on_usr1);
	long pid = ut_clone(CLONE_VM | CLONE_SIGHAND | SIGCHLD_NR, stack_a, sizeof(stack_a), 0, 0,
			    timer_sibling);
	CHECK(pid > 0, "clone: %ld", pid);
	int st = ut_wait(pid);
	CHECK(st == 0 && sib_ret == 0, "timer sibling: status %#x, last call %ld", st, sib_ret);
	CHECK(usr1_count >= 5, "the sibling saw %d expiries", usr1_count);

	/* Its timers went with it: no signal comes any more ... */
	usr1_count = 0;
	ut_sleep_ns(2000000);
	CHECK(usr1_count == 0, "%d SIGUSR1 from a dead process's timer", usr1_count);
	for (int i = 0; i < POSIX_TIMER_MAX; i++)
		EXPECT_RET(sys_timer_gettime(sib_ids[i], (long)&(struct itimerspec){ 0 }), -EINVAL);
	/* ... processes made since (maybe where the sibling's task was) get none ... */
	for (int i = 0; i < 4; i++) {
		st = ut_run_child(innocent, 0);
		CHECK(st == 0, "a new process: status %#x (a dead timer's signal?)", st);
	}
	/* ... and the shared state's timer slots are free again. */
	for (int i = 0; i < POSIX_TIMER_MAX; i++)
		EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&sib_ids[i]), 0);
	EXPECT_RET(sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id), -EAGAIN);
	for (int i = 0; i < POSIX_TIMER_MAX; i++)
		EXPECT_RET(sys_timer_delete(sib_ids[i]), 0);
	CHECK(usr1_count == 0, "%d SIGUSR1 from a dead process's timer", usr1_count);
}

static void timer_exit_sighand(void)
{
	long f0 = ut_frames();
	int st = ut_run_child(timer_sighand_run, 0);

	CHECK(st == 0, "status %#x", st);
	frames_back(f0, "timer sibling");
}

/* A thread's SIGEV_THREAD_ID timer outlives the thread, not the process:
 * its expiries are lost, nobody else gets them. */
static volatile int go_word;

static void short_thread(void)
{
	while (!go_word)
		sys_futex((long)&go_word, FUTEX_WAIT, 0, 0, 0, 0);
	sys_exit(0);
}

static void timer_thread_gone(uintptr_t unused)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { { 0, 100000 }, { 0, 100000 } };
	volatile int ctid = -1;
	int id;

	signal(SIGUSR1, on_usr1);
	long tid = ut_clone(thread_flags | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID, stack_a,
			    sizeof(stack_a), &ctid, &ctid, short_thread);
	if (tid <= 0)
		sys_exit_group(2);
	ev.sigev_notify_thread_id = (int)tid;
	if (sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id) ||
	    sys_timer_settime(id, 0, (long)&its, 0))
		sys_exit_group(3);
	go_word = 1;
	sys_futex((long)&go_word, FUTEX_WAKE, 1, 0, 0, 0);
	while (ctid != 0)
		sys_futex((long)&ctid, FUTEX_WAIT, ctid, 0, 0, 0);
	usr1_count = 0;
	ut_sleep_ns(1000000);
	sys_exit_group(usr1_count == 0 ? 0 : 4);
}

static void timer_exit_thread(void)
{
	long f0 = ut_frames();
	int st = ut_run_child(timer_thread_gone, 0);

	CHECK(st == 0, "status %#x (2, 3: setup, 4: another thread got the dead thread's SIGUSR1)", st);
	frames_back(f0, "thread timer");
}

/* --- the children of a thread group --- */

/*
 * The last thread of a process whose leader has exited: forks a child and
 * waits for it (the child's parent is the process, so getppid() is the
 * process's pid), then forks one more that outlives the process (init must
 * inherit it) and ends the process with exit_group(7), or 20 + the number
 * of the first failed check.
 */
static void orphaning_thread(void)
{
	int st = 0;

	ut_sleep_ns(1000000);	/* the leader has exited by now */
	long parent = sys_getpid();
	long c = sys_fork();
	if (c == 0)
		sys_exit_group(sys_getppid() == parent ? 5 : 6);
	if (c <= 0)
		sys_exit_group(21);
	if (sys_wait4(c, (long)&st, 0, 0) != c)
		sys_exit_group(22);
	if (st != 5 << 8)
		sys_exit_group(st == 6 << 8 ? 23 : 24);
	c = sys_fork();
	if (c == 0) {
		ut_sleep_ns(2000000);
		sys_exit_group(0);
	}
	if (c <= 0)
		sys_exit_group(25);
	if (sys_wait4(-1, 0, WNOHANG, 0) != 0)	/* the second one still runs */
		sys_exit_group(26);
	sys_exit_group(7);
}

static void leader_exits_first(uintptr_t unused)
{
	if (ut_clone(thread_flags, stack_a, sizeof(stack_a), 0, 0, orphaning_thread) < 0)
		sys_exit_group(2);
	sys_exit(0);		/* the leader alone */
}

static void fork_after_leader_exit(void)
{
	long f0 = ut_frames();

	for (int i = 0; i < 3; i++) {
		int st = ut_run_child(leader_exits_first, 0);
		CHECK(st == 7 << 8, "process status %#x (7 << 8 expected; 2: clone, 21/25: fork, "
		      "22: wait4, 23: child's getppid not the process, 24: child status, "
		      "26: wait4 WNOHANG)", st);
	}
	ut_sleep_ns(3000000);	/* the orphans have exited, init reaps them */
	frames_back(f0, "children of a process whose leader exited");
}

/* --- kill() of a process whose leader has exited --- */

static void sleep_forever(void)
{
	for (;;)
		ut_sleep_ns(1000000000);
}

static void kill_leaderless(void)
{
	static const int sigs[] = { SIGKILL, SIGTERM };
	long f0 = ut_frames();

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		long pid = sys_fork();
		if (pid == 0) {
			if (ut_clone(thread_flags, stack_a, sizeof(stack_a), 0, 0, sleep_forever) < 0)
				sys_exit_group(2);
			sys_exit(0);	/* the leader alone: the thread lives on */
		}
		CHECK(pid > 0, "fork: %ld", pid);
		ut_sleep_ns(2000000);
		EXPECT_RET(sys_wait4(pid, 0, WNOHANG, 0), 0);	/* alive, in its thread */
		EXPECT_RET(sys_kill(pid, 0), 0);
		EXPECT_RET(sys_kill(pid, sigs[i]), 0);
		int st = ut_wait(pid);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "status %#x, signal %d expected", st,
		      sigs[i]);
	}
	frames_back(f0, "process killed after its leader exited");
}

/*
 * kill() of the tid of a thread that has exited, its process reaped (the
 * thread's task lingers until the kernel frees it): -ESRCH, not a signal
 * sent through the freed leader.  The leader reports the tid's low byte
 * as its exit code; the thread exits last, so the wait4 returns right
 * after it.
 */
static void last_thread(void)
{
	ut_sleep_ns(1000000);
	sys_exit(0);
}

static void kill_exited_thread(void)
{
	long f0 = ut_frames();
	long pid = sys_fork();

	if (pid == 0) {
		long tid = ut_clone(thread_flags, stack_a, sizeof(stack_a), 0, 0, last_thread);
		sys_exit(tid > 0 ? tid & 0xff : 0);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	int st = ut_wait(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) != (pid & 0xff), "clone failed (status %#x)", st);
	long tid = pid + ((WEXITSTATUS(st) - pid) & 0xff);
	EXPECT_RET(sys_kill(tid, SIGKILL), -ESRCH);
	EXPECT_RET(sys_kill(tid, 0), -ESRCH);
	EXPECT_RET(sys_kill(pid, SIGKILL), -ESRCH);
	EXPECT_RET(sys_tgkill(pid, tid, SIGKILL), -ESRCH);
	frames_back(f0, "exited thread");
}

/*
 * A thread whose leader has exited forks a child, then execs: the process's
 * child passes to it as it becomes the leader, and the new image waits for
 * the child ("usertests --waitchild 33": exit 42 if it gets status 33).
 */
static void exec_orphaning_thread(void)
{
	char *argv[] = { "usertests", "--waitchild", "33", NULL };
	char *envp[] = { NULL };

	ut_sleep_ns(1000000);	/* the leader has exited by now */
	long c = sys_fork();
	if (c == 0) {
		ut_sleep_ns(2000000);
		sys_exit_group(33);
	}
	if (c < 0)
		sys_exit_group(2);
	sys_execve((long)"usertests", (long)argv, (long)envp);
	sys_exit_group(3);
}

static void exec_after_leader_exit_run(uintptr_t unused)
{
	if (ut_clone(thread_flags, stack_a, sizeof(stack_a), 0, 0, exec_orphaning_thread) < 0)
		sys_exit_group(2);
	sys_exit(0);
}

static void exec_after_leader_exit(void)
{
	long f0 = ut_frames();
	int st = ut_run_child(exec_after_leader_exit_run, 0);

	CHECK(st == 42 << 8, "status %#x (42 << 8 expected; 2: clone/fork, 3: exec failed, "
	      "43: the new image had no child, 44: wrong child status, 45: a second child)", st);
	frames_back(f0, "exec after the leader exited");
}

/* --- clone's exit signal and CLONE_CHILD_SETTID --- */

static volatile int sig64_seen;

static void on_sig64(int sig)
{
	sig64_seen = sig;
}

static void clone_exit_signal(void)
{
	static const unsigned bad[] = { 65, 66, 100, 128, 200, 255 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = sys_clone(bad[i], 0, 0, 0, 0);
		if (r == 0)
			sys_exit_group(0);
		CHECK(r == -EINVAL, "clone with exit signal %u returned %ld", bad[i], r);
	}
	EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);	/* no child was made */

	/* 64 (SIGRTMAX) is a signal: the parent gets it at the child's exit. */
	signal(64, on_sig64);
	long pid = sys_clone(64, 0, 0, 0, 0);
	if (pid == 0)
		sys_exit_group(3);
	CHECK(pid > 0, "clone with exit signal 64: %ld", pid);
	CHECK(ut_wait(pid) == 3 << 8, "child status");
	for (int i = 0; i < 20 && !sig64_seen; i++)
		ut_sleep_ns(100000);
	CHECK(sig64_seen == 64, "exit signal 64 not delivered (%d)", sig64_seen);
}

static volatile int settid_word;

static void settid_vm_child(void)
{
	sys_exit(0);
}

static void clone_child_settid(void)
{
	/* fork-like (no CLONE_VM): the child's copy of the word gets its tid,
	 * ours stays 0 - glibc's fork() reads the child's tid this way. */
	settid_word = 0;
	long pid = sys_clone(SIGCHLD_NR | CLONE_CHILD_SETTID, 0, 0, 0, (long)&settid_word);
	if (pid == 0)
		sys_exit_group(settid_word == sys_gettid() ? 0 : 1);
	CHECK(pid > 0, "clone: %ld", pid);
	int st = ut_wait(pid);
	CHECK(st == 0, "child status %#x (1: its word was not its tid)", st);
	CHECK(settid_word == 0, "the parent's word changed to %d", settid_word);

	/* With CLONE_VM the shared word gets it. */
	pid = ut_clone(CLONE_VM | CLONE_CHILD_SETTID | SIGCHLD_NR, stack_a, sizeof(stack_a), 0,
		       &settid_word, settid_vm_child);
	CHECK(pid > 0, "clone(CLONE_VM): %ld", pid);
	CHECK(ut_wait(pid) == 0, "CLONE_VM child status");
	CHECK(settid_word == pid, "shared word %d, child %ld", settid_word, pid);

	/* A bad address is ignored, as in Linux: the child runs normally. */
	const unsigned long bad[] = { 0, 0x40000000ul, 0xc0000000ul, 0xfffffffeul,
				      (unsigned long)clone_child_settid /* read-only text */ };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid = sys_clone(SIGCHLD_NR | CLONE_CHILD_SETTID, 0, 0, 0, bad[i]);
		if (pid == 0)
			sys_exit_group(9);
		CHECK(pid > 0, "clone with CHILD_SETTID at %#lx: %ld", bad[i], pid);
		st = ut_wait(pid);
		CHECK(st == 9 << 8, "CHILD_SETTID at %#lx: child status %#x", bad[i], st);
	}
}

const struct ut_test ut_life_tests[] = {
	{ kill_init, "kill_init" },
	{ orphan_exit_signal, "orphan_exit_signal" },
	{ timer_exit_sighand, "timer_exit_sighand" },
	{ timer_exit_thread, "timer_exit_thread" },
	{ fork_after_leader_exit, "fork_after_leader_exit" },
	{ kill_leaderless, "kill_leaderless" },
	{ kill_exited_thread, "kill_exited_thread" },
	{ exec_after_leader_exit, "exec_after_leader_exit" },
	{ clone_exit_signal, "clone_exit_signal" },
	{ clone_child_settid, "clone_child_settid" },
	{ NULL, NULL },
};
