/*
 * arch/x86/fpu_signal.c - the FPU/SSE state in Linux i386 signal frames
 * (Linux 2.6.35 save_i387_xstate / restore_i387_xstate, FXSR and fnsave
 * CPUs; no xsave).
 *
 * The frame's struct _fpstate (FPSTATE_SIZE = 624 bytes, 16-byte aligned):
 *
 *   off  size  field
 *     0    28  cw, sw, tag, ipoff, cssel, dataoff, datasel   (u32 each:
 *              the fnsave/"user_i387_struct" environment)
 *    28    80  _st[8]: ST(0)..ST(7), 10 bytes each (u16 significand[4],
 *              u16 exponent)
 *   108     2  status: the status word at the signal (sw & 0xffff)
 *   110     2  magic: 0x0000 (X86_FXSR_MAGIC) = the fxsave image follows,
 *              0xffff = fnsave data only (no FXSR)
 *   112   512  the fxsave image (FXSR only, else zero): fcw fsw ftw(abridged)
 *              fop fip fcs foo fos (_fxsr_env[6], 24 bytes), mxcsr (+24),
 *              mxcsr_mask (+28), _fxsr_st[8] (+32, 16 bytes each),
 *              _xmm[8] (+160, 16 bytes each), reserved/padding (+288..511,
 *              written as zero)
 *
 * With FXSR the header is derived from the fxsave image, as Linux's
 * convert_from_fxsr does: cw/sw = fcw/fsw | 0xffff0000, tag = the full
 * 2-bit tag word rebuilt from the abridged one (see full_tag()) |
 * 0xffff0000, cssel = fcs | fop << 16.  sigreturn does what Linux 2.6.35
 * does: load the 512-byte image with MXCSR &= mxcsr_feature_mask (so a
 * forged MXCSR cannot #GP in fxrstor), then convert_to_fxsr: the x87 part
 * (fcw, fsw, ftw, fop, fip, fcs, foo, fos, ST0-7) comes from the header,
 * MXCSR and XMM0-7 from the image.  The magic is not checked on the way
 * back (nor is it by Linux without xsave).
 *
 * Eager FPU: "used_math" is always true, so every frame carries the
 * state (fpstate != NULL), and the handler starts from the clean state
 * (fninit, MXCSR 0x1f80) - Linux's clear_used_math() + finit on first use.
 */
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <arch/fpu.h>
#include <arch/thread.h>

struct fpreg {				/* 10 bytes */
	u16 significand[4];
	u16 exponent;
};

struct fxsave_image {			/* 512 bytes, the fxsave memory format */
	u16 fcw, fsw;
	u8 ftw, rsvd0;			/* abridged tag: bit i = physical reg i not empty */
	u16 fop;
	u32 fip;
	u16 fcs, rsvd1;
	u32 foo;
	u32 fos;			/* fds in the low half, as Linux copies it */
	u32 mxcsr, mxcsr_mask;
	u8 st[8][16];			/* ST(i): 10 bytes of register, 6 reserved */
	u8 xmm[8][16];
	u8 rsvd[224];			/* +288: reserved (176) and software (48) */
};

struct fpstate_hdr {			/* 112 bytes; 108 = the fnsave image */
	u32 cw, sw, tag, ipoff, cssel, dataoff, datasel;
	struct fpreg st[8];
	u16 status, magic;
};

struct fpstate {
	struct fpstate_hdr hdr;
	struct fxsave_image fx;
};

#define X86_FXSR_MAGIC	0x0000
#define FNSAVE_MAGIC	0xffff
#define FXSAVE_WRITTEN	288		/* bytes of the image fxsave stores (8 XMM) */

_Static_assert(sizeof(struct fpreg) == 10, "_fpreg");
_Static_assert(sizeof(struct fxsave_image) == FPU_AREA_SIZE, "fxsave image");
_Static_assert(sizeof(struct fpstate_hdr) == 112, "legacy header");
_Static_assert(sizeof(struct fpstate) == FPSTATE_SIZE, "struct _fpstate");
_Static_assert(offsetof(struct fxsave_image, mxcsr) == 24, "mxcsr");
_Static_assert(offsetof(struct fxsave_image, xmm) == 160, "xmm");

/* x87 tag values (2 bits per physical register in the full tag word). */
#define TAG_VALID	0
#define TAG_ZERO	1
#define TAG_SPECIAL	2
#define TAG_EMPTY	3

/*
 * The full tag word from fxsave's abridged one: physical register p holds
 * ST((p - TOP) & 7), TOP = fsw bits 13..11.  A non-empty register is
 * classified from its 80-bit contents: exponent 0x7fff -> special
 * (inf/NaN); exponent 0 -> zero if the significand is 0, else special
 * (denormal); otherwise valid iff the explicit integer bit (63) is set.
 */
