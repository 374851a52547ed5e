/*
 * user/tests/ut_entry.c - usertests: the int $0x80 gate itself
 * (arch/x86/entry.asm's vec_128, kernel/syscall.c's do_syscall), i.e. what
 * every system call relies on, whichever call it is:
 *
 *   syscall_regs     every register but eax comes back as it went in
 *                    (Linux i386's ABI), eflags too, and eax is the result;
 *   syscall_df       a caller with DF set still gets correct copies (the
 *                    kernel clears DF for itself) and gets its DF back;
 *   syscall_table_edges  the last entry of Linux's table and entries of
 *                    the private one work, the numbers just past each (and
 *                    before the private one) are -ENOSYS (holes inside:
 *                    ut_mem.c's nosys);
 *   syscall_sigwork  the exit work: a signal the call itself sends is taken
 *                    before the next user instruction, a blocked one waits
 *                    (the calls go on returning normally) until the
 *                    sigprocmask that unblocks it returns;
 *   syscall_restart  a sleeping read interrupted by a SA_RESTART handler
 *                    goes through the gate again and completes, with the
 *                    caller's registers.
 *
 * The registers are loaded and read back in one asm block around the
 * int $0x80, from and into static arrays (absolute addresses: no register
 * is needed to reach them), so the compiler holds no copies.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "ut.h"

#define EFLAGS_DF	0x400u
/* The flags a system call must hand back as they were (CF..OF, DF, and the
 * user-settable AC); IF is always set in user mode. */
#define EFLAGS_KEPT	0x40cd5u

static uint32_t regs_in[6], regs_out[6], flags_in, flags_out, with_df;
static long regs_ret;

/* int $0x80 with eax = NR and ebx..ebp = regs_in; afterwards regs_out =
 * ebx ecx edx esi edi ebp, flags_out = eflags (flags_in = before). */
static void gate_call(long nr, int set_df)
{
	regs_ret = nr;
	with_df = (uint32_t)set_df;
	__asm__ __volatile__(
		"push %%ebp\n\t"
		"mov %[i0], %%ebx\n\t"
		"mov %[i1], %%ecx\n\t"
		"mov %[i2], %%edx\n\t"
		"mov %[i3], %%esi\n\t"
		"mov %[i4], %%edi\n\t"
		"mov %[i5], %%ebp\n\t"
		"cmpl $0, %[df]\n\t"
		"je 1f\n\t"
		"std\n"
		"1:\n\t"
		"pushf\n\t"
		"popl %[fi]\n\t"
		"mov %[ret], %%eax\n\t"
		"int $0x80\n\t"
		"pushf\n\t"
		"popl %[fo]\n\t"
		"cld\n\t"
		"mov %%eax, %[ret]\n\t"
		"mov %%ebx, %[o0]\n\t"
		"mov %%ecx, %[o1]\n\t"
		"mov %%edx, %[o2]\n\t"
		"mov %%esi, %[o3]\n\t"
		"mov %%edi, %[o4]\n\t"
		"mov %%ebp, %[o5]\n\t"
		"pop %%ebp"
		: [ret] "+m"(regs_ret), [fi] "=m"(flags_in), [fo] "=m"(flags_out),
		  [o0] "=m"(regs_out[0]), [o1] "=m"(regs_out[1]), [o2] "=m"(regs_out[2]),
		  [o3] "=m"(regs_out[3]), [o4] "=m"(regs_out[4]), [o5] "=m"(regs_out[5])
		: [i0] "m"(regs_in[0]), [i1] "m"(regs_in[1]), [i2] "m"(regs_in[2]),
		  [i3] "m"(regs_in[3]), [i4] "m"(regs_in[4]), [i5] "m"(regs_in[5]),
		  [df] "m"(with_df)
		: "eax", "ebx", "ecx", "edx", "esi", "edi", "memory", "cc");
}

