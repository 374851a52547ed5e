/*
 * user/tests/ut_sig.c - usertests: the FPU/SSE state in Linux i386 signal frames
 * (arch/x86/signal.c, arch/x86/fpu_signal.c).
 *
 * The interrupted code's registers are set and read back in ONE asm block
 * (fpu_run) around "int $0x80" = kill(self, sig), so the compiler holds no
 * copies: the signal is delivered on that syscall's return.  A run with
 * sig = 0 (no signal) is the reference the run with a handler must match
 * byte for byte: ST0-7 (fstpt, 80 bits), fcw, fsw, MXCSR, XMM0-7.
 *
 * struct _fpstate (Linux i386, 624 bytes): the 112-byte fnsave-format
 * header {cw, sw, tag, ipoff, cssel, dataoff, datasel, _st[8] (10 bytes),
 * u16 status, u16 magic}, then the 512-byte fxsave image at +112 (mxcsr at
 * +24, mxcsr_mask +28, _fxsr_st +32, _xmm +160).  magic 0x0000 with FXSR,
 * 0xffff without; sigcontext.fpstate is at +88 of the sigcontext, which is
 * at +20 of the ucontext (rt frame) or 8 above the handler's entry %esp
 * (legacy frame: &sig + 1).  CPUs without SSE skip the MXCSR/XMM parts.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ut.h"
#include "../lib/ulib.h"

struct fpstate {
	uint32_t cw, sw, tag, ipoff, cssel, dataoff, datasel;
	uint8_t st[8][10];
	uint16_t status, magic;
	uint32_t fxsr_env[6];		/* +112: fcw fsw ftw fop fip fcs foo fos */
	uint32_t mxcsr, mxcsr_mask;
	uint8_t fxsr_st[8][16];
	uint8_t xmm[8][16];
	uint8_t padding[224];
};

struct sigcontext {
	uint32_t gs, fs, es, ds, edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip, cs, eflags, esp_at_signal, ss;
	struct fpstate *fpstate;
	uint32_t oldmask, cr2;
};

struct ucontext {
	uint32_t uc_flags, uc_link, ss_sp, ss_flags, ss_size;
	struct sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};

#define RT_FRAME_UC	144	/* pretcode, sig, pinfo, puc, siginfo[128] */
#define RT_FRAME_SIZE	268	/* ... ucontext (116), retcode[8] */

/* One run of fpu_run: inputs, then what the registers held afterwards. */
struct snap {
	uint16_t cw_in;
	uint32_t mxcsr_in;
	uint8_t xmm_in[8][16] __attribute__((aligned(16)));
	double d;
	uint8_t st[8][10];		/* ST0..ST7 after the syscall (fstpt) */
	uint16_t cw, sw;
	uint32_t mxcsr;
	uint8_t xmm[8][16];
};

static int have_fxsr, have_sse;

static void probe_cpu(void)
{
	uint32_t a = 1, b, c = 0, d;

	__asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	have_fxsr = (d >> 24) & 1;
	have_sse = have_fxsr && ((d >> 25) & 1);
}

static void fill_snap(struct snap *s)
{
	memset(s, 0, sizeof(*s));
	s->cw_in = 0x0f7f;		/* round toward zero, 64-bit precision */
	s->mxcsr_in = 0x7f80;		/* MXCSR round toward zero, all masked */
	for (int r = 0; r < 8; r++)
		for (int i = 0; i < 16; i++)
			s->xmm_in[r][i] = (uint8_t)(0x11 * r + 3 * i + 1);
	s->d = 1234.5678;
}

/*
 * Load 8 x87 values (the double -> ST7, fldpi -> ST6 ... fldz -> ST0), fcw,
 * MXCSR and XMM0-7, kill(pid, sig), then store everything into S.
 */
