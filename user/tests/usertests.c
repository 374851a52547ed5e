/*
 * user/tests/usertests.c - Granule's robustness suite for processes, memory and
 * system calls, after xv6's usertests and the Pintos userprog tests.
 *
 *	usertests [-v]            run every test
 *	usertests [-v] NAME...    run only those
 * (-v prints the free frame count after each test, to find a leak)
 *
 * Each test runs in a forked child and ends as one line,
 *	test NAME: OK
 *	test NAME: FAILED       (after a reason line from the child: "  NAME: ...")
 * and the run ends with "ALL TESTS PASSED" (exit 0) or "SOME TESTS FAILED"
 * (exit 1).  Around the whole run the free frame count (granule_frames())
 * must come back exactly: after every child is reaped (orphans by init,
 * which may take a moment, hence the short settle loop) a difference is
 * reported as "lost N free frames" and fails the run.
 *
 * The tests live in user/tests/ut_mem.c (bad pointers, faults, brk, COW),
 * user/tests/ut_proc.c (fork, exec, exit, wait, rusage, ids, nice) and
 * user/tests/ut_thread.c (clone threads, exec from a thread), user/tests/ut_sig.c
 * (the FPU/SSE state in signal frames) and user/tests/ut_tls.c
 * (set/get_thread_area, per-thread errno, %fs/%gs), user/tests/ut_life.c
 * (init's protection, what dies with a process, reparenting, clone's exit
 * signal and CHILD_SETTID), user/tests/ut_limits.c (tiny timer
 * intervals, RLIMIT_SIGPENDING, long console writes) and
 * user/tests/ut_entry.c (the int $0x80 gate: registers, DF, unknown
 * numbers, the exit work).  "usertests --exit N"
 * and friends are helper modes the exec tests use on the program itself
 * (see helper_main()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <granule.h>
#include "ut.h"

const char *ut_name = "usertests";
pid_t ut_parent;

void ut_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("  %s: %s (%s:%d)\n", ut_name, msg, file, line);
	_exit(1);
}

int ut_wait(pid_t pid)
{
	int status = 0;
	long r = sys_wait4(pid, (long)&status, 0, 0);

	if (r != pid)
		FAIL("wait4(%d) returned %ld", pid, r);
	return status;
}

int ut_run_child(void (*fn)(uintptr_t), uintptr_t arg)
{
	long pid = sys_fork();

	if (pid < 0)
		FAIL("fork failed: %ld", pid);
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	return ut_wait(pid);
}

void ut_expect_killed(void (*fn)(uintptr_t), uintptr_t arg, int sig, const char *what)
{
	int st = ut_run_child(fn, arg);

	if (WIFEXITED(st))
		FAIL("%s: survived (exit status %d), expected signal %d", what, WEXITSTATUS(st), sig);
	if (WTERMSIG(st) != sig)
		FAIL("%s: killed by signal %d, expected %d", what, WTERMSIG(st), sig);
}

void ut_sleep_ns(long long ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (sys_nanosleep((long)&ts, (long)&ts) == -EINTR)
		;
}

int ut_has(const char *hay, const char *needle)
{
	for (size_t n = strlen(needle); *hay; hay++)
		if (!strncmp(hay, needle, n))
			return 1;
	return 0;
}

long long ut_cpu_ns(int clock)
{
	struct timespec ts;

	sys_clock_gettime(clock, (long)&ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* __ut_clone(flags, top, ptid, ctid), [top] = the child's function. */
long __ut_clone(unsigned long flags, void *top, volatile int *ptid, volatile int *ctid);

