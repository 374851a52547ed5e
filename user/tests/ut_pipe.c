/*
 * user/tests/ut_pipe.c - usertests: pipe and pipe2 (kernel/fs/pipe.c) -
 * bad pointers and flags, data through the ring in order, PIPE_BUF
 * atomicity, end of file, EPIPE and SIGPIPE, O_NONBLOCK, a read a signal
 * interrupts, fork and close-on-exec, the fd and pipe limits, the user
 * copies' shortcut and the wakeups of readers and pollers.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "ut.h"

#define O_RDONLY	0
#define O_WRONLY	1
#define O_NONBLOCK	04000
#define O_CLOEXEC	02000000
#define F_GETFD		1
#define F_GETFL		3
#define S_IFMT		0170000
#define S_IFIFO		0010000
#define PIPE_SIZE	4096	/* Granule's ring (Linux 2.6.35: 65536) */

/* Linux i386's struct stat64, enough of it for st_mode. */
struct ut_stat64 {
	uint64_t st_dev;
	uint8_t pad0[4];
	uint32_t st_ino32, st_mode, st_nlink, st_uid, st_gid;
	uint8_t rest[96 - 28];
} __attribute__((packed));

static void pipe_calls(void)
{
	int fds[2] = { -1, -1 };
	char b[16];
	struct ut_stat64 st;

	EXPECT_RET(sys_pipe(0), -EFAULT);
	EXPECT_RET(sys_pipe(0xC0000000u), -EFAULT);
	EXPECT_RET(sys_pipe2(0x40000000u, 0), -EFAULT);
	EXPECT_RET(sys_pipe2((long)fds, 1), -EINVAL);		/* O_WRONLY is no pipe2 flag */
	EXPECT_RET(sys_pipe2((long)fds, 0x80000000u), -EINVAL);
	EXPECT_RET(sys_pipe((long)fds), 0);
	CHECK(fds[0] == 3 && fds[1] == 4, "pipe gave fds %d %d (the failed calls leaked?)",
	      fds[0], fds[1]);
	EXPECT_RET(sys_write(fds[1], (long)"hello", 5), 5);
	EXPECT_RET(sys_write(fds[1], (long)" world", 6), 6);
	EXPECT_RET(sys_read(fds[0], (long)b, 3), 3);
	CHECK(!memcmp(b, "hel", 3), "read %.3s", b);
	EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), 8);
	CHECK(!memcmp(b, "lo world", 8), "read %.8s", b);
	EXPECT_RET(sys_read(fds[0], (long)b, 0), 0);
	EXPECT_RET(sys_write(fds[0], (long)"x", 1), -EBADF);	/* the read end */
	EXPECT_RET(sys_read(fds[1], (long)b, 1), -EBADF);	/* the write end */
	EXPECT_RET(sys_lseek(fds[0], 0, 0), -ESPIPE);
	EXPECT_RET(sys_lseek(fds[1], 0, 9), -ESPIPE);
	EXPECT_RET(sys_fstat64(fds[0], (long)&st), 0);
	CHECK((st.st_mode & S_IFMT) == S_IFIFO, "fstat mode %o", st.st_mode);
	EXPECT_RET(sys_fcntl64(fds[0], F_GETFL, 0), O_RDONLY);
	EXPECT_RET(sys_fcntl64(fds[1], F_GETFL, 0), O_WRONLY);
	/* bad buffers: nothing is consumed or added */
	EXPECT_RET(sys_write(fds[1], (long)"ab", 2), 2);
	EXPECT_RET(sys_read(fds[0], 0x40000000u, 2), -EFAULT);
	EXPECT_RET(sys_read(fds[0], 0xC0000000u, 2), -EFAULT);
	EXPECT_RET(sys_write(fds[1], 0x40000000u, 2), -EFAULT);
	EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), 2);
	CHECK(!memcmp(b, "ab", 2), "read %.2s after the faults", b);
	/* dup: the write end stays open through the copy */
	long w2 = sys_dup(fds[1]);
	CHECK(w2 == 5, "dup gave %ld", w2);
	EXPECT_RET(sys_close(fds[1]), 0);
	EXPECT_RET(sys_write(w2, (long)"z", 1), 1);
	EXPECT_RET(sys_close(w2), 0);
	EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), 1);
	EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), 0);	/* no writer: end of file */
	EXPECT_RET(sys_close(fds[0]), 0);
}

