/*
 * user/tests/ut_hostile.c - usertests: a red-team pass over the newer
 * attack surface - the fd table's edges, a file closed under a thread that
 * is blocked in it, directories deeper than a struct file's short path,
 * /tmp offsets and sizes at their limits, renames into oneself, the
 * name-space calls with tiny buffers, copy-on-write of a page made
 * writable by mprotect, brk and mmap at absurd addresses, execve of
 * things that are not programs, and the terminal's ioctls with kernel
 * pointers.  Every test removes what it made (usertests compares the
 * free frame count at the end).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <thread.h>
#include <unistd.h>
#include "ut.h"

#define O_RDWR		2
#define O_CREAT		0100
#define O_DIRECTORY	0200000
#define O_CLOEXEC	02000000
#define F_DUPFD		0
#define AT_FDCWD	(-100)
#define NR_OPEN		1024		/* Granule's fd table at its largest (RLIMIT_NOFILE) */
#define TCGETS		0x5401
#define TIOCSPGRP	0x5410
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20

/* ---- the fd table's edges ---- */

static void fd_edges(void)
{
	EXPECT_RET(sys_dup2(1, NR_OPEN - 1), NR_OPEN - 1);
	EXPECT_RET(sys_dup2(1, NR_OPEN), -EBADF);
	EXPECT_RET(sys_dup2(1, 4096), -EBADF);
	EXPECT_RET(sys_dup2(1, 0x7fffffff), -EBADF);
	EXPECT_RET(sys_dup2(1, -1), -EBADF);
	EXPECT_RET(sys_dup2(0x7fffffff, 5), -EBADF);
	EXPECT_RET(sys_dup3(1, 0x7fffffff, O_CLOEXEC), -EBADF);
	EXPECT_RET(sys_dup3(1, 5, 1), -EINVAL);
	EXPECT_RET(sys_fcntl64(1, F_DUPFD, NR_OPEN), -EINVAL);
	EXPECT_RET(sys_fcntl64(1, F_DUPFD, 0x80000000u), -EINVAL);
	EXPECT_RET(sys_fcntl64(1, F_DUPFD, NR_OPEN - 1), -EMFILE);	/* 1023 is taken */
	EXPECT_RET(sys_close(NR_OPEN - 1), 0);
	EXPECT_RET(sys_close(NR_OPEN), -EBADF);
	EXPECT_RET(sys_close(-1), -EBADF);
	/* Fill the table; a pipe then fails whole and leaves no fd behind. */
	int last = -1;
	long r;
	while ((r = sys_dup(1)) >= 0)
		last = (int)r;
	CHECK(r == -EMFILE && last == NR_OPEN - 1, "dup ended with %ld after fd %d", r, last);
	int fds[2];
	EXPECT_RET(sys_pipe((long)fds), -EMFILE);
	EXPECT_RET(sys_close(last), 0);
	EXPECT_RET(sys_pipe((long)fds), -EMFILE);	/* one free fd is not two */
	EXPECT_RET(sys_dup(1), last);			/* the pipe took nothing */
	for (int fd = 3; fd < NR_OPEN; fd++)
		EXPECT_RET(sys_close(fd), 0);
}

/* ---- a pipe end closed by one thread while another is blocked reading it ---- */

static int close_fds[2];
static volatile long close_read_ret = -1;
static char close_byte;

static void *blocked_reader(void *arg)
{
	(void)arg;
	close_read_ret = sys_read(close_fds[0], (long)&close_byte, 1);
	return NULL;
}

/*
 * Linux: the read holds its own reference on the file (fdget), so the
 * close only frees the fd number: the pipe still has its reader, the
 * write succeeds and the blocked read returns it.  A kernel that looks
 * the fd up without a reference frees the file (and the pipe's reader
 * count) under the sleeping reader.
 */