static long fpu_run(struct snap *s, int pid, int sig)
{
	long r;

	__asm__ __volatile__(
		"fninit\n\t"
		"fldcw (%%edx)\n\t"
		"test %%esi, %%esi\n\t"
		"jz 1f\n\t"
		"ldmxcsr 4(%%edx)\n\t"
		"movaps 16(%%edx), %%xmm0\n\t"  "movaps 32(%%edx), %%xmm1\n\t"
		"movaps 48(%%edx), %%xmm2\n\t"  "movaps 64(%%edx), %%xmm3\n\t"
		"movaps 80(%%edx), %%xmm4\n\t"  "movaps 96(%%edx), %%xmm5\n\t"
		"movaps 112(%%edx), %%xmm6\n\t" "movaps 128(%%edx), %%xmm7\n"
		"1:\n\t"
		"fldl 144(%%edx)\n\t"
		"fldpi\n\t" "fld1\n\t" "fldl2t\n\t" "fldl2e\n\t" "fldlg2\n\t" "fldln2\n\t" "fldz\n\t"
		"int $0x80\n\t"
		"fnstcw 232(%%edx)\n\t"
		"fnstsw 234(%%edx)\n\t"
		"fstpt 152(%%edx)\n\t" "fstpt 162(%%edx)\n\t" "fstpt 172(%%edx)\n\t"
		"fstpt 182(%%edx)\n\t" "fstpt 192(%%edx)\n\t" "fstpt 202(%%edx)\n\t"
		"fstpt 212(%%edx)\n\t" "fstpt 222(%%edx)\n\t"
		"test %%esi, %%esi\n\t"
		"jz 2f\n\t"
		"stmxcsr 236(%%edx)\n\t"
		"movups %%xmm0, 240(%%edx)\n\t" "movups %%xmm1, 256(%%edx)\n\t"
		"movups %%xmm2, 272(%%edx)\n\t" "movups %%xmm3, 288(%%edx)\n\t"
		"movups %%xmm4, 304(%%edx)\n\t" "movups %%xmm5, 320(%%edx)\n\t"
		"movups %%xmm6, 336(%%edx)\n\t" "movups %%xmm7, 352(%%edx)\n"
		"2:\n\t"
		"fninit"
		: "=a"(r)
		: "a"(__NR_kill), "b"(pid), "c"(sig), "d"(s), "S"(have_sse)
		: "memory", "cc");
	return r;
}

_Static_assert(__builtin_offsetof(struct snap, xmm_in) == 16, "snap");
_Static_assert(__builtin_offsetof(struct snap, d) == 144, "snap");
_Static_assert(__builtin_offsetof(struct snap, st) == 152, "snap");
_Static_assert(__builtin_offsetof(struct snap, cw) == 232, "snap");
_Static_assert(__builtin_offsetof(struct snap, mxcsr) == 236, "snap");
_Static_assert(__builtin_offsetof(struct snap, xmm) == 240, "snap");
_Static_assert(sizeof(struct fpstate) == 624, "struct _fpstate");

static void sse_reset(void)
{
	uint32_t m = 0x1f80;

	if (have_sse)
		__asm__ __volatile__("ldmxcsr %0" :: "m"(m));
}

/* What the handlers saw (checked by the main code after the return). */
static struct {
	uint16_t cw, sw, tag_env;
	uint32_t mxcsr;
	struct fpstate *fp;
	uint32_t entry_sp, interrupted_sp;
	struct fpstate copy;
} seen;

/* Clobber all of x87/SSE: other values, fcw 0x0c7f, MXCSR round-down. */
static void clobber(void)
{
	static uint8_t junk[16] __attribute__((aligned(16))) = {
		0xde, 0xad, 0xbe, 0xef, 0xde, 0xad, 0xbe, 0xef,
		0xde, 0xad, 0xbe, 0xef, 0xde, 0xad, 0xbe, 0xef };
	uint16_t cw = 0x0c7f;
	uint32_t mx = 0x3f80;

	__asm__ __volatile__("fldcw %0\n\t"
			     "fld1\n\t" "fld1\n\t" "fldz\n\t" "fldpi\n\t"
			     "fld1\n\t" "fldz\n\t" "fldpi\n\t" "fldpi" :: "m"(cw) : "memory");
	if (have_sse)
		__asm__ __volatile__("ldmxcsr %0\n\t"
				     "movaps %1, %%xmm0\n\t" "movaps %1, %%xmm1\n\t"
				     "movaps %1, %%xmm2\n\t" "movaps %1, %%xmm3\n\t"
				     "movaps %1, %%xmm4\n\t" "movaps %1, %%xmm5\n\t"
				     "movaps %1, %%xmm6\n\t" "movaps %1, %%xmm7"
				     :: "m"(mx), "m"(junk) : "memory");
}

