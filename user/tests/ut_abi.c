/*
 * user/tests/ut_abi.c - usertests: the Linux calls real binaries need
 * (glibc's static start-up, busybox): the auxiliary vector exec builds,
 * then each call's error paths (bad pointers -> EFAULT, bad flags, sizes
 * and modes -> EINVAL, bad fds -> EBADF, missing files -> ENOENT) and the
 * answer of a good call.
 */
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "ut.h"

#define NBADP	3
static const uint32_t badp[NBADP] = { 0, 0xC0000000u, 0x40000000u };	/* NULL, kernel, unmapped */

extern char **environ;
extern char _start[];

#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_ENTRY 9
#define AT_UID 11
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_EXECFN 31

static uint32_t auxval(uint32_t type, int *found)
{
	char **e = environ;

	while (*e)
		e++;
	for (uint32_t *a = (uint32_t *)(e + 1); a[0]; a += 2)
		if (a[0] == type) {
			*found = 1;
			return a[1];
		}
	*found = 0;
	return 0;
}

/* The auxiliary vector, as glibc's _dl_aux_init reads it. */
static void auxv(void)
{
	static const uint32_t want[] = { AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_ENTRY, AT_UID,
					 AT_PLATFORM, AT_HWCAP, AT_CLKTCK, AT_SECURE, AT_RANDOM,
					 AT_EXECFN };
	int found;

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		auxval(want[i], &found);
		CHECK(found, "auxv has no entry of type %u", want[i]);
	}
	CHECK(auxval(AT_PAGESZ, &found) == 4096, "AT_PAGESZ");
	CHECK(auxval(AT_ENTRY, &found) == (uint32_t)_start, "AT_ENTRY %x, _start %p",
	      auxval(AT_ENTRY, &found), _start);
	CHECK(auxval(AT_PHENT, &found) == 32, "AT_PHENT");
	const uint32_t *ph = (const uint32_t *)auxval(AT_PHDR, &found);
	uint32_t n = auxval(AT_PHNUM, &found), loads = 0;
	CHECK(ph && n > 0 && n < 16, "AT_PHDR %p AT_PHNUM %u", ph, n);
	for (uint32_t i = 0; i < n; i++)
		loads += ph[8 * i] == 1;	/* p_type == PT_LOAD */
	CHECK(loads >= 1, "AT_PHDR: no PT_LOAD among %u headers", n);
	CHECK(auxval(AT_CLKTCK, &found) == 100, "AT_CLKTCK");
	CHECK(auxval(AT_UID, &found) == 0 && auxval(AT_SECURE, &found) == 0, "AT_UID/AT_SECURE");
	CHECK(auxval(AT_HWCAP, &found) & 1, "AT_HWCAP without fpu");
	CHECK(!strcmp((const char *)auxval(AT_PLATFORM, &found), "i686"), "AT_PLATFORM");
	CHECK(!strcmp((const char *)auxval(AT_EXECFN, &found), "usertests"), "AT_EXECFN %s",
	      (const char *)auxval(AT_EXECFN, &found));
	const uint8_t *r = (const uint8_t *)auxval(AT_RANDOM, &found);
	int nonzero = 0;
	for (int i = 0; i < 16; i++)
		nonzero |= r[i];
	CHECK(nonzero, "AT_RANDOM: 16 zero bytes");
}

static void thread_startup(void)
{
	EXPECT_RET(sys_set_tid_address(0), sys_gettid());
	EXPECT_RET(sys_set_robust_list(0, 11), -EINVAL);
	EXPECT_RET(sys_set_robust_list(0, 12), 0);
	EXPECT_RET(sys_rseq(0, 32, 0, 0), -ENOSYS);
	EXPECT_RET(sys_getuid32(), 0);
	EXPECT_RET(sys_getegid(), 0);
	uint32_t ids[3] = { 1, 1, 1 };
	EXPECT_RET(sys_getresuid32((long)&ids[0], (long)&ids[1], (long)&ids[2]), 0);
	CHECK(!ids[0] && !ids[1] && !ids[2], "getresuid32: not root");
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_getresgid32(badp[i], (long)&ids[1], (long)&ids[2]), -EFAULT);
	EXPECT_RET(sys_getgroups32(-1, 0), -EINVAL);
	EXPECT_RET(sys_getgroups32(0, 0), 0);
}

