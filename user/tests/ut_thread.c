/*
 * user/tests/ut_thread.c - usertests: clone threads through the thread helpers
 * (user/lib/thread.c: CLONE_VM|...|CLONE_THREAD, futex join), execve in a
 * multi-threaded process, the CPU time of threads in wait4's rusage.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define NTHREADS	64

static volatile uint32_t results[NTHREADS];
static volatile int tids[NTHREADS];

static void *square(void *arg)
{
	uint32_t i = (uint32_t)(uintptr_t)arg;

	tids[i] = gettid();
	for (int k = 0; k < 3; k++)
		sys_sched_yield();	/* interleave with the others */
	results[i] = i * i + 1;
	return (void *)(uintptr_t)(i + 1000);
}

/* Many threads, each writes its result; join all; three rounds. */
static void thread_stress(void)
{
	thread_t t[NTHREADS];

	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < NTHREADS; i++) {
			results[i] = 0;
			tids[i] = 0;
		}
		for (int i = 0; i < NTHREADS; i++)
			CHECK(thread_create(&t[i], square, (void *)(uintptr_t)i) == 0,
			      "round %d: thread_create %d failed (errno %d)", round, i, errno);
		for (int i = 0; i < NTHREADS; i++) {
			void *ret = NULL;
			CHECK(thread_join(t[i], &ret) == 0, "round %d: join %d failed", round, i);
			CHECK(ret == (void *)(uintptr_t)(i + 1000), "thread %d returned %p", i, ret);
			CHECK(results[i] == (uint32_t)i * i + 1, "thread %d wrote %u", i, results[i]);
			CHECK(tids[i] > 0 && tids[i] != getpid(), "thread %d had tid %d", i, tids[i]);
			for (int j = 0; j < i; j++)
				CHECK(tids[j] != tids[i], "threads %d and %d share tid %d", j, i, tids[i]);
		}
		CHECK(thread_running() == 0, "%d threads still running after joining all", thread_running());
	}
}

static volatile int id_ok, tid_read;

/* The thread stays until the creator has read its tid: on another CPU it
 * could otherwise exit first, and CLONE_CHILD_CLEARTID zeroes the word. */
static void *check_ids(void *arg)
{
	pid_t parent_pid = (pid_t)(uintptr_t)arg;

	id_ok = getpid() == parent_pid && gettid() != parent_pid && getppid() == ut_parent &&
		thread_tid(thread_self()) == gettid();
	while (!tid_read)
		sched_yield();
	return NULL;
}

static void thread_ids(void)
{
	thread_t t;

	tid_read = 0;
	CHECK(thread_create(&t, check_ids, (void *)(uintptr_t)getpid()) == 0, "thread_create failed");
	int tid = thread_tid(t);
	tid_read = 1;
	CHECK(thread_join(t, NULL) == 0, "join failed");
	CHECK(id_ok, "in a thread: getpid, gettid, getppid or thread_tid is wrong");
	CHECK(tid > 0 && tid != getpid(), "thread tid %d", tid);
	EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);	/* a thread is not a child */
}

static void *exit_group_3(void *unused)
{
	_exit(3);		/* exit_group: the whole process ends with 3 */
}

static void *segv(void *unused)
{
	*(volatile int *)0 = 1;
	return NULL;
}

static void *sleeper(void *unused)
{
	for (;;)
		ut_sleep_ns(1000000);
	return NULL;
}

static void in_process(uintptr_t which)
{
	thread_t t, s;

	thread_create(&s, sleeper, NULL);	/* a bystander that must die too */
	if (thread_create(&t, which == 0 ? exit_group_3 : segv, NULL) != 0)
		_exit(100);
	thread_join(t, NULL);
	_exit(101);		/* not reached: the thread ends the process */
}

/* A thread's exit_group or fault ends the whole process with its status. */
static void thread_exit(void)
{
	int st = ut_run_child(in_process, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "thread exit_group(3): process status %#x", st);
	st = ut_run_child(in_process, 1);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "faulting thread: process status %#x", st);
}

/* --- execve in a multi-threaded process (the kernel's de_thread) --- */

static char *const noenv[] = { NULL };

static void *spinner(void *unused)
{
	for (;;)
		__asm__ __volatile__("" ::: "memory");
	return NULL;
}

static void *join_forever(void *t)
{
	thread_join((thread_t)t, NULL);		/* FUTEX_WAIT on a thread that never ends */
	return NULL;
}

static volatile int alarms;

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		alarms++;
}

/* exec "usertests --ids PID PPID TIMER" (see exec_ids() in usertests.c). */
static long exec_ids_helper(int timer)
{
	char pid[12], ppid[12], tid[12];

	snprintf(pid, sizeof(pid), "%d", getpid());
	snprintf(ppid, sizeof(ppid), "%d", getppid());
	snprintf(tid, sizeof(tid), "%d", timer);
	char *argv[] = { "usertests", "--ids", pid, ppid, tid, NULL };
	return sys_execve((long)"usertests", (long)argv, (long)noenv);
}

