/*
 * user/tests/ut_hostile_proc.c - usertests: the red-team pass, second half
 * (the first is ut_hostile.c) - processes and signals against the blocking
 * calls: a pipe's other end killed while one sleeps in it, a signal storm
 * into poll, a stopped process killed and reaped, rt_sigtimedwait and futex
 * with bad timeouts, statx's flags, setpgid across sessions, clone's flag
 * rules, and a stack the process made unwritable or unmapped before a
 * signal: the process dies, the kernel goes on.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ut.h"

#define POLLIN		1
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define AT_FDCWD	(-100)
#define AT_EMPTY_PATH	0x1000
#define FUTEX_WAIT_BAD	99

struct ut_pollfd {
	int fd;
	short events, revents;
};

struct ts32 {
	long tv_sec, tv_nsec;
};

/* A child that sleeps 5 s holding what it inherited, then exits. */
static long holder(int close_fd)
{
	long pid = sys_fork();

	if (pid == 0) {
		sys_close(close_fd);
		ut_sleep_ns(5000000000ll);
		_exit(0);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	return pid;
}

/* A child that SIGKILLs VICTIM after 10 ms (while the parent sleeps). */
static long killer(long victim)
{
	long pid = sys_fork();

	if (pid == 0) {
		ut_sleep_ns(10000000);
		sys_kill(victim, SIGKILL);
		_exit(0);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	return pid;
}

/* A reader blocked on an empty pipe whose last writer is SIGKILLed sees end
 * of file; a writer blocked on a full pipe whose last reader is killed gets
 * EPIPE. */
static void pipe_peer_killed(void)
{
	int p[2];
	char c = 0, buf[4096];

	signal(SIGPIPE, SIG_IGN);
	EXPECT_RET(sys_pipe((long)p), 0);
	long w = holder(p[0]), k = killer(w);
	EXPECT_RET(sys_close(p[1]), 0);
	EXPECT_RET(sys_read(p[0], (long)&c, 1), 0);	/* woken by the writer's death */
	ut_wait((pid_t)k);
	ut_wait((pid_t)w);
	EXPECT_RET(sys_close(p[0]), 0);

	EXPECT_RET(sys_pipe((long)p), 0);
	long r = holder(p[1]);
	EXPECT_RET(sys_close(p[0]), 0);
	memset(buf, 'w', sizeof(buf));
	EXPECT_RET(sys_write(p[1], (long)buf, sizeof(buf)), sizeof(buf));	/* fills the ring */
	k = killer(r);
	EXPECT_RET(sys_write(p[1], (long)"x", 1), -EPIPE);	/* blocked, then no reader */
	ut_wait((pid_t)k);
	ut_wait((pid_t)r);
	EXPECT_RET(sys_close(p[1]), 0);
}

static volatile int storm_hits;

static void storm_handler(int sig)
{
	(void)sig;
	storm_hits++;
}

/* 300 signals into a process asleep in poll(): each interrupts it (-EINTR,
 * no SA_RESTART), none is lost for good, and the data still arrives. */
static void poll_storm(void)
{
	int p[2];
	struct ut_pollfd pfd;
	int eintr = 0;
	long r;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = storm_handler;
	sigaction(SIGUSR1, &sa, NULL);
	EXPECT_RET(sys_pipe((long)p), 0);
	pid_t parent = getpid();
	long pid = sys_fork();
	if (pid == 0) {
		for (int i = 0; i < 300; i++) {
			sys_kill(parent, SIGUSR1);
			if (i % 10 == 0)
				ut_sleep_ns(100000);
		}
		sys_write(p[1], (long)"!", 1);
		_exit(0);
	}
	pfd.fd = p[0];
	pfd.events = POLLIN;
	while ((r = sys_poll((long)&pfd, 1, 5000)) == -EINTR)
		eintr++;
	EXPECT_RET(r, 1);
	CHECK(pfd.revents == POLLIN, "revents %#x", pfd.revents);
	CHECK(eintr >= 1 && storm_hits >= eintr, "%d EINTRs, %d handler runs", eintr, storm_hits);
	ut_wait((pid_t)pid);
	EXPECT_RET(sys_poll(0, 0, 1), 0);		/* no fds, 1 ms: a sleep */
	EXPECT_RET(sys_poll(0, 1025, 0), -EINVAL);		/* past RLIMIT_NOFILE */
	EXPECT_RET(sys_poll(0, 0x40000000u, 0), -EINVAL);
	EXPECT_RET(sys_poll(0xC0000000u, 1, 0), -EFAULT);
	sys_close(p[0]);
	sys_close(p[1]);
	signal(SIGUSR1, SIG_DFL);
}

/* A stopped child is killed and reaped; one stopped and continued at once
 * exits normally. */
static void stopped_reap(void)
{
	int st;
	long pid = sys_fork();

	if (pid == 0) {
		sys_kill(getpid(), SIGSTOP);
		_exit(3);
	}
	EXPECT_RET(sys_wait4(pid, (long)&st, WUNTRACED, 0), pid);
	CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "status %#x", st);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
	for (int i = 0; i < 20; i++) {
		pid = sys_fork();
		if (pid == 0)
			_exit(4);
		sys_kill(pid, SIGSTOP);
		sys_kill(pid, SIGCONT);
		sys_kill(pid, SIGSTOP);
		sys_kill(pid, SIGCONT);
		EXPECT_RET(sys_wait4(pid, (long)&st, 0, 0), pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 4, "round %d: status %#x", i, st);
	}
}

/*
 * A stopped job whose process group the exit of its session's last outside
 * link leaves orphaned: nobody could ever continue it, so (POSIX, Linux's
 * kill_orphaned_pgrp) the group gets SIGHUP then SIGCONT and the job dies
 * of SIGHUP, to be reaped by init.  The session leader C forks the job J
 * in a group of its own; J stops; C exits.
 */
static void orphaned_stopped_job(void)
{
	int p[2];
	long job = 0;

	EXPECT_RET(sys_pipe((long)p), 0);
	long c = sys_fork();
	if (c == 0) {
		if (sys_setsid() < 0)
			_exit(2);
		long j = sys_fork();
		if (j == 0) {
			sys_setpgid(0, 0);
			sys_kill(sys_getpid(), SIGSTOP);
			_exit(6);		/* continued without a SIGHUP: wrong */
		}
		int st = 0;
		if (sys_wait4(j, (long)&st, WUNTRACED, 0) != j || !WIFSTOPPED(st))
			_exit(3);
		sys_write(p[1], (long)&j, sizeof(j));
		_exit(0);			/* J's group is orphaned now */
	}
	CHECK(c > 0, "fork: %ld", c);
	int st = ut_wait((pid_t)c);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "session leader: status %#x", st);
	EXPECT_RET(sys_read(p[0], (long)&job, sizeof(job)), sizeof(job));
	sys_close(p[0]);
	sys_close(p[1]);
	int tries = 0;
	while (sys_kill(job, 0) == 0 && tries++ < 200)
		ut_sleep_ns(1000000);
	EXPECT_RET(sys_kill(job, 0), -ESRCH);	/* died of SIGHUP, reaped by init */
}

