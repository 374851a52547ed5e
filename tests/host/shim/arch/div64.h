/* tests/host/shim/arch/div64.h - host stand-in for arch/div64.h. */
#ifndef ARCH_DIV64_H
#define ARCH_DIV64_H

#include <kernel/types.h>

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}

#endif
