/*
 * arch/x86/fpu.c - x87/SSE enable, the clean state, eager per-task
 * switching (see arch/fpu.h for the model).
 *
 * CR0: EM = 0 (no emulation), MP = 1 and NE = 1 (native #MF reporting);
 * TS is never set (eager switching: no device-not-available trap).
 * CR4: OSFXSR (bit 9) with FXSR, so fxsave/fxrstor cover XMM0-7 and SSE
 * instructions do not #UD; OSXMMEXCPT (bit 10) with SSE, so unmasked SIMD
 * exceptions raise #XM rather than #UD.
 */
#include <kernel/string.h>
#include <kernel/task.h>
#include <arch/cpu.h>
#include <arch/fpu.h>
#include <arch/thread.h>

#define CR0_MP		(1u << 1)
#define CR0_EM		(1u << 2)
#define CR0_NE		(1u << 5)
#define CR4_OSFXSR	(1u << 9)
#define CR4_OSXMMEXCPT	(1u << 10)
#define FXSAVE_MXCSR_MASK_OFF	28	/* u32 MXCSR_MASK in the fxsave image */

/* After fninit (fcw 0x037f, all registers empty) with MXCSR at its reset
 * value 0x1f80: what a new program, and each signal handler, starts with. */
static u8 fpu_clean[FPU_AREA_SIZE] __attribute__((aligned(16)));
int fpu_have_fxsr;
u32 mxcsr_feature_mask = 0xffffffffu;

static void fpu_save(u8 *area)
{
	if (fpu_have_fxsr)
		__asm__ __volatile__("fxsave (%0)" :: "r"(area) : "memory");
	else
		__asm__ __volatile__("fnsave (%0); fwait" :: "r"(area) : "memory");
}

static void fpu_restore(const u8 *area)
{
	if (fpu_have_fxsr)
		__asm__ __volatile__("fxrstor (%0)" :: "r"(area) : "memory");
	else
		__asm__ __volatile__("frstor (%0)" :: "r"(area) : "memory");
}

/* This CPU's x87 (and SSE where FXSR exists) on, in its initial state:
 * every CPU runs this; the boot CPU first (fpu_init). */
void fpu_cpu_init(void)
{
	u32 cr0 = read_cr0();

	cr0 &= ~CR0_EM;
	cr0 |= CR0_MP | CR0_NE;
	write_cr0(cr0);
	if (cpu_has(X86_FEATURE_FXSR))
		write_cr4(read_cr4() | CR4_OSFXSR | (cpu_has(X86_FEATURE_SSE) ? CR4_OSXMMEXCPT : 0));
	__asm__ __volatile__("fninit");
}

/* Enable the x87 on the boot CPU and record a clean state. */
void fpu_init(void)
{
	fpu_have_fxsr = cpu_has(X86_FEATURE_FXSR);
	fpu_cpu_init();
	fpu_save(fpu_clean);		/* fpu_clean was zero: MXCSR_MASK 0 if unsupported */
	fpu_restore(fpu_clean);		/* fnsave re-initialises: reload */
	if (fpu_have_fxsr) {
		memcpy(&mxcsr_feature_mask, fpu_clean + FXSAVE_MXCSR_MASK_OFF, 4);
		if (!mxcsr_feature_mask)
			mxcsr_feature_mask = MXCSR_MASK_DEFAULT;
	}
}

void fpu_save_live(u8 *area)
{
	fpu_save(area);
	if (!fpu_have_fxsr)
		fpu_restore(area);
}

void fpu_load_current(const u8 *area)
{
	if (area != current->thread.fpu)
		memcpy(current->thread.fpu, area, FPU_AREA_SIZE);
	fpu_restore(current->thread.fpu);
}

void arch_fpu_init_state(struct task *t)
{
	memcpy(t->thread.fpu, fpu_clean, sizeof(fpu_clean));
	if (t == current)
		fpu_restore(fpu_clean);
}

void arch_fpu_copy_current(struct task *t)
{
	fpu_save_live(t->thread.fpu);
}