/* Record the clean state the handler starts with, and the frame. */
static void record(struct fpstate *fp, uint32_t entry_sp, uint32_t interrupted_sp)
{
	uint16_t env[14];

	__asm__ __volatile__("fnstcw %0\n\tfnstsw %1\n\tfnstenv %2"
			     : "=m"(seen.cw), "=m"(seen.sw), "=m"(env));
	__asm__ __volatile__("fldcw %0" :: "m"(seen.cw));	/* fnstenv masked all */
	seen.tag_env = env[4];
	seen.mxcsr = 0;
	if (have_sse)
		__asm__ __volatile__("stmxcsr %0" : "=m"(seen.mxcsr));
	seen.fp = fp;
	seen.entry_sp = entry_sp;
	seen.interrupted_sp = interrupted_sp;
	if (fp)
		seen.copy = *fp;
}

static void on_rt(int sig, siginfo_t *info, void *ucp)
{
	struct ucontext *uc = ucp;

	record(uc->uc_mcontext.fpstate, (uint32_t)uc - RT_FRAME_UC, uc->uc_mcontext.esp);
	clobber();
}

/* The legacy frame's sigcontext lies right above the handler's argument. */
static struct sigcontext *legacy_sc(int *sigp)
{
	uintptr_t p = (uintptr_t)(sigp + 1);

	__asm__("" : "+r"(p));	/* hide the provenance from the bounds checker */
	return (struct sigcontext *)p;
}

static void on_legacy(int sig)
{
	struct sigcontext *sc = legacy_sc(&sig);

	record(sc->fpstate, (uint32_t)&sig - 4, sc->esp);
	clobber();
}

static void install(int sig, void *fn, int siginfo)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	if (siginfo)
		sa.sa_sigaction = (void (*)(int, siginfo_t *, void *))fn;
	else
		sa.sa_handler = (sighandler_t)fn;
	sa.sa_flags = siginfo ? SA_SIGINFO : 0;
	CHECK(sigaction(sig, &sa, NULL) == 0, "sigaction(%d)", sig);
}

/* The registers after the signal must be the reference run's, exactly. */
static void check_same(const struct snap *ref, const struct snap *got, const char *how)
{
	for (int i = 0; i < 8; i++)
		CHECK(!memcmp(ref->st[i], got->st[i], 10), "%s: ST%d changed across the handler", how, i);
	CHECK(got->cw == ref->cw && got->cw == 0x0f7f, "%s: fcw %#x, expected %#x", how, got->cw, ref->cw);
	CHECK(got->sw == ref->sw, "%s: fsw %#x, expected %#x", how, got->sw, ref->sw);
	if (!have_sse)
		return;
	CHECK(got->mxcsr == ref->mxcsr && got->mxcsr == 0x7f80, "%s: MXCSR %#x, expected %#x",
	      how, got->mxcsr, ref->mxcsr);
	for (int r = 0; r < 8; r++)
		CHECK(!memcmp(got->xmm[r], ref->xmm_in[r], 16), "%s: XMM%d changed across the handler", how, r);
}

