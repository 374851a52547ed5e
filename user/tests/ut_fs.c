/*
 * user/tests/ut_fs.c - usertests: the file name space and the fd calls
 * (open/openat, close, read, write, lseek/_llseek, getdents64, dup/dup2/
 * dup3, fcntl64, chdir/fchdir, sendfile) - each call's error paths and
 * the answer of a good call.  The /proc/sys writes restore what they change.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include "ut.h"

#define O_WRONLY	1
#define O_RDWR		2
#define O_CREAT		0100
#define O_EXCL		0200
#define O_TRUNC		01000
#define O_DIRECTORY	0200000
#define O_NOFOLLOW	0400000
#define O_CLOEXEC	02000000
#define AT_FDCWD	(-100)
#define NBADP		3

static const uint32_t badp[NBADP] = { 0, 0xC0000000u, 0x40000000u };

static long open_ro(const char *path)
{
	return sys_open((long)path, O_RDONLY, 0);
}

/* Open /dev/null until the table is full (-EMFILE past 1024 fds), then close them. */
static void open_until_full(uintptr_t unused)
{
	long fd, n = 0, last = 0;

	while ((fd = open_ro("/dev/null")) >= 0)
		last = fd, n++;
	CHECK(fd == -EMFILE && n > 1000, "open until full: %ld after %ld opens", fd, n);
	for (long i = 3; i <= last; i++)
		EXPECT_RET(sys_close(i), 0);
}

