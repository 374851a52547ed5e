/*
 * user/tests/ut_tmpfs.c - usertests: /tmp (kernel/fs/tmpfs.c) and the calls
 * that change the name space (kernel/fs/dir.c) - open's O_CREAT, O_EXCL,
 * O_TRUNC and O_APPEND, read, write, lseek, fstat, ftruncate, unlink,
 * mkdir, rmdir, rename and their *at forms, getdents64, utimensat, and the
 * limits (-ENOSPC).  Every test removes what it made, so the frame count
 * usertests compares at the end stays exact.
 */
#include <stdio.h>
#include <string.h>
#include "ut.h"

#define O_RDONLY	0
#define O_WRONLY	1
#define O_RDWR		2
#define O_CREAT		0100
#define O_EXCL		0200
#define O_TRUNC		01000
#define O_APPEND	02000
#define O_DIRECTORY	0200000
#define AT_FDCWD	(-100)
#define AT_REMOVEDIR	0x200
#define NBADP		3

static const uint32_t badp[NBADP] = { 0, 0xC0000000u, 0x40000000u };

struct ut_stat64 {
	uint64_t st_dev;
	uint8_t pad0[4];
	uint32_t st_ino32, st_mode, st_nlink, st_uid, st_gid;
	uint64_t st_rdev;
	uint8_t pad3[4];
	int64_t st_size;
	uint8_t rest[96 - 48];
} __attribute__((packed));

static long size_of(long fd)
{
	struct ut_stat64 st;

	EXPECT_RET(sys_fstat64(fd, (long)&st), 0);
	return (long)st.st_size;
}

static long creat_rw(const char *path, int extra)
{
	return sys_open((long)path, O_RDWR | O_CREAT | extra, 0644);
}