static void close_blocked(void)
{
	thread_t t;

	signal(SIGPIPE, SIG_IGN);
	EXPECT_RET(sys_pipe((long)close_fds), 0);
	CHECK(thread_create(&t, blocked_reader, NULL) == 0, "thread_create");
	ut_sleep_ns(20000000);			/* the reader is asleep in the pipe */
	CHECK(close_read_ret == -1, "the read returned %ld early", close_read_ret);
	EXPECT_RET(sys_close(close_fds[0]), 0);
	EXPECT_RET(sys_write(close_fds[1], (long)"x", 1), 1);
	CHECK(thread_join(t, NULL) == 0, "thread_join");
	CHECK(close_read_ret == 1 && close_byte == 'x', "blocked read returned %ld '%c'",
	      close_read_ret, close_byte);
	/* Now the last reader is gone: EPIPE. */
	EXPECT_RET(sys_write(close_fds[1], (long)"y", 1), -EPIPE);
	EXPECT_RET(sys_close(close_fds[1]), 0);
}

/* ---- directories deeper than a short path ---- */

#define DEEP1	"/tmp/ut-deep-0123456789012345678901234567890123456789"
#define DEEP2	DEEP1 "/sub-0123456789abcdef"

struct dirent_head {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
} __attribute__((packed));

/* Does directory fd DIR list NAME? */
static int lists(long dir, const char *name)
{
	char buf[512];
	long n;

	while ((n = sys_getdents64(dir, (long)buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; ) {
			struct dirent_head *d = (struct dirent_head *)(buf + off);
			if (!strcmp(d->d_name, name))
				return 1;
			off += d->d_reclen;
		}
	CHECK(n == 0, "getdents64: %ld", n);
	return 0;
}

static void deep_dirfd(void)
{
	char cwd[128];

	EXPECT_RET(sys_mkdir((long)DEEP1, 0755), 0);
	EXPECT_RET(sys_mkdir((long)DEEP2, 0755), 0);
	long f = sys_open((long)DEEP2 "/file", O_RDWR | O_CREAT, 0644);
	CHECK(f >= 0, "create: %ld", f);
	EXPECT_RET(sys_close(f), 0);
	long d = sys_open((long)DEEP2, O_RDONLY | O_DIRECTORY, 0);
	CHECK(d >= 0, "open the deep directory: %ld", d);
	CHECK(lists(d, "file"), "getdents64 of %s does not list its file", DEEP2);
	/* relative to the directory fd */
	f = sys_openat(d, (long)"file", O_RDONLY, 0);
	CHECK(f >= 0, "openat(deep dirfd, \"file\"): %ld", f);
	EXPECT_RET(sys_close(f), 0);
	/* fchdir: Granule keeps 63 bytes of current directory (as chdir) */
	EXPECT_RET(sys_fchdir(d), -ENAMETOOLONG);
	EXPECT_RET(sys_getcwd((long)cwd, sizeof(cwd)), 2);
	EXPECT_RET(sys_close(d), 0);
	EXPECT_RET(sys_unlink((long)DEEP2 "/file"), 0);
	EXPECT_RET(sys_rmdir((long)DEEP2), 0);
	EXPECT_RET(sys_rmdir((long)DEEP1), 0);
}

/* ---- /tmp at its limits ---- */

static void tmpfs_offsets(void)
{
	long long res = 0;
	long fd = sys_open((long)"/tmp/ut-off", O_RDWR | O_CREAT, 0644);
	char b[4];

	CHECK(fd >= 0, "create: %ld", fd);
	EXPECT_RET(sys_lseek(fd, 0x7fffffff, 0), 0x7fffffff);
	EXPECT_RET(sys_write(fd, (long)"ab", 2), -ENOSPC);
	EXPECT_RET(sys_read(fd, (long)b, 2), 0);
	/* _llseek to 2^63 - 1, then as far again: the sum would wrap */
	EXPECT_RET(sys__llseek(fd, 0x7fffffff, 0xffffffff, (long)&res, 0), 0);
	CHECK(res == 0x7fffffffffffffffll, "llseek gave %lld", res);
	EXPECT_RET(sys__llseek(fd, 0x7fffffff, 0xffffffff, (long)&res, 1), -EINVAL);
	EXPECT_RET(sys_write(fd, (long)"ab", 2), -ENOSPC);
	EXPECT_RET(sys_read(fd, (long)b, 2), 0);
	EXPECT_RET(sys__llseek(fd, 0xffffffff, 0xffffffff, (long)&res, 0), -EINVAL);
	EXPECT_RET(sys_lseek(fd, -1, 0), -EINVAL);
	EXPECT_RET(sys_ftruncate64(fd, 0, 1), -EFBIG);	/* 4 GiB */
	EXPECT_RET(sys_ftruncate64(fd, 0, 0x80000000u), -EINVAL);
	EXPECT_RET(sys_ftruncate(fd, 0xffffffffu), -EINVAL);	/* a negative long */
	EXPECT_RET(sys_ftruncate(fd, 3), 0);
	EXPECT_RET(sys_lseek(fd, 0, 2), 3);
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-off"), 0);
}

static void tmpfs_self_rename(void)
{
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-r", 0755), 0);
	EXPECT_RET(sys_mkdir((long)"/tmp/ut-r/s", 0755), 0);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r", (long)"/tmp/ut-r/s/t"), -EINVAL);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r", (long)"/tmp/ut-r/t"), -EINVAL);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r", (long)"/tmp/ut-r"), 0);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r/s", (long)"/tmp/ut-r"), -ENOTEMPTY);
	EXPECT_RET(sys_rename((long)"/tmp", (long)"/tmp/ut-r/x"), -EBUSY);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r", (long)"/tmp"), -EBUSY);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-r"), -ENOTEMPTY);
	EXPECT_RET(sys_rmdir((long)"/tmp"), -EBUSY);
	/* "." and ".." at the end: never the directory they resolve to */
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-r/s/."), -EINVAL);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-r/s/./"), -EINVAL);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-r/s/.."), -ENOTEMPTY);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-r/s/."), -EISDIR);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r/s/.", (long)"/tmp/ut-q"), -EBUSY);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r/s", (long)"/tmp/ut-r/."), -EBUSY);
	EXPECT_RET(sys_rename((long)"/tmp/ut-r/s", (long)"/tmp/ut-r/s/.."), -EBUSY);
	EXPECT_RET(sys_access((long)"/tmp/ut-r/s", 0), 0);
	/* removing the current directory: allowed; nothing can be made in it */
	EXPECT_RET(sys_chdir((long)"/tmp/ut-r/s"), 0);
	EXPECT_RET(sys_rmdir((long)"."), -EINVAL);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-r/s"), 0);
	EXPECT_RET(sys_open((long)"x", O_RDWR | O_CREAT, 0644), -ENOENT);
	EXPECT_RET(sys_mkdir((long)"x", 0755), -ENOENT);
	EXPECT_RET(sys_chdir((long)"/"), 0);
	EXPECT_RET(sys_rmdir((long)"/tmp/ut-r"), 0);
}