#define STR_(x)	#x
#define STR(x)	STR_(x)
__asm__(".text\n"
	".globl __ut_clone\n"
	".type __ut_clone, @function\n"
	"__ut_clone:\n"
	"\tpushl %ebx\n"
	"\tpushl %esi\n"
	"\tpushl %edi\n"
	"\tmovl 16(%esp), %ebx\n"	/* flags */
	"\tmovl 20(%esp), %ecx\n"	/* child stack: [ecx] = fn */
	"\tmovl 24(%esp), %edx\n"	/* parent tid pointer */
	"\tmovl 28(%esp), %edi\n"	/* child tid pointer */
	"\txorl %esi, %esi\n"		/* no TLS */
	"\tmovl $" STR(__NR_clone) ", %eax\n"
	"\tint $0x80\n"
	"\ttestl %eax, %eax\n"
	"\tjz 1f\n"
	"\tpopl %edi\n"			/* parent (or error) */
	"\tpopl %esi\n"
	"\tpopl %ebx\n"
	"\tret\n"
	"1:\n"				/* child: esp 16-aligned, [esp] = fn */
	"\txorl %ebp, %ebp\n"
	"\tmovl (%esp), %eax\n"
	"\tcall *%eax\n"
	"\tmovl $" STR(__NR_exit) ", %eax\n"
	"\txorl %ebx, %ebx\n"
	"\tint $0x80\n"
	"\tud2\n"
	".size __ut_clone, . - __ut_clone\n");

long ut_clone(unsigned long flags, void *stack, unsigned long size, volatile int *ptid,
	      volatile int *ctid, void (*fn)(void))
{
	char *top = (char *)(((unsigned long)stack + size) & ~15ul) - 16;

	*(void (**)(void))top = fn;
	return __ut_clone(flags, top, ptid, ctid);
}

unsigned long ut_cpus(void)
{
	unsigned long m = 0;
	long r = sys_sched_getaffinity(0, sizeof(m), (long)&m);

	if (r != sizeof(m))
		FAIL("sched_getaffinity returned %ld", r);
	return m;
}

void ut_pin_cpu(int cpu)
{
	unsigned long m = 1ul << cpu;
	long r = sys_sched_setaffinity(0, sizeof(m), (long)&m);

	if (r != 0)
		FAIL("sched_setaffinity to CPU %d returned %ld", cpu, r);
}

void ut_one_cpu(void)
{
	ut_pin_cpu(__builtin_ctzl(ut_cpus()));
}

long ut_frames(void)
{
	long n = sys_granule_frames();

	return n < 0 ? -1 : n;
}

long ut_frames_settle(long want, int tries)
{
	long now = ut_frames();

	while (now != want && tries-- > 0) {
		ut_sleep_ns(1000000);	/* 1 ms: lets init (or a dying child) run */
		now = ut_frames();
	}
	return now;
}

/*
 * Helper modes, run by the exec tests as "usertests --MODE ...":
 *   --exit N           exit with status N
 *   --sleep MS N       sleep MS milliseconds, then exit with status N
 *   --segv             write to NULL (killed by SIGSEGV)
 *   --args N LEN       expects N more arguments, the i-th LEN bytes of
 *                      'a' + i % 26; exit 0 if so, else 1
 *   --ids PID PPID TIMER  the image a thread exec'ed (ut_thread.c): exit 42
 *                      if it is PID's only thread (getpid() == gettid() ==
 *                      PID), a child of PPID, POSIX timer TIMER is gone,
 *                      the signal state is what exec must make of the one
 *                      exec_in_thread() left and its one child (which exits
 *                      with 33) can be waited for: see exec_ids()
 *   --waitchild N      wait for a child: exit 42 if it exited with N and
 *                      was the only one, 43-45 if not (ut_life.c)
 *   --itimer-left      exit 42 if the alarm(100) set before the exec is
 *                      still there, 43-45 if not (ut_itimer.c)
 * and argc == 0 (exec with an empty argv) exits 77.
 */