static void bad_timeouts(void)
{
	uint64_t set = 1ull << (SIGUSR2 - 1);
	struct ts32 ts;
	int word = 5;

	ts = (struct ts32){ 0, 1000000000 };
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&ts, 8), -EINVAL);
	ts = (struct ts32){ -1, 0 };
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&ts, 8), -EINVAL);
	ts = (struct ts32){ 0, -1 };
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&ts, 8), -EINVAL);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, 0xC0000000u, 8), -EFAULT);
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&ts, 4), -EINVAL);
	EXPECT_RET(sys_rt_sigtimedwait(0xC0000000u, 0, (long)&ts, 8), -EFAULT);
	ts = (struct ts32){ 0, 1000 };
	EXPECT_RET(sys_rt_sigtimedwait((long)&set, 0, (long)&ts, 8), -EAGAIN);
	/* futex */
	ts = (struct ts32){ 0, 1000000000 };
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAIT, 5, (long)&ts, 0, 0), -EINVAL);
	ts = (struct ts32){ -1, 0 };
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAIT, 5, (long)&ts, 0, 0), -EINVAL);
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAIT, 6, 0, 0, 0), -EAGAIN);
	EXPECT_RET(sys_futex((long)&word + 1, FUTEX_WAIT, 5, 0, 0, 0), -EINVAL);
	EXPECT_RET(sys_futex(0xC0000000u, FUTEX_WAIT, 5, 0, 0, 0), -EFAULT);
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAKE, 0x7fffffff, 0, 0, 0), 0);
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAIT_BAD, 5, 0, 0, 0), -ENOSYS);
	/* a valid timeout runs out (it used to be ignored: the wait never ended) */
	ts = (struct ts32){ 0, 0 };
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAIT, 5, (long)&ts, 0, 0), -ETIMEDOUT);
	ts = (struct ts32){ 0, 2000000 };
	long long t0 = ut_cpu_ns(1 /* CLOCK_MONOTONIC */);
	EXPECT_RET(sys_futex((long)&word, FUTEX_WAIT, 5, (long)&ts, 0, 0), -ETIMEDOUT);
	long long slept = ut_cpu_ns(1) - t0;
	CHECK(slept >= 2000000 && slept < 4000000, "a 2 ms futex timeout took %lld ns", slept);
	struct { long long sec; long long nsec; } ts64 = { 0, 1000000 };
	EXPECT_RET(sys_futex_time64((long)&word, FUTEX_WAIT, 5, (long)&ts64, 0, 0), -ETIMEDOUT);
	ts64.nsec = -1;
	EXPECT_RET(sys_futex_time64((long)&word, FUTEX_WAIT, 5, (long)&ts64, 0, 0), -EINVAL);
}