static void open_calls(void)
{
	char b[64];
	long fd = open_ro("/bin/notelf");

	CHECK(fd >= 3, "open /bin/notelf: %ld", fd);
	EXPECT_RET(sys_read(fd, (long)b, 9), 9);
	CHECK(!memcmp(b, "#!/bin/sh", 9), "read gave %.9s", b);
	EXPECT_RET(sys_lseek(fd, 2, 0), 2);			/* SEEK_SET */
	EXPECT_RET(sys_read(fd, (long)b, 1), 1);
	CHECK(b[0] == '/', "read after lseek gave %c", b[0]);
	long long pos = -1;
	EXPECT_RET(sys__llseek(fd, 0, 0, (long)&pos, 2), 0);	/* SEEK_END */
	CHECK(pos > 20, "_llseek SEEK_END gave %lld", pos);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 0);	/* at the end */
	EXPECT_RET(sys_lseek(fd, -1, 0), -EINVAL);
	EXPECT_RET(sys_lseek(fd, 0, 7), -EINVAL);
	EXPECT_RET(sys_write(fd, (long)"x", 1), -EBADF);		/* opened read-only */
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_lseek(fd, 0, 0), 0);
		EXPECT_RET(sys_read(fd, badp[i], 4), -EFAULT);
		EXPECT_RET(sys_open(badp[i], O_RDONLY, 0), -EFAULT);
		EXPECT_RET(sys__llseek(fd, 0, 0, badp[i], 0), -EFAULT);
	}
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_close(fd), -EBADF);
	EXPECT_RET(sys_read(fd, (long)b, 1), -EBADF);
	EXPECT_RET(sys_close(-1), -EBADF);
	EXPECT_RET(sys_close(99999), -EBADF);

	EXPECT_RET(open_ro("/nosuch"), -ENOENT);
	EXPECT_RET(open_ro(""), -ENOENT);
	EXPECT_RET(open_ro("/bin/notelf/x"), -ENOTDIR);
	EXPECT_RET(open_ro("/bin/ut-loop"), -ELOOP);
	EXPECT_RET(sys_open((long)"/bin/ut-link", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	EXPECT_RET(sys_open((long)"/bin/notelf", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	EXPECT_RET(sys_open((long)"/bin/notelf", O_WRONLY, 0), -EROFS);
	EXPECT_RET(sys_open((long)"/bin/new", O_WRONLY | O_CREAT, 0644), -EROFS);
	EXPECT_RET(sys_open((long)"/bin/notelf", O_RDONLY | O_CREAT | O_EXCL, 0644), -EEXIST);
	EXPECT_RET(sys_open((long)"/bin", O_RDWR, 0), -EISDIR);
	EXPECT_RET(sys_open((long)"/bin", O_RDONLY | O_CREAT | O_DIRECTORY, 0), -EINVAL);
	EXPECT_RET(sys_open((long)"/bin", 040000000, 0), -EINVAL);	/* an unknown flag */
	EXPECT_RET(sys_open((long)"/proc/version", O_WRONLY, 0), -EACCES);
	EXPECT_RET(sys_openat(9, (long)"bin", O_RDONLY, 0), -EBADF);

	/* every fd used: EMFILE (the table grew to 1024, and keeps that size while the
	 * process lives, as Linux's fdtable); its exit gives every frame back */
	long f0 = ut_frames();
	int st = ut_run_child(open_until_full, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "open until full: child status %#x", st);
	CHECK(ut_frames_settle(f0, 5) == f0, "open/close leaked frames");
}

static void dev_files(void)
{
	char b[16];
	long fd = sys_open((long)"/dev/null", O_RDWR, 0);

	EXPECT_RET(sys_write(fd, (long)"gone", 4), 4);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 0);
	EXPECT_RET(sys_close(fd), 0);
	fd = sys_open((long)"/dev/console", O_WRONLY, 0);
	EXPECT_RET(sys_write(fd, (long)"console: ok\n", 12), 12);
	EXPECT_RET(sys_ioctl(fd, 0x5413, (long)b), 0);		/* a tty: TIOCGWINSZ */
	EXPECT_RET(sys_close(fd), 0);
	fd = open_ro("/proc/version");
	EXPECT_RET(sys_ioctl(fd, 0x5413, (long)b), -ENOTTY);	/* not a tty */
	EXPECT_RET(sys_close(fd), 0);
}

struct dirent64 { uint64_t ino; int64_t off; uint16_t reclen; uint8_t type; char name[]; }
	__attribute__((packed));

/* Does directory PATH list NAME (with type TYPE)? */
static int lists(const char *path, const char *name, int type)
{
	char buf[512];
	long fd = sys_open((long)path, O_RDONLY | O_DIRECTORY, 0), n;
	int found = 0;

	CHECK(fd >= 0, "open %s: %ld", path, fd);
	while ((n = sys_getdents64(fd, (long)buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; ) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			found |= !strcmp(d->name, name) && d->type == type;
			off += d->reclen;
		}
	CHECK(n == 0, "getdents64 %s: %ld", path, n);
	sys_close(fd);
	return found;
}

static void getdents(void)
{
	char buf[64];

	CHECK(lists("/", "bin", 4) && lists("/", "proc", 4) && lists("/", "..", 4), "/ listing");
	CHECK(lists("/bin", "usertests", 8) && lists("/bin", "ut-link", 10), "/bin listing");
	CHECK(lists("/dev", "null", 2), "/dev listing");
	CHECK(lists("/proc/sys/kernel", "sched_latency_ns", 8), "/proc/sys/kernel listing");
	long fd = open_ro("/bin/notelf");
	EXPECT_RET(sys_getdents64(fd, (long)buf, sizeof(buf)), -ENOTDIR);
	sys_close(fd);
	fd = open_ro("/bin");
	EXPECT_RET(sys_getdents64(fd, (long)buf, 8), -EINVAL);		/* no room for one */
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_getdents64(fd, badp[i], 64), -EFAULT);
	EXPECT_RET(sys_read(fd, (long)buf, 1), -EISDIR);
	sys_close(fd);
	EXPECT_RET(sys_getdents64(fd, (long)buf, sizeof(buf)), -EBADF);
}

static void dup_calls(void)
{
	long fd = open_ro("/bin/notelf"), d;
	char b[4];

	d = sys_dup(fd);
	CHECK(d > fd, "dup gave %ld", d);
	EXPECT_RET(sys_read(d, (long)b, 2), 2);		/* one offset for both */
	EXPECT_RET(sys_lseek(fd, 0, 1), 2);
	EXPECT_RET(sys_dup2(fd, 40), 40);
	EXPECT_RET(sys_dup2(40, 40), 40);
	EXPECT_RET(sys_dup2(41, 41), -EBADF);
	EXPECT_RET(sys_dup3(fd, fd, 0), -EINVAL);
	EXPECT_RET(sys_dup3(fd, 41, 1), -EINVAL);
	EXPECT_RET(sys_dup3(fd, 41, O_CLOEXEC), 41);
	EXPECT_RET(sys_fcntl64(41, 1, 0), 1);			/* F_GETFD: FD_CLOEXEC */
	EXPECT_RET(sys_fcntl64(40, 1, 0), 0);
	EXPECT_RET(sys_fcntl64(40, 2, 1), 0);			/* F_SETFD */
	EXPECT_RET(sys_fcntl64(40, 1, 0), 1);
	EXPECT_RET(sys_fcntl64(fd, 0, 50), 50);			/* F_DUPFD: lowest >= 50 */
	EXPECT_RET(sys_fcntl64(fd, 0, 9999), -EINVAL);
	EXPECT_RET(sys_dup(99), -EBADF);
	EXPECT_RET(sys_dup2(fd, 99999), -EBADF);
	for (long i = d; i <= 50; i++)
		sys_close(i);
	sys_close(fd);
}

static void chdir_calls(void)
{
	char b[32];
	long fd;

	EXPECT_RET(sys_chdir((long)"/proc/sys"), 0);
	EXPECT_RET(sys_getcwd((long)b, sizeof(b)), 10);
	CHECK(!strcmp(b, "/proc/sys"), "getcwd gave %s", b);
	fd = open_ro("kernel/sched_latency_ns");		/* relative to it */
	CHECK(fd >= 0, "relative open after chdir: %ld", fd);
	sys_close(fd);
	EXPECT_RET(sys_chdir((long)".."), 0);
	EXPECT_RET(sys_getcwd((long)b, sizeof(b)), 6);
	EXPECT_RET(sys_getcwd((long)b, 5), -ERANGE);
	EXPECT_RET(sys_chdir((long)"/bin/notelf"), -ENOTDIR);
	EXPECT_RET(sys_chdir((long)"/nosuch"), -ENOENT);
	fd = sys_open((long)"/bin", O_RDONLY | O_DIRECTORY, 0);
	EXPECT_RET(sys_fchdir(fd), 0);
	EXPECT_RET(sys_access((long)"usertests", 1), 0);
	sys_close(fd);
	fd = open_ro("/bin/notelf");
	EXPECT_RET(sys_fchdir(fd), -ENOTDIR);
	EXPECT_RET(sys_sendfile64(1, fd, 0, 4), -EINVAL);	/* not supported: copy instead */
	EXPECT_RET(sys_sendfile64(1, 99, 0, 4), -EBADF);
	sys_close(fd);
	EXPECT_RET(sys_fchdir(99), -EBADF);
	for (int i = 0; i < NBADP; i++)
		EXPECT_RET(sys_chdir(badp[i]), -EFAULT);
	EXPECT_RET(sys_chdir((long)"/"), 0);
}

/* Read /proc/sys/kernel/NAME into BUF (NUL-terminated); the length. */
static long read_knob(const char *path, char *buf, long size)
{
	long fd = open_ro(path), n;

	CHECK(fd >= 0, "open %s: %ld", path, fd);
	n = sys_read(fd, (long)buf, size - 1);
	CHECK(n > 0, "read %s: %ld", path, n);
	buf[n] = 0;
	sys_close(fd);
	return n;
}

static long write_knob(const char *path, const char *val)
{
	long fd = sys_open((long)path, O_WRONLY, 0), r;

	CHECK(fd >= 0, "open %s for writing: %ld", path, fd);
	r = sys_write(fd, (long)val, strlen(val));
	sys_close(fd);
	return r;
}

/* 1 if the space-separated LINE has the word W. */
static int has_word(const char *line, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = line; (p = strstr(p, w)) != NULL; p += n)
		if ((p == line || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/*
 * A knob and a feature of the class the preset runs: CFS's
 * sched_min_granularity_ns and START_DEBIT, or EEVDF's sched_base_slice_ns
 * and PLACE_LAG (each class refuses the other's knobs with one line).
 */
static void proc_sys(void)
{
	static const char *const feat = "/sys/kernel/debug/sched_features";
	char old[32], now[32], line[600], no[32];

	read_knob(feat, line, sizeof(line));
	int eevdf = strstr(line, "PLACE_LAG") != NULL;
	const char *gran = eevdf ? "/proc/sys/kernel/sched_base_slice_ns"
				 : "/proc/sys/kernel/sched_min_granularity_ns";
	const char *f = eevdf ? "PLACE_LAG" : "START_DEBIT";

	read_knob(gran, old, sizeof(old));
	EXPECT_RET(write_knob(gran, "2000000\n"), 8);
	read_knob(gran, now, sizeof(now));
	CHECK(!strcmp(now, "2000000\n"), "after the write: %s", now);
	EXPECT_RET(write_knob(gran, "5"), -EINVAL);		/* out of range */
	EXPECT_RET(write_knob(gran, "abc"), -EINVAL);
	read_knob(gran, now, sizeof(now));
	CHECK(!strcmp(now, "2000000\n"), "a refused write changed it: %s", now);
	for (int i = 0; i < NBADP; i++) {
		long fd = sys_open((long)gran, O_WRONLY, 0);
		EXPECT_RET(sys_write(fd, badp[i], 4), -EFAULT);
		sys_close(fd);
	}
	EXPECT_RET(write_knob(gran, old), (long)strlen(old));
	EXPECT_RET(open_ro("/proc/sys/kernel/sched_nosuch"), -ENOENT);
	EXPECT_RET(open_ro("/proc/sys/kernel/sched_features"), -ENOENT);	/* in /sys instead */

	snprintf(no, sizeof(no), "NO_%s", f);
	CHECK(has_word(line, f), "sched_features: %s", line);
	EXPECT_RET(write_knob(feat, no), (long)strlen(no));
	read_knob(feat, line, sizeof(line));
	CHECK(has_word(line, no) && !has_word(line, f), "%s did not clear it: %s", no, line);
	EXPECT_RET(write_knob(feat, "NO_SUCH_FEATURE"), -EINVAL);
	EXPECT_RET(write_knob(feat, f), (long)strlen(f));
	read_knob(feat, line, sizeof(line));
	CHECK(has_word(line, f) && !has_word(line, no), "%s did not set it: %s", f, line);
}

/* kernel.sched_schedstats: 0/1 at run time, as Linux's; anything else refused. */
static void proc_sys_schedstats(void)
{
	static const char *const ss = "/proc/sys/kernel/sched_schedstats";
	char old[8], now[8];

	read_knob(ss, old, sizeof(old));
	EXPECT_RET(write_knob(ss, "0\n"), 2);
	read_knob(ss, now, sizeof(now));
	CHECK(!strcmp(now, "0\n"), "after writing 0: %s", now);
	EXPECT_RET(write_knob(ss, "2"), -EINVAL);		/* 0 or 1 only */
	EXPECT_RET(write_knob(ss, "enable"), -EINVAL);	/* the boot spelling is not the sysctl's */
	EXPECT_RET(write_knob(ss, "-1"), -EINVAL);
	read_knob(ss, now, sizeof(now));
	CHECK(!strcmp(now, "0\n"), "a refused write changed it: %s", now);
	EXPECT_RET(write_knob(ss, "1"), 1);
	read_knob(ss, now, sizeof(now));
	CHECK(!strcmp(now, "1\n"), "after writing 1: %s", now);
	EXPECT_RET(write_knob(ss, old), (long)strlen(old));
	EXPECT_RET(open_ro("/proc/sys/kernel/schedstats"), -ENOENT);	/* boot line only */
}

/*
 * kernel.sched_rt_runtime_us takes 2.6.35's values: 0 is EBUSY, a runtime
 * above the period (no throttling) and any negative one (no limit) are
 * taken; a period of 0 is EINVAL.  kernel.max_lock_depth is there (1024).
 */
static void proc_sys_rt(void)
{
	static const char *const rt = "/proc/sys/kernel/sched_rt_runtime_us";
	static const char *const period = "/proc/sys/kernel/sched_rt_period_us";
	char old[16], now[16];

	read_knob(rt, old, sizeof(old));
	EXPECT_RET(write_knob(rt, "0"), -EBUSY);
	read_knob(rt, now, sizeof(now));
	CHECK(!strcmp(now, old), "a refused write changed it: %s", now);
	EXPECT_RET(write_knob(rt, "2000000"), 7);		/* above the period */
	EXPECT_RET(write_knob(rt, "-5"), 2);			/* no limit */
	read_knob(rt, now, sizeof(now));
	CHECK(!strcmp(now, "-5\n"), "after writing -5: %s", now);
	EXPECT_RET(write_knob(period, "0"), -EINVAL);
	EXPECT_RET(write_knob(rt, old), (long)strlen(old));
	read_knob("/proc/sys/kernel/max_lock_depth", now, sizeof(now));
	CHECK(!strcmp(now, "1024\n"), "max_lock_depth: %s", now);
}

const struct ut_test ut_fs_tests[] = {
	{ open_calls, "open" },
	{ dev_files, "dev_files" },
	{ getdents, "getdents64" },
	{ dup_calls, "dup" },
	{ chdir_calls, "chdir" },
	{ proc_sys, "proc_sys" },
	{ proc_sys_schedstats, "proc_sys_schedstats" },
	{ proc_sys_rt, "proc_sys_rt" },
	{ NULL, NULL },
};