/* --ids: 42 if all is well, else 50 + the number of the first failed check. */
static int exec_ids(pid_t pid, pid_t ppid, int timer)
{
	struct sigaction usr1, hup;
	sigset_t blocked, pending;
	struct itimerspec its;

	if (getpid() != pid)
		return 51;
	if (gettid() != pid)
		return 52;
	if (getppid() != ppid)
		return 53;
	if (sigaction(SIGUSR1, NULL, &usr1) || sigaction(SIGHUP, NULL, &hup))
		return 54;
	if (usr1.sa_handler != SIG_DFL || (usr1.sa_flags & SA_RESTART))
		return 55;	/* a caught signal is back to SIG_DFL, flags cleared */
	if (hup.sa_handler != SIG_IGN || (hup.sa_flags & SA_RESTART))
		return 56;	/* an ignored one stays ignored */
	if (sigprocmask(SIG_BLOCK, NULL, &blocked) || sigpending(&pending))
		return 57;
	if (!sigismember(&blocked, SIGUSR2))
		return 58;	/* the blocked mask survives exec */
	if (!sigismember(&pending, SIGUSR2))
		return 59;	/* so does a signal pending for the process */
	if (sys_timer_gettime(timer, (long)&its) != -EINVAL)
		return 60;	/* exec deletes the process's POSIX timers */
	int st = 0;
	if (sys_wait4(-1, (long)&st, 0, 0) <= 0 || st != 33 << 8)
		return 61;	/* the process's child (forked by the old leader) is ours */
	if (sys_wait4(-1, 0, WNOHANG, 0) != -ECHILD)
		return 62;
	return 42;
}