static void statx_flags(void)
{
	char buf[256];

	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0x80000000u, 0x7ff, (long)buf), -EINVAL);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0, 0x80000000u, (long)buf), -EINVAL);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0, 0x7ff, 0), -EFAULT);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0, 0x7ff, 0xC0000000u), -EFAULT);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"", 0, 0x7ff, (long)buf), -ENOENT);
	EXPECT_RET(sys_statx(1, (long)"", AT_EMPTY_PATH, 0x7ff, (long)buf), 0);
	EXPECT_RET(sys_statx(0x7fffffff, (long)"", AT_EMPTY_PATH, 0x7ff, (long)buf), -EBADF);
	EXPECT_RET(sys_statx(1, (long)"x", 0, 0x7ff, (long)buf), -ENOTDIR);
}

static void pgid_sessions(void)
{
	EXPECT_RET(sys_setpgid(0, -1), -EINVAL);
	EXPECT_RET(sys_setpgid(-1, 0), -EINVAL);
	EXPECT_RET(sys_setpgid(0x3fffffff, 0), -ESRCH);
	EXPECT_RET(sys_getpgid(0x3fffffff), -ESRCH);
	EXPECT_RET(sys_getsid(0x3fffffff), -ESRCH);
	long pid = sys_fork();
	if (pid == 0) {				/* a session of its own */
		if (sys_setsid() < 0)
			_exit(2);
		ut_sleep_ns(5000000000ll);
		_exit(0);
	}
	ut_sleep_ns(10000000);
	/* moving into a group of another session, or moving a session leader */
	EXPECT_RET(sys_setpgid(0, pid), -EPERM);
	EXPECT_RET(sys_setpgid(pid, pid), -EPERM);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	ut_wait((pid_t)pid);
}

static void clone_flag_rules(void)
{
	EXPECT_RET(sys_clone(CLONE_THREAD, 0, 0, 0, 0), -EINVAL);		/* no SIGHAND */
	EXPECT_RET(sys_clone(CLONE_SIGHAND, 0, 0, 0, 0), -EINVAL);		/* no VM */
	EXPECT_RET(sys_clone(CLONE_THREAD | CLONE_SIGHAND, 0, 0, 0, 0), -EINVAL);
}

/* The process's own stack made read-only by a MAP_FIXED mapping: the next
 * push faults, the SIGSEGV frame cannot be written either, and the process
 * dies of SIGSEGV - no fault loop in the kernel. */
