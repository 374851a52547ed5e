/*
 * arch/fpu.h - the x87/SSE register state of user tasks (arch/x86/fpu.c)
 * and its copy in Linux i386 signal frames (arch/x86/fpu_signal.c).
 *
 * Eager switching: while a task runs (in user or kernel mode) the live
 * registers ARE its FPU state; task->thread.fpu is only authoritative while
 * it is switched out (arch_switch_to saves prev, restores next).  So code
 * running as current reads the state with fpu_save_live() and replaces it
 * with fpu_load_current(); the kernel itself never uses x87/SSE.
 *
 * The 512-byte area is an fxsave image when the CPU has FXSR (Pentium II
 * and later) and the 108-byte fnsave image otherwise (Pentium Pro).
 */
#ifndef ARCH_FPU_H
#define ARCH_FPU_H

#include <kernel/types.h>

#define FPU_AREA_SIZE	512
#define MXCSR_DEFAULT	0x1f80u	/* all SSE exceptions masked, round to nearest */
#define MXCSR_MASK_DEFAULT 0xffbfu /* CPUs that store MXCSR_MASK = 0: DAZ (bit 6) unsupported */

/* CPUID.1:EDX.FXSR: fxsave/fxrstor and CR4.OSFXSR in use. */
extern int fpu_have_fxsr;
/* MXCSR bits the CPU accepts (fxsave's MXCSR_MASK at boot, 0 -> 0xffbf);
 * fxrstor of an MXCSR with any other bit set raises #GP. */
extern u32 mxcsr_feature_mask;

/* CR0/CR4 set-up; records the clean state and the MXCSR mask. */
void fpu_init(void);
void fpu_cpu_init(void);	/* each further CPU's x87/SSE enable */
/* Copy the live registers into AREA (16-byte aligned, FPU_AREA_SIZE bytes)
 * and leave them unchanged (fnsave re-initialises, so reload after it). */
void fpu_save_live(u8 *area);
/* Make AREA (a valid image for this CPU; MXCSR already masked) current's
 * FPU state: into current->thread.fpu and the live registers.  Must not
 * sleep between the two, and does not. */
void fpu_load_current(const u8 *area);
/* arch_switch_to's part (eager, inline): save the live registers into
 * PREV_AREA (the task switched out), load NEXT_AREA's. */
static inline void fpu_switch(u8 *prev_area, const u8 *next_area)
{
	if (__builtin_expect(fpu_have_fxsr, 1))
		__asm__ __volatile__("fxsave (%0)\n\tfxrstor (%1)"
				     :: "r"(prev_area), "r"(next_area) : "memory");
	else
		__asm__ __volatile__("fnsave (%0)\n\tfwait\n\tfrstor (%1)"
				     :: "r"(prev_area), "r"(next_area) : "memory");
}


/* Signal frames (arch/x86/fpu_signal.c): Linux i386 struct _fpstate, the
 * 112-byte fnsave-format header then the 512-byte fxsave image. */
#define FPSTATE_SIZE	624
#define FPSTATE_ALIGN	16
/* Write current's state at user UFP (FPSTATE_ALIGN-aligned): 0 or -EFAULT. */
int fpu_save_sigframe(u32 ufp);
/* Load the state at user UFP (0: the clean state): 0 or -EFAULT. */
int fpu_restore_sigframe(u32 ufp);

#endif