static volatile int timer_id;

static void *exec_from_thread(void *unused)
{
	exec_ids_helper(timer_id);
	_exit(100);		/* exec failed: the whole process ends with 100 */
}

/*
 * The process under test: SIGUSR1 caught and SIGHUP ignored (SA_RESTART),
 * SIGUSR2 blocked by every thread and pending for the process, a periodic
 * 1 ms SIGALRM timer (SIG_DFL after exec: it would kill the new image if it
 * survived), a child that exits with 33 after 5 ms, and three threads that
 * never end on their own - asleep in nanosleep, spinning in user mode, and
 * in FUTEX_WAIT.  Then the leader (LEADER_EXECS) or a fourth thread execs;
 * the other threads must die and the new image keep the process's pid, its
 * parent and its child (checked by the helper).
 */
static void exec_in_thread(uintptr_t leader_execs)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec its = { { 0, 1000000 }, { 0, 1000000 } };
	thread_t t[3], e;
	sigset_t usr2;
	int id;

	signal(SIGUSR1, on_signal);
	signal(SIGHUP, SIG_IGN);
	signal(SIGALRM, on_signal);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);	/* inherited by the threads */
	if (sys_timer_create(CLOCK_MONOTONIC, (long)&ev, (long)&id) ||
	    sys_timer_settime(id, 0, (long)&its, 0))
		_exit(102);
	timer_id = id;
	long child = sys_fork();
	if (child == 0) {
		ut_sleep_ns(5000000);
		_exit(33);
	}
	if (child < 0)
		_exit(102);
	if (thread_create(&t[0], sleeper, NULL) || thread_create(&t[1], spinner, NULL) ||
	    thread_create(&t[2], join_forever, t[0]))
		_exit(103);
	ut_sleep_ns(3000000);	/* all in their loops, a few SIGALRMs handled */
	if (!alarms)
		_exit(104);
	kill(getpid(), SIGUSR2);	/* blocked everywhere: pending on the leader */
	if (leader_execs) {
		exec_ids_helper(id);
		_exit(100);
	}
	if (thread_create(&e, exec_from_thread, NULL))
		_exit(103);
	thread_join(e, NULL);	/* FUTEX_WAIT: ended by the exec */
	_exit(101);
}

/* A non-leader thread execs, then the leader does: see exec_in_thread(). */
static void exec_thread(void)
{
	static const char *const who[] = { "a thread", "the leader" };

	for (int leader = 0; leader < 2; leader++) {
		long f0 = ut_frames();
		int st = ut_run_child(exec_in_thread, leader);
		CHECK(st == 42 << 8, "exec by %s: process status %#x (42 << 8 expected; "
		      "exit 51-62: exec_ids() check failed, 100: exec failed, 102-104: setup)",
		      who[leader], st);
		if (f0 >= 0) {
			long f1 = ut_frames_settle(f0, 20);
			CHECK(f1 == f0, "exec by %s: %ld free frames lost", who[leader], f0 - f1);
		}
	}
}

/*
 * An external SIGKILL while a thread execs (de_thread waiting for the other
 * threads to die) kills the process: the exec fails and nothing leaks.
 * The window is made certain: two spinning threads clear the same word W
 * when they exit (CLONE_CHILD_CLEARTID), and the killer - a CLONE_VM child
 * process, asleep on W - is woken by the first of them to die, with the
 * other one (and maybe the spinning leader) still to go, and sends the
 * SIGKILL then: a woken sleeper runs before a spinner.
 */
static char kstack[4][8192] __attribute__((aligned(16)));
static volatile int kill_word, kill_target;

static void kspin(void)
{
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

static void killer(void)
{
	int v;

	while ((v = kill_word) != 0)
		sys_futex((long)&kill_word, FUTEX_WAIT, v, 0, 0, 0);
	sys_kill(kill_target, SIGKILL);
}

static void exec_42(void)
{
	char *argv[] = { "usertests", "--exit", "42", NULL };

	sys_execve((long)"usertests", (long)argv, (long)noenv);
	sys_exit_group(100);	/* the exec failed and we live on */
}

static void exec_killed_process(uintptr_t unused)
{
	const unsigned long thread = CLONE_VM | CLONE_SIGHAND | CLONE_THREAD;

	ut_one_cpu();		/* "a woken sleeper runs before a spinner": on one CPU */
	kill_target = getpid();
	kill_word = 1;
	for (int i = 0; i < 2; i++)
		if (ut_clone(thread | CLONE_CHILD_CLEARTID, kstack[i], sizeof(kstack[i]), 0,
			     &kill_word, kspin) < 0)
			_exit(102);
	if (ut_clone(CLONE_VM | 17 /* SIGCHLD */, kstack[2], sizeof(kstack[2]), 0, 0, killer) < 0)
		_exit(102);
	ut_sleep_ns(2000000);	/* spinners spinning, the killer asleep on the word */
	if (kill_word != 1)
		_exit(103);
	if (ut_clone(thread, kstack[3], sizeof(kstack[3]), 0, 0, exec_42) < 0)
		_exit(102);
	kspin();		/* the leader spins too */
}

static void exec_thread_kill(void)
{
	long f0 = ut_frames();
	int st = ut_run_child(exec_killed_process, 0);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "SIGKILL during a thread's exec: process status %#x (SIGKILL expected; 42 << 8: "
	      "the exec went through, 100: it failed and the process lived, 102-103: setup)", st);
	if (f0 >= 0) {
		long f1 = ut_frames_settle(f0, 50);	/* the killer is init's to reap */
		CHECK(f1 == f0, "%ld free frames lost", f0 - f1);
	}
}

