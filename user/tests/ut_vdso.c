/*
 * user/tests/ut_vdso.c - the vDSO (arch/x86/vdso.c, vdso_vclock.c): found
 * through the auxiliary vector, its clocks agree with the system calls
 * (same TSC clock, or the system call itself without one), clocks it does
 * not serve fall back to the system call, and its pages are read-only and
 * shared: a write kills, a write after mprotect() copies.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdio.h>
#define PROT_EXEC	4
#include <sys/wait.h>
#include <unistd.h>
#include "ut.h"
#include "../lib/ulib.h"

#define AT_SYSINFO	32
#define AT_SYSINFO_EHDR	33
#define VDSO_DATA	0x08046000u	/* arch/vdso.h */
#define VDSO_TEXT	0x08047000u

extern char **environ;

struct ts64 { long long sec, nsec; };

uint32_t ut_aux(uint32_t type)
{
	char **e = environ;

	while (*e)
		e++;
	for (uint32_t *a = (uint32_t *)(e + 1); a[0]; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}

static unsigned long long ns(const struct timespec *t)
{
	return (unsigned long long)(unsigned)t->tv_sec * 1000000000ULL + (unsigned)t->tv_nsec;
}

/*
 * Is there a vDSO?  Not with vdso=0 on the boot line; vdso_auxv prints which
 * ("usertests: vdso at 0x8047000" or "usertests: no vdso"), and
 * tests/system/test_usertests.py checks that line against the boot line.
 */
static int vdso_on(void)
{
	return ut_aux(AT_SYSINFO_EHDR) != 0;
}

/* The vDSO is where AT_SYSINFO_EHDR says, and exports Linux i386's names. */
static void vdso_auxv(void)
{
	uint32_t ehdr = ut_aux(AT_SYSINFO_EHDR), entry = ut_aux(AT_SYSINFO);
	struct timespec t;

	if (!vdso_on()) {	/* vdso=0: no entries, libc uses the system call */
		printf("usertests: no vdso\n");
		CHECK(!entry, "AT_SYSINFO %#x without AT_SYSINFO_EHDR", entry);
		CHECK(!__vdso_clock_gettime_fn, "libc found a vDSO");
		CHECK(clock_gettime(CLOCK_MONOTONIC, &t) == 0, "clock_gettime");
		return;
	}

	printf("usertests: vdso at %#x\n", ehdr);
	CHECK(ehdr == VDSO_TEXT, "AT_SYSINFO_EHDR %#x", ehdr);
	CHECK(!memcmp((const void *)ehdr, "\177ELF", 4), "no ELF header at the vDSO");
	CHECK(entry == (uint32_t)__libc_vdso_sym("__kernel_vsyscall"), "AT_SYSINFO %#x", entry);
	CHECK(__vdso_clock_gettime_fn == __libc_vdso_sym("__vdso_clock_gettime"), "libc's clock_gettime");
	CHECK(__libc_vdso_sym("__vdso_clock_gettime") && __libc_vdso_sym("__vdso_gettimeofday") &&
	      __libc_vdso_sym("__vdso_time") && __libc_vdso_sym("__vdso_clock_gettime64"),
	      "a __vdso_ symbol is missing");
	CHECK(!__libc_vdso_sym("sys_clock_gettime"), "found a name the vDSO does not export");
	/* __kernel_vsyscall is a system call entry: getpid through it. */
	long pid;
	__asm__ __volatile__("call *%1" : "=a"(pid) : "r"(entry), "0"((long)__NR_getpid) : "memory");
	EXPECT_RET(pid, sys_getpid());
}

/* Each clock: system call <= vDSO <= system call, in every representation. */
static void vdso_clock(void)
{
	int (*cgt)(int, struct timespec *) = __libc_vdso_sym("__vdso_clock_gettime");
	int (*cgt64)(int, struct ts64 *) = __libc_vdso_sym("__vdso_clock_gettime64");
	int (*gtod)(int *, int *) = __libc_vdso_sym("__vdso_gettimeofday");
	int (*tm)(int *) = __libc_vdso_sym("__vdso_time");
	static const int clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, 4, 5, 6, 7 };
	struct timespec a, v, b;
	struct ts64 v64;

	if (!vdso_on())
		return;		/* vdso_auxv checked that libc does without */
	CHECK(cgt && cgt64 && gtod && tm, "vDSO symbols");
	for (unsigned i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		int c = clocks[i];
		EXPECT_RET(sys_clock_gettime(c, (long)&a), 0);
		EXPECT_RET(cgt(c, &v), 0);
		EXPECT_RET(sys_clock_gettime(c, (long)&b), 0);
		CHECK(ns(&a) <= ns(&v) && ns(&v) <= ns(&b), "clock %d: %llu %llu %llu", c, ns(&a), ns(&v), ns(&b));
		CHECK(v.tv_nsec >= 0 && v.tv_nsec < 1000000000, "clock %d nsec %ld", c, (long)v.tv_nsec);
		EXPECT_RET(cgt64(c, &v64), 0);
		EXPECT_RET(sys_clock_gettime(c, (long)&b), 0);
		CHECK(v64.nsec >= 0 && v64.nsec < 1000000000 && (unsigned long long)v64.sec * 1000000000ULL +
		      (unsigned long long)v64.nsec <= ns(&b) && v64.sec >= v.tv_sec, "clock %d: 64-bit", c);
	}
	/* Clocks the vDSO does not serve: the system call's answer. */
	EXPECT_RET(cgt(CLOCK_PROCESS_CPUTIME_ID, &v), 0);
	EXPECT_RET(cgt(99, &v), -EINVAL);
	EXPECT_RET(cgt(-1, &v), -EINVAL);
	EXPECT_RET(cgt64(99, &v64), -EINVAL);
	/* gettimeofday and time read CLOCK_REALTIME. */
	int tv[2], tz[2] = { 7, 7 }, t;
	EXPECT_RET(sys_clock_gettime(CLOCK_REALTIME, (long)&a), 0);
	EXPECT_RET(gtod(tv, tz), 0);
	EXPECT_RET(sys_clock_gettime(CLOCK_REALTIME, (long)&b), 0);
	CHECK(tz[0] == 0 && tz[1] == 0, "time zone %d %d", tz[0], tz[1]);
	CHECK(tv[1] >= 0 && tv[1] < 1000000, "tv_usec %d", tv[1]);
	CHECK((unsigned long long)(unsigned)tv[0] * 1000000ULL + (unsigned)tv[1] >= ns(&a) / 1000 &&
	      (unsigned long long)(unsigned)tv[0] * 1000000ULL + (unsigned)tv[1] <= ns(&b) / 1000, "gettimeofday");
	EXPECT_RET(gtod(0, 0), 0);
	int s = tm(&t);
	CHECK(s == t && s >= a.tv_sec && s <= b.tv_sec + 1, "time %d %d", s, t);
	CHECK(tm(0) >= s, "time(NULL)");
	/* libc's clock_gettime is the vDSO's. */
	EXPECT_RET(sys_clock_gettime(CLOCK_MONOTONIC, (long)&a), 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &v) == 0 && ns(&v) >= ns(&a), "libc clock_gettime");
}