static void write_no_reader(uintptr_t arg)
{
	int fds[2];

	(void)arg;
	EXPECT_RET(sys_pipe((long)fds), 0);
	EXPECT_RET(sys_close(fds[0]), 0);
	sys_write(fds[1], (long)"x", 1);	/* SIGPIPE kills */
}

static void pipe_epipe(void)
{
	int fds[2];

	ut_expect_killed(write_no_reader, 0, SIGPIPE, "write to a pipe with no reader");
	signal(SIGPIPE, SIG_IGN);
	EXPECT_RET(sys_pipe((long)fds), 0);
	EXPECT_RET(sys_close(fds[0]), 0);
	EXPECT_RET(sys_write(fds[1], (long)"x", 1), -EPIPE);
	EXPECT_RET(sys_write(fds[1], (long)"x", 0), 0);
	EXPECT_RET(sys_close(fds[1]), 0);
}

static void pipe_nonblock(void)
{
	static char big[PIPE_SIZE + 100];
	int fds[2];
	char b[8];

	EXPECT_RET(sys_pipe2((long)fds, O_NONBLOCK | O_CLOEXEC), 0);
	EXPECT_RET(sys_fcntl64(fds[0], F_GETFL, 0), O_RDONLY | O_NONBLOCK);
	EXPECT_RET(sys_fcntl64(fds[1], F_GETFD, 0), 1);
	EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), -EAGAIN);
	memset(big, 'p', sizeof(big));
	EXPECT_RET(sys_write(fds[1], (long)big, PIPE_SIZE - 10), PIPE_SIZE - 10);
	/* PIPE_BUF: 20 bytes do not fit in 10, so none go; a long write takes what fits */
	EXPECT_RET(sys_write(fds[1], (long)big, 20), -EAGAIN);
	EXPECT_RET(sys_write(fds[1], (long)big, sizeof(big)), 10);
	EXPECT_RET(sys_write(fds[1], (long)big, 1), -EAGAIN);
	EXPECT_RET(sys_read(fds[0], (long)big, sizeof(big)), PIPE_SIZE);
	EXPECT_RET(sys_read(fds[0], (long)b, 1), -EAGAIN);
	EXPECT_RET(sys_close(fds[1]), 0);
	EXPECT_RET(sys_read(fds[0], (long)b, 1), 0);		/* EOF beats EAGAIN */
	EXPECT_RET(sys_close(fds[0]), 0);
}

/* A child writes 3 x PIPE_SIZE + 7 patterned bytes, blocking on the full
 * ring; the parent reads them all back in order. */
static void pipe_fork(void)
{
	enum { TOTAL = 3 * PIPE_SIZE + 7 };
	static char buf[TOTAL];
	int fds[2];
	long got = 0, r;

	EXPECT_RET(sys_pipe((long)fds), 0);
	long pid = sys_fork();
	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0) {
		sys_close(fds[0]);
		for (int i = 0; i < TOTAL; i++)
			buf[i] = (char)(i * 7 + i / 251);
		sys_exit(sys_write(fds[1], (long)buf, TOTAL) == TOTAL ? 0 : 3);
	}
	EXPECT_RET(sys_close(fds[1]), 0);
	ut_sleep_ns(2000000);		/* let the writer fill the ring and block */
	while ((r = sys_read(fds[0], (long)buf + got, 1000)) > 0)
		got += r;
	CHECK(r == 0 && got == TOTAL, "read %ld bytes (last %ld), expected %d", got, r, TOTAL);
	for (int i = 0; i < TOTAL; i++)
		CHECK(buf[i] == (char)(i * 7 + i / 251), "byte %d is wrong", i);
	int st = ut_wait((int)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer status %#x", st);
	EXPECT_RET(sys_close(fds[0]), 0);
}

static volatile int got_usr1;
static void on_usr1(int sig) { (void)sig; got_usr1 = 1; }

/* A blocked read ends with -EINTR when a handler without SA_RESTART runs. */
static void pipe_eintr(void)
{
	struct sigaction sa;
	int fds[2];
	char b;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	EXPECT_RET(sys_pipe((long)fds), 0);
	long me = sys_getpid(), pid = sys_fork();
	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0) {
		ut_sleep_ns(2000000);
		sys_kill(me, SIGUSR1);
		sys_exit(0);
	}
	EXPECT_RET(sys_read(fds[0], (long)&b, 1), -EINTR);
	CHECK(got_usr1, "the handler did not run");
	ut_wait((int)pid);
	EXPECT_RET(sys_close(fds[0]), 0);
	EXPECT_RET(sys_close(fds[1]), 0);
}