static volatile int stop_counting, counted, usr1_seen;
static volatile long fail_ret[3];

static void on_usr1(int sig)
{
	usr1_seen = 1;
}

static void *counter(void *unused)
{
	while (!stop_counting) {
		ut_sleep_ns(500000);
		counted++;
	}
	return (void *)7;
}

static void *wait_usr1(void *unused)
{
	while (!usr1_seen)
		ut_sleep_ns(500000);
	return (void *)8;
}

static void *exec_fails(void *unused)
{
	char *argv[] = { "x", NULL };
	int tid = gettid();

	fail_ret[0] = sys_execve((long)"nosuchprogram", (long)argv, (long)noenv);
	fail_ret[1] = sys_execve((long)"notelf", (long)argv, (long)noenv);
	fail_ret[2] = gettid() == tid;
	return (void *)9;
}

/* A failing exec in one thread leaves the process and its threads alone. */
static void exec_thread_fail(void)
{
	thread_t a, b, e;
	void *ret;
	pid_t me = getpid();

	signal(SIGUSR1, on_usr1);
	CHECK(thread_create(&a, counter, NULL) == 0 && thread_create(&b, wait_usr1, NULL) == 0 &&
	      thread_create(&e, exec_fails, NULL) == 0, "thread_create failed");
	CHECK(thread_join(e, &ret) == 0 && ret == (void *)9, "exec'ing thread: join failed");
	CHECK(fail_ret[0] == -ENOENT, "exec of a missing program returned %ld", fail_ret[0]);
	CHECK(fail_ret[1] == -ENOEXEC, "exec of a non-ELF file returned %ld", fail_ret[1]);
	CHECK(fail_ret[2], "the exec'ing thread's tid changed");
	CHECK(getpid() == me && gettid() == me, "the leader's ids changed");
	int c0 = counted;
	ut_sleep_ns(5000000);
	CHECK(counted > c0, "the counting thread stopped (%d, then %d)", c0, counted);
	EXPECT_RET(sys_tgkill(me, thread_tid(b), SIGUSR1), 0);
	CHECK(thread_join(b, &ret) == 0 && ret == (void *)8, "signalled thread: join failed");
	stop_counting = 1;
	CHECK(thread_join(a, &ret) == 0 && ret == (void *)7, "counting thread: join failed");
	CHECK(thread_running() == 0, "%d threads still running", thread_running());
}

static void *burn_20ms(void *unused)
{
	long long end = ut_cpu_ns(CLOCK_THREAD_CPUTIME_ID) + 20000000;

	while (ut_cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
	return NULL;
}

static void burn_in_thread(uintptr_t unused)
{
	thread_t t;
	struct rusage ru;

	if (thread_create(&t, burn_20ms, NULL) || thread_join(t, NULL))
		_exit(2);
	/* The exited thread's time still counts for the process (user and
	 * system time: burn_20ms reads a CPU clock, a system call). */
	if (getrusage(RUSAGE_SELF, &ru) || (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
					   ru.ru_utime.tv_usec + ru.ru_stime.tv_usec < 20000)
		_exit(3);
	if (ut_cpu_ns(CLOCK_PROCESS_CPUTIME_ID) < 20000000)
		_exit(4);
}

/* wait4's rusage counts the CPU time of a child's threads that exited. */
static void thread_rusage(void)
{
	struct rusage ru;
	int st;
	long pid = sys_fork();

	if (pid == 0) {
		burn_in_thread(0);
		_exit(0);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, (long)&ru), pid);
	CHECK(st == 0, "child status %#x (3: getrusage, 4: process clock without the thread)", st);
	long long us = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
	CHECK(us >= 15000 && us < 1000000, "child with a 20 ms thread: rusage says %lld us", us);
}

const struct ut_test ut_thread_tests[] = {
	{ thread_stress, "thread_stress" },
	{ thread_ids, "thread_ids" },
	{ thread_exit, "thread_exit" },
	{ exec_thread, "exec_thread" },
	{ exec_thread_fail, "exec_thread_fail" },
	{ exec_thread_kill, "exec_thread_kill" },
	{ thread_rusage, "thread_rusage" },
	{ NULL, NULL },
};
