/*
 * arch/x86/kprobes_insn.h - which first instructions of a function a
 * kprobe may copy out of line and run there unchanged (arch/x86/kprobes.c).
 * Pure, so the host tests check it (tests/host/trace/test_kprobes_insn.c).
 *
 * Only the instructions GCC starts a function with (kernel code has no
 * frame pointer), each position-independent and without a control
 * transfer:
 *	50+r		push r32
 *	83 ec ib	sub $imm8,%esp
 *	81 ec id	sub $imm32,%esp
 *	8b 44+8r 24 d8	mov disp8(%esp),r32
 */
#ifndef ARCH_X86_KPROBES_INSN_H
#define ARCH_X86_KPROBES_INSN_H

#include <kernel/types.h>

/* The length of the instruction at CODE if it is one of those, else 0. */
static inline int kprobe_insn_length(const u8 *code)
{
	if (code[0] >= 0x50 && code[0] <= 0x57)
		return 1;
	if (code[0] == 0x83 && code[1] == 0xec)
		return 3;
	if (code[0] == 0x81 && code[1] == 0xec)
		return 6;
	if (code[0] == 0x8b && (code[1] & 0xc7) == 0x44 && code[2] == 0x24)
		return 4;
	return 0;
}

#endif