static void tmpfs_files(void)
{
	char b[32];
	struct ut_stat64 st;
	long fd = creat_rw("/tmp/ut-a", O_EXCL);

	CHECK(fd >= 3, "create /tmp/ut-a: %ld", fd);
	EXPECT_RET(creat_rw("/tmp/ut-a", O_EXCL), -EEXIST);
	EXPECT_RET(sys_write(fd, (long)"hello world", 11), 11);
	EXPECT_RET(size_of(fd), 11);
	EXPECT_RET(sys_lseek(fd, 6, 0), 6);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 5);
	CHECK(!memcmp(b, "world", 5), "read %.5s", b);
	EXPECT_RET(sys_lseek(fd, 0, 2), 11);			/* SEEK_END */
	EXPECT_RET(sys_lseek(fd, 20, 0), 20);			/* a hole reads as zeros */
	EXPECT_RET(sys_write(fd, (long)"!", 1), 1);
	EXPECT_RET(size_of(fd), 21);
	EXPECT_RET(sys_lseek(fd, 11, 0), 11);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 10);
	CHECK(b[0] == 0 && b[8] == 0 && b[9] == '!', "the hole is not zeros");
	for (int i = 0; i < NBADP; i++) {
		EXPECT_RET(sys_lseek(fd, 0, 0), 0);
		EXPECT_RET(sys_write(fd, badp[i], 4), -EFAULT);
		EXPECT_RET(sys_read(fd, badp[i], 4), -EFAULT);
		EXPECT_RET(sys_unlink(badp[i]), -EFAULT);
		EXPECT_RET(sys_mkdir(badp[i], 0755), -EFAULT);
		EXPECT_RET(sys_rename(badp[i], (long)"/tmp/x"), -EFAULT);
		EXPECT_RET(sys_rename((long)"/tmp/ut-a", badp[i]), -EFAULT);
	}
	EXPECT_RET(size_of(fd), 21);				/* the faults changed nothing */
	/* ftruncate: shrink, grow (zeros), bad lengths and fds */
	EXPECT_RET(sys_ftruncate64(fd, 5, 0), 0);
	EXPECT_RET(size_of(fd), 5);
	EXPECT_RET(sys_ftruncate(fd, 8), 0);
	EXPECT_RET(sys_lseek(fd, 0, 0), 0);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 8);
	CHECK(!memcmp(b, "hello\0\0\0", 8), "after ftruncate: %.8s", b);
	EXPECT_RET(sys_ftruncate(fd, -1), -EINVAL);
	EXPECT_RET(sys_ftruncate64(fd, 0, 0x80000000u), -EINVAL);
	EXPECT_RET(sys_ftruncate64(fd, 0, 1), -EFBIG);
	EXPECT_RET(sys_ftruncate(99, 0), -EBADF);
	EXPECT_RET(sys_close(fd), 0);
	/* O_APPEND, O_TRUNC, read-only */
	fd = sys_open((long)"/tmp/ut-a", O_WRONLY | O_APPEND, 0);
	CHECK(fd >= 3, "open O_APPEND: %ld", fd);
	EXPECT_RET(sys_lseek(fd, 0, 0), 0);
	EXPECT_RET(sys_write(fd, (long)"xy", 2), 2);
	EXPECT_RET(size_of(fd), 10);
	EXPECT_RET(sys_close(fd), 0);
	fd = sys_open((long)"/tmp/ut-a", O_RDONLY, 0);
	EXPECT_RET(sys_ftruncate(fd, 0), -EINVAL);		/* not open for writing */
	EXPECT_RET(sys_write(fd, (long)"x", 1), -EBADF);
	EXPECT_RET(sys_close(fd), 0);
	fd = sys_open((long)"/tmp/ut-a", O_RDWR | O_TRUNC, 0);
	EXPECT_RET(size_of(fd), 0);
	EXPECT_RET(sys_write(fd, (long)"kept", 4), 4);
	/* unlinked while open: the bytes stay until the close */
	EXPECT_RET(sys_unlink((long)"/tmp/ut-a"), 0);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-a"), -ENOENT);
	EXPECT_RET(sys_open((long)"/tmp/ut-a", O_RDONLY, 0), -ENOENT);
	EXPECT_RET(sys_lseek(fd, 0, 0), 0);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 4);
	CHECK(!memcmp(b, "kept", 4), "read %.4s after unlink", b);
	EXPECT_RET(sys_close(fd), 0);
	/* outside /tmp nothing changes */
	EXPECT_RET(creat_rw("/bin/ut-new", 0), -EROFS);
	EXPECT_RET(creat_rw("/nosuchdir/x", 0), -EROFS);
	EXPECT_RET(sys_unlink((long)"/bin/hello"), -EROFS);
	EXPECT_RET(sys_unlink((long)"/bin/nosuch"), -ENOENT);
	EXPECT_RET(sys_mkdir((long)"/bin/ut-dir", 0755), -EROFS);
	EXPECT_RET(sys_mkdir((long)"/nosuch/ut-dir", 0755), -ENOENT);
	EXPECT_RET(sys_mkdir((long)"/bin/hello/x", 0755), -ENOTDIR);
	/* utimensat: times are not kept, but the arguments are checked */
	fd = creat_rw("/tmp/ut-t", 0);
	int32_t ts[4] = { 0, 0, 0, 1000000000 };
	EXPECT_RET(sys_utimensat(AT_FDCWD, (long)"/tmp/ut-t", 0, 0), 0);
	EXPECT_RET(sys_utimensat(AT_FDCWD, (long)"/tmp/ut-t", (long)ts, 0), -EINVAL);
	EXPECT_RET(sys_utimensat(AT_FDCWD, (long)"/tmp/ut-t", 0xC0000000u, 0), -EFAULT);
	EXPECT_RET(sys_utimensat(AT_FDCWD, (long)"/tmp/ut-t", 0, 0x4000), -EINVAL);
	EXPECT_RET(sys_utimensat(AT_FDCWD, (long)"/tmp/ut-none", 0, 0), -ENOENT);
	EXPECT_RET(sys_utimensat(AT_FDCWD, (long)"/bin/hello", 0, 0), -EROFS);
	EXPECT_RET(sys_utimensat(fd, 0, 0, 0), 0);
	EXPECT_RET(sys_utimensat(77, 0, 0, 0), -EBADF);
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_stat64((long)"/tmp/ut-t", (long)&st), 0);
	CHECK(st.st_mode == 0100644, "mode %o, expected 0100644", st.st_mode);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-t"), 0);
}

