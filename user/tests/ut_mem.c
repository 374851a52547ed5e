/*
 * user/tests/ut_mem.c - usertests: user pointers, faults, the stack window, brk,
 * copy-on-write, out of memory, FPU state.
 *
 * Bad user pointers (xv6 copyin/copyout/copyinstr, Pintos *-bad-ptr): every
 * system call that takes a pointer gets each of
 *	NULL, 0xC0000000 (first kernel byte), 0xC0100000 (kernel text),
 *	0x40000000 (unmapped user address), TASK_SIZE - n/2 (an n-byte object
 *	straddling the end of user space), edge - n/2 (mapped page, then an
 *	unmapped one), 0xFFFFFFFF - n/2 (wraps around 4 GiB)
 * and must return -EFAULT (never crash, never copy).  Faults in user mode
 * must kill only the process, with the signal Linux sends.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "ut.h"

#define NBAD		7

/* A page boundary with the heap page below it mapped and nothing above. */
static uint32_t heap_edge(void)
{
	uint32_t cur = sys_brk(0);
	uint32_t top = (cur + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);

	if (top != cur)
		CHECK((uint32_t)sys_brk(top) == top, "brk(%x) refused", top);
	/* Fault the last page in; its last bytes are no NUL and no pointer. */
	memset((char *)top - 64, 'x', 64);
	return top;
}

/* The bad addresses for an object of N bytes; DESC names them. */
static void bad_addrs(uint32_t n, uint32_t out[NBAD])
{
	uint32_t edge = heap_edge();

	out[0] = 0;
	out[1] = 0xC0000000u;
	out[2] = 0xC0100000u;
	out[3] = 0x40000000u;
	out[4] = TASK_SIZE - n / 2;
	out[5] = edge - n / 2;
	out[6] = 0xFFFFFFFFu - n / 2;
}

static const char *const bad_desc[NBAD] = {
	"NULL", "kernel 0xC0000000", "kernel text", "unmapped", "straddling 3 GiB",
	"mapped then unmapped", "wrapping 4 GiB",
};

/* A code address: mapped, present, read-only. */
#define TEXT_ADDR	((uint32_t)(uintptr_t)&heap_edge)

static void copyin(void)		/* write() from bad buffers */
{
	uint32_t a[NBAD];

	bad_addrs(32, a);
	for (int i = 0; i < NBAD; i++)
		if (sys_write(1, a[i], 32) != -EFAULT)
			FAIL("write(1, %x (%s), 32) did not fail with EFAULT", a[i], bad_desc[i]);
	EXPECT_RET(sys_write(1, 0xBFFFFFF0u, 0x20), -EFAULT);
	EXPECT_RET(sys_write(1, (long)"", 0), 0);
}

static void copyout(void)		/* read() into bad buffers */
{
	uint32_t a[NBAD];

	bad_addrs(32, a);
	for (int i = 0; i < NBAD; i++)
		if (sys_read(0, a[i], 32) != -EFAULT)
			FAIL("read(0, %x (%s), 32) did not fail with EFAULT", a[i], bad_desc[i]);
	EXPECT_RET(sys_read(0, TEXT_ADDR, 16), -EFAULT);	/* read-only page */
}

static void badfd(void)
{
	static const int fds[] = { -1, 3, 4, 63, 64, 1000, 0x7fffffff };
	char c = 'x';

	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (sys_write(fds[i], (long)&c, 1) != -EBADF)
			FAIL("write(%d) did not fail with EBADF", fds[i]);
		if (sys_read(fds[i], (long)&c, 1) != -EBADF)
			FAIL("read(%d) did not fail with EBADF", fds[i]);
	}
	EXPECT_RET(sys_read(1, (long)&c, 1), -EBADF);	/* console output ends */
	EXPECT_RET(sys_read(2, (long)&c, 1), -EBADF);
	EXPECT_RET(sys_write(0, (long)&c, 1), -EBADF);	/* ... and input */
	EXPECT_RET(sys_write(-1, 0, 10), -EBADF);	/* the fd is checked first */
}

