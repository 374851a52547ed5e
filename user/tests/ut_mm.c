/*
 * user/tests/ut_mm.c - memory mappings and the ELF loader against Linux
 * 2.6.35, a hostile program's view:
 *   mprotect_none      PROT_NONE over pages already there (anonymous and
 *                      file): any access is SIGSEGV, the kernel's copies
 *                      say EFAULT, and the contents come back with the
 *                      access (mm/mprotect.c's change_protection)
 *   mprotect_lower     read-only over a written page that fork shares:
 *                      a write is SIGSEGV; made writable again, the write
 *                      copies, and the other process keeps its own page
 *   mmap_file_offsets  a file offset of 4 GiB and beyond (pgoff in pages)
 *                      never wraps to the file's first bytes: the pages
 *                      are past the end, SIGBUS; pgoff + length wrapping
 *                      is EOVERFLOW (do_mmap_pgoff)
 *   madvise_dontneed   MADV_DONTNEED drops the pages: an anonymous page
 *                      reads zeroes again, a private file page the file's
 *                      bytes, and the frames come back; the checks of
 *                      2.6.35's mm/madvise.c (unaligned, unknown advice,
 *                      wrapping length: EINVAL; a hole: ENOMEM after the
 *                      mapped part is done; WILLNEED on anonymous memory:
 *                      EBADF)
 *   exec_shared_page   a program whose code and data share a page runs
 *                      (load_elf_binary: elf_map per segment, padzero)
 *   exec_big_bss       programs with a 64 MiB bss run side by side, more of
 *                      them than the free memory could hold: a bss is
 *                      anonymous memory mapped lazily (set_brk), and each
 *                      is within 2.6.35's heuristic overcommit alone
 *   exec_interp_exec   an ET_EXEC interpreter with a PT_INTERP of its own
 *                      is loaded at its addresses, AT_BASE 0, its own
 *                      PT_INTERP ignored (load_elf_interp)
 * The programs exec'ed are user/tests/sharedpage.c, bigbss.c, interp.c and
 * interp_prog.c.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ut.h"


static void read_byte(uintptr_t a)
{
	(void)*(volatile char *)a;
}

static void write_byte(uintptr_t a)
{
	*(volatile char *)a = 1;
}

/* A write(2) from and a read(2) into ADDR: the kernel's own copies. */
static void copies_refused(long addr)
{
	int p[2];

	EXPECT_RET(sys_pipe((long)p), 0);
	EXPECT_RET(sys_write(p[1], addr, 1), -EFAULT);
	EXPECT_RET(sys_write(p[1], (long)"x", 1), 1);
	EXPECT_RET(sys_read(p[0], addr, 1), -EFAULT);
	sys_close(p[0]);
	sys_close(p[1]);
}

/* NPAGES of fresh anonymous memory, 'a' written in the first page, 'b' in the second. */
static long anon_ab(int npages)
{
	long p = sys_mmap2(0, npages * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);

	CHECK(MAPPED(p), "mmap2: %ld", p);
	((volatile char *)p)[0] = 'a';
	((volatile char *)p)[PAGE_SIZE] = 'b';
	return p;
}