static void check_regs_kept(const char *what)
{
	for (int i = 0; i < 6; i++)
		CHECK(regs_out[i] == regs_in[i], "%s: argument register %d came back %08x, went in %08x",
		      what, i + 1, (unsigned)regs_out[i], (unsigned)regs_in[i]);
	CHECK((flags_out & EFLAGS_KEPT) == (flags_in & EFLAGS_KEPT),
	      "%s: eflags %08x before, %08x after", what, (unsigned)flags_in, (unsigned)flags_out);
}

static void syscall_regs(void)
{
	for (int i = 0; i < 6; i++)
		regs_in[i] = 0x11111111u * (uint32_t)(i + 1);
	gate_call(__NR_getpid, 0);
	CHECK(regs_ret == getpid(), "getpid through the gate returned %ld", regs_ret);
	check_regs_kept("getpid");
	/* a call that reads all six (mmap2 with a bad fd: -EBADF) */
	regs_in[0] = 0;			/* addr */
	regs_in[1] = PAGE_SIZE;		/* length */
	regs_in[2] = 3;			/* PROT_READ | PROT_WRITE */
	regs_in[3] = 1;			/* MAP_SHARED: not anonymous */
	regs_in[4] = 999;		/* fd */
	regs_in[5] = 0;			/* pgoffset */
	gate_call(__NR_mmap2, 0);
	CHECK(regs_ret == -EBADF, "mmap2(fd 999) returned %ld", regs_ret);
	check_regs_kept("mmap2");
	/* an unknown number: eax = -ENOSYS, nothing else touched */
	gate_call(999, 0);
	CHECK(regs_ret == -ENOSYS, "syscall 999 returned %ld", regs_ret);
	check_regs_kept("syscall 999");
}

static void syscall_df(void)
{
	static char name[] = "/tmp/ut-entry-df";
	static char buf[4096];
	static const char text[] = "forward, not backward";
	static struct utsname u, ref;
	int fd;

	/* uname: the kernel copies a whole struct out; the same bytes as with DF clear */
	CHECK(uname(&ref) == 0, "uname");
	memset(&u, 0, sizeof(u));
	regs_in[0] = (uint32_t)(uintptr_t)&u;
	gate_call(__NR_uname, 1);
	CHECK(regs_ret == 0, "uname with DF set returned %ld", regs_ret);
	CHECK(flags_out & EFLAGS_DF, "DF was not handed back (eflags %08x)", (unsigned)flags_out);
	CHECK(!memcmp(&u, &ref, sizeof(u)), "uname with DF set gave other bytes (sysname \"%s\")",
	      u.sysname);
	check_regs_kept("uname");
	/* write and read back a file: user copies both ways */
	fd = (int)sys_open((long)name, 0102 /* O_RDWR | O_CREAT */, 0600);
	CHECK(fd >= 0, "open %s: %d", name, fd);
	regs_in[0] = (uint32_t)fd;
	regs_in[1] = (uint32_t)(uintptr_t)text;
	regs_in[2] = sizeof(text);
	gate_call(__NR_write, 1);
	CHECK(regs_ret == (long)sizeof(text), "write with DF set returned %ld", regs_ret);
	EXPECT_RET(sys_lseek(fd, 0, 0), 0);
	regs_in[1] = (uint32_t)(uintptr_t)buf;
	regs_in[2] = sizeof(buf);
	gate_call(__NR_read, 1);
	CHECK(regs_ret == (long)sizeof(text), "read with DF set returned %ld", regs_ret);
	CHECK(!memcmp(buf, text, sizeof(text)), "read back \"%.*s\"", (int)sizeof(text) - 1, buf);
	sys_close(fd);
	sys_unlink((long)name);
}