/* ---- tiny buffers ---- */

static void tiny_buffers(void)
{
	char b[8];
	long d = sys_open((long)"/bin", O_RDONLY | O_DIRECTORY, 0);

	CHECK(d >= 0, "open /bin: %ld", d);
	EXPECT_RET(sys_getdents64(d, (long)b, 0), -EINVAL);
	EXPECT_RET(sys_getdents64(d, (long)b, 1), -EINVAL);
	EXPECT_RET(sys_getdents64(d, 0xC0000000u, 4096), -EFAULT);
	EXPECT_RET(sys_getdents64(d, 0xfffff000u, 0x2000), -EFAULT);	/* wraps */
	EXPECT_RET(sys_close(d), 0);
	EXPECT_RET(sys_getdents64(1, (long)b, sizeof(b)), -ENOTDIR);
	EXPECT_RET(sys_getcwd((long)b, 0), -ERANGE);
	EXPECT_RET(sys_getcwd((long)b, 1), -ERANGE);
	EXPECT_RET(sys_getcwd(0xC0000000u, 64), -EFAULT);
	EXPECT_RET(sys_readlink((long)"/bin/ut-link", (long)b, 0), -EINVAL);
	EXPECT_RET(sys_readlink((long)"/bin/ut-link", (long)b, -1), -EINVAL);
	EXPECT_RET(sys_readlink((long)"/bin/ut-link", (long)b, 1), 1);
	EXPECT_RET(sys_readlink((long)"/proc/self", (long)b, 1), 1);
	EXPECT_RET(sys_readlink((long)"/proc/self", 0xC0000000u, 8), -EFAULT);
}

/* ---- memory ---- */