static void prctl_name(void)
{
	char name[16];

	EXPECT_RET(sys_prctl(15, (long)"renamed-task-with-a-long-name", 0, 0, 0), 0);
	EXPECT_RET(sys_prctl(16, (long)name, 0, 0, 0), 0);
	CHECK(!strcmp(name, "renamed-task-wi"), "PR_GET_NAME gave %s", name);
	EXPECT_RET(sys_prctl(9999, 0, 0, 0, 0), -EINVAL);
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_prctl(15, badp[i], 0, 0, 0), -EFAULT);
		EXPECT_RET(sys_prctl(16, badp[i], 0, 0, 0), -EFAULT);
	}
}

static void rlimits(void)
{
	uint32_t r[2];
	uint64_t l[2], same[2];

	EXPECT_RET(sys_ugetrlimit(3, (long)r), 0);	/* RLIMIT_STACK */
	CHECK(r[0] == STACK_LIMIT && r[1] == 0xffffffffu, "RLIMIT_STACK %x %x", r[0], r[1]);
	EXPECT_RET(sys_ugetrlimit(16, (long)r), -EINVAL);
	EXPECT_RET(sys_ugetrlimit(-1, (long)r), -EINVAL);
	EXPECT_RET(sys_prlimit64(0, 7, 0, (long)l), 0);	/* RLIMIT_NOFILE */
	CHECK(l[0] == 1024 && l[1] == 1024, "RLIMIT_NOFILE: the fd table's largest size");
	EXPECT_RET(sys_prlimit64(0, 16, 0, (long)l), -EINVAL);
	EXPECT_RET(sys_prlimit64(99999, 7, 0, (long)l), -ESRCH);
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_ugetrlimit(3, badp[i] ? badp[i] : 4), -EFAULT);
		if (badp[i]) {
			EXPECT_RET(sys_prlimit64(0, 7, 0, badp[i]), -EFAULT);
			EXPECT_RET(sys_prlimit64(0, 7, badp[i], 0), -EFAULT);
		}
	}
	same[0] = l[0], same[1] = l[1];
	EXPECT_RET(sys_prlimit64(0, 7, (long)same, 0), 0);
	same[0] = l[1] + 1;
	EXPECT_RET(sys_prlimit64(0, 7, (long)same, 0), -EINVAL);	/* cur > max */
	same[0] = 10;
	EXPECT_RET(sys_prlimit64(0, 3, (long)same, 0), -EPERM);	/* RLIMIT_STACK: fixed */
}

static void getrandom_calls(void)
{
	uint8_t a[32] = { 0 }, b[32] = { 0 };

	EXPECT_RET(sys_getrandom((long)a, sizeof(a), 0), 32);
	EXPECT_RET(sys_getrandom((long)b, sizeof(b), 1), 32);	/* GRND_NONBLOCK */
	CHECK(memcmp(a, b, sizeof(a)) != 0, "two getrandom calls gave the same bytes");
	EXPECT_RET(sys_getrandom((long)a, 0, 0), 0);
	EXPECT_RET(sys_getrandom((long)a, 4, 8), -EINVAL);
	EXPECT_RET(sys_getrandom((long)a, 4, 2 | 4), -EINVAL);	/* RANDOM | INSECURE */
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_getrandom(badp[i], 16, 0), -EFAULT);
}

#define MAP_SHARED 1
#define MAP_FIXED 0x10
#define MAP_FIXED_NOREPLACE 0x100000

static void write_at(uintptr_t addr)
{
	*(volatile char *)addr = 1;
}

/* Map, protect, replace and unmap anonymous memory (in a child: its page
 * tables go when it exits, so the frame count can be compared after). */