/* The frame as the handler saw it, against the reference registers. */
static void check_frame(const struct snap *ref, const char *how, uint32_t frame_size)
{
	const struct fpstate *f = &seen.copy;
	uint32_t fp = (uint32_t)seen.fp;

	CHECK(seen.cw == 0x037f, "%s: handler's fcw %#x, expected 0x37f (clean)", how, seen.cw);
	CHECK(seen.sw == 0 && seen.tag_env == 0xffff, "%s: handler's fsw %#x tag %#x, expected 0/0xffff",
	      how, seen.sw, seen.tag_env);
	if (have_sse)
		CHECK(seen.mxcsr == 0x1f80, "%s: handler's MXCSR %#x, expected 0x1f80", how, seen.mxcsr);
	CHECK(fp != 0 && (fp & 15) == 0, "%s: sigcontext.fpstate %#x: not 16-byte aligned", how, fp);
	CHECK(((seen.entry_sp + 4) & 15) == 0, "%s: handler entered with esp %#x", how, seen.entry_sp);
	CHECK(fp >= seen.entry_sp + frame_size && fp + 624 <= seen.interrupted_sp &&
	      fp + 624 + 16 > seen.interrupted_sp, "%s: fpstate %#x, frame %#x + %u, sp %#x", how,
	      fp, seen.entry_sp, frame_size, seen.interrupted_sp);
	CHECK(f->magic == (have_fxsr ? 0x0000 : 0xffff), "%s: magic %#x", how, f->magic);
	CHECK(f->status == ref->sw && (uint16_t)f->sw == ref->sw, "%s: status %#x sw %#x, expected %#x",
	      how, f->status, f->sw, ref->sw);
	CHECK((uint16_t)f->cw == 0x0f7f, "%s: saved cw %#x", how, f->cw);
	/* ST0 = +0.0 (tag 01), the rest valid (00); TOP = 0, so phys i = ST(i). */
	CHECK((uint16_t)f->tag == 0x0001, "%s: saved tag word %#x, expected 0x0001", how, f->tag);
	for (int i = 0; i < 8; i++)
		CHECK(!memcmp(f->st[i], ref->st[i], 10), "%s: saved _st[%d] differs", how, i);
	if (!have_fxsr)
		return;
	CHECK((f->fxsr_env[0] & 0xffff) == 0x0f7f && (f->fxsr_env[1] & 0xff) == 0xff,
	      "%s: fxsave fcw/ftw %#x %#x", how, f->fxsr_env[0], f->fxsr_env[1]);
	for (int i = 0; i < 8; i++)
		CHECK(!memcmp(f->fxsr_st[i], ref->st[i], 10), "%s: saved _fxsr_st[%d] differs", how, i);
	if (!have_sse)
		return;
	CHECK(f->mxcsr == 0x7f80, "%s: saved mxcsr %#x", how, f->mxcsr);
	for (int r = 0; r < 8; r++)
		CHECK(!memcmp(f->xmm[r], ref->xmm_in[r], 16), "%s: saved _xmm[%d] differs", how, r);
}

static void preserve_one(int siginfo)
{
	const char *how = siginfo ? "rt frame" : "legacy frame";
	static struct snap ref, got;	/* static: 16-byte aligned for movaps */
	int pid = getpid();

	fill_snap(&ref);
	fill_snap(&got);
	EXPECT_RET(fpu_run(&ref, pid, 0), 0);
	install(SIGUSR1, siginfo ? (void *)on_rt : (void *)on_legacy, siginfo);
	memset(&seen, 0, sizeof(seen));
	EXPECT_RET(fpu_run(&got, pid, SIGUSR1), 0);
	sse_reset();
	CHECK(seen.fp, "%s: the handler did not run", how);
	check_same(&ref, &got, how);
	check_frame(&ref, how, siginfo ? RT_FRAME_SIZE : 4 + 4 + 88 + 4 + 8);
}

/* Handlers that clobber everything: the interrupted code sees no change. */
static void sigfpu_preserve(void)
{
	probe_cpu();
	preserve_one(1);
	preserve_one(0);
}

/* ---- handlers that edit the saved state; sigreturn must load it ---- */

static const uint8_t new_xmm0[16] = "granule-sigxmm0";
static uint32_t edit_mxcsr, new_fpstate;
static int edit_cw, set_fpstate;	/* set_fpstate: replace it by new_fpstate */