/* The names getdents64 gives for DIR, joined by ' ' (without . and ..). */
static void list_dir(const char *dir, char *out, size_t size)
{
	char buf[512];
	long fd = sys_open((long)dir, O_RDONLY | O_DIRECTORY, 0), n;

	CHECK(fd >= 0, "open %s: %ld", dir, fd);
	out[0] = '\0';
	while ((n = sys_getdents64(fd, (long)buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			uint16_t reclen = *(uint16_t *)(buf + off + 16);
			const char *name = buf + off + 19;
			if (strcmp(name, ".") && strcmp(name, "..")) {
				if (out[0])
					strncat(out, " ", size - strlen(out) - 1);
				strncat(out, name, size - strlen(out) - 1);
			}
			off += reclen;
		}
	CHECK(n == 0, "getdents64 %s: %ld", dir, n);
	sys_close(fd);
}

static void tmpfs_dirs(void)
{
	char names[128], longname[300];

	EXPECT_RET(sys_mkdir((long)"/tmp/ut-d", 0755), 0);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-d", 0755), -EEXIST);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-no/x", 0755), -ENOENT);
	long d = sys_open((long)"/tmp/ut-d", O_RDONLY | O_DIRECTORY, 0);
	CHECK(d >= 3, "open the directory: %ld", d);
	EXPECT_RET(sys_mkdirat(d, (long)"sub", 0700), 0);
	long fd = sys_openat(d, (long)"f", O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 3, "openat O_CREAT: %ld", fd);
	EXPECT_RET(sys_close(fd), 0);
	list_dir("/tmp/ut-d", names, sizeof(names));
	CHECK(!strcmp(names, "f sub"), "/tmp/ut-d holds '%s', expected 'f sub'", names);
	EXPECT_RET(creat_rw("/tmp/ut-d/f/x", 0), -ENOTDIR);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-d/f/x", 0755), -ENOTDIR);
	EXPECT_RET(sys_open((long)"/tmp/ut-d", O_WRONLY, 0), -EISDIR);
	EXPECT_RET(sys_open((long)"/tmp/ut-d/f", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	memset(longname, 'n', sizeof(longname));
	memcpy(longname, "/tmp/", 5);
	longname[5 + 256] = '\0';				/* a 256-byte name */
	EXPECT_RET(creat_rw(longname, 0), -ENAMETOOLONG);
	EXPECT_RET(sys_mkdir((long)longname, 0755), -ENAMETOOLONG);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-d"), -ENOTEMPTY);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-d/sub"), -EISDIR);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-d/f"), -ENOTDIR);
	EXPECT_RET(sys_rmdir((long)"/tmp"), -EBUSY);
	EXPECT_RET(sys_unlinkat(d, (long)"sub", 0x100), -EINVAL);
	EXPECT_RET(sys_unlinkat(d, (long)"sub", AT_REMOVEDIR), 0);
	EXPECT_RET(sys_unlinkat(d, (long)"f", 0), 0);
	list_dir("/tmp/ut-d", names, sizeof(names));
	CHECK(!names[0], "/tmp/ut-d still holds '%s'", names);
	EXPECT_RET(sys_close(d), 0);
	EXPECT_RET(sys_chdir((long)"/tmp/ut-d"), 0);
	EXPECT_RET(sys_mkdir((long)"../ut-d2", 0755), 0);	/* relative, through .. */
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-d2"), 0);
	EXPECT_RET(sys_chdir((long)"/"), 0);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-d"), 0);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-d"), -ENOENT);
}