static void exec_badptr(void)
{
	uint32_t a[NBAD], edge = heap_edge();
	char *argv[] = { "usertests", "--exit", "3", NULL };
	char *envp[] = { NULL };
	char *const top = (char *)(TASK_SIZE - 4);

	bad_addrs(8, a);
	for (int i = 0; i < NBAD; i++) {
		/* At TASK_SIZE - 4 is ordinary stack: a string without its NUL ... */
		memcpy(top, "exec", 4);
		if (sys_execve(a[i], (long)argv, (long)envp) != -EFAULT)
			FAIL("execve(path %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		if (!a[i])
			continue;	/* NULL argv/envp and NULL entries are legal */
		char *bad_entry[] = { "usertests", (char *)a[i], NULL };
		if (sys_execve((long)"usertests", (long)bad_entry, (long)envp) != -EFAULT)
			FAIL("execve(argv[1] = %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		if (sys_execve((long)"usertests", (long)argv, (long)bad_entry) != -EFAULT)
			FAIL("execve(envp[1] = %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		/* ... or a vector whose entry 1 lies past 3 GiB. */
		*(char **)top = argv[0];
		*(char **)(edge - 4) = argv[0];
		if (sys_execve((long)"usertests", a[i], (long)envp) != -EFAULT)
			FAIL("execve(argv %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		if (sys_execve((long)"usertests", (long)argv, a[i]) != -EFAULT)
			FAIL("execve(envp %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
	}
	/* A path whose NUL would be on the unmapped page. */
	memcpy((char *)edge - 5, "hello", 5);
	EXPECT_RET(sys_execve(edge - 5, (long)argv, (long)envp), -EFAULT);
	/* An argv array whose NULL would be on the unmapped page. */
	char **vec = (char **)(edge - 2 * sizeof(char *));
	vec[0] = "usertests";
	vec[1] = "--exit";
	EXPECT_RET(sys_execve((long)"usertests", (long)vec, (long)envp), -EFAULT);
	EXPECT_RET(sys_execve((long)"usertests", (long)argv, (long)vec), -EFAULT);
}

static void wait_badptr(void)
{
	uint32_t a[NBAD];

	bad_addrs(4, a);
	for (int i = 0; i <= NBAD; i++) {
		uint32_t addr = i < NBAD ? a[i] : TEXT_ADDR;
		long pid = sys_fork();
		if (pid == 0)
			_exit(0);
		CHECK(pid > 0, "fork: %ld", pid);
		if (addr == 0) {	/* NULL status is allowed: "don't tell me" */
			EXPECT_RET(sys_wait4(pid, 0, 0, 0), pid);
			continue;
		}
		long r = sys_wait4(pid, addr, 0, 0);
		if (r != -EFAULT)
			FAIL("wait4(status %x (%s)) returned %ld, expected EFAULT", addr,
			     i < NBAD ? bad_desc[i] : "text", r);
		/* Linux reaps the child even so; either way it must be gone now. */
		r = sys_wait4(pid, 0, 0, 0);
		CHECK(r == pid || r == -ECHILD, "second wait4 returned %ld", r);
	}
	EXPECT_RET(sys_wait4(-1, 0, 0, 0), -ECHILD);
}

static void time_badptr(void)
{
	uint32_t a[NBAD];
	struct timespec ts;

	bad_addrs(8, a);
	for (int i = 0; i < NBAD; i++) {
		if (sys_clock_gettime(CLOCK_MONOTONIC, a[i]) != -EFAULT)
			FAIL("clock_gettime(MONOTONIC, %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		if (sys_clock_gettime(CLOCK_REALTIME, a[i]) != -EFAULT)
			FAIL("clock_gettime(REALTIME, %x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		if (sys_nanosleep(a[i], 0) != -EFAULT)
			FAIL("nanosleep(%x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
		if (sys_clock_nanosleep(CLOCK_MONOTONIC, 0, a[i], 0) != -EFAULT)
			FAIL("clock_nanosleep(%x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
	}
	EXPECT_RET(sys_clock_gettime(CLOCK_MONOTONIC, TEXT_ADDR), -EFAULT);
	EXPECT_RET(sys_clock_gettime(CLOCK_MONOTONIC, (long)&ts), 0);
	CHECK(ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000, "tv_nsec %ld", ts.tv_nsec);
}

static void uname_badptr(void)
{
	uint32_t a[NBAD];
	struct utsname u;

	bad_addrs(sizeof(u), a);
	for (int i = 0; i < NBAD; i++)
		if (sys_uname(a[i]) != -EFAULT)
			FAIL("uname(%x (%s)) did not fail with EFAULT", a[i], bad_desc[i]);
	EXPECT_RET(sys_uname(TEXT_ADDR), -EFAULT);
	EXPECT_RET(sys_uname((long)&u), 0);
	CHECK(u.sysname[0] && u.machine[0], "uname returned empty fields");
}

static void futex_badptr(void)
{
	static const uint32_t addrs[] = { 0, 0xC0000000u, 0xC0100000u, 0x40000000u, 0xFFFFFFFCu };

	for (unsigned i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
		if (sys_futex(addrs[i], FUTEX_WAIT, 0x5a5a5a5a, 0, 0, 0) != -EFAULT)
			FAIL("futex(%x, FUTEX_WAIT) did not fail with EFAULT", addrs[i]);
	EXPECT_RET(sys_futex(heap_edge(), FUTEX_WAIT, 0x5a5a5a5a, 0, 0, 0), -EFAULT);
}

static void clone_badptr(void)
{
	uint32_t a[NBAD];

	bad_addrs(4, a);
	for (int i = 0; i < NBAD; i++) {
		/* SIGCHLD | CLONE_PARENT_SETTID: the tid goes to a bad pointer. */
		long r = sys_clone(17 | 0x00100000, 0, a[i], 0, 0);
		if (r == 0)
			_exit(0);
		if (r != -EFAULT)
			FAIL("clone(PARENT_SETTID at %x (%s)) returned %ld", a[i], bad_desc[i], r);
	}
	EXPECT_RET(sys_wait4(-1, 0, 0, 0), -ECHILD);	/* no half-made child */
}

/* --- faults: the process dies with the signal Linux sends --- */

static void touch_read(uintptr_t addr)  { (void)*(volatile char *)addr; }
static void touch_write(uintptr_t addr) { *(volatile char *)addr = 1; }
static void jump_to(uintptr_t addr)     { ((void (*)(void))addr)(); }

static void kernmem(void)
{
	static const uint32_t addrs[] = { 0xC0000000u, 0xC0100000u, 0xC0400000u, 0xF0000000u, 0xFFFFF000u };

	for (unsigned i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		ut_expect_killed(touch_read, addrs[i], SIGSEGV, "read of kernel memory");
		ut_expect_killed(touch_write, addrs[i], SIGSEGV, "write of kernel memory");
	}
}

static void badaccess(void)
{
	ut_expect_killed(touch_read, 0, SIGSEGV, "read of NULL");
	ut_expect_killed(touch_write, 0, SIGSEGV, "write of NULL");
	ut_expect_killed(touch_write, 0x40000000u, SIGSEGV, "write of an unmapped address");
	ut_expect_killed(jump_to, 0, SIGSEGV, "jump to NULL");
	ut_expect_killed(jump_to, 0xC0100000u, SIGSEGV, "jump into the kernel");
	ut_expect_killed(jump_to, 0x40000000u, SIGSEGV, "jump to an unmapped address");
}

static void textwrite(void)
{
	static const char ro[] = "read-only";

	ut_expect_killed(touch_write, TEXT_ADDR, SIGSEGV, "write to text");
	ut_expect_killed(touch_write, (uintptr_t)ro, SIGSEGV, "write to rodata");
	ut_expect_killed(touch_write, 0x08048000u, SIGSEGV, "write to the ELF header page");
}

static void stackguard(void)
{
	/* The lowest page of the 8 MiB window can be touched ... */
	int st = ut_run_child(touch_write, STACK_TOP - STACK_LIMIT);
	CHECK(st == 0, "touching the bottom of the stack window: status %#x", st);
	st = ut_run_child(touch_read, STACK_TOP - 4);
	CHECK(st == 0, "touching the top of the stack: status %#x", st);
	/* ... the byte below it cannot. */
	ut_expect_killed(touch_write, STACK_TOP - STACK_LIMIT - 1, SIGSEGV, "write below the stack window");
	ut_expect_killed(touch_read, STACK_TOP - STACK_LIMIT - PAGE_SIZE, SIGSEGV, "read below the stack window");
}

static volatile int recurse_limit = 1 << 30;	/* never reached: SIGSEGV first */

static int recurse(int depth)
{
	volatile char frame[1024];

	frame[0] = (char)depth;
	frame[sizeof(frame) - 1] = frame[0];
	if (depth >= recurse_limit)
		return 0;
	return recurse(depth + 1) + frame[sizeof(frame) - 1];
}

static void recurse_child(uintptr_t unused) { recurse(0); }

static void stackoverflow(void)
{
	long before = ut_frames();

	ut_expect_killed(recurse_child, 0, SIGSEGV, "unbounded recursion");
	/* ~2049 stack pages came and went. */
	long after = ut_frames_settle(before, 10);
	CHECK(after == before || before < 0, "recursion child leaked %ld frames", before - after);
}

static void do_inb(uintptr_t u)  { __asm__ __volatile__("inb $0x80, %%al" ::: "eax"); }
static void do_outb(uintptr_t u) { __asm__ __volatile__("outb %%al, $0x80" :: "a"(0)); }
static void do_inl(uintptr_t u)  { __asm__ __volatile__("mov $0xcf8, %%dx; inl %%dx, %%eax" ::: "eax", "edx"); }
static void do_cli(uintptr_t u)  { __asm__ __volatile__("cli"); }
static void do_hlt(uintptr_t u)  { __asm__ __volatile__("hlt"); }
static void do_lcr3(uintptr_t u) { __asm__ __volatile__("mov %%eax, %%cr3" :: "a"(0)); }

static void uio(void)
{
	ut_expect_killed(do_inb, 0, SIGSEGV, "inb from ring 3");
	ut_expect_killed(do_outb, 0, SIGSEGV, "outb from ring 3");
	ut_expect_killed(do_inl, 0, SIGSEGV, "inl (PCI config) from ring 3");
	ut_expect_killed(do_cli, 0, SIGSEGV, "cli from ring 3");
	ut_expect_killed(do_hlt, 0, SIGSEGV, "hlt from ring 3");
	ut_expect_killed(do_lcr3, 0, SIGSEGV, "mov to cr3 from ring 3");
}

static void do_int81(uintptr_t u) { __asm__ __volatile__("int $0x81"); }
static void do_int0e(uintptr_t u) { __asm__ __volatile__("int $0x0e"); }
static void do_ud2(uintptr_t u)   { __asm__ __volatile__("ud2"); }
static void do_div0(uintptr_t u)
{
	__asm__ __volatile__("xor %%ecx, %%ecx; mov $1, %%eax; cltd; idiv %%ecx" ::: "eax", "ecx", "edx");
}

static void badtrap(void)
{
	ut_expect_killed(do_int81, 0, SIGSEGV, "int $0x81");
	ut_expect_killed(do_int0e, 0, SIGSEGV, "int $0x0e (a DPL 0 gate)");
	ut_expect_killed(do_ud2, 0, SIGILL, "ud2");
	ut_expect_killed(do_div0, 0, SIGFPE, "divide by zero");
}

static void do_push_bad_sp(uintptr_t sp)
{
	__asm__ __volatile__("mov %0, %%esp; push %%eax" :: "r"(sp) : "memory");
}

static void badsp(void)
{
	long r;

	/* Syscall arguments are in registers: a kernel %esp does not matter. */
	__asm__ __volatile__("mov %%esp, %%esi\n\t"
			     "mov $0xC0000000, %%esp\n\t"
			     "int $0x80\n\t"
			     "mov %%esi, %%esp"
			     : "=a"(r) : "a"(__NR_getpid) : "esi", "memory");
	CHECK(r == getpid(), "getpid with %%esp = 0xC0000000 returned %ld", r);
	ut_expect_killed(do_push_bad_sp, 0, SIGSEGV, "push with %esp = 0");
	ut_expect_killed(do_push_bad_sp, 0xC0001000u, SIGSEGV, "push with a kernel %esp");
	ut_expect_killed(do_push_bad_sp, STACK_TOP - STACK_LIMIT - 64 * PAGE_SIZE, SIGSEGV,
			 "push below the stack window");
}

static void nosys(void)
{
	static const uint32_t nrs[] = { 0, 17, 31, 399, 499, 1000, 9999, 0x7fffffffu, 0x80000000u, 0xffffffffu };

	/* Twice: the kernel logs each unknown number once per program (the
	 * numbers above Linux's range share one line); test_usertests.py
	 * checks the log. */
	for (int round = 0; round < 2; round++)
		for (unsigned i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
			long r = __syscall(nrs[i], 0, 0, 0, 0, 0, 0);
			if (r != -ENOSYS)
				FAIL("syscall %u returned %ld, expected ENOSYS", nrs[i], r);
		}
}

/* --- brk --- */

extern char _end[];

static void brk_basic(void)
{
	char *old = sbrk(0), *p;

	CHECK(old >= _end, "sbrk(0) %p below _end %p", old, _end);
	p = sbrk(20 * PAGE_SIZE);
	CHECK(p == old, "sbrk returned %p, expected %p", p, old);
	for (uint32_t i = 0; i < 20 * PAGE_SIZE; i++)
		if (p[i])
			FAIL("new heap byte %u is %d, not 0", i, p[i]);
	for (uint32_t i = 0; i < 20 * PAGE_SIZE; i += 64)
		p[i] = (char)(i >> 6);
	for (uint32_t i = 0; i < 20 * PAGE_SIZE; i += 64)
		CHECK(p[i] == (char)(i >> 6), "heap byte %u lost its value", i);
	CHECK(sbrk(-20 * (int)PAGE_SIZE) == p + 20 * PAGE_SIZE, "shrink failed");
	CHECK(sbrk(0) == old, "break not restored");
	/* Grown again, the pages come back zeroed (not the old contents). */
	p = sbrk(20 * PAGE_SIZE);
	for (uint32_t i = PAGE_SIZE; i < 20 * PAGE_SIZE; i += 64)
		CHECK(p[i] == 0, "regrown heap byte %u is %d, not 0", i, p[i]);
}

static void brk_abuse(void)
{
	long cur = sys_brk(0);
	static const uint32_t bad[] = { 1, 0x08048000u, 0x08049000u, 0xBF701000u, 0xBF800000u,
					0xC0000000u, 0xC0100000u, 0xFFFFFFFFu };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = sys_brk(bad[i]);
		if (r != cur)
			FAIL("brk(%x) returned %lx, expected the old break %lx", bad[i], r, cur);
	}
	EXPECT_RET(sys_brk((long)_end - PAGE_SIZE), cur);	/* below start_brk */
	CHECK(sbrk(0x7fffffff) == (void *)-1 && errno == ENOMEM, "sbrk(INT_MAX) did not fail");
	CHECK(sbrk(-(cur - (long)_end) - 2 * (int)PAGE_SIZE) == (void *)-1, "sbrk below _end did not fail");
	EXPECT_RET(sys_brk(0), cur);
	/* A big but legal heap: 64 MiB of address space, nothing touched. */
	EXPECT_RET(sys_brk(cur + (64 << 20)), cur + (64 << 20));
	((volatile char *)cur)[(64 << 20) - 1] = 1;
	EXPECT_RET(sys_brk(cur), cur);
}

static void shrink_touch(uintptr_t unused)
{
	char *p = sbrk(3 * PAGE_SIZE);
	char *aligned = (char *)(((uintptr_t)p + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1));

	aligned[PAGE_SIZE] = 1;
	sbrk(-(int)(3 * PAGE_SIZE));
	if ((char *)sbrk(0) > aligned)
		_exit(2);		/* the setup did not free the page */
	aligned[PAGE_SIZE] = 2;		/* must fault */
}

static void brk_shrink(void)
{
	ut_expect_killed(shrink_touch, 0, SIGSEGV, "touching the heap after shrinking it");
}

static void brk_big(void)
{
	const uint32_t n = 4096;		/* 16 MiB */
	long f0 = ut_frames();
	char *p = sbrk(n * PAGE_SIZE);

	CHECK(p != (void *)-1, "sbrk(16 MiB) failed");
	for (uint32_t i = 0; i < n; i++)
		((volatile uint32_t *)(p + i * PAGE_SIZE))[1] = i;
	long f1 = ut_frames();
	for (uint32_t i = 0; i < n; i++)
		CHECK(((uint32_t *)(p + i * PAGE_SIZE))[1] == i, "page %u lost its value", i);
	CHECK(sbrk(-(int)(n * PAGE_SIZE)) == p + n * PAGE_SIZE, "shrink failed");
	long f2 = ut_frames();
	if (f0 >= 0) {
		CHECK(f0 - f1 >= (long)n, "16 MiB touched but only %ld frames used", f0 - f1);
		/* Only the page tables (<= 5 for 16 MiB) may stay. */
		CHECK(f2 - f1 >= (long)n - 1 && f0 - f2 <= 6, "shrink gave back %ld of %u frames (%ld still used)",
		      f2 - f1, n, f0 - f2);
	}
}

static char bss_array[3 * PAGE_SIZE];
static int data_word = 0x12345678;

static void bss(void)
{
	for (unsigned i = 0; i < sizeof(bss_array); i++)
		CHECK(bss_array[i] == 0, "bss byte %u is %d", i, bss_array[i]);
	CHECK(data_word == 0x12345678, ".data word is %x", data_word);
}

/* --- copy-on-write --- */

#define COW_PAGES 32
static uint32_t cow_data[COW_PAGES * PAGE_SIZE / 4];

static void cow(void)
{
	uint32_t stackvar = 0xabcd0000;
	uint32_t *heap = sbrk(4 * PAGE_SIZE);

	for (unsigned i = 0; i < COW_PAGES * PAGE_SIZE / 4; i += 256)
		cow_data[i] = i;
	for (unsigned i = 0; i < 4 * PAGE_SIZE / 4; i++)
		heap[i] = ~i;
	long f0 = ut_frames();
	long pid = sys_fork();
	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0) {
		ut_sleep_ns(2000000);	/* let the parent scribble first */
		for (unsigned i = 0; i < COW_PAGES * PAGE_SIZE / 4; i += 256)
			if (cow_data[i] != i)
				_exit(10);
		for (unsigned i = 0; i < 4 * PAGE_SIZE / 4; i++)
			if (heap[i] != ~i)
				_exit(11);
		if (stackvar != 0xabcd0000)
			_exit(12);
		for (unsigned i = 0; i < COW_PAGES * PAGE_SIZE / 4; i += 256)
			cow_data[i] = 0xdead;
		heap[0] = 0xdead;
		stackvar = 0xdead;
		_exit(0);
	}
	for (unsigned i = 0; i < COW_PAGES * PAGE_SIZE / 4; i += 512)
		cow_data[i] = 0xbeef;
	heap[1] = 0xbeef;
	stackvar = 0xabcd0001;
	int st = ut_wait(pid);
	CHECK(st == 0, "child saw the parent's writes or died (status %#x)", st);
	for (unsigned i = 0; i < COW_PAGES * PAGE_SIZE / 4; i += 256)
		CHECK(cow_data[i] == (i % 512 ? i : 0xbeef), "parent sees %x at word %u", cow_data[i], i);
	CHECK(heap[0] == ~0u && heap[1] == 0xbeef, "parent heap changed by the child");
	CHECK(stackvar == 0xabcd0001, "parent stack changed by the child");
	/*
	 * Exact accounting: the parent's copies of the pages it wrote replace
	 * the originals, which the child took over and freed when it exited.
	 */
	long f1 = ut_frames_settle(f0, 5);
	CHECK(f1 == f0, "fork+exit of a COW child changed the free frames by %ld", f1 - f0);
}

/* --- out of memory: the hog is killed, the kernel carries on --- */

static void hog(uintptr_t unused)
{
	for (;;) {
		volatile char *p = sbrk(64 * PAGE_SIZE);
		if (p == (void *)-1)
			_exit(3);	/* address space, not memory, ran out */
		for (int i = 0; i < 64; i++)
			p[i * PAGE_SIZE] = 1;
	}
}

static void oom(void)
{
	long f0 = ut_frames();

	if (f0 < 0)
		return;		/* not on Granule: do not hog a real machine */
	ut_expect_killed(hog, 0, SIGKILL, "memory hog");
	long f1 = ut_frames_settle(f0, 10);
	CHECK(f1 == f0, "the killed hog leaked %ld frames", f0 - f1);
	/* And memory is usable again. */
	int st = ut_run_child(touch_write, (uintptr_t)sbrk(0) - 1);
	CHECK(st == 0, "fork after OOM: status %#x", st);
}

/* --- FPU state is per process --- */

static volatile int fpu_iters = 3000000;

static double fpu_work(double k)
{
	double acc = 0.0, x = k;

	for (int i = 0; i < fpu_iters; i++) {
		acc += x * 0.5;
		x = x * 1.0000001 + 0.25;
	}
	return acc;
}

static void fpu(void)
{
	volatile double want[2] = { fpu_work(1.0), fpu_work(-7.0) };
	long pids[2];

	for (int c = 0; c < 2; c++) {
		pids[c] = sys_fork();
		CHECK(pids[c] >= 0, "fork: %ld", pids[c]);
		if (pids[c] == 0) {
			volatile double got = fpu_work(c ? -7.0 : 1.0);	/* rounded to double */
			_exit(got == want[c] ? 0 : 1);
		}
	}
	for (int c = 0; c < 2; c++)
		CHECK(ut_wait(pids[c]) == 0, "child %d computed a different result: FPU state leaked "
		      "between processes", c);
}

const struct ut_test ut_mem_tests[] = {
	{ copyin, "copyin" },
	{ copyout, "copyout" },
	{ badfd, "badfd" },
	{ exec_badptr, "exec_badptr" },
	{ wait_badptr, "wait_badptr" },
	{ time_badptr, "time_badptr" },
	{ uname_badptr, "uname_badptr" },
	{ futex_badptr, "futex_badptr" },
	{ clone_badptr, "clone_badptr" },
	{ kernmem, "kernmem" },
	{ badaccess, "badaccess" },
	{ textwrite, "textwrite" },
	{ stackguard, "stackguard" },
	{ stackoverflow, "stackoverflow" },
	{ uio, "uio" },
	{ badtrap, "badtrap" },
	{ badsp, "badsp" },
	{ nosys, "nosys" },
	{ bss, "bss" },
	{ brk_basic, "brk_basic" },
	{ brk_abuse, "brk_abuse" },
	{ brk_shrink, "brk_shrink" },
	{ brk_big, "brk_big" },
	{ cow, "cow" },
	{ oom, "oom" },
	{ fpu, "fpu" },
	{ NULL, NULL },
};
