/*
 * kernel/kprobes.h - breakpoint probes on function entry and return
 * (Linux's kprobes/kretprobes, reduced to what the tracer needs).
 *
 * register_kprobe() replaces the first byte of a function with int3
 * (0xcc); its first instruction must be one of the prologue instructions
 * arch/x86/kprobes.c can run out of line (push r32, sub $n,%esp, a load
 * from the argument area).  The breakpoint calls ->pre with the function's
 * stack arguments (cdecl: args[0] is the first), then resumes in p->insn,
 * an out-of-line copy of that instruction followed by a jump to the second.  If ->pre returns non-zero
 * the return address is swapped for a trampoline, and ->ret runs when the
 * function returns, with the return value (eax) and the DATA words ->pre
 * filled in.  Probes are never removed, but disable_kprobe() puts the
 * function's own first byte back (Linux's disable_kprobe: the probe keeps
 * its slot) until enable_kprobe() patches the int3 in again.
 *
 * Code that is not probed is not changed at all: a kernel with no probe
 * registered runs exactly the instructions of one without this file,
 * which is what keeps tracing free when it is off.
 *
 * Restrictions: a probed-for-return function must not sleep (return
 * instances are a stack, matched by stack pointer; a task switch inside
 * would interleave them); handlers run with interrupts off.
 */
#ifndef KERNEL_KPROBES_H
#define KERNEL_KPROBES_H

#include <kernel/types.h>

#define KPROBE_DATA_WORDS	6

struct kprobe;
/* ARGS: the arguments; EFLAGS: the probed code's; fill DATA for ->ret. */
typedef int (*kprobe_pre_t)(struct kprobe *p, const u32 *args, u32 eflags, u32 *data);
typedef void (*kprobe_ret_t)(struct kprobe *p, const u32 *data, u32 retval);

struct kprobe {
	const char *symbol;		/* for messages */
	void *addr;			/* function entry */
	kprobe_pre_t pre;
	kprobe_ret_t ret;		/* NULL: entry only */
	u8 *insn;			/* first instruction; jmp to the second (filled in) */
	int disabled;			/* registered, but addr holds its own first byte */
};

/* 0, -EINVAL (a first instruction that cannot run out of line), -EBUSY
 * (probed already), -ENOSPC. */
int register_kprobe(struct kprobe *p);
/* A registered probe off and on again: 0, or -EINVAL if P is not registered. */
int disable_kprobe(struct kprobe *p);
int enable_kprobe(struct kprobe *p);

#endif
