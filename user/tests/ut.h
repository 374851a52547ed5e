/*
 * user/tests/ut.h - the helpers shared by usertests (user/tests/usertests.c) and its
 * test files (user/tests/ut_*.c).
 *
 * A test is a void function that runs in its own forked child: it returns
 * to pass, and fails by calling FAIL()/CHECK() (print one reason line,
 * exit 1) or by dying.  The raw system calls (sys_*, -errno on failure)
 * are used wherever a test must see exactly what the kernel returned.
 */
#ifndef USER_UT_H
#define USER_UT_H

#include <errno.h>
#include <gen/syscall_nr.h>
#include <gen/user_syscalls.h>
#include <kernel/limits.h>	/* TASK_MAX, the kernel's own value */
#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

#define PAGE_SIZE	4096u
#define TASK_SIZE	0xC0000000u	/* user space is [0, 3 GiB) */
#define STACK_TOP	TASK_SIZE
#define STACK_LIMIT	(8u << 20)	/* the kernel's stack window (RLIMIT_STACK) */

/* futex ops (Linux values) for the raw system calls; the clone flags come
 * from <sched.h>. */
#define FUTEX_WAIT	0
#define FUTEX_WAKE	1

struct ut_test {
	void (*fn)(void);
	const char *name;
};

/* The name of the running test (set in the child before fn runs). */
extern const char *ut_name;
/* pid of the usertests parent (for helpers that must report to it). */
extern pid_t ut_parent;

__attribute__((noreturn, format(printf, 3, 4)))
void ut_fail(const char *file, int line, const char *fmt, ...);

#define FAIL(...)	ut_fail(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(cond, ...)	do { if (!(cond)) FAIL(__VA_ARGS__); } while (0)
/* A raw syscall CALL must return exactly WANT (e.g. -EFAULT). */
#define EXPECT_RET(call, want) do { \
	long __r = (long)(call), __w = (long)(want); \
	if (__r != __w) \
		FAIL("%s returned %ld, expected %ld", #call, __r, __w); \
} while (0)

/*
 * Run FN(ARG) in a forked child and wait for it.  Returns the wait status;
 * FN returning means the child exits 0.
 */
int ut_run_child(void (*fn)(uintptr_t), uintptr_t arg);
/* FN(ARG) must die by signal SIG (what = description for the message). */
void ut_expect_killed(void (*fn)(uintptr_t), uintptr_t arg, int sig, const char *what);
/* Wait status of PID (which must be a child); FAILs if wait4 fails. */
int ut_wait(pid_t pid);
/* Sleep NS nanoseconds of CLOCK_MONOTONIC. */
void ut_sleep_ns(long long ns);
/* Clock CLOCK (e.g. CLOCK_PROCESS_CPUTIME_ID) in nanoseconds. */
long long ut_cpu_ns(int clock);
/* HAY contains NEEDLE. */
int ut_has(const char *hay, const char *needle);
/*
 * Raw clone(FLAGS, ...) of a child sharing our memory (CLONE_VM) that runs
 * FN on STACK (SIZE bytes, ours to give) and, if FN returns, exit(0) (this
 * task only).  No CLONE_SETTLS: the child keeps our %gs (and errno), so
 * FN should stick to the raw sys_* calls.  PTID and CTID are clone's
 * parent and child tid pointers.  Returns clone's raw result.
 */
long ut_clone(unsigned long flags, void *stack, unsigned long size, volatile int *ptid,
	      volatile int *ctid, void (*fn)(void));
/* Raw vfork (ut_cmds.c): we run again once the child exits or execs. */
long ut_vfork(void);
/* mmap2's and open's numbers, for the raw calls (Linux i386's values) */
#define O_RDONLY	0
#define PROT_NONE	0
#define PROT_READ	1
#define PROT_WRITE	2
#define MAP_PRIVATE	2
#define MAP_ANON	0x20
/* A raw mmap2 result that is an address, not -errno. */
#define MAPPED(r)	((unsigned long)(r) < -4095ul)
/* The auxiliary vector's TYPE entry (AT_*), or 0 (ut_vdso.c). */
uint32_t ut_aux(uint32_t type);
/* The whole of PATH into BUF (NUL-terminated); its length, or -errno. */
long ut_slurp(const char *path, char *buf, long size);
/* Field K (1-based, Linux's numbering) of the /proc/PID/stat file PATH, read into BUF: a
 * pointer to its first character (fields 3 on are counted past the last ')', since comm,
 * field 2, may hold spaces and parentheses). */