static void poke(uintptr_t addr)
{
	*(volatile char *)addr = 1;
}

/* Read-only and shared: a write kills; after mprotect a write copies. */
static void vdso_write(void)
{
	if (!vdso_on())
		return;
	ut_expect_killed(poke, VDSO_TEXT, SIGSEGV, "write to the vDSO");
	ut_expect_killed(poke, VDSO_DATA, SIGSEGV, "write to the vDSO data page");
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		/* A private copy: this child's vDSO breaks, nobody else's. */
		if (sys_mprotect(VDSO_TEXT, PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC))
			_exit(2);
		memset((void *)(VDSO_TEXT + 0x100), 0xcc, 256);
		if (sys_mprotect(VDSO_DATA, PAGE_SIZE, PROT_READ | PROT_WRITE))
			_exit(3);
		((volatile uint32_t *)VDSO_DATA)[1] = 0xdead;	/* vclock_mode */
		_exit(0);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	CHECK(((const unsigned char *)VDSO_TEXT)[0x100] != 0xcc || ((const unsigned char *)VDSO_TEXT)[0x101] != 0xcc,
	      "the child's write reached the parent's vDSO");
	CHECK(((volatile uint32_t *)VDSO_DATA)[1] <= 1, "vclock_mode %#x", ((volatile uint32_t *)VDSO_DATA)[1]);
	vdso_clock();		/* still works after the child's writes */
	/* Unmapped: libc's clock_gettime faults; the system call still works. */
	pid = fork();
	if (pid == 0) {
		struct timespec v;
		if (sys_munmap(VDSO_DATA, 2 * PAGE_SIZE))
			_exit(2);
		_exit(sys_clock_gettime(CLOCK_MONOTONIC, (long)&v) == 0 ? 0 : 3);
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "munmap child %#x", st);
}

const struct ut_test ut_vdso_tests[] = {
	{ vdso_auxv, "vdso_auxv" },
	{ vdso_clock, "vdso_clock" },
	{ vdso_write, "vdso_write" },
	{ NULL, NULL },
};