static int helper_main(int argc, char **argv, char **envp)
{
	if (argc == 0)
		return argv[0] == NULL && envp[0] == NULL ? 77 : 1;
	if (!strcmp(argv[1], "--exit") && argc == 3)
		return atoi(argv[2]);
	if (!strcmp(argv[1], "--sleep") && argc == 4) {
		ut_sleep_ns(atoi(argv[2]) * 1000000LL);
		return atoi(argv[3]);
	}
	if (!strcmp(argv[1], "--ids") && argc == 5)
		return exec_ids(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (!strcmp(argv[1], "--waitchild") && argc == 3) {
		int st = 0;
		if (sys_wait4(-1, (long)&st, 0, 0) <= 0)
			return 43;
		if (st != atoi(argv[2]) << 8)
			return 44;
		return sys_wait4(-1, 0, WNOHANG, 0) == -ECHILD ? 42 : 45;
	}
	if (!strcmp(argv[1], "--itimer-left"))	/* ut_itimer.c: exec kept the alarm */
		return ut_itimer_left();
	if (!strcmp(argv[1], "--oom-init"))	/* as pid 1: run out of memory */
		return ut_oom_init();
	if (!strcmp(argv[1], "--trap-flood"))	/* the user fault log's rate limit */
		return ut_trap_flood();
	if (!strcmp(argv[1], "--segv"))		/* die on a NULL write */
		*(volatile int *)0 = 1;
	if (!strcmp(argv[1], "--args") && argc >= 4) {
		int n = atoi(argv[2]), len = atoi(argv[3]);
		if (argc != 4 + n || argv[argc] != NULL)
			return 1;
		for (int i = 0; i < n; i++) {
			const char *s = argv[4 + i];
			if ((int)strlen(s) != len)
				return 1;
			for (int j = 0; j < len; j++)
				if (s[j] != 'a' + i % 26)
					return 1;
		}
		return 0;
	}
	printf("usertests: unknown helper mode %s\n", argv[1]);
	return 2;
}

static const struct ut_test *const tables[] = {
	ut_mem_tests, ut_proc_tests, ut_thread_tests, ut_sig_tests, ut_tls_tests, ut_life_tests,
	ut_limits_tests, ut_abi_tests, ut_fs_tests,
	ut_sched_tests, ut_rt_tests, ut_rt_smp_tests,
	ut_poll_tests, ut_job_tests,
	ut_vdso_tests,
	ut_pipe_tests, ut_tmpfs_tests, ut_procfs_tests,
	ut_entry_tests,
	ut_hostile_tests, ut_hostile_proc_tests, ut_hostile_sig_tests, ut_dyn_tests,
	ut_cmds_tests,
	ut_itimer_tests,
	ut_futex_pi_tests,
	ut_mm_tests,
	ut_maps_tests,
	ut_acct_tests,
	ut_rlimit_tests,
};

static const struct ut_test *find_test(const char *name)
{
	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		for (const struct ut_test *t = tables[i]; t->fn; t++)
			if (!strcmp(t->name, name))
				return t;
	return NULL;
}

static int verbose;	/* -v: the free frame count after every test */

/* Run one test in a child; 1 if it passed. */
static int run_test(const struct ut_test *t)
{
	int status;
	long pid = sys_fork();

	if (pid < 0) {
		printf("  %s: fork failed: %ld\n", t->name, pid);
		printf("test %s: FAILED\n", t->name);
		return 0;
	}
	if (pid == 0) {
		ut_name = t->name;
		t->fn();
		_exit(0);
	}
	if (sys_wait4(pid, (long)&status, 0, 0) != pid) {
		printf("  %s: wait4 lost the test child\n", t->name);
		status = 1 << 8;
	}
	if (WIFSIGNALED(status))
		printf("  %s: test child killed by signal %d\n", t->name, WTERMSIG(status));
	else if (WEXITSTATUS(status) && WEXITSTATUS(status) != 1)
		printf("  %s: test child exited with status %d\n", t->name, WEXITSTATUS(status));
	printf("test %s: %s\n", t->name, status == 0 ? "OK" : "FAILED");
	if (verbose)
		printf("  %s: %ld free frames after\n", t->name, ut_frames());
	return status == 0;
}

static void reap_all(void);

/*
 * Before the baseline: exercise task creation, exec and a queued signal
 * once, so that the kernel heap's partial slabs are in their steady state
 * (granule_frames() itself drops the heap's empty spare slabs).
 */
static void warm_up(void)
{
	static char *const argv[] = { "usertests", "--exit", "0", NULL };
	static char *const envp[] = { NULL };

	for (int i = 0; i < 64; i++) {
		long pid = sys_fork();
		if (pid == 0) {
			if (i == 0)
				sys_execve((long)"usertests", (long)argv, (long)envp);
			if (i == 1)	/* a queued signal (struct sigqueue) */
				sys_kill(getpid(), SIGTERM);
			_exit(0);
		}
	}
	reap_all();
}

/* Reap anything a test left behind (a failed test may leave children). */
static void reap_all(void)
{
	while (sys_wait4(-1, 0, 0, 0) > 0)
		;
}

int main(int argc, char **argv, char **envp)
{
	help_exit(argc, argv, "usage: usertests [NAME...]\nThe kernel's robustness suite; with NAMEs only those tests (tests/system/test_usertests.py).\n");
	int failed = 0;
	long before, after;

	if (argc == 0 || (argc >= 2 && !strncmp(argv[1], "--", 2)))
		return helper_main(argc, argv, envp);
	if (argc > 1 && !strcmp(argv[1], "-v")) {
		verbose = 1;
		argv++;
		argc--;
	}
	ut_parent = getpid();
	printf("usertests starting\n");
	warm_up();
	before = ut_frames();

	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			const struct ut_test *t = find_test(argv[i]);
			if (!t) {
				printf("usertests: no test named %s\n", argv[i]);
				printf("test %s: FAILED\n", argv[i]);
				failed++;
				continue;
			}
			failed += !run_test(t);
		}
	} else {
		for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
			for (const struct ut_test *t = tables[i]; t->fn; t++)
				failed += !run_test(t);
	}
	reap_all();

	if (before >= 0) {
		/* Orphans go to init, which reaps them when it next runs. */
		after = ut_frames_settle(before, 200);
		if (after != before) {
			printf("usertests: lost %ld free frames (%ld before, %ld after)\n",
			       before - after, before, after);
			failed++;
		} else {
			printf("usertests: free frames %ld before and after\n", before);
		}
	}
	if (failed) {
		printf("SOME TESTS FAILED\n");
		return 1;
	}
	printf("ALL TESTS PASSED\n");
	return 0;
}