/* In a child of its own (its page tables stay with it): see mprotect_none. */
static void prot_none_pages(uintptr_t unused)
{
	long p = anon_ab(2);
	volatile char *c = (volatile char *)p;

	EXPECT_RET(sys_mprotect(p, PAGE_SIZE, PROT_NONE), 0);
	ut_expect_killed(read_byte, (uintptr_t)p, SIGSEGV, "a read of a PROT_NONE page");
	ut_expect_killed(write_byte, (uintptr_t)p, SIGSEGV, "a write to a PROT_NONE page");
	copies_refused(p);
	CHECK(c[PAGE_SIZE] == 'b', "the next page: %d", c[PAGE_SIZE]);
	EXPECT_RET(sys_mprotect(p, PAGE_SIZE, PROT_READ), 0);
	CHECK(c[0] == 'a', "the page lost its contents under PROT_NONE: %d", c[0]);
	ut_expect_killed(write_byte, (uintptr_t)p, SIGSEGV, "a write to a PROT_READ page");
	EXPECT_RET(sys_mprotect(p, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	c[0] = 'c';
	CHECK(c[0] == 'c', "a write after PROT_READ|PROT_WRITE");
	EXPECT_RET(sys_munmap(p, 2 * PAGE_SIZE), 0);

	long fd = sys_open((long)"/bin/hello", O_RDONLY, 0);
	long q = sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(MAPPED(q), "mmap2 /bin/hello: %ld", q);
	CHECK(*(volatile char *)q == 0x7f, "the file's first byte: %d", *(volatile char *)q);
	EXPECT_RET(sys_mprotect(q, PAGE_SIZE, PROT_NONE), 0);
	ut_expect_killed(read_byte, (uintptr_t)q, SIGSEGV, "a read of a PROT_NONE file page");
	copies_refused(q);
	EXPECT_RET(sys_mprotect(q, PAGE_SIZE, PROT_READ), 0);
	CHECK(*(volatile char *)q == 0x7f, "the file page after PROT_NONE: %d", *(volatile char *)q);
	EXPECT_RET(sys_munmap(q, PAGE_SIZE), 0);
	sys_close(fd);
}

/* FN in a child of its own; then every frame it took is free again. */
static void in_child_no_leak(void (*fn)(uintptr_t), const char *what)
{
	long f0 = ut_frames();

	CHECK(ut_run_child(fn, 0) == 0, "the %s child failed", what);
	CHECK(ut_frames_settle(f0, 5) == f0, "%s pages leaked %ld frames", what, f0 - ut_frames());
}

static void mprotect_none(void)
{
	in_child_no_leak(prot_none_pages, "PROT_NONE");
}

static void mprotect_lower(void)
{
	long p = sys_mmap2(0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
	volatile char *c = (volatile char *)p;
	int go[2];

	CHECK(MAPPED(p), "mmap2: %ld", p);
	c[0] = 'a';
	EXPECT_RET(sys_pipe((long)go), 0);
	long pid = sys_fork();
	if (pid == 0) {
		char x;
		sys_read(go[0], (long)&x, 1);
		_exit(c[0] == 'a' ? 0 : 1);	/* its own page, as it was at the fork */
	}
	CHECK(pid > 0, "fork: %ld", pid);
	EXPECT_RET(sys_mprotect(p, PAGE_SIZE, PROT_READ), 0);
	ut_expect_killed(write_byte, (uintptr_t)p, SIGSEGV, "a write to a page made read-only");
	CHECK(c[0] == 'a', "read-only page reads %d", c[0]);
	EXPECT_RET(sys_mprotect(p, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	c[0] = 'b';
	EXPECT_RET(sys_write(go[1], (long)"g", 1), 1);
	int st = ut_wait((pid_t)pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the parent's write reached the child: %#x", st);
	CHECK(c[0] == 'b', "the parent's page: %d", c[0]);
	sys_close(go[0]);
	sys_close(go[1]);
	sys_munmap(p, PAGE_SIZE);
}

static void mmap_file_offsets(void)
{
	long fd = sys_open((long)"/bin/hello", O_RDONLY, 0);

	CHECK(fd >= 0, "open: %ld", fd);
	/* pgoff + pages wraps: refused */
	EXPECT_RET(sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0xffffffffu), -EOVERFLOW);
	EXPECT_RET(sys_mmap2(0, 2 * PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0xfffffffeu), -EOVERFLOW);
	/* 4 GiB - 4 KiB and 4 GiB into a small file: both pages past its end */
	long p = sys_mmap2(0, 2 * PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0xfffff);
	CHECK(MAPPED(p), "mmap2 at pgoff 0xfffff: %ld", p);
	ut_expect_killed(read_byte, (uintptr_t)p + PAGE_SIZE, SIGBUS, "a read at file offset 4 GiB");
	ut_expect_killed(read_byte, (uintptr_t)p, SIGBUS, "a read at file offset 4 GiB - 4 KiB");
	EXPECT_RET(sys_munmap(p, 2 * PAGE_SIZE), 0);
	long q = sys_mmap2(0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0x100000);
	CHECK(MAPPED(q), "mmap2 at pgoff 0x100000 (4 GiB): %ld", q);
	ut_expect_killed(read_byte, (uintptr_t)q, SIGBUS, "a read at file offset 4 GiB, mapped there");
	EXPECT_RET(sys_munmap(q, PAGE_SIZE), 0);
	sys_close(fd);
}

#define MADV_WILLNEED	3
#define MADV_DONTNEED	4
#define MADV_REMOVE	9
#define MADV_MERGEABLE	12

static void dontneed_pages(uintptr_t unused)
{
	long p = anon_ab(3), f0 = ut_frames();
	volatile char *c = (volatile char *)p;

	EXPECT_RET(sys_madvise(p, PAGE_SIZE, MADV_DONTNEED), 0);
	CHECK(ut_frames() == f0 + 1, "MADV_DONTNEED freed %ld frames, not 1", ut_frames() - f0);
	CHECK(c[0] == 0, "an anonymous page after MADV_DONTNEED reads %d, not 0", c[0]);
	CHECK(c[PAGE_SIZE] == 'b', "the next page lost its contents: %d", c[PAGE_SIZE]);
	EXPECT_RET(sys_madvise(p + 1, PAGE_SIZE, MADV_DONTNEED), -EINVAL);
	EXPECT_RET(sys_madvise(p, PAGE_SIZE, MADV_MERGEABLE), -EINVAL);	/* KSM: not configured */
	EXPECT_RET(sys_madvise(p, PAGE_SIZE, 999), -EINVAL);
	EXPECT_RET(sys_madvise(p, -1ul, MADV_DONTNEED), -EINVAL);		/* rounds up to 0 */
	EXPECT_RET(sys_madvise(p, 0, 999), -EINVAL);				/* the advice first */
	EXPECT_RET(sys_madvise(p, 0, MADV_DONTNEED), 0);
	EXPECT_RET(sys_madvise(p, PAGE_SIZE, MADV_WILLNEED), -EBADF);
	EXPECT_RET(sys_madvise(p, PAGE_SIZE, MADV_REMOVE), -EINVAL);
	/* a hole after the mapping: ENOMEM, and the mapped pages still go */
	EXPECT_RET(sys_munmap(p + 2 * PAGE_SIZE, PAGE_SIZE), 0);
	EXPECT_RET(sys_madvise(p, 3 * PAGE_SIZE, MADV_DONTNEED), -ENOMEM);
	CHECK(c[PAGE_SIZE] == 0, "a page before the hole kept its contents: %d", c[PAGE_SIZE]);
	EXPECT_RET(sys_munmap(p, 2 * PAGE_SIZE), 0);

	long fd = sys_open((long)"/bin/hello", O_RDONLY, 0);
	long q = sys_mmap2(0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(MAPPED(q), "mmap2 /bin/hello: %ld", q);
	*(volatile char *)q = 'x';
	EXPECT_RET(sys_madvise(q, PAGE_SIZE, MADV_WILLNEED), 0);
	EXPECT_RET(sys_madvise(q, PAGE_SIZE, MADV_REMOVE), -EACCES);
	EXPECT_RET(sys_madvise(q, PAGE_SIZE, MADV_DONTNEED), 0);
	CHECK(*(volatile char *)q == 0x7f, "a private file page after MADV_DONTNEED: %d", *(volatile char *)q);
	EXPECT_RET(sys_munmap(q, PAGE_SIZE), 0);
	sys_close(fd);
}

static void madvise_dontneed(void)
{
	in_child_no_leak(dontneed_pages, "MADV_DONTNEED");
}

/* PATH ARG run to its end: 0 if it exited 0 (else FAIL with what it said). */
static void exec_runs(const char *path, char *arg)
{
	char *argv[] = { (char *)path, arg, NULL };
	char *envp[] = { NULL };
	long f0 = ut_frames();
	long pid = sys_fork();

	if (pid == 0) {
		long r = sys_execve((long)path, (long)argv, (long)envp);
		_exit(r < 0 && r > -100 ? 100 - r : 99);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	int st = ut_wait((pid_t)pid);
	CHECK(!WIFSIGNALED(st), "%s killed by signal %d", path, WTERMSIG(st));
	CHECK(WEXITSTATUS(st) < 100, "execve %s failed: errno %d", path, WEXITSTATUS(st) - 100);
	CHECK(WEXITSTATUS(st) == 0, "%s exited with %d", path, WEXITSTATUS(st));
	CHECK(ut_frames_settle(f0, 5) == f0, "%s: the free frames moved by %ld", path,
	      ut_frames() - f0);
}

static void exec_shared_page(void)
{
	exec_runs("/bin/ut-sharedpage", NULL);
}

#define BIG_BSS_PAGES	((64u << 20) / PAGE_SIZE)	/* bigbss.c's */

/* Start one "ut-bigbss hold" with fd 0 = GO[0], fd 1 = READY[1]; its pid,
 * once it said it runs (0 if it ended first: *ST its status). */
static long start_holder(const int go[2], const int ready[2], int *st)
{
	char *argv[] = { "ut-bigbss", "hold", NULL }, *envp[] = { NULL }, c;
	long pid = sys_fork();

	if (pid == 0) {
		sys_dup2(go[0], 0);
		sys_dup2(ready[1], 1);
		sys_close(go[1]);	/* fd 0 ends when the test closes its end */
		sys_close(ready[0]);
		long r = sys_execve((long)"/bin/ut-bigbss", (long)argv, (long)envp);
		_exit(r < 0 && r > -100 ? 100 - r : 99);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	for (;;) {		/* its byte, or its end */
		struct { int fd; short events, revents; } pfd = { ready[0], 1 /* POLLIN */, 0 };
		if (sys_poll((long)&pfd, 1, 10) == 1 && sys_read(ready[0], (long)&c, 1) == 1)
			return pid;
		if (sys_wait4(pid, (long)st, 1 /* WNOHANG */, 0) == pid)
			return 0;
	}
}

static void exec_big_bss(void)
{
	long f0 = ut_frames(), pids[8];
	int go[2], ready[2], st = 0, started = 0;
	int n = f0 / BIG_BSS_PAGES + 2 > 8 ? 8 : (int)(f0 / BIG_BSS_PAGES + 2);

	EXPECT_RET(sys_pipe((long)go), 0);
	EXPECT_RET(sys_pipe((long)ready), 0);
	/* More of them at once than the free memory could hold filled in. */
	while (started < n && (pids[started] = start_holder(go, ready, &st)))
		started++;
	sys_close(go[1]);			/* let them go */
	for (int i = 0; i < started; i++) {
		int s = ut_wait((pid_t)pids[i]);
		CHECK(s == 0, "ut-bigbss %d of %d: status %#x", i + 1, n, s);
	}
	CHECK(started == n, "ut-bigbss %d of %d ended at once: %s %d", started + 1, n,
	      WIFSIGNALED(st) ? "signal" : WEXITSTATUS(st) > 100 ? "execve errno" : "status",
	      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st) > 100 ? WEXITSTATUS(st) - 100 :
	      WEXITSTATUS(st));
	sys_close(go[0]);
	sys_close(ready[0]);
	sys_close(ready[1]);
	CHECK(ut_frames_settle(f0, 5) == f0, "the free frames moved by %ld", ut_frames() - f0);
}

static void exec_interp_exec(void)
{
	exec_runs("/bin/ut-interp-prog", "x");	/* the interpreter writes its verdict over the x */
}

const struct ut_test ut_mm_tests[] = {
	{ mprotect_none, "mprotect_none" },
	{ mprotect_lower, "mprotect_lower" },
	{ mmap_file_offsets, "mmap_file_offsets" },
	{ madvise_dontneed, "madvise_dontneed" },
	{ exec_shared_page, "exec_shared_page" },
	{ exec_big_bss, "exec_big_bss" },
	{ exec_interp_exec, "exec_interp_exec" },
	{ NULL, NULL },
};
