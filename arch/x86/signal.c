/*
 * arch/x86/signal.c - Linux i386 signal frames and syscall restart.
 *
 * A handler runs on the user stack above a frame the kernel writes there:
 *   legacy (no SA_SIGINFO):  pretcode, sig, struct sigcontext, extramask,
 *                            retcode[8]                -> handler(sig)
 *   rt (SA_SIGINFO):         pretcode, sig, &info, &uc, siginfo (128 bytes),
 *                            ucontext {flags, link, stack, sigcontext, mask},
 *                            retcode[8]                -> handler(sig, &info, &uc)
 * pretcode is the SA_RESTORER trampoline (libc's __restore / __restore_rt);
 * without one, the vDSO's __kernel_sigreturn / __kernel_rt_sigreturn, as
 * 2.6.35's setup_frame / setup_rt_frame (glibc's i386 sigaction gives no
 * SA_RESTORER when it found a vDSO, so every busybox handler returns there).
 * retcode holds the same instructions, Linux 2.6.35's bytes, "popl %eax;
 * movl $__NR_sigreturn, %eax; int $0x80" (legacy: the pop drops sig, as
 * libc's __restore does) and "movl $__NR_rt_sigreturn, %eax; int $0x80"
 * (rt): "not actually used, but left for gdb", unless the process has no
 * vDSO (vdso=0), when pretcode points at them.  Difference: 2.6.35's rt
 * frame points at the vDSO's symbol even then, which a program without
 * SA_RESTORER cannot return through.
 *
 * Stack layout, as Linux's get_sigframe builds it (sp = the interrupted
 * user %esp; addresses decrease downwards):
 *   fp = (sp - FPSTATE_SIZE) & ~15           struct _fpstate, 624 bytes
 *   frame = ((fp - sizeof(frame) + 4) & ~15) - 4
 * so the handler is entered with %esp = frame and ((esp + 4) & 15) == 0,
 * as the i386 ABI expects at a function's first instruction; fp is 16-byte
 * aligned and lies wholly above the frame (frame + sizeof(frame) <= fp).
 * sigcontext.fpstate = fp: the x87/SSE state at the signal (see
 * arch/x86/fpu_signal.c for its layout), after which the handler starts
 * from the clean FPU state (fcw 0x037f, MXCSR 0x1f80).  Everything is
 * written before anything is changed; a write that faults (stack overflow,
 * bad %esp) makes setup_signal_frame return -EFAULT and do_signal kills the
 * process with SIGSEGV (Linux's force_sigsegv, no message).
 *
 * sigreturn reads the saved context back as Linux 2.6.35 does: the data
 * selectors as saved, cs/ss with RPL 3 forced, only the user-changeable
 * EFLAGS bits (a selector that does not load on the way out: see
 * arch/x86/traps.c, fixup_user_return), and loads the FPU state from
 * sigcontext.fpstate (NULL: the clean state).  An unreadable frame or
 * fpstate prints Linux's "bad frame in [rt_]sigreturn" line and kills the
 * process with SIGSEGV.
 *
 * The syscall number is kept in the trap frame's error-code slot (always 0
 * for int 0x80) so a syscall interrupted with -ERESTARTSYS can be re-issued:
 * eax = number again, eip back over the 2-byte "int $0x80".
 */
#include <gen/syscall_nr.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/fpu.h>
#include <arch/segment.h>
#include <arch/x86/vdso_syms.h>		/* generated from the vDSO: VDSO32_sigreturn ... */

#define FIX_EFLAGS	0x40dd5u	/* AC OF DF TF SF ZF AF PF CF */
#define NOT_A_SYSCALL	0xffffffffu

struct sigcontext {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp, ebx, edx, ecx, eax;
	u32 trapno, err, eip, cs, eflags, esp_at_signal, ss;
	u32 fpstate, oldmask, cr2;
};

struct sigframe {
	u32 pretcode;
	s32 sig;
	struct sigcontext sc;
	u32 extramask;		/* high half of the old mask */
	u8 retcode[8];
};

struct ucontext {
	u32 uc_flags, uc_link;
	u32 ss_sp, ss_flags, ss_size;
	struct sigcontext uc_mcontext;
	u64 uc_sigmask;
};

struct rt_sigframe {
	u32 pretcode;
	s32 sig;
	u32 pinfo, puc;
	struct ksiginfo info;
	struct ucontext uc;
	u8 retcode[8];
};