static u32 full_tag(const struct fxsave_image *fx)
{
	u32 top = (fx->fsw >> 11) & 7, tag = 0;

	for (u32 p = 0; p < 8; p++) {
		u32 t = TAG_EMPTY;
		if (fx->ftw & (1u << p)) {
			const struct fpreg *r = (const struct fpreg *)fx->st[(p - top) & 7];
			u32 exp = r->exponent & 0x7fff;
			int sig_zero = !(r->significand[0] | r->significand[1] |
					 r->significand[2] | r->significand[3]);
			if (exp == 0x7fff)
				t = TAG_SPECIAL;
			else if (exp == 0)
				t = sig_zero ? TAG_ZERO : TAG_SPECIAL;
			else
				t = (r->significand[3] & 0x8000) ? TAG_VALID : TAG_SPECIAL;
		}
		tag |= t << (2 * p);
	}
	return tag;
}

/* Abridged tag: bit p = 1 unless register p's 2-bit tag is 3 (empty). */
static u8 abridged_tag(u32 tag)
{
	u8 ftw = 0;

	for (u32 p = 0; p < 8; p++)
		if (((tag >> (2 * p)) & 3) != TAG_EMPTY)
			ftw |= 1u << p;
	return ftw;
}

/* convert_from_fxsr: the fnsave-format header of an fxsave image. */
static void fxsr_to_hdr(struct fpstate_hdr *h, const struct fxsave_image *fx)
{
	h->cw = fx->fcw | 0xffff0000u;
	h->sw = fx->fsw | 0xffff0000u;
	h->tag = full_tag(fx) | 0xffff0000u;
	h->ipoff = fx->fip;
	h->cssel = fx->fcs | ((u32)fx->fop << 16);
	h->dataoff = fx->foo;
	h->datasel = fx->fos;
	for (int i = 0; i < 8; i++)
		memcpy(&h->st[i], fx->st[i], sizeof(h->st[i]));
	h->status = fx->fsw;
	h->magic = X86_FXSR_MAGIC;
}

/* convert_to_fxsr: the x87 part of the image from the header. */
static void hdr_to_fxsr(struct fxsave_image *fx, const struct fpstate_hdr *h)
{
	fx->fcw = (u16)h->cw;
	fx->fsw = (u16)h->sw;
	fx->ftw = abridged_tag(h->tag);
	fx->rsvd0 = 0;
	fx->fop = (u16)(h->cssel >> 16);
	fx->fip = h->ipoff;
	fx->fcs = (u16)h->cssel;
	fx->rsvd1 = 0;
	fx->foo = h->dataoff;
	fx->fos = h->datasel;
	for (int i = 0; i < 8; i++)
		memcpy(fx->st[i], &h->st[i], sizeof(h->st[i]));
}

/*
 * Write current's FPU state as a struct _fpstate at user address UFP
 * (16-byte aligned, FPSTATE_SIZE bytes).  0 or -EFAULT.  The live state is
 * left as it is; the caller resets it once the whole frame is written.
 */
noinline int fpu_save_sigframe(u32 ufp)
{
	struct fpstate f;
	u8 *area = current->thread.fpu;	/* scratch while current runs */

	memset(&f, 0, sizeof(f));
	fpu_save_live(area);
	if (fpu_have_fxsr) {
		memcpy(&f.fx, area, FXSAVE_WRITTEN);
		fxsr_to_hdr(&f.hdr, &f.fx);
	} else {
		memcpy(&f.hdr, area, offsetof(struct fpstate_hdr, status));
		f.hdr.status = (u16)f.hdr.sw;
		f.hdr.magic = FNSAVE_MAGIC;
	}
	return copy_to_user((void *)ufp, &f, sizeof(f)) ? -EFAULT : 0;
}

/*
 * sigreturn: make the struct _fpstate at user address UFP current's FPU
 * state; UFP == 0 means "none saved": the clean state.  0 or -EFAULT (the
 * caller kills the task; nothing was loaded).
 */
noinline int fpu_restore_sigframe(u32 ufp)
{
	struct fpstate f;

	if (!ufp) {
		arch_fpu_init_state(current);
		return 0;
	}
	if (copy_from_user(&f, (const void *)ufp, sizeof(f)))
		return -EFAULT;
	if (fpu_have_fxsr) {
		f.fx.mxcsr &= mxcsr_feature_mask;
		hdr_to_fxsr(&f.fx, &f.hdr);
		fpu_load_current((const u8 *)&f.fx);
	} else {
		/* the 108-byte fnsave image; nothing sleeps before the frstor */
		memcpy(current->thread.fpu, &f.hdr, offsetof(struct fpstate_hdr, status));
		fpu_load_current(current->thread.fpu);
	}
	return 0;
}
