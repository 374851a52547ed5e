/*
 * arch/vdso.h - the vDSO's data page, shared by the kernel (arch/x86/vdso.c,
 * which writes it) and the vDSO's code (arch/x86/vdso_vclock.c, which runs
 * in user mode and only reads it).
 *
 * Layout of every address space that has a vDSO (Linux i386 maps its vvar
 * page(s) next to the vDSO text the same way):
 *	VDSO_DATA	the data page, read-only to user mode
 *	VDSO_TEXT	the vDSO, an ELF shared object (AT_SYSINFO_EHDR)
 * Both lie in the page table of the program text (0x08048000 and up), so a
 * process pays no extra page table for them.
 */
#ifndef ARCH_VDSO_H
#define ARCH_VDSO_H

#define VDSO_DATA	0x08046000u
#define VDSO_TEXT	0x08047000u
#define VDSO_END	0x08048000u

#define VCLOCK_NONE	0	/* no TSC clock: every call is the system call */
#define VCLOCK_TSC	1	/* ns = (rdtsc() - tsc_base) * mult >> VDSO_CYC2NS_SHIFT */
#define VDSO_CYC2NS_SHIFT 22	/* arch/x86/tsc.c's CYC2NS_SHIFT (checked there) */

#ifndef __ASSEMBLER__
/*
 * seq is Linux's seqcount: odd while the kernel writes, bumped again after;
 * a reader retries when it saw an odd value or a change.  The clock is the
 * kernel's sched_clock() (arch/x86/tsc.c) step for step, so a vDSO reading
 * and a system call at the same TSC value give the same nanosecond.
 */
struct vdso_data {
	unsigned int seq;
	unsigned int vclock_mode;		/* VCLOCK_* */
	unsigned int mult;			/* cyc2ns, shift VDSO_CYC2NS_SHIFT */
	unsigned long long tsc_base;		/* TSC at sched_clock() 0 */
	unsigned long long realtime_offset;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
};
#endif

#endif