static void on_edit(int sig, siginfo_t *info, void *ucp)
{
	struct ucontext *uc = ucp;
	struct fpstate *fp = uc->uc_mcontext.fpstate;

	memcpy(fp->xmm[0], new_xmm0, 16);
	if (edit_cw)
		fp->cw = 0xffff0000u | 0x077f;	/* round down: x87 state comes from the header */
	if (edit_mxcsr)
		fp->mxcsr = edit_mxcsr;
	if (set_fpstate)
		uc->uc_mcontext.fpstate = (struct fpstate *)new_fpstate;
	seen.copy.mxcsr_mask = fp->mxcsr_mask;
}

static void edited_run(struct snap *ref, struct snap *got)
{
	fill_snap(ref);
	fill_snap(got);
	EXPECT_RET(fpu_run(ref, getpid(), 0), 0);
	install(SIGUSR2, (void *)on_edit, 1);
	EXPECT_RET(fpu_run(got, getpid(), SIGUSR2), 0);
	sse_reset();
}

/* XMM0 and fcw edited in the frame reach the registers; the rest is kept. */
static void sigfpu_modify(void)
{
	static struct snap ref, got;

	probe_cpu();
	if (!have_sse)
		return;
	edit_cw = 1;
	edited_run(&ref, &got);
	CHECK(!memcmp(got.xmm[0], new_xmm0, 16), "XMM0 edited in the frame was not restored");
	for (int r = 1; r < 8; r++)
		CHECK(!memcmp(got.xmm[r], ref.xmm_in[r], 16), "XMM%d changed", r);
	CHECK(got.cw == 0x077f, "fcw edited in the header: %#x, expected 0x77f", got.cw);
	CHECK(got.mxcsr == 0x7f80, "MXCSR %#x", got.mxcsr);
	for (int i = 0; i < 8; i++)
		CHECK(!memcmp(ref.st[i], got.st[i], 10), "ST%d changed", i);
}

/* MXCSR with every bit set: masked with MXCSR_MASK, no fault. */
static void sigfpu_mxcsr(void)
{
	static struct snap ref, got;

	probe_cpu();
	if (!have_sse)
		return;
	edit_mxcsr = 0xffffffffu;
	edited_run(&ref, &got);
	uint32_t mask = seen.copy.mxcsr_mask ? seen.copy.mxcsr_mask : 0xffbf;
	CHECK(got.mxcsr == mask, "MXCSR after a forged 0xffffffff: %#x, expected %#x", got.mxcsr, mask);
	CHECK(!memcmp(got.xmm[0], new_xmm0, 16), "XMM0 not restored");
}

/* fpstate = NULL: sigreturn leaves the clean state (Linux: clear_fpu). */
static void sigfpu_null(void)
{
	static struct snap ref, got;
	uint16_t cw, sw;
	uint32_t mx = 0x1f80;

	probe_cpu();
	set_fpstate = 1;
	new_fpstate = 0;
	edited_run(&ref, &got);
	/* fpu_run read registers after the return: all empty (fstpt of an
	 * empty register stores the masked-invalid QNaN indefinite). */
	__asm__ __volatile__("fnstcw %0" : "=m"(cw));
	CHECK(cw == 0x037f, "fcw after sigreturn with fpstate NULL: %#x", cw);
	CHECK(got.cw == 0x037f, "fcw right after that sigreturn: %#x", got.cw);
	sw = got.sw;
	CHECK(sw == 0, "fsw right after that sigreturn: %#x (TOP 0, no flags)", sw);
	if (have_sse)
		CHECK(got.mxcsr == mx, "MXCSR after sigreturn with fpstate NULL: %#x", got.mxcsr);
}

static void bad_fpstate_child(uintptr_t ptr)
{
	static struct snap ref, got;

	probe_cpu();
	set_fpstate = 1;
	new_fpstate = (uint32_t)ptr;
	edited_run(&ref, &got);		/* killed in rt_sigreturn */
}