static void mmap_child(uintptr_t unused)
{
	uint32_t p = sys_mmap2(0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);

	/* a user address (not -errno), page aligned, above the heap */
	CHECK(p < TASK_SIZE - 4096 && !(p & (PAGE_SIZE - 1)) && p > (uint32_t)sys_brk(0),
	      "mmap2 anonymous: %x", p);
	for (int i = 0; i < 3; i++)
		CHECK(((volatile char *)p)[i * PAGE_SIZE + 5] == 0, "mmap'd memory not zero");
	memset((void *)p, 'm', 3 * PAGE_SIZE);
	/* read-only middle page: a write kills, the others still work */
	EXPECT_RET(sys_mprotect(p + PAGE_SIZE, PAGE_SIZE, PROT_READ), 0);
	ut_expect_killed(write_at, p + PAGE_SIZE, SIGSEGV, "write to a PROT_READ page");
	write_at(p);
	write_at(p + 2 * PAGE_SIZE);
	CHECK(((char *)p)[PAGE_SIZE] == 'm', "mprotect lost the page");
	EXPECT_RET(sys_mprotect(p + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	write_at(p + PAGE_SIZE);
	/* MAP_FIXED_NOREPLACE over it: EEXIST; MAP_FIXED replaces (zeroed) */
	EXPECT_RET(sys_mmap2(p, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANON | MAP_FIXED_NOREPLACE, -1, 0),
		   -EEXIST);
	EXPECT_RET(sys_mmap2(p, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0), (long)p);
	CHECK(((char *)p)[0] == 0, "MAP_FIXED did not replace the page");
	EXPECT_RET(sys_munmap(p + PAGE_SIZE, PAGE_SIZE), 0);	/* a hole in the middle */
	ut_expect_killed(write_at, p + PAGE_SIZE, SIGSEGV, "write to an unmapped page");
	EXPECT_RET(sys_mprotect(p, 3 * PAGE_SIZE, PROT_READ), -ENOMEM);	/* spans the hole */
	EXPECT_RET(sys_munmap(p, 3 * PAGE_SIZE), 0);
	EXPECT_RET(sys_munmap(p, 3 * PAGE_SIZE), 0);		/* nothing there: still fine */
}

static void mmap_calls(void)
{
	long f0 = ut_frames();

	CHECK(ut_run_child(mmap_child, 0) == 0, "mmap child failed");
	CHECK(ut_frames_settle(f0, 5) == f0, "mmap/munmap leaked frames");

	/* the error paths */
	EXPECT_RET(sys_mmap2(0, 0, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0), -EINVAL);
	EXPECT_RET(sys_mmap2(0, 4096, PROT_READ, MAP_ANON, -1, 0), -EINVAL);	/* neither type */
	EXPECT_RET(sys_mmap2(0, 4096, 0x100, MAP_PRIVATE | MAP_ANON, -1, 0), -EINVAL);
	EXPECT_RET(sys_mmap2(0, 4096, PROT_READ, MAP_SHARED | MAP_ANON, -1, 0), -EINVAL);
	EXPECT_RET(sys_mmap2(0, 4096, PROT_READ, MAP_PRIVATE, 7, 0), -EBADF);
	EXPECT_RET(sys_mmap2(0, 4096, PROT_READ, MAP_PRIVATE, 0, 0), -ENODEV);	/* the console: no mmap */
	EXPECT_RET(sys_mmap2(0, 4096, PROT_READ, MAP_PRIVATE, 1, 0), -EACCES);	/* not open for reading */
	EXPECT_RET(sys_mmap2(0x40000001, 4096, PROT_READ, MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0),
		   -EINVAL);
	EXPECT_RET(sys_mmap2(0xC0000000u, 4096, PROT_READ, MAP_PRIVATE | MAP_ANON | MAP_FIXED, -1, 0),
		   -ENOMEM);
	EXPECT_RET(sys_mmap2(0, 0xF0000000u, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0), -ENOMEM);
	EXPECT_RET(sys_munmap(0x40000001, 4096), -EINVAL);
	EXPECT_RET(sys_munmap(0x40000000, 0), -EINVAL);
	EXPECT_RET(sys_munmap(0xBFFFF000u, 0x2000), -EINVAL);	/* into the kernel */
	EXPECT_RET(sys_mprotect(0x40000001, 4096, PROT_READ), -EINVAL);
	EXPECT_RET(sys_mprotect(0x40000000, 4096, 0x100), -EINVAL);
	EXPECT_RET(sys_mprotect(0x40000000, 4096, PROT_READ), -ENOMEM);	/* unmapped */
	EXPECT_RET(sys_mprotect(0x40000000, 0, PROT_READ), 0);
}

struct iov { uint32_t base, len; };

static void writev_calls(void)
{
	struct iov v[2] = { { (uint32_t)"writev: ", 8 }, { (uint32_t)"two buffers\n", 12 } };
	struct iov bad[1] = { { 0x40000000u, 4 } };
	struct iov huge[1] = { { (uint32_t)"x", 0x80000000u } };

	EXPECT_RET(sys_writev(1, (long)v, 2), 20);
	EXPECT_RET(sys_writev(1, (long)v, 0), 0);
	EXPECT_RET(sys_writev(1, (long)v, -1), -EINVAL);
	EXPECT_RET(sys_writev(1, (long)v, 1025), -EINVAL);
	EXPECT_RET(sys_writev(1, (long)huge, 1), -EINVAL);
	EXPECT_RET(sys_writev(9, (long)v, 2), -EBADF);
	EXPECT_RET(sys_writev(1, (long)bad, 1), -EFAULT);
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_writev(1, badp[i], 1), -EFAULT);
}

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TIOCGWINSZ 0x5413

static void tty_calls(void)
{
	uint32_t t[9];			/* struct termios: 36 bytes */
	uint16_t ws[4];

	EXPECT_RET(sys_ioctl(0, TCGETS, (long)t), 0);
	CHECK(t[3] & 2, "TCGETS: ICANON not set");
	EXPECT_RET(sys_ioctl(1, TCSETS, (long)t), 0);
	EXPECT_RET(sys_ioctl(1, TIOCGWINSZ, (long)ws), 0);
	CHECK(ws[0] > 0 && ws[1] == 80, "TIOCGWINSZ %ux%u", ws[0], ws[1]);
	EXPECT_RET(sys_ioctl(1, 0x1234, 0), -ENOTTY);
	EXPECT_RET(sys_ioctl(5, TCGETS, (long)t), -EBADF);
	EXPECT_RET(sys_ioctl(-1, TCGETS, (long)t), -EBADF);
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_ioctl(0, TCGETS, badp[i]), -EFAULT);
		EXPECT_RET(sys_ioctl(0, TCSETS, badp[i]), -EFAULT);
		EXPECT_RET(sys_ioctl(0, TIOCGWINSZ, badp[i]), -EFAULT);
	}
	EXPECT_RET(sys_fcntl64(1, 3, 0), 1);	/* F_GETFL: O_WRONLY */
	EXPECT_RET(sys_fcntl64(1, 1, 0), 0);	/* F_GETFD */
	EXPECT_RET(sys_fcntl64(1, 999, 0), -EINVAL);
	EXPECT_RET(sys_fcntl64(7, 1, 0), -EBADF);
}

