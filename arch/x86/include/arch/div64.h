/*
 * arch/div64.h - the 32 x 32 -> 64 multiply for <kernel/math64.h>, as
 * Linux's arch/x86/include/asm/div64.h has it (mul_u32_u32, Linux 4.16):
 * one mull.  GCC, given a u64 that it can prove fits 32 bits, still emits
 * the full 64 x 32 product (imul, mul, add); the scheduler's weight
 * arithmetic does one such multiply per update_curr().  Host tests use a
 * C version (tests/host/shim/arch/div64.h).
 */
#ifndef ARCH_DIV64_H
#define ARCH_DIV64_H

#include <kernel/types.h>

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	u32 high, low;

	__asm__("mull %[b]" : "=a"(low), "=d"(high) : [a] "a"(a), [b] "rm"(b));
	return low | (u64)high << 32;
}

#endif