static void save_context(struct sigcontext *sc, const struct trap_frame *tf, u32 oldmask,
			 u32 fp)
{
	*sc = (struct sigcontext){
		.gs = tf->gs, .fs = tf->fs, .es = tf->es, .ds = tf->ds,
		.edi = tf->edi, .esi = tf->esi, .ebp = tf->ebp, .esp = tf->useresp,
		.ebx = tf->ebx, .edx = tf->edx, .ecx = tf->ecx, .eax = tf->eax,
		.trapno = tf->vector, .err = 0, .eip = tf->eip, .cs = tf->cs,
		.eflags = tf->eflags, .esp_at_signal = tf->useresp, .ss = tf->ss,
		.fpstate = fp, .oldmask = oldmask, .cr2 = 0,
	};
}

/* rt: "movl $NR, %eax; int $0x80" (7 bytes, then a nop);
 * legacy: "popl %eax; movl $NR, %eax; int $0x80" (8 bytes) - sys_sigreturn
 * finds its frame 8 bytes below %esp, after pretcode and sig were popped. */
static void make_retcode(u8 *rc, u32 nr, int legacy)
{
	u8 *p = rc;

	if (legacy)
		*p++ = 0x58;
	*p++ = 0xb8;
	memcpy(p, &nr, 4);
	p += 4;
	*p++ = 0xcd;
	*p++ = 0x80;
	if (!legacy)
		*p = 0x90;
}

/* Where the handler returns: KA's restorer, the vDSO's trampoline at offset
 * VDSO_OFF, or the retcode at RETCODE on the frame (2.6.35's choice). */
static u32 restorer(const struct k_sigaction *ka, u32 vdso_off, u32 retcode)
{
	u32 vdso = current->mm ? current->mm->vdso : 0;

	if (ka->flags & SA_RESTORER)
		return ka->restorer;
	return vdso ? vdso + vdso_off : retcode;
}

/* The struct _fpstate goes first, right below the interrupted %esp. */
static u32 fpstate_addr(const struct trap_frame *tf)
{
	return (tf->useresp - FPSTATE_SIZE) & ~(FPSTATE_ALIGN - 1u);
}

/* The frame below FP, so that ((frame + 4) & 15) == 0.  Underflow wraps to
 * a kernel address, which copy_to_user refuses. */
static u32 frame_sp(u32 fp, u32 size)
{
	return (((fp - size) + 4) & ~15u) - 4;
}

int setup_signal_frame(struct trap_frame *tf, int sig, const struct k_sigaction *ka,
		       const struct ksiginfo *info, u64 oldmask)
{
	u32 fp = fpstate_addr(tf);

	if (fpu_save_sigframe(fp))
		return -EFAULT;
	if (ka->flags & SA_SIGINFO) {
		struct rt_sigframe f;
		u32 sp = frame_sp(fp, sizeof(f));
		memset(&f, 0, sizeof(f));
		f.sig = sig;
		f.pinfo = sp + offsetof(struct rt_sigframe, info);
		f.puc = sp + offsetof(struct rt_sigframe, uc);
		f.info = *info;
		save_context(&f.uc.uc_mcontext, tf, (u32)oldmask, fp);
		f.uc.uc_sigmask = oldmask;
		make_retcode(f.retcode, __NR_rt_sigreturn, 0);
		f.pretcode = restorer(ka, VDSO32_rt_sigreturn, sp + offsetof(struct rt_sigframe, retcode));
		if (copy_to_user((void *)sp, &f, sizeof(f)))
			return -EFAULT;
		tf->useresp = sp;
		tf->eax = sig;			/* regparm-style copies, as Linux does */
		tf->edx = f.pinfo;
		tf->ecx = f.puc;
	} else {
		struct sigframe f;
		u32 sp = frame_sp(fp, sizeof(f));
		memset(&f, 0, sizeof(f));
		f.sig = sig;
		save_context(&f.sc, tf, (u32)oldmask, fp);
		f.extramask = (u32)(oldmask >> 32);
		make_retcode(f.retcode, __NR_sigreturn, 1);
		f.pretcode = restorer(ka, VDSO32_sigreturn, sp + offsetof(struct sigframe, retcode));
		if (copy_to_user((void *)sp, &f, sizeof(f)))
			return -EFAULT;
		tf->useresp = sp;
		tf->eax = sig;
		tf->edx = tf->ecx = 0;
	}
	arch_fpu_init_state(current);	/* the handler starts from the clean FPU */
	tf->eip = ka->handler;
	tf->cs = __USER_CS;
	tf->ds = tf->es = tf->ss = __USER_DS;	/* fs, gs (TLS) kept, as Linux */
	tf->eflags &= ~(0x100u | 0x400u);	/* TF, DF clear in the handler */
	tf->error = NOT_A_SYSCALL;
	return 0;
}

