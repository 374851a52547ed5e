/*
 * user/tests/ut_dyn.c - what a dynamically linked glibc program asks of the
 * kernel beyond a static one (ld-linux.so.2 and NPTL; Debian's rt-tests):
 * private mappings of files, pread64, the mlock family, the _BITSET
 * futex operations (and FUTEX_WAKE's EINVAL on a PI futex's word), and an
 * fd table past 64.  The programs themselves run in
 * tests/system/test_rttests.py.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ut.h"

#define O_WRONLY	1
#define O_CREAT		0100
#define MAP_SHARED	1
#define MAP_FIXED	0x10
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_CLOCK_REALTIME	256
#define CLOCK_REALTIME	0
#define CLOCK_MONOTONIC	1

static const char prog[] = "/bin/hello";	/* an initrd file larger than two pages */

static long file_size(const char *path)
{
	long fd = sys_open((long)path, O_RDONLY, 0), n = 0, r;
	static char buf[4096];

	CHECK(fd >= 0, "open %s: %ld", path, fd);
	while ((r = sys_read(fd, (long)buf, sizeof(buf))) > 0)
		n += r;
	sys_close(fd);
	return n;
}

static void read_byte(uintptr_t a)
{
	(void)*(volatile char *)a;
}

/* A private mapping of an initrd file shows the file's bytes (read() agrees),
 * at an offset too; the last page is zero past the end, and the page after
 * it is SIGBUS, as Linux's filemap_fault; a write stays private. */
static void mmap_file(void)
{
	static char want[2 * PAGE_SIZE];
	long size = file_size(prog), fd = sys_open((long)prog, O_RDONLY, 0);

	CHECK(size > (long)PAGE_SIZE + 100, "%s is %ld bytes", prog, size);
	long p = sys_mmap2(0, size + PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(MAPPED(p), "mmap2 %s: %ld", prog, p);
	EXPECT_RET(sys_pread64(fd, (long)want, sizeof(want), 0, 0), sizeof(want));
	for (unsigned i = 0; i < sizeof(want); i++)
		CHECK(((char *)p)[i] == want[i], "byte %u differs from read()", i);
	const char *end = (const char *)p + size;	/* the last page's tail */
	for (long i = 0; i < (long)(-size & (PAGE_SIZE - 1)); i++)
		CHECK(end[i] == 0, "byte %ld past the end is %d", i, end[i]);
	long past = (p + size + PAGE_SIZE - 1) & -(long)PAGE_SIZE;	/* a page wholly past the end */
	ut_expect_killed(read_byte, (uintptr_t)past, SIGBUS, "a read of a page past the file's end");
	long q = sys_mmap2(0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 1);	/* pgoff 1 */
	CHECK(MAPPED(q), "mmap2 at page 1: %ld", q);
	CHECK(*(char *)q == want[PAGE_SIZE], "page 1 differs");
	*(volatile char *)q = (char)(want[PAGE_SIZE] + 1);	/* private: not the file's */
	long again = sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 1);
	CHECK(MAPPED(again) && *(char *)again == want[PAGE_SIZE], "a private write reached the file");
	/* ld.so's way: reserve the whole file, then map a part of it MAP_FIXED inside. */
	EXPECT_RET(sys_mmap2(p + PAGE_SIZE, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0),
		   p + PAGE_SIZE);
	CHECK(((char *)p)[PAGE_SIZE] == want[0], "MAP_FIXED over the reservation");
	EXPECT_RET(sys_munmap(p, size + PAGE_SIZE), 0);
	EXPECT_RET(sys_munmap(q, PAGE_SIZE), 0);
	EXPECT_RET(sys_munmap(again, PAGE_SIZE), 0);
	EXPECT_RET(sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0), -EINVAL);
	EXPECT_RET(sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0xffffffffu), -EOVERFLOW);
	sys_close(fd);
	EXPECT_RET(sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0), -EBADF);
	fd = sys_open((long)"/tmp/ut-dyn", O_WRONLY | O_CREAT, 0644);
	EXPECT_RET(sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0), -EACCES);
	sys_close(fd);
	fd = sys_open((long)"/tmp/ut-dyn", O_RDONLY, 0);
	EXPECT_RET(sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0), -ENODEV);	/* no mmap op */
	sys_close(fd);
	sys_unlink((long)"/tmp/ut-dyn");
}

