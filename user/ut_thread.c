/*
 * user/ut_thread.c - usertests: clone threads through the thread helpers
 * (user/lib/thread.c: CLONE_VM|...|CLONE_THREAD, futex join).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <thread.h>
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

static volatile int id_ok;

static void *check_ids(void *arg)
{
	pid_t parent_pid = (pid_t)(uintptr_t)arg;

	id_ok = getpid() == parent_pid && gettid() != parent_pid && getppid() == ut_parent &&
		thread_tid(thread_self()) == gettid();
	return NULL;
}

static void thread_ids(void)
{
	thread_t t;

	CHECK(thread_create(&t, check_ids, (void *)(uintptr_t)getpid()) == 0, "thread_create failed");
	int tid = thread_tid(t);
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

const struct ut_test ut_thread_tests[] = {
	{ thread_stress, "thread_stress" },
	{ thread_ids, "thread_ids" },
	{ thread_exit, "thread_exit" },
	{ NULL, NULL },
};