/* Each level closes the fds it inherited, makes pipes until its fds run out (-EMFILE),
 * then forks the next level, which keeps its parent's pipes alive; the
 * kernel-wide limit (-ENFILE, 512 pipes) comes at the second level.
 * Exit status: the level that saw -ENFILE. */
static void pipe_level(int depth)
{
	int fds[2];
	long r;

	while ((r = sys_pipe((long)fds)) == 0)
		;
	if (r == -ENFILE)
		sys_exit(depth);
	if (r != -EMFILE || depth > 10)
		sys_exit(depth > 10 ? 99 : 100 + (int)-r);	/* 100 + errno */
	long pid = sys_fork();
	if (pid < 0)
		sys_exit(101);
	if (pid == 0) {
		for (int fd = 3; fd < 1024; fd++)
			sys_close(fd);		/* the parent keeps those pipes open */
		pipe_level(depth + 1);
	}
	int st = ut_wait((int)pid);
	sys_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 102);
}

static void pipe_limits_child(uintptr_t arg)
{
	(void)arg;
	pipe_level(1);
}

static void pipe_limits(void)
{
	int fds[2];
	int st = ut_run_child(pipe_limits_child, 0);

	/* 1021 free fds (0-2 are the console) hold 510 pipes a level; 512 / 510 */
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "pipe limits: status %#x, expected exit 2", st);
	EXPECT_RET(sys_pipe((long)fds), 0);	/* all freed again */
	EXPECT_RET(sys_close(fds[0]), 0);
	EXPECT_RET(sys_close(fds[1]), 0);
}

/*
 * The user copies' one-page shortcut (kernel/mm/uaccess.c) and the
 * kernel's string-instruction memcpy (arch/x86/string.asm): every length
 * 1..40 at every alignment of source and destination comes back intact
 * with the bytes around it untouched; a buffer across a page boundary, a
 * page not yet touched (demand zero), a copy-on-write page after fork and
 * a read-only page (the program's text: -EFAULT, nothing consumed) each
 * take the general path and behave as before.
 */
static char two_pages[2 * PAGE_SIZE] __attribute__((aligned(4096)));
static char untouched[3 * PAGE_SIZE] __attribute__((aligned(4096)));

static void pipe_copies(void)
{
	static char src[64], dst[64];
	int fds[2];

	EXPECT_RET(sys_pipe((long)fds), 0);
	for (int i = 0; i < 64; i++)
		src[i] = (char)(i * 13 + 1);
	for (int len = 1; len <= 40; len++)
		for (int so = 0; so < 8; so++) {
			int d = (so * 3 + len) % 8;
			memset(dst, 0x5a, sizeof(dst));
			EXPECT_RET(sys_write(fds[1], (long)src + so, len), len);
			EXPECT_RET(sys_read(fds[0], (long)dst + d, len), len);
			CHECK(!memcmp(dst + d, src + so, len), "len %d, offsets %d/%d: wrong bytes",
			      len, so, d);
			for (int i = 0; i < 64; i++)
				CHECK(i >= d && i < d + len ? 1 : dst[i] == 0x5a,
				      "len %d, offsets %d/%d: byte %d outside the copy changed", len, so, d, i);
		}
	/* across a page boundary, both ways */
	memcpy(two_pages + PAGE_SIZE - 3, "crossing", 8);
	EXPECT_RET(sys_write(fds[1], (long)two_pages + PAGE_SIZE - 3, 8), 8);
	memset(two_pages, 0, sizeof(two_pages));
	EXPECT_RET(sys_read(fds[0], (long)two_pages + PAGE_SIZE - 5, 8), 8);
	CHECK(!memcmp(two_pages + PAGE_SIZE - 5, "crossing", 8), "page-crossing copy");
	/* into a page never touched: the copy's fault makes it */
	EXPECT_RET(sys_write(fds[1], (long)"zero", 4), 4);
	EXPECT_RET(sys_read(fds[0], (long)untouched + PAGE_SIZE + 100, 4), 4);
	CHECK(!memcmp(untouched + PAGE_SIZE + 100, "zero", 4) && !untouched[PAGE_SIZE + 104],
	      "copy into a demand-zero page");
	/* into read-only text: -EFAULT and the byte stays in the pipe */
	EXPECT_RET(sys_write(fds[1], (long)"t", 1), 1);
	EXPECT_RET(sys_read(fds[0], (long)(uintptr_t)pipe_calls, 1), -EFAULT);
	EXPECT_RET(sys_read(fds[0], (long)dst, 1), 1);
	CHECK(dst[0] == 't', "the byte a faulting read left is %#x", dst[0]);
	/* copy-on-write: after fork the child reads into a shared page (the
	 * copy breaks the sharing); the parent's copy keeps its bytes */
	memcpy(two_pages, "parent", 6);
	long pid = sys_fork();
	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0) {
		if (sys_write(fds[1], (long)"child!", 6) != 6 || sys_read(fds[0], (long)two_pages, 6) != 6)
			sys_exit(2);
		sys_exit(memcmp(two_pages, "child!", 6) ? 3 : 0);
	}
	int st = ut_wait((int)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child's copy into a COW page: status %#x", st);
	CHECK(!memcmp(two_pages, "parent", 6), "the child's read changed the parent's page");
	EXPECT_RET(sys_close(fds[0]), 0);
	EXPECT_RET(sys_close(fds[1]), 0);
}