const char *ut_stat_field(const char *path, int k, char *buf, long size);
/* The CPUs we may run on (sched_getaffinity's mask; init's is every online CPU). */
unsigned long ut_cpus(void);
/* Run on CPU from now on, and so do the children we fork or clone later
 * (sched_setaffinity to it alone: it moves us there before returning). */
void ut_pin_cpu(int cpu);
/*
 * Run on one CPU, the lowest we may use (so a "taskset 2 usertests" keeps
 * CPU 1): for a test whose premise is that its tasks take turns - a child
 * runs only when we sleep, a spinner beside us preempts us, FIFO tasks
 * run in priority order.  Two CPUs run two tasks at once instead.
 */
void ut_one_cpu(void);
/* Free frames now (granule_frames), or -1 off Granule. */
long ut_frames(void);
/* Poll (sleeping) until the free frame count is WANT; returns the last one. */
long ut_frames_settle(long want, int tries);

/* Helper mode "--itimer-left" (ut_itimer.c): 42 if an alarm(100) survived exec. */
int ut_itimer_left(void);
/* Helper mode "--oom-init" (ut_limits.c): run as pid 1, run out of memory. */
int ut_oom_init(void);
/* Helper mode "--trap-flood" (ut_limits.c): fault 25 times, wait 5.1 s, once more. */
int ut_trap_flood(void);

/* The table: every test of every file. */
extern const struct ut_test ut_mem_tests[], ut_proc_tests[], ut_thread_tests[], ut_sig_tests[],
	ut_tls_tests[], ut_life_tests[], ut_limits_tests[], ut_abi_tests[], ut_fs_tests[];
/* sched_setattr/sched_getattr (ut_sched.c) */
extern const struct ut_test ut_sched_tests[];
/* the sched_setscheduler family on the rt class (ut_rt.c) */
extern const struct ut_test ut_rt_tests[];
extern const struct ut_test ut_rt_smp_tests[];
/* user/tests/ut_poll.c: poll, ppoll, select, pselect6, rt_sigsuspend */
extern const struct ut_test ut_poll_tests[];
/* user/tests/ut_job.c: process groups, sessions, the controlling tty, raw reads */
extern const struct ut_test ut_job_tests[];
/* user/tests/ut_vdso.c: the vDSO's auxv entries, clocks and read-only pages */
extern const struct ut_test ut_vdso_tests[];
/* the shell's file side: pipes, /tmp, /proc per process */
extern const struct ut_test ut_pipe_tests[], ut_tmpfs_tests[], ut_procfs_tests[];
/* ut_entry.c: the int $0x80 gate (registers, DF, holes, exit work). */
extern const struct ut_test ut_entry_tests[];
/* ut_hostile.c: a red-team pass over fds, pipes, /tmp, memory, exec, the tty. */
extern const struct ut_test ut_hostile_tests[], ut_hostile_proc_tests[];
/* ut_hostile_sig.c: signals, timers, sleeps, priorities, limits and small calls. */
extern const struct ut_test ut_hostile_sig_tests[];
extern const struct ut_test ut_dyn_tests[];
/* ut_cmds.c: sync, reboot, syslog, vfork, times, sched_{get,set}affinity */
extern const struct ut_test ut_cmds_tests[];
/* ut_itimer.c: alarm, setitimer, getitimer */
extern const struct ut_test ut_itimer_tests[];
/* ut_futex_pi.c: PI futexes (LOCK_PI, UNLOCK_PI, TRYLOCK_PI) and the robust list */
extern const struct ut_test ut_futex_pi_tests[];
/* ut_mm.c: mprotect of present pages, file offsets, the ELF loader's layouts */
extern const struct ut_test ut_mm_tests[];
/* ut_maps.c: /proc/PID/maps, its format and which line shows what */
extern const struct ut_test ut_maps_tests[];
/* ut_acct.c: the accounted figures (/proc/stat, /proc/PID/stat, getrusage, times, meminfo ...) move */
extern const struct ut_test ut_acct_tests[];
/* ut_rlimit.c: rlimits reported as enforced (SIGPENDING, RSS, the defaults); mlock of holes, PROT_NONE */
extern const struct ut_test ut_rlimit_tests[];

#endif