/* struct stat64 fields at their i386 offsets */
#define ST_MODE(b)	(*(uint32_t *)((b) + 16))
#define ST_SIZE(b)	(*(int64_t *)((b) + 44))
#define STX_MODE(b)	(*(uint16_t *)((b) + 28))
#define STX_SIZE(b)	(*(uint64_t *)((b) + 40))
#define AT_FDCWD	(-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH	0x1000

static void stat_calls(void)
{
	char b[256];

	EXPECT_RET(sys_fstat64(1, (long)b), 0);
	CHECK((ST_MODE(b) & 0170000) == 0020000, "fstat64(1): not a character device (%o)", ST_MODE(b));
	EXPECT_RET(sys_stat64((long)"/bin/usertests", (long)b), 0);
	CHECK((ST_MODE(b) & 0170000) == 0100000 && ST_SIZE(b) > 4096, "stat64 /bin/usertests");
	EXPECT_RET(sys_stat64((long)"/bin", (long)b), 0);
	CHECK((ST_MODE(b) & 0170000) == 0040000, "stat64 /bin: not a directory");
	EXPECT_RET(sys_lstat64((long)"/bin/ut-link", (long)b), 0);
	CHECK((ST_MODE(b) & 0170000) == 0120000 && ST_SIZE(b) == 16, "lstat64 of a link");
	EXPECT_RET(sys_fstatat64(AT_FDCWD, (long)"bin/ut-link", (long)b, 0), 0);
	CHECK((ST_MODE(b) & 0170000) == 0100000, "fstatat64 follows the link");
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin/usertests", 0, 0x7ff, (long)b), 0);
	CHECK((STX_MODE(b) & 0170000) == 0100000 && STX_SIZE(b) > 4096, "statx /bin/usertests");
	EXPECT_RET(sys_statx(2, (long)"", AT_EMPTY_PATH, 0x7ff, (long)b), 0);
	CHECK((STX_MODE(b) & 0170000) == 0020000, "statx(fd 2, AT_EMPTY_PATH)");

	EXPECT_RET(sys_fstat64(3, (long)b), -EBADF);
	EXPECT_RET(sys_stat64((long)"/nosuch", (long)b), -ENOENT);
	EXPECT_RET(sys_stat64((long)"/bin/usertests/x", (long)b), -ENOTDIR);
	EXPECT_RET(sys_stat64((long)"/bin/ut-loop", (long)b), -ELOOP);
	EXPECT_RET(sys_fstatat64(AT_FDCWD, (long)"/bin", (long)b, 0x4), -EINVAL);
	EXPECT_RET(sys_fstatat64(9, (long)"bin", (long)b, 0), -EBADF);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0x6000, 0x7ff, (long)b), -EINVAL);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0x2, 0x7ff, (long)b), -EINVAL);
	EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0, 0x80000000u, (long)b), -EINVAL);
	EXPECT_RET(sys_statx(9, (long)"", AT_EMPTY_PATH, 0x7ff, (long)b), -EBADF);
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_fstat64(1, badp[i]), -EFAULT);
		EXPECT_RET(sys_stat64((long)"/bin", badp[i]), -EFAULT);
		EXPECT_RET(sys_stat64(badp[i], (long)b), -EFAULT);
		EXPECT_RET(sys_lstat64(badp[i], (long)b), -EFAULT);
		EXPECT_RET(sys_fstatat64(AT_FDCWD, badp[i], (long)b, 0), -EFAULT);
		EXPECT_RET(sys_statx(AT_FDCWD, (long)"/bin", 0, 0x7ff, badp[i]), -EFAULT);
		EXPECT_RET(sys_statx(AT_FDCWD, badp[i], 0, 0x7ff, (long)b), -EFAULT);
	}
}