/* A mapping's pages survive fork (copy on write) and a partial munmap. */
static void mmap_file_fork(void)
{
	long fd = sys_open((long)prog, O_RDONLY, 0);
	long p = sys_mmap2(0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

	CHECK(MAPPED(p), "mmap2: %ld", p);
	char first = *(char *)p, third = ((char *)p)[2 * PAGE_SIZE];
	EXPECT_RET(sys_munmap(p + PAGE_SIZE, PAGE_SIZE), 0);	/* split: the upper part keeps its offset */
	long pid = sys_fork();
	if (pid == 0) {
		*(char *)p = 1;
		_exit(((char *)p)[2 * PAGE_SIZE] == third ? 0 : 1);
	}
	int st = ut_wait((pid_t)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	CHECK(*(char *)p == first && ((char *)p)[2 * PAGE_SIZE] == third, "parent's pages changed");
	sys_munmap(p, 3 * PAGE_SIZE);
	sys_close(fd);
}

/* pread64 reads at an offset without moving the file's; pipes refuse it. */
static void pread64(void)
{
	char a[16], b[16];
	int pfd[2];
	long fd = sys_open((long)prog, O_RDONLY, 0);

	EXPECT_RET(sys_pread64(fd, (long)a, 16, 100, 0), 16);
	EXPECT_RET(sys_read(fd, (long)b, 16), 16);		/* still at 0 */
	EXPECT_RET(sys_lseek(fd, 100, 0), 100);
	EXPECT_RET(sys_read(fd, (long)b, 16), 16);
	for (int i = 0; i < 16; i++)
		CHECK(a[i] == b[i], "byte %d", i);
	EXPECT_RET(sys_pread64(fd, (long)a, 16, 1 << 30, 0), 0);	/* past the end */
	EXPECT_RET(sys_pread64(fd, (long)a, 16, 0, 0x80000000), -EINVAL);	/* negative */
	EXPECT_RET(sys_pread64(fd, 0xC0000000, 16, 0, 0), -EFAULT);
	sys_close(fd);
	EXPECT_RET(sys_pread64(fd, (long)a, 16, 0, 0), -EBADF);
	EXPECT_RET(sys_pipe((long)pfd), 0);
	EXPECT_RET(sys_pread64(pfd[0], (long)a, 1, 0, 0), -ESPIPE);
	sys_close(pfd[0]);
	sys_close(pfd[1]);
}

/* The kB figure after KEY ("VmLck:") in /proc/self/status. */
static unsigned long status_kb(const char *key)
{
	static char buf[2048];
	size_t n = strlen(key);

	CHECK(ut_slurp("/proc/self/status", buf, sizeof(buf)) > 0, "read /proc/self/status");
	for (const char *p = buf; *p; p++)
		if (!strncmp(p, key, n))
			return strtoul(p + n, NULL, 10);
	CHECK(0, "no %s in /proc/self/status", key);
	return 0;
}

/* Nothing is paged out: the mlock family marks what is locked, and
 * /proc/self/status's VmLck counts it (kernel/mm/mlock.c): the pages of a
 * range, split off its area; everything mapped but the vDSO's two pages
 * after mlockall, and what is mapped later with MCL_FUTURE; nothing after
 * munlockall. */
static void mlock(void)
{
	long p = sys_mmap2(0, 2 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0), q;

	CHECK(status_kb("VmLck:") == 0, "VmLck %lu kB before any lock", status_kb("VmLck:"));
	EXPECT_RET(sys_mlock(p + 100, PAGE_SIZE), 0);		/* touches both pages */
	CHECK(status_kb("VmLck:") == 8, "VmLck %lu kB, expected 8", status_kb("VmLck:"));
	EXPECT_RET(sys_munlock(p, PAGE_SIZE), 0);
	CHECK(status_kb("VmLck:") == 4, "VmLck %lu kB, expected 4", status_kb("VmLck:"));
	EXPECT_RET(sys_munlock(p, 2 * PAGE_SIZE), 0);
	CHECK(status_kb("VmLck:") == 0, "VmLck %lu kB after munlock", status_kb("VmLck:"));
	EXPECT_RET(sys_mlock(0xBFF00000u, 0x200000), -ENOMEM);	/* past TASK_SIZE */
	EXPECT_RET(sys_mlockall(3), 0);			/* MCL_CURRENT | MCL_FUTURE */
	CHECK(status_kb("VmLck:") == status_kb("VmSize:") - 8, "VmLck %lu kB of VmSize %lu after mlockall",
	      status_kb("VmLck:"), status_kb("VmSize:"));
	q = sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0);
	CHECK(status_kb("VmLck:") == status_kb("VmSize:") - 8, "VmLck %lu kB: a new mapping not locked",
	      status_kb("VmLck:"));
	EXPECT_RET(sys_mlockall(0), -EINVAL);
	EXPECT_RET(sys_mlockall(4), -EINVAL);		/* MCL_ONFAULT alone */
	EXPECT_RET(sys_mlockall(8), -EINVAL);
	EXPECT_RET(sys_munlockall(), 0);
	CHECK(status_kb("VmLck:") == 0, "VmLck %lu kB after munlockall", status_kb("VmLck:"));
	sys_munmap(p, 2 * PAGE_SIZE);
	sys_munmap(q, PAGE_SIZE);
}

/* VmPeak keeps the largest VmSize across an munmap (hiwater_vm); a mapping
 * adds its size to VmSize and VmData, and munmap takes it away again. */
static void vmpeak(void)
{
	unsigned long size = status_kb("VmSize:"), data = status_kb("VmData:");
	long p = sys_mmap2(0, 64 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0);

	CHECK(MAPPED(p), "mmap2: %ld", p);
	CHECK(status_kb("VmSize:") == size + 256 && status_kb("VmData:") == data + 256,
	      "VmSize %lu, VmData %lu kB after a 256-kB mapping (were %lu, %lu)",
	      status_kb("VmSize:"), status_kb("VmData:"), size, data);
	EXPECT_RET(sys_munmap(p, 64 * PAGE_SIZE), 0);
	CHECK(status_kb("VmSize:") == size, "VmSize %lu kB after munmap, was %lu", status_kb("VmSize:"), size);
	CHECK(status_kb("VmPeak:") >= size + 256, "VmPeak %lu kB, VmSize reached %lu",
	      status_kb("VmPeak:"), size + 256);
}

static volatile int bitset_word;

static void bitset_waker(void)
{
	ut_sleep_ns(2000000);
	/* A wake for other bits leaves the waiter asleep; one for its bit wakes it. */
	long r = sys_futex((long)&bitset_word, FUTEX_WAKE_BITSET, 1, 0, 0, 0x2);
	bitset_word = r == 0 ? 1 : 100;
	sys_futex((long)&bitset_word, FUTEX_WAKE_BITSET, 1, 0, 0, 0x1);
	_exit(0);
}

/* FUTEX_WAIT_BITSET: absolute timeouts on either clock, bitset matching, EINVAL for 0. */
static void futex_bitset(void)
{
	static char stack[8192] __attribute__((aligned(16)));
	struct { long long sec; long nsec; long pad; } ts;
	long t[2];
	int w = 5;

	EXPECT_RET(sys_futex((long)&w, FUTEX_WAIT_BITSET, 5, 0, 0, 0), -EINVAL);
	EXPECT_RET(sys_futex((long)&w, FUTEX_WAKE_BITSET, 1, 0, 0, 0), -EINVAL);
	EXPECT_RET(sys_futex((long)&w, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 5, 0, 0, 0), -ENOSYS);
	for (int clock = CLOCK_REALTIME; clock <= CLOCK_MONOTONIC; clock++) {
		sys_clock_gettime(clock, (long)t);
		ts = (typeof(ts)){ t[0], t[1] + 1000000, 0 };	/* 1 ms from now, absolute */
		if (ts.nsec >= 1000000000) {
			ts.sec++;
			ts.nsec -= 1000000000;
		}
		int op = FUTEX_WAIT_BITSET | (clock == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
		EXPECT_RET(sys_futex_time64((long)&w, op, 5, (long)&ts, 0, ~0u), -ETIMEDOUT);
		ts = (typeof(ts)){ 0, 1, 0 };			/* long past: at once */
		EXPECT_RET(sys_futex_time64((long)&w, op, 5, (long)&ts, 0, ~0u), -ETIMEDOUT);
	}
	bitset_word = 0;
	long tid = ut_clone(CLONE_VM | 17 /* SIGCHLD */, stack, sizeof(stack), 0, 0, bitset_waker);
	CHECK(tid > 0, "clone: %ld", tid);
	EXPECT_RET(sys_futex((long)&bitset_word, FUTEX_WAIT_BITSET, 0, 0, 0, 0x1), 0);
	CHECK(bitset_word == 1, "a wake for bit 1 woke the bit-0 waiter (%d)", bitset_word);
	ut_wait((pid_t)tid);
}

#define FUTEX_LOCK_PI	6
#define FUTEX_UNLOCK_PI	7
#define FUTEX_WAITERS	0x80000000u

static volatile uint32_t pi_word;

/* Waits for pi_word in FUTEX_LOCK_PI, then lets it go: 0 if both went well. */
static void pi_waiter(void)
{
	long r = sys_futex((long)&pi_word, FUTEX_LOCK_PI, 0, 0, 0, 0);

	_exit(r == 0 && sys_futex((long)&pi_word, FUTEX_UNLOCK_PI, 0, 0, 0, 0) == 0 ? 0 : 1);
}

/* FUTEX_WAKE on a word a PI waiter waits on is EINVAL (2.6.35 futex_wake:
 * a queued futex_q with a pi_state), the waiter left waiting for the lock. */
static void futex_wake_pi(void)
{
	static char stack[16384] __attribute__((aligned(16)));

	pi_word = (uint32_t)sys_gettid();	/* ours, uncontended */
	long tid = ut_clone(CLONE_VM | 17 /* SIGCHLD */, stack, sizeof(stack), 0, 0, pi_waiter);
	CHECK(tid > 0, "clone: %ld", tid);
	for (int i = 0; i < 100 && !(pi_word & FUTEX_WAITERS); i++)
		ut_sleep_ns(1000000);
	CHECK(pi_word & FUTEX_WAITERS, "the waiter never blocked: word %#x", pi_word);
	EXPECT_RET(sys_futex((long)&pi_word, FUTEX_WAKE, 1, 0, 0, 0), -EINVAL);
	EXPECT_RET(sys_futex((long)&pi_word, FUTEX_WAKE_BITSET, 1, 0, 0, ~0u), -EINVAL);
	EXPECT_RET(sys_futex((long)&pi_word, FUTEX_UNLOCK_PI, 0, 0, 0, 0), 0);
	int st = ut_wait((pid_t)tid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the PI waiter: status %#x", st);
	EXPECT_RET(sys_futex((long)&pi_word, FUTEX_WAKE, 1, 0, 0, 0), 0);	/* nobody left */
}

/* The fd table grows past 64 (a thread-mode hackbench holds 400 fds): a pipe
 * at fd 700 works, select and poll see it, fork copies the large table,
 * F_SETFD reaches its close-on-exec bit. */
static void fd_table_grow(void)
{
	static struct { int fd; short events, revents; } pfd[701];
	int p[2];
	uint32_t rd[32] = { 0 };
	struct { long sec, usec; } tv = { 0, 0 };

	EXPECT_RET(sys_pipe((long)p), 0);
	EXPECT_RET(sys_dup2(p[0], 700), 700);
	EXPECT_RET(sys_dup2(p[1], 701), 701);
	EXPECT_RET(sys_write(701, (long)"x", 1), 1);
	rd[700 / 32] = 1u << (700 % 32);
	EXPECT_RET(sys__newselect(702, (long)rd, 0, 0, (long)&tv), 1);
	CHECK(rd[700 / 32] == 1u << (700 % 32), "select's set after: %#x", rd[700 / 32]);
	for (int i = 0; i < 701; i++)
		pfd[i] = (typeof(pfd[0])){ i == 700 ? 700 : -1, 1 /* POLLIN */, 0 };
	EXPECT_RET(sys_poll((long)pfd, 701, 0), 1);
	CHECK(pfd[700].revents == 1, "poll revents %#x", pfd[700].revents);
	EXPECT_RET(sys_fcntl64(700, 2 /* F_SETFD */, 1), 0);
	EXPECT_RET(sys_fcntl64(700, 1 /* F_GETFD */, 0), 1);
	long pid = sys_fork();
	if (pid == 0) {
		char c;
		_exit(sys_read(700, (long)&c, 1) == 1 && c == 'x' ? 0 : 1);
	}
	int st = ut_wait((pid_t)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's fd 700: status %#x", st);
	for (int fd = 700; fd <= 701; fd++)
		EXPECT_RET(sys_close(fd), 0);
	sys_close(p[0]);
	sys_close(p[1]);
}

const struct ut_test ut_dyn_tests[] = {
	{ mmap_file, "mmap_file" },
	{ mmap_file_fork, "mmap_file_fork" },
	{ pread64, "pread64" },
	{ mlock, "mlock" },
	{ vmpeak, "vmpeak" },
	{ futex_bitset, "futex_bitset" },
	{ futex_wake_pi, "futex_wake_pi" },
	{ fd_table_grow, "fd_table_grow" },
	{ NULL, NULL },
};
