/*
 * arch/x86/vdso_vclock.c - the vDSO's code: clock_gettime, gettimeofday and
 * time in user mode, from the TSC and the kernel's data page (arch/vdso.h).
 *
 * Built as a position-independent shared object (arch/x86/vdso.lds), linked
 * into the kernel image (vdso_image.asm) and mapped read-only into every
 * program at exec (arch/x86/vdso.c); AT_SYSINFO_EHDR gives its address.
 * The names and the version (LINUX_2.6) are Linux i386's
 * (arch/x86/entry/vdso/vdso32/vdso32.lds.S in Linux 6.1), so glibc finds
 * them as it does on Linux.  Each function returns what the system call
 * would: a clock the vDSO does not serve, or VCLOCK_NONE (no TSC clock),
 * is the system call itself (int 0x80).  As on Linux, a bad pointer given
 * to a vDSO function faults in user mode (SIGSEGV), where the system call
 * would have returned -EFAULT.
 */
#include <arch/vdso.h>

#define NSEC_PER_SEC	1000000000u
#define NR_clock_gettime	265
#define NR_clock_gettime64	403
#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define CLOCK_MONOTONIC_RAW	4
#define CLOCK_REALTIME_COARSE	5
#define CLOCK_MONOTONIC_COARSE	6
#define CLOCK_BOOTTIME		7

typedef unsigned int u32;
typedef unsigned long long u64;

struct old_timespec32 { int tv_sec; int tv_nsec; };
struct kernel_timespec { long long tv_sec; long long tv_nsec; };
struct old_timeval32 { int tv_sec; int tv_usec; };

/* The data page, one page below this object's first byte (vdso.lds). */
extern const volatile struct vdso_data vvar_page __attribute__((visibility("hidden")));

static inline long syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ __volatile__("int $0x80" : "=a"(ret) : "0"(nr), "b"(a), "c"(b) : "memory");
	return ret;
}

static inline u64 rdtsc(void)
{
	u64 v;

	__asm__ __volatile__("rdtsc" : "=A"(v));
	return v;
}

/* Kernel's mul_u64_u32_shr (kernel/math64.h), shift < 32. */
static inline u64 cyc2ns(u64 cyc, u32 mult, u32 shift)
{
	u64 lo = (u64)(u32)cyc * mult;
	u64 hi = (u64)(u32)(cyc >> 32) * mult + (lo >> 32);

	return (hi << (32 - shift)) | ((u32)lo >> shift);
}

/* ns / 10^9 and the remainder with one divl: ns < 2^32 s * 10^9 (136 years). */
static inline u32 div_sec(u64 ns, u32 *rem)
{
	u32 q, r;

	__asm__("divl %4" : "=a"(q), "=d"(r) : "a"((u32)ns), "d"((u32)(ns >> 32)), "rm"(NSEC_PER_SEC));
	*rem = r;
	return q;
}

/* CLOCK's time in ns; 0 if the vDSO cannot tell (then: the system call). */
static int do_clock(int clock, u64 *ns)
{
	const volatile struct vdso_data *vd = &vvar_page;
	u32 seq;
	u64 t;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_MONOTONIC_RAW &&
	    clock != CLOCK_REALTIME_COARSE && clock != CLOCK_MONOTONIC_COARSE && clock != CLOCK_BOOTTIME)
		return 0;
	do {
		while ((seq = vd->seq) & 1)
			;
		__asm__ __volatile__("" ::: "memory");
		if (vd->vclock_mode != VCLOCK_TSC)
			return 0;
		t = cyc2ns(rdtsc() - vd->tsc_base, vd->mult, vd->shift);
		if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)
			t += vd->realtime_offset;
		__asm__ __volatile__("" ::: "memory");
	} while (vd->seq != seq);
	*ns = t;
	return 1;
}

int __vdso_clock_gettime(int clock, struct old_timespec32 *ts)
{
	u64 ns;
	u32 rem;

	if (!do_clock(clock, &ns))
		return (int)syscall2(NR_clock_gettime, clock, (long)ts);
	ts->tv_sec = (int)div_sec(ns, &rem);
	ts->tv_nsec = (int)rem;
	return 0;
}

int __vdso_clock_gettime64(int clock, struct kernel_timespec *ts)
{
	u64 ns;
	u32 rem;

	if (!do_clock(clock, &ns))
		return (int)syscall2(NR_clock_gettime64, clock, (long)ts);
	ts->tv_sec = div_sec(ns, &rem);
	ts->tv_nsec = rem;
	return 0;
}

/*
 * Granule has no gettimeofday or time system call: without the TSC clock
 * these two read CLOCK_REALTIME through clock_gettime.  The time zone is
 * Linux's default sys_tz, all zero.
 */
static int realtime(u64 *ns)
{
	struct old_timespec32 ts;
	int err;

	if (do_clock(CLOCK_REALTIME, ns))
		return 0;
	if ((err = (int)syscall2(NR_clock_gettime, CLOCK_REALTIME, (long)&ts)))
		return err;
	*ns = (u64)(u32)ts.tv_sec * NSEC_PER_SEC + (u32)ts.tv_nsec;
	return 0;
}

int __vdso_gettimeofday(struct old_timeval32 *tv, int *tz)
{
	u64 ns;
	u32 rem;
	int err;

	if (tv) {
		if ((err = realtime(&ns)))
			return err;
		tv->tv_sec = (int)div_sec(ns, &rem);
		tv->tv_usec = (int)(rem / 1000);
	}
	if (tz)
		tz[0] = tz[1] = 0;	/* tz_minuteswest, tz_dsttime */
	return 0;
}

int __vdso_time(int *t)
{
	u64 ns;
	u32 rem;
	int s, err;

	if ((err = realtime(&ns)))
		return err;
	s = (int)div_sec(ns, &rem);
	if (t)
		*t = s;
	return s;
}

/*
 * The system call entry glibc's i386 syscalls call through (*%gs:0x10 ->
 * AT_SYSINFO, or this object's e_entry when only AT_SYSINFO_EHDR is given:
 * elf/setup-vdso.h).  Linux 6.1's int 0x80 flavour of it.
 */
__asm__(".text\n"
	".globl __kernel_vsyscall\n"
	".type __kernel_vsyscall, @function\n"
	"__kernel_vsyscall:\n"
	"\tint $0x80\n"
	"\tret\n"
	".size __kernel_vsyscall, .-__kernel_vsyscall\n");