static void path_calls(void)
{
	char b[64];

	EXPECT_RET(sys_readlink((long)"/bin/ut-link", (long)b, sizeof(b)), 16);
	CHECK(!memcmp(b, "../bin/usertests", 16), "readlink gave %.16s", b);
	EXPECT_RET(sys_readlink((long)"/bin/ut-link", (long)b, 3), 3);	/* cut, no NUL */
	long ls = sys_readlinkat(AT_FDCWD, (long)"bin/ls", (long)b, sizeof(b));
	if (sys_access((long)"/bin/busybox", 0) == 0)	/* built with busybox: an applet link */
		CHECK(ls == 7 && !memcmp(b, "busybox", 7), "readlinkat bin/ls: %ld", ls);
	else
		CHECK(ls == -ENOENT, "readlinkat bin/ls without busybox: %ld", ls);
	EXPECT_RET(sys_readlink((long)"/bin/usertests", (long)b, sizeof(b)), -EINVAL);
	EXPECT_RET(sys_readlink((long)"/bin/ut-link", (long)b, 0), -EINVAL);
	EXPECT_RET(sys_readlink((long)"/nosuch", (long)b, sizeof(b)), -ENOENT);
	EXPECT_RET(sys_readlinkat(9, (long)"bin/ut-link", (long)b, sizeof(b)), -EBADF);

	EXPECT_RET(sys_access((long)"/bin/usertests", 1), 0);		/* X_OK */
	EXPECT_RET(sys_access((long)"/bin/usertests", 2), -EROFS);	/* W_OK */
	EXPECT_RET(sys_access((long)"/bin/usertests", 8), -EINVAL);
	EXPECT_RET(sys_access((long)"/nosuch", 0), -ENOENT);
	EXPECT_RET(sys_faccessat(AT_FDCWD, (long)"bin", 4), 0);
	EXPECT_RET(sys_faccessat(9, (long)"bin", 4), -EBADF);
	EXPECT_RET(sys_faccessat(9, (long)"/bin", 4), 0);		/* absolute: dirfd unused */
	EXPECT_RET(sys_faccessat2(AT_FDCWD, (long)"/bin/ut-dangling", 0, AT_SYMLINK_NOFOLLOW), 0);
	EXPECT_RET(sys_faccessat2(AT_FDCWD, (long)"/bin/ut-dangling", 0, 0), -ENOENT);
	EXPECT_RET(sys_faccessat2(AT_FDCWD, (long)"/bin", 0, 0x1), -EINVAL);

	EXPECT_RET(sys_getcwd((long)b, sizeof(b)), 2);
	CHECK(!strcmp(b, "/"), "getcwd gave %s", b);
	EXPECT_RET(sys_getcwd((long)b, 1), -ERANGE);
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_readlink(badp[i], (long)b, sizeof(b)), -EFAULT);
		EXPECT_RET(sys_readlink((long)"/bin/ut-link", badp[i], 16), -EFAULT);
		EXPECT_RET(sys_access(badp[i], 0), -EFAULT);
		EXPECT_RET(sys_getcwd(badp[i], 64), -EFAULT);
	}
}