static void syscall_table_edges(void)
{
	char buf[64];

	/* the last entry of Linux's table (its size is NR_syscalls) works,
	 * the first number past it does not */
	EXPECT_RET(__syscall(__NR_faccessat2, -100 /* AT_FDCWD */, (long)"/", 0, 0, 0, 0), 0);
	CHECK(NR_syscalls == __NR_faccessat2 + 1, "the table's last entry is %d", NR_syscalls - 1);
	EXPECT_RET(__syscall(NR_syscalls, 0, 0, 0, 0, 0, 0), -ENOSYS);
	/* the private table: its entries work (G+3 and G+1 here; the last,
	 * G+4 trace_marker, answers -ENOSYS itself while tracing is off),
	 * the numbers on either side of it do not */
	CHECK(sys_granule_sched_params((long)buf, sizeof(buf)) > 0, "granule_sched_params");
	CHECK(sys_granule_frames() > 0, "granule_frames");
	EXPECT_RET(__syscall(GRANULE_NR_BASE - 1, 0, 0, 0, 0, 0, 0), -ENOSYS);
	EXPECT_RET(__syscall(GRANULE_NR_BASE + NR_granule_syscalls, 0, 0, 0, 0, 0, 0), -ENOSYS);
	EXPECT_RET(__syscall(-4096, 0, 0, 0, 0, 0, 0), -ENOSYS);
}

static volatile int usr1_taken;

static void on_usr1(int sig)
{
	usr1_taken++;
}

static void syscall_sigwork(void)
{
	struct sigaction sa;
	sigset_t s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	/* sent by the call itself: taken on the way out of that call */
	CHECK(kill(getpid(), SIGUSR1) == 0 && usr1_taken == 1,
	      "the handler did not run on kill's return (%d)", usr1_taken);
	/* blocked: pending, and every call returns normally meanwhile */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	CHECK(sigprocmask(SIG_BLOCK, &s, NULL) == 0, "block");
	CHECK(kill(getpid(), SIGUSR1) == 0, "kill");
	for (int i = 0; i < 100; i++)
		CHECK(sys_getppid() > 0 && usr1_taken == 1, "a blocked signal was taken (%d)", usr1_taken);
	CHECK(sigpending(&s) == 0 && sigismember(&s, SIGUSR1), "SIGUSR1 not pending");
	/* unblocked: taken on the way out of that sigprocmask */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	CHECK(sigprocmask(SIG_UNBLOCK, &s, NULL) == 0 && usr1_taken == 2,
	      "the handler did not run on sigprocmask's return (%d)", usr1_taken);
}

/*
 * A read that sleeps in the pipe is interrupted by a SA_RESTART handler:
 * the call goes back through the gate (eax = orig_eax, eip back over the
 * int $0x80) once the handler's sigreturn restored the frame, and then
 * gets the byte; the argument registers are still the caller's.
 */
static void syscall_restart(void)
{
	static char b;
	struct sigaction sa;
	int fds[2];
	long me = sys_getpid(), pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	EXPECT_RET(sys_pipe((long)fds), 0);
	pid = sys_fork();
	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0) {
		ut_sleep_ns(2000000);
		sys_kill(me, SIGUSR1);
		ut_sleep_ns(2000000);
		sys_write(fds[1], (long)"r", 1);
		sys_exit(0);
	}
	regs_in[0] = (uint32_t)fds[0];
	regs_in[1] = (uint32_t)(uintptr_t)&b;
	regs_in[2] = 1;
	regs_in[3] = 0x44444444u;
	regs_in[4] = 0x55555555u;
	regs_in[5] = 0x66666666u;
	gate_call(__NR_read, 0);
	CHECK(regs_ret == 1 && b == 'r', "the restarted read returned %ld ('%c')", regs_ret, b);
	CHECK(usr1_taken == 1, "the handler ran %d times", usr1_taken);
	check_regs_kept("restarted read");
	ut_wait((int)pid);
	sys_close(fds[0]);
	sys_close(fds[1]);
}

const struct ut_test ut_entry_tests[] = {
	{ syscall_regs, "syscall_regs" },
	{ syscall_df, "syscall_df" },
	{ syscall_table_edges, "syscall_table_edges" },
	{ syscall_sigwork, "syscall_sigwork" },
	{ syscall_restart, "syscall_restart" },
	{ NULL, NULL },
};