/* A saved data selector, or 0 if it names the (non-existent) LDT. */
static u32 data_sel(u32 sel)
{
	sel &= 0xffff;
	return (sel & SEGMENT_TI_MASK) ? 0 : sel;
}

static long restore_context(struct trap_frame *tf, const struct sigcontext *sc, u64 mask)
{
	tf->edi = sc->edi; tf->esi = sc->esi; tf->ebp = sc->ebp; tf->ebx = sc->ebx;
	tf->edx = sc->edx; tf->ecx = sc->ecx; tf->eax = sc->eax;
	tf->eip = sc->eip;
	tf->useresp = sc->esp;
	tf->eflags = (tf->eflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	/*
	 * Linux 2.6.35 restore_sigcontext: gs, fs, es, ds as saved (COPY_SEG,
	 * no RPL forcing) - one that does not load on the way out becomes the
	 * null selector, silently (traps.c); cs and ss with RPL 3 forced
	 * (COPY_SEG_CPL3) - one the iret refuses is SIGILL (traps.c).
	 * There is no LDT (no modify_ldt; LDTR is null, gdt.c), so a data
	 * selector with TI=1 can never be valid: it is refused here, i.e.
	 * nulled, which is what the return-path fixup would make of it.
	 * A TI=1 cs/ss is left to the iret, which refuses it (#GP: SIGILL).
	 */
	tf->gs = data_sel(sc->gs);
	tf->fs = data_sel(sc->fs);
	tf->es = data_sel(sc->es);
	tf->ds = data_sel(sc->ds);
	tf->cs = (sc->cs & 0xffff) | 3;
	tf->ss = (sc->ss & 0xffff) | 3;
	tf->error = NOT_A_SYSCALL;	/* never "restart" a sigreturn */
	current->sig_blocked = mask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	return sc->eax;
}

/* Linux signal_fault(): report the unreadable frame, then SIGSEGV. */
__attribute__((noreturn))
static void bad_frame(const struct trap_frame *tf, u32 frame, const char *where)
{
	printk("%s[%d] bad frame in %s frame:%08x ip:%x sp:%x orax:%x\n",
	       current->comm, current->pid, where, frame, tf->eip, tf->useresp, tf->error);
	do_group_exit(SIGSEGV);
}

/* Legacy: __restore popped the signal number, so the frame began 8 bytes below. */
long sys_sigreturn(struct trap_frame *tf)
{
	struct sigframe f;
	u32 frame = tf->useresp - 8;

	if (copy_from_user(&f, (void *)frame, sizeof(f)) || fpu_restore_sigframe(f.sc.fpstate))
		bad_frame(tf, frame, "sigreturn");
	return restore_context(tf, &f.sc, ((u64)f.extramask << 32) | f.sc.oldmask);
}

/* rt: the handler's ret popped pretcode, so the frame began 4 bytes below. */
long sys_rt_sigreturn(struct trap_frame *tf)
{
	struct rt_sigframe f;
	u32 frame = tf->useresp - 4;

	if (copy_from_user(&f, (void *)frame, sizeof(f)) ||
	    fpu_restore_sigframe(f.uc.uc_mcontext.fpstate))
		bad_frame(tf, frame, "rt_sigreturn");
	return restore_context(tf, &f.uc.uc_mcontext, f.uc.uc_sigmask);
}

long syscall_return_value(struct trap_frame *tf)
{
	if (tf->vector != SYSCALL_VECTOR || tf->error == NOT_A_SYSCALL)
		return 0;
	return (long)tf->eax;
}

void syscall_restart(struct trap_frame *tf)
{
	tf->eax = tf->error;	/* the original syscall number */
	tf->eip -= 2;		/* back over "int $0x80" (cd 80) */
	tf->error = NOT_A_SYSCALL;
}