struct ts64 { int64_t sec, nsec; };

static void time64_calls(void)
{
	struct ts64 a, b, req = { 0, 1000000 }, bad = { 0, 1000000000 };

	EXPECT_RET(sys_clock_gettime64(CLOCK_MONOTONIC, (long)&a), 0);
	EXPECT_RET(sys_clock_nanosleep_time64(CLOCK_MONOTONIC, 0, (long)&req, 0), 0);
	EXPECT_RET(sys_clock_gettime64(CLOCK_MONOTONIC, (long)&b), 0);
	CHECK((b.sec - a.sec) * 1000000000 + b.nsec - a.nsec >= 1000000, "slept less than 1 ms");
	EXPECT_RET(sys_clock_gettime64(CLOCK_REALTIME, (long)&a), 0);
	CHECK(a.sec > 1262304000, "CLOCK_REALTIME before 2010: %lld", (long long)a.sec);
	EXPECT_RET(sys_clock_gettime64(5, (long)&b), 0);	/* CLOCK_REALTIME_COARSE */
	EXPECT_RET(sys_clock_getres_time64(CLOCK_MONOTONIC, (long)&a), 0);
	CHECK(a.sec == 0 && a.nsec > 0, "clock_getres_time64");
	EXPECT_RET(sys_clock_gettime64(99, (long)&a), -EINVAL);
	EXPECT_RET(sys_clock_getres_time64(99, (long)&a), -EINVAL);
	EXPECT_RET(sys_clock_nanosleep_time64(CLOCK_MONOTONIC, 0, (long)&bad, 0), -EINVAL);
	/* Flags other than TIMER_ABSTIME are not read (Linux's common_nsleep). */
	EXPECT_RET(sys_clock_nanosleep_time64(CLOCK_MONOTONIC, 2, (long)&req, 0), 0);
	EXPECT_RET(sys_clock_nanosleep_time64(2, 0, (long)&req, 0), -EINVAL);
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_clock_gettime64(CLOCK_MONOTONIC, badp[i]), -EFAULT);
		EXPECT_RET(sys_clock_nanosleep_time64(CLOCK_MONOTONIC, 0, badp[i], 0), -EFAULT);
	}
}

static void sysinfo_call(void)
{
	uint32_t si[16];

	EXPECT_RET(sys_sysinfo((long)si), 0);
	CHECK(si[13] == 4096, "sysinfo mem_unit %u", si[13]);
	CHECK(si[4] > si[5] && si[5] > 0, "sysinfo totalram %u freeram %u", si[4], si[5]);
	CHECK((si[10] & 0xffff) >= 2, "sysinfo procs %u", si[10] & 0xffff);
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_sysinfo(badp[i]), -EFAULT);
}

const struct ut_test ut_abi_tests[] = {
	{ auxv, "auxv" },
	{ thread_startup, "thread_startup" },
	{ prctl_name, "prctl_name" },
	{ rlimits, "rlimits" },
	{ getrandom_calls, "getrandom" },
	{ mmap_calls, "mmap" },
	{ writev_calls, "writev" },
	{ tty_calls, "tty_ioctl" },
	{ stat_calls, "stat" },
	{ path_calls, "paths" },
	{ time64_calls, "time64" },
	{ sysinfo_call, "sysinfo" },
	{ NULL, NULL },
};