static void tmpfs_rename(void)
{
	char b[8];
	long fd = creat_rw("/tmp/ut-r1", 0);

	EXPECT_RET(sys_write(fd, (long)"one", 3), 3);
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_close(creat_rw("/tmp/ut-r2", 0)), 0);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-rd", 0755), 0);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-rd/in", 0755), 0);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r1", (long)"/tmp/ut-r2"), 0);	/* replaces */
	EXPECT_RET(sys_open((long)"/tmp/ut-r1", O_RDONLY, 0), -ENOENT);
	fd = sys_open((long)"/tmp/ut-r2", O_RDONLY, 0);
	EXPECT_RET(sys_read(fd, (long)b, sizeof(b)), 3);
	CHECK(!memcmp(b, "one", 3), "renamed file holds %.3s", b);
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r2", (long)"/tmp/ut-rd"), -EISDIR);
	EXPECT_RET(sys_rename((long)"/tmp/ut-rd", (long)"/tmp/ut-r2"), -ENOTDIR);
	EXPECT_RET(sys_rename((long)"/tmp/ut-rd", (long)"/tmp/ut-rd/in/x"), -EINVAL);
	EXPECT_RET(sys_rename((long)"/tmp/ut-rd/in", (long)"/tmp/ut-rd"), -ENOTEMPTY);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r2", (long)"/bin/ut-r2"), -EXDEV);
	EXPECT_RET(sys_rename((long)"/bin/hello", (long)"/tmp/hello"), -EXDEV);
	EXPECT_RET(sys_rename((long)"/bin/hello", (long)"/bin/hello2"), -EROFS);
	EXPECT_RET(sys_rename((long)"/tmp/ut-none", (long)"/tmp/ut-x"), -ENOENT);
	EXPECT_RET(sys_renameat(AT_FDCWD, (long)"/tmp/ut-r2", AT_FDCWD, (long)"/tmp/ut-rd/in/f"), 0);
	EXPECT_RET(sys_rename((long)"/tmp/ut-rd/in", (long)"/tmp/ut-moved"), 0);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-moved/f"), 0);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-moved"), 0);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-rd"), 0);
}

/* /tmp holds at most 256 names and 1 MiB of data. */
static void tmpfs_nospc(void)
{
	static char chunk[65536];
	char name[32];
	long r = 0, fd;
	int made = 0;

	while (made < 300) {
		snprintf(name, sizeof(name), "/tmp/ut-n%d", made);
		if ((r = creat_rw(name, O_EXCL)) < 0)
			break;
		sys_close(r);
		made++;
	}
	CHECK(r == -ENOSPC && made == 256, "made %d files, then %ld", made, r);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-nd", 0755), -ENOSPC);
	for (int i = 0; i < made; i++) {
		snprintf(name, sizeof(name), "/tmp/ut-n%d", i);
		EXPECT_RET(sys_unlink((long)name), 0);
	}
	fd = creat_rw("/tmp/ut-big", 0);
	long total = 0;
	while ((r = sys_write(fd, (long)chunk, sizeof(chunk))) > 0)
		total += r;
	CHECK(r == -ENOSPC && total == (1 << 20), "wrote %ld bytes, then %ld", total, r);
	long fd2 = creat_rw("/tmp/ut-small", 0);
	EXPECT_RET(sys_write(fd2, (long)"x", 1), -ENOSPC);	/* the data budget is spent */
	EXPECT_RET(sys_ftruncate(fd, 0), 0);
	EXPECT_RET(sys_write(fd2, (long)"x", 1), 1);
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_close(fd2), 0);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-big"), 0);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-small"), 0);
}

const struct ut_test ut_tmpfs_tests[] = {
	{ tmpfs_files, "tmpfs_files" },
	{ tmpfs_dirs, "tmpfs_dirs" },
	{ tmpfs_rename, "tmpfs_rename" },
	{ tmpfs_nospc, "tmpfs_nospc" },
	{ NULL, NULL },
};
