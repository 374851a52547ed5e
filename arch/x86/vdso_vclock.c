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

/* ns / 10^9 and the remainder with one divl: ns < 2^32 s * 10^9 (136 years). */
static inline u32 div_sec(u64 ns, u32 *rem)
{
	u32 q, r;

	__asm__("divl %4" : "=a"(q), "=d"(r) : "a"((u32)ns), "d"((u32)(ns >> 32)), "rm"(NSEC_PER_SEC));
	*rem = r;
	return q;
}

/* The clocks the vDSO serves (all read sched_clock(), kernel/time/clock.c). */
#define VDSO_CLOCKS	((1u << CLOCK_REALTIME) | (1u << CLOCK_MONOTONIC) | (1u << CLOCK_MONOTONIC_RAW) | \
			 (1u << CLOCK_REALTIME_COARSE) | (1u << CLOCK_MONOTONIC_COARSE) | (1u << CLOCK_BOOTTIME))
#define REAL_CLOCKS	((1u << CLOCK_REALTIME) | (1u << CLOCK_REALTIME_COARSE))

/*
 * CLOCK's time in ns; 0 if the vDSO cannot tell (then: the system call).
 * ns = (rdtsc() - tsc_base) * mult >> VDSO_CYC2NS_SHIFT, the kernel's
 * mul_u64_u32_shr() (kernel/math64.h) with its 96-bit product, the shift a
 * constant; inlined into each caller (the clock_gettime path is ~40
 * instructions).
 */
static __attribute__((always_inline)) inline int do_clock(int clock, u64 *ns)
{
	const volatile struct vdso_data *vd = &vvar_page;
	u32 seq, mult;
	u64 d, lo, hi, t;

	if ((unsigned)clock >= 32 || !((1u << clock) & VDSO_CLOCKS))
		return 0;
	do {
		seq = vd->seq;
		__asm__ __volatile__("" ::: "memory");
		if (vd->vclock_mode != VCLOCK_TSC)
			return 0;
		d = rdtsc() - vd->tsc_base;
		mult = vd->mult;
		lo = (u64)(u32)d * mult;
		hi = (u64)(u32)(d >> 32) * mult + (lo >> 32);
		t = (hi << (32 - VDSO_CYC2NS_SHIFT)) | ((u32)lo >> VDSO_CYC2NS_SHIFT);
		if ((1u << clock) & REAL_CLOCKS)
			t += vd->realtime_offset;
		__asm__ __volatile__("" ::: "memory");
	} while ((seq & 1) || vd->seq != seq);	/* odd: the kernel was writing */
	*ns = t;
	return 1;
}

/*
 * __vdso_clock_gettime: do_clock() and div_sec() by hand, because this is
 * the call programs make in loops (the C version compiled to ~75
 * instructions, mostly spills of the 64-bit temporaries; this is ~40).
 * Same arithmetic: t = ((d_hi * mult + (d_lo * mult >> 32)) << 10) |
 * ((u32)(d_lo * mult) >> 22), d = rdtsc() - tsc_base; + realtime_offset for
 * the REALTIME clocks; sec, nsec = divl by 10^9.  Anything else (a clock
 * it does not serve, VCLOCK_NONE): __vdso_clock_gettime_slow, the C path.
 * Offsets are struct vdso_data's (checked below).
 */
int __vdso_clock_gettime_slow(int clock, struct old_timespec32 *ts)
	__attribute__((visibility("hidden")));
int __vdso_clock_gettime_slow(int clock, struct old_timespec32 *ts)
{
	u64 ns;
	u32 rem;

	if (!do_clock(clock, &ns))
		return (int)syscall2(NR_clock_gettime, clock, (long)ts);
	ts->tv_sec = (int)div_sec(ns, &rem);
	ts->tv_nsec = (int)rem;
	return 0;
}

_Static_assert(__builtin_offsetof(struct vdso_data, seq) == 0 &&
	       __builtin_offsetof(struct vdso_data, vclock_mode) == 4 &&
	       __builtin_offsetof(struct vdso_data, mult) == 8 &&
	       __builtin_offsetof(struct vdso_data, tsc_base) == 12 &&
	       __builtin_offsetof(struct vdso_data, realtime_offset) == 20, "vdso_data layout");