static void on_legacy_bad(int sig)
{
	struct sigcontext *sc = legacy_sc(&sig);

	sc->fpstate = (struct fpstate *)0xc0000000u;
}

static void bad_fpstate_legacy(uintptr_t unused)
{
	install(SIGUSR1, (void *)on_legacy_bad, 0);
	raise(SIGUSR1);
}

/* An unreadable fpstate: SIGSEGV in sigreturn ("bad frame"), not a panic. */
static void sigfpu_badptr(void)
{
	ut_expect_killed(bad_fpstate_child, 1, SIGSEGV, "fpstate = 0x1");
	ut_expect_killed(bad_fpstate_child, 0xc0000000u, SIGSEGV, "fpstate = kernel address");
	ut_expect_killed(bad_fpstate_child, 0xfffffff0u, SIGSEGV, "fpstate wrapping the top");
	ut_expect_killed(bad_fpstate_legacy, 0, SIGSEGV, "legacy frame, kernel fpstate");
}


/*
 * A handler registered without SA_RESTORER (glibc's i386 sigaction gives
 * none when it found a vDSO) returns through the vDSO's __kernel_sigreturn
 * ("popl; movl $119; int $0x80") or __kernel_rt_sigreturn ("movl $173; int
 * $0x80"), as 2.6.35's frames point; without a vDSO (vdso=0) through the
 * same bytes on the frame.  Both must land back here with the registers
 * and mask intact.
 */
static volatile int norestorer_hits;
static void *volatile norestorer_ret;

static void norestorer_handler(int sig)
{
	norestorer_ret = __builtin_return_address(0);
	if (sig == SIGUSR1)
		norestorer_hits++;
}

static void sig_norestorer(void)
{
	struct { void *handler; unsigned long flags; void *restorer; unsigned long long mask; } ka;
	static const unsigned long flags[] = { 0, SA_SIGINFO };

	for (unsigned i = 0; i < 2; i++) {
		volatile unsigned keep = 0x5a5a0000u + i;

		memset(&ka, 0, sizeof(ka));
		ka.handler = (void *)norestorer_handler;
		ka.flags = flags[i];
		EXPECT_RET(sys_rt_sigaction(SIGUSR1, (long)&ka, 0, 8), 0);
		norestorer_hits = 0;
		kill(getpid(), SIGUSR1);
		CHECK(norestorer_hits == 1, "%s handler without SA_RESTORER ran %d times",
		      i ? "rt" : "legacy", norestorer_hits);
		CHECK(keep == 0x5a5a0000u + i, "a local changed across the %s return", i ? "rt" : "legacy");
		int vdso = ut_aux(33 /* AT_SYSINFO_EHDR */) != 0;
		void *tramp = vdso ? __libc_vdso_vsym(i ? "__kernel_rt_sigreturn" : "__kernel_sigreturn",
						      "LINUX_2.5") : NULL;
		CHECK(tramp || !vdso, "the vDSO exports no %s trampoline", i ? "rt" : "legacy");
		CHECK(tramp ? norestorer_ret == tramp : (uintptr_t)norestorer_ret >= 0xbf000000u,
		      "the %s handler returns to %p, not %s %p", i ? "rt" : "legacy", norestorer_ret,
		      tramp ? "the vDSO's trampoline" : "its frame on the stack", tramp);
		sigset_t cur;
		sigprocmask(SIG_BLOCK, NULL, &cur);
		CHECK(!sigismember(&cur, SIGUSR1), "SIGUSR1 still blocked after the %s return",
		      i ? "rt" : "legacy");
	}
	signal(SIGUSR1, SIG_DFL);
}

const struct ut_test ut_sig_tests[] = {
	{ sigfpu_preserve, "sigfpu_preserve" },
	{ sigfpu_modify, "sigfpu_modify" },
	{ sigfpu_mxcsr, "sigfpu_mxcsr" },
	{ sigfpu_null, "sigfpu_null" },
	{ sigfpu_badptr, "sigfpu_badptr" },
	{ sig_norestorer, "sig_norestorer" },
	{ NULL, NULL },
};