static void stack_readonly(uintptr_t arg)
{
	uint32_t sp;

	(void)arg;
	__asm__ volatile("movl %%esp, %0" : "=r"(sp));
	sys_mmap2((sp & ~(PAGE_SIZE - 1)) - PAGE_SIZE, 2 * PAGE_SIZE, PROT_READ,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	_exit(1);	/* the call's return already pushes nothing; the call does */
}

/* With the vDSO unmapped, a handler registered without SA_RESTORER runs,
 * then returns into the unmapped __kernel_sigreturn: SIGSEGV, as on 2.6.35,
 * whose frame points there whatever became of the mapping
 * (arch/x86/signal.c).  The kernel carries on. */
static void vdso_unmapped_signal(uintptr_t arg)
{
	(void)arg;
	storm_hits = 0;
	if (sys_munmap(0x08046000u, 2 * PAGE_SIZE))	/* the vDSO's data and text */
		_exit(2);
	struct { void *h; unsigned long flags; void *restorer; unsigned long long mask; } ka =
		{ (void *)storm_handler, 0, 0, 0 };
	sys_rt_sigaction(SIGUSR1, (long)&ka, 0, 8);
	sys_kill(sys_getpid(), SIGUSR1);
	_exit(storm_hits == 1 ? 7 : 1);		/* returned: the frame's retcode ran */
}

/* The trap flag set from user mode: the next instruction traps (#DB), the
 * process dies of SIGTRAP - also when that instruction is int $0x80, whose
 * gate clears TF for the kernel and whose iret gives it back. */
static void tf_plain(uintptr_t arg)
{
	(void)arg;
	__asm__ volatile("pushfl; orl $0x100, (%%esp); popfl; nop; nop" ::: "memory", "cc");
	_exit(1);
}

static void tf_syscall(uintptr_t arg)
{
	long r;

	(void)arg;
	__asm__ volatile("pushfl; orl $0x100, (%%esp); popfl; int $0x80; nop"
			 : "=a"(r) : "a"(__NR_getpid) : "memory", "cc");
	_exit(1);
}

/* Entry instructions and privileged ones from ring 3 (Linux's signals):
 * sysenter with no SYSENTER MSRs (#GP), syscall on a 32-bit Intel CPU
 * (#UD), far calls through null and kernel selectors, into with OF set
 * (#OF), bound out of range (#BR), hlt and cli. */
static void insn(uintptr_t which)
{
	static const int32_t bounds[2] = { 0, 1 };

	switch (which) {
	case 0: __asm__ volatile("movl $0xc0000000, %%ebp; sysenter" ::: "ebp", "memory"); break;
	case 1: __asm__ volatile(".byte 0x0f, 0x05" ::: "memory"); break;	/* syscall */
	case 2: __asm__ volatile("lcall $0, $0" ::: "memory"); break;
	case 3: __asm__ volatile("lcall $0x10, $0" ::: "memory"); break;	/* the kernel's CS */
	case 4: __asm__ volatile("movl $0x7fffffff, %%eax; addl $1, %%eax; .byte 0xce"
				 ::: "eax", "memory", "cc"); break;		/* into */
	case 5: __asm__ volatile("movl $5, %%eax; boundl %%eax, %0" :: "m"(bounds) : "eax", "memory"); break;
	case 6: __asm__ volatile("hlt"); break;
	case 7: __asm__ volatile("cli"); break;
	}
	_exit(1);
}

static void entry_insns(void)
{
	static const int sig[] = { SIGSEGV, SIGILL, SIGSEGV, SIGSEGV, SIGSEGV, SIGSEGV, SIGSEGV, SIGSEGV };
	static const char *const what[] = { "sysenter", "syscall", "lcall null", "lcall kernel CS",
					    "into", "bound", "hlt", "cli" };

	for (uintptr_t i = 0; i < sizeof(sig) / sizeof(sig[0]); i++)
		ut_expect_killed(insn, i, sig[i], what[i]);
}

static void hostile_stack(void)
{
	ut_expect_killed(stack_readonly, 0, SIGSEGV, "read-only stack");
	ut_expect_killed(tf_plain, 0, SIGTRAP, "TF set by popf");
	ut_expect_killed(tf_syscall, 0, SIGTRAP, "TF set across int $0x80");
	if (ut_aux(33 /* AT_SYSINFO_EHDR */))
		ut_expect_killed(vdso_unmapped_signal, 0, SIGSEGV, "a signal's return into the unmapped vDSO");
}

const struct ut_test ut_hostile_proc_tests[] = {
	{ pipe_peer_killed, "hostile_pipe_peer_killed" },
	{ poll_storm, "hostile_poll_storm" },
	{ stopped_reap, "hostile_stopped_reap" },
	{ orphaned_stopped_job, "hostile_orphaned_stop" },
	{ bad_timeouts, "hostile_bad_timeouts" },
	{ statx_flags, "hostile_statx" },
	{ pgid_sessions, "hostile_pgid_sessions" },
	{ clone_flag_rules, "hostile_clone_flags" },
	{ hostile_stack, "hostile_stack" },
	{ entry_insns, "hostile_entry_insns" },
	{ NULL, NULL },
};