struct ut_pollfd { int fd; short events, revents; };

/* Our voluntary context switches so far (/proc/self/status). */
static long nvcsw(void)
{
	static const char key[] = "\nvoluntary_ctxt_switches:";
	char buf[1024];
	long fd = sys_open((long)"/proc/self/status", O_RDONLY, 0), n;

	CHECK(fd >= 0, "open /proc/self/status: %ld", fd);
	n = sys_read(fd, (long)buf, sizeof(buf) - 1);
	sys_close(fd);
	CHECK(n > 0, "read /proc/self/status: %ld", n);
	buf[n] = '\0';
	char *v = strstr(buf, key);
	CHECK(v, "no voluntary_ctxt_switches in /proc/self/status");
	return strtol(v + sizeof(key) - 1, NULL, 10);
}

/*
 * A write wakes whoever waits on the pipe's queue - a blocked reader and a
 * blocked poll() - now that an empty queue is skipped without a call
 * (wake_up_all).  The child writes only once the parent sleeps, which the
 * parent's voluntary switch count proves.  It waits for that itself, with
 * /proc/PPID/stat's state 'S': the order of fork alone is the scheduler's
 * (2.6.35's CFS runs the parent on, START_DEBIT; 6.12's EEVDF gives the
 * child half a slice's deadline and may run it first), and on a second CPU
 * the child would write while the parent runs.
 */

/* The child: wait until the parent sleeps, then write one byte. */
static void write_once_parent_sleeps(int fd)
{
	char path[32], buf[512];

	snprintf(path, sizeof(path), "/proc/%ld/stat", sys_getppid());
	while (*ut_stat_field(path, 3, buf, sizeof(buf)) != 'S')
		sys_sched_yield();
	sys_exit(sys_write(fd, (long)"w", 1) == 1 ? 0 : 2);
}

static void pipe_wakeups(void)
{
	struct ut_pollfd pfd;
	int fds[2];
	char b[4];

	ut_one_cpu();
	EXPECT_RET(sys_pipe((long)fds), 0);
	for (int round = 0; round < 2; round++) {
		long pid = sys_fork();
		CHECK(pid >= 0, "fork: %ld", pid);
		if (pid == 0)
			write_once_parent_sleeps(fds[1]);
		long before = nvcsw();
		if (round == 0) {
			EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), 1);
		} else {
			pfd = (struct ut_pollfd){ .fd = fds[0], .events = 1 /* POLLIN */ };
			EXPECT_RET(sys_poll((long)&pfd, 1, -1), 1);
			CHECK(pfd.revents == 1, "poll revents %#x", pfd.revents);
			EXPECT_RET(sys_read(fds[0], (long)b, sizeof(b)), 1);
		}
		CHECK(nvcsw() > before, "%s: the parent never slept", round ? "poll" : "read");
		int st = ut_wait((int)pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer status %#x", st);
	}
	EXPECT_RET(sys_close(fds[0]), 0);
	EXPECT_RET(sys_close(fds[1]), 0);
}

const struct ut_test ut_pipe_tests[] = {
	{ pipe_calls, "pipe" },
	{ pipe_epipe, "pipe_epipe" },
	{ pipe_nonblock, "pipe_nonblock" },
	{ pipe_fork, "pipe_fork" },
	{ pipe_eintr, "pipe_eintr" },
	{ pipe_limits, "pipe_limits" },
	{ pipe_copies, "pipe_copies" },
	{ pipe_wakeups, "pipe_wakeups" },
	{ NULL, NULL },
};