static const char rodata_word[PAGE_SIZE] __attribute__((aligned(4096))) = "original";

/* mprotect a read-only data page writable, fork, write in both: each
 * sees its own copy (the COW of a page mprotect made writable). */
static void mprotect_cow(void)
{
	volatile char *p = (volatile char *)rodata_word;

	EXPECT_RET(sys_mprotect((long)p, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	long pid = sys_fork();
	if (pid == 0) {
		p[0] = 'C';
		_exit(p[0] == 'C' && p[1] == 'r' ? 0 : 1);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	int st = ut_wait((pid_t)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	CHECK(p[0] == 'o', "the child's write reached the parent: %c", p[0]);
	p[0] = 'P';
	CHECK(p[0] == 'P', "parent write");
}

static void addr_abuse(void)
{
	long cur = sys_brk(0);

	EXPECT_RET(sys_brk(0xC0000000u), cur);
	EXPECT_RET(sys_brk(0xffffffffu), cur);
	EXPECT_RET(sys_brk(1), cur);
	EXPECT_RET(sys_brk(0), cur);
	/* MAP_FIXED over the kernel, wrapping, at page 0 */
	EXPECT_RET(sys_mmap2(0xC0000000u, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			     -1, 0), -ENOMEM);
	EXPECT_RET(sys_mmap2(0xfffff000u, 0x2000, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			     -1, 0), -ENOMEM);
	EXPECT_RET(sys_mmap2(0, 0xffffffffu, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), -ENOMEM);
	EXPECT_RET(sys_munmap(0xC0000000u, PAGE_SIZE), -EINVAL);
	EXPECT_RET(sys_munmap(0xfffff000u, 0x2000), -EINVAL);
	EXPECT_RET(sys_mprotect(0xC0000000u, PAGE_SIZE, PROT_READ), -ENOMEM);
	EXPECT_RET(sys_mprotect(0xBFFFF000u, 0x80000000u, PROT_READ), -ENOMEM);
}

/* Fill /tmp's node table with directories, then with nothing left a file
 * cannot be made either; free them all and it can again.  (usertests
 * compares the free frames after the run.) */
static void tmpfs_nodes(void)
{
	char name[32];
	int n = 0;
	long r;

	for (;;) {
		snprintf(name, sizeof(name), "/tmp/ut-n%d", n);
		if ((r = sys_mkdir((long)name, 0755)) < 0)
			break;
		n++;
	}
	CHECK(r == -ENOSPC && n > 200 && n <= 256, "mkdir %d ended with %ld", n, r);
	EXPECT_RET(sys_open((long)"/tmp/ut-nfile", O_RDWR | O_CREAT, 0644), -ENOSPC);
	EXPECT_RET(sys_rename((long)"/tmp/ut-n0", (long)"/tmp/ut-n0-moved"), 0);	/* no new node */
	EXPECT_RET(sys_rename((long)"/tmp/ut-n0-moved", (long)"/tmp/ut-n0"), 0);
	while (n-- > 0) {
		snprintf(name, sizeof(name), "/tmp/ut-n%d", n);
		EXPECT_RET(sys_rmdir((long)name), 0);
	}
	long fd = sys_open((long)"/tmp/ut-nfile", O_RDWR | O_CREAT, 0644);
	CHECK(fd >= 0, "create after freeing: %ld", fd);
	EXPECT_RET(sys_close(fd), 0);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-nfile"), 0);
}

/* Fill the area table (MM_MAX_AREAS, 1024: the array grows past the 32 in
 * struct mm) with one-page mappings; a split by munmap or mprotect then
 * fails with -ENOMEM and changes nothing; a fork copies every area; then
 * give it all back. */
#define AREAS_TRY	1100
static void mmap_areas(void)
{
	static uint32_t a[AREAS_TRY];
	int n = 0;
	long r;

	while (n < AREAS_TRY && (unsigned long)(r = sys_mmap2(0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE,
							      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) < -4095ul) {
		a[n] = (uint32_t)r;
		*(volatile char *)a[n] = (char)n;
		n++;
	}
	CHECK(n > 1000 && n < AREAS_TRY && r == -ENOMEM, "%d mappings, then %ld", n, r);
	EXPECT_RET(sys_munmap(a[0] + PAGE_SIZE, PAGE_SIZE), -ENOMEM);	/* 3 pieces: one more */
	EXPECT_RET(sys_mprotect(a[0] + PAGE_SIZE, PAGE_SIZE, PROT_READ), -ENOMEM);
	*(volatile char *)(a[0] + PAGE_SIZE) = 1;	/* still one writable area */
	long pid = sys_fork();
	if (pid == 0) {
		for (int i = 0; i < n; i++)
			if (*(volatile char *)a[i] != (char)i)
				_exit(1);
		*(volatile char *)a[0] = 99;
		_exit(0);
	}
	int st = ut_wait((pid_t)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	CHECK(*(volatile char *)a[0] == 0, "the child's write reached the parent");
	for (int i = 0; i < n; i++)
		EXPECT_RET(sys_munmap(a[i], 3 * PAGE_SIZE), 0);
	EXPECT_RET(sys_munmap(a[0], 3 * PAGE_SIZE), 0);		/* nothing there: fine */
}

/* ---- execve of things that are not programs ---- */

static void exec_nonprograms(void)
{
	char *argv[] = { "x", NULL };
	char *envp[] = { NULL };
	static const char junk[] = "\177ELF\1\1\1";

	EXPECT_RET(sys_execve((long)"/bin", (long)argv, (long)envp), -EACCES);
	EXPECT_RET(sys_execve((long)"/tmp", (long)argv, (long)envp), -EACCES);
	EXPECT_RET(sys_execve((long)"/proc/self/stat", (long)argv, (long)envp), -EACCES);
	EXPECT_RET(sys_execve((long)"/dev/null", (long)argv, (long)envp), -EACCES);
	long fd = sys_open((long)"/tmp/ut-elf", O_RDWR | O_CREAT, 0755);
	CHECK(fd >= 0, "create: %ld", fd);
	EXPECT_RET(sys_write(fd, (long)junk, sizeof(junk) - 1), sizeof(junk) - 1);
	EXPECT_RET(sys_close(fd), 0);
	/* Only the initrd's programs run: /tmp is as a noexec mount. */
	EXPECT_RET(sys_execve((long)"/tmp/ut-elf", (long)argv, (long)envp), -EACCES);
	EXPECT_RET(sys_execve((long)"/tmp/ut-nosuch", (long)argv, (long)envp), -ENOENT);
	EXPECT_RET(sys_unlink((long)"/tmp/ut-elf"), 0);
}

/* ---- the terminal ---- */

static void tty_hostile_ioctl(void)
{
	int pg = 1;

	EXPECT_RET(sys_ioctl(0, TCGETS, 0xC0000000u), -EFAULT);
	EXPECT_RET(sys_ioctl(0, TCGETS, 0xC0100000u), -EFAULT);
	EXPECT_RET(sys_ioctl(0, 0x5402 /* TCSETS */, 0xC0000000u), -EFAULT);
	/* a new session has no controlling terminal: TIOCSPGRP is -ENOTTY */
	long pid = sys_fork();
	if (pid == 0) {
		long r = sys_setsid();
		if (r < 0)
			_exit(2);
		_exit(sys_ioctl(0, TIOCSPGRP, (long)&pg) == -ENOTTY ? 0 : 1);
	}
	int st = ut_wait((pid_t)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "setsid child: status %#x", st);
}

const struct ut_test ut_hostile_tests[] = {
	{ fd_edges, "hostile_fd_edges" },
	{ close_blocked, "hostile_close_blocked" },
	{ deep_dirfd, "hostile_deep_dirfd" },
	{ tmpfs_offsets, "hostile_tmpfs_offsets" },
	{ tmpfs_self_rename, "hostile_self_rename" },
	{ tiny_buffers, "hostile_tiny_buffers" },
	{ mprotect_cow, "hostile_mprotect_cow" },
	{ addr_abuse, "hostile_addr_abuse" },
	{ tmpfs_nodes, "hostile_tmpfs_nodes" },
	{ mmap_areas, "hostile_mmap_areas" },
	{ exec_nonprograms, "hostile_exec_nonprograms" },
	{ tty_hostile_ioctl, "hostile_tty_ioctl" },
	{ NULL, NULL },
};