/* The masks as plain numbers for the assembler. */
#define VDSO_CLOCKS_ASM	0xf3
#define REAL_CLOCKS_ASM	0x21
_Static_assert(VDSO_CLOCKS == VDSO_CLOCKS_ASM && REAL_CLOCKS == REAL_CLOCKS_ASM, "clock masks");
#define STR_(x) #x
#define STR(x) STR_(x)
__asm__(".text\n"
	".globl __vdso_clock_gettime\n"
	".type __vdso_clock_gettime, @function\n"
	"__vdso_clock_gettime:\n"
	"\tpush %ebx\n"
	"\tpush %esi\n"
	"\tpush %edi\n"
	"\tpush %ebp\n"
	"\tcall 1f\n"
	"1:\tpop %ebp\n"			/* ebp = 1b */
	"\tmov 20(%esp), %ecx\n"		/* clock */
	"\tcmp $1, %ecx\n"			/* CLOCK_MONOTONIC: no more checks */
	"\tje 2f\n"
	"\tcmp $31, %ecx\n"
	"\tja 9f\n"
	"\tmov $" STR(VDSO_CLOCKS_ASM) ", %eax\n"
	"\tbt %ecx, %eax\n"
	"\tjnc 9f\n"
	"2:\tmov vvar_page-1b(%ebp), %edi\n"	/* seq */
	"\tcmpl $" STR(VCLOCK_TSC) ", vvar_page+4-1b(%ebp)\n"
	"\tjne 9f\n"
	"\trdtsc\n"
	"\tsub vvar_page+12-1b(%ebp), %eax\n"	/* d = rdtsc - tsc_base */
	"\tsbb vvar_page+16-1b(%ebp), %edx\n"
	"\tmov %edx, %esi\n"			/* d_hi */
	"\tmull vvar_page+8-1b(%ebp)\n"		/* edx:eax = d_lo * mult */
	"\tmov %eax, %ebx\n"			/* lo32 */
	"\tmov %edx, %ecx\n"			/* lo >> 32 */
	"\tmov %esi, %eax\n"
	"\tmull vvar_page+8-1b(%ebp)\n"		/* d_hi * mult */
	"\tadd %ecx, %eax\n"
	"\tadc $0, %edx\n"			/* edx:eax = hi */
	"\tshld $" STR(32 - VDSO_CYC2NS_SHIFT) ", %eax, %edx\n"
	"\tshl $" STR(32 - VDSO_CYC2NS_SHIFT) ", %eax\n"
	"\tshr $" STR(VDSO_CYC2NS_SHIFT) ", %ebx\n"
	"\tor %ebx, %eax\n"			/* edx:eax = t */
	"\tmov 20(%esp), %ecx\n"
	"\tcmp $1, %ecx\n"
	"\tje 3f\n"
	"\tmov $" STR(REAL_CLOCKS_ASM) ", %ebx\n"
	"\tbt %ecx, %ebx\n"
	"\tjnc 3f\n"
	"\tadd vvar_page+20-1b(%ebp), %eax\n"
	"\tadc vvar_page+24-1b(%ebp), %edx\n"
	"3:\ttest $1, %edi\n"
	"\tjnz 2b\n"
	"\tcmp vvar_page-1b(%ebp), %edi\n"
	"\tjne 2b\n"				/* the kernel wrote meanwhile: again */
	"\tmov $1000000000, %ecx\n"
	"\tdivl %ecx\n"
	"\tmov 24(%esp), %ecx\n"		/* ts */
	"\tmov %eax, (%ecx)\n"
	"\tmov %edx, 4(%ecx)\n"
	"\txor %eax, %eax\n"
	"\tpop %ebp\n"
	"\tpop %edi\n"
	"\tpop %esi\n"
	"\tpop %ebx\n"
	"\tret\n"
	"9:\tpop %ebp\n"
	"\tpop %edi\n"
	"\tpop %esi\n"
	"\tpop %ebx\n"
	"\tjmp __vdso_clock_gettime_slow\n"
	".size __vdso_clock_gettime, .-__vdso_clock_gettime\n");

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

/*
 * The signal trampolines a handler returns through when the program gave
 * no SA_RESTORER (glibc's i386 sigaction gives none once it has found a
 * vDSO): arch/x86/signal.c points the frame's pretcode here, as 2.6.35's
 * setup_frame / setup_rt_frame do, and writes the same bytes on the frame
 * only for debuggers.  Returning through the stack instead would run code
 * from the stack page, which QEMU then checks on every later write there.
 * Legacy: pop the signal number the handler left, then sigreturn (119);
 * rt: rt_sigreturn (173).  No unwind tables: libgcc's i386 fallback
 * recognises these bytes, as it does on the stack.
 */
__asm__(".text\n"
	".globl __kernel_sigreturn\n"
	".type __kernel_sigreturn, @function\n"
	".p2align 5\n"
	"__kernel_sigreturn:\n"
	"\tpopl %eax\n"
	"\tmovl $119, %eax\n"
	"\tint $0x80\n"
	".size __kernel_sigreturn, .-__kernel_sigreturn\n"
	".globl __kernel_rt_sigreturn\n"
	".type __kernel_rt_sigreturn, @function\n"
	".p2align 5\n"
	"__kernel_rt_sigreturn:\n"
	"\tmovl $173, %eax\n"
	"\tint $0x80\n"
	".size __kernel_rt_sigreturn, .-__kernel_rt_sigreturn\n");
