/*
 * kernel/math64.h - 64-bit division and scaled multiplication helpers
 * (the Linux include/linux/math64.h names).
 *
 * On i686 a u64 division by a runtime divisor is a libgcc call
 * (__udivmoddi4 / __udivdi3); the kernel links 32-bit libgcc, so these
 * are plain C.  Their point is the fixed, documented types: a 32-bit
 * divisor and a 32-bit remainder, as Linux's do_div() contract.
 */
#ifndef KERNEL_MATH64_H
#define KERNEL_MATH64_H

#include <kernel/types.h>
#include <arch/div64.h>	/* mul_u32_u32(a, b): (u64)a * b */

/* q = dividend / divisor, *rem = dividend % divisor.  divisor != 0. */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *rem)
{
	*rem = (u32)(dividend % divisor);
	return dividend / divisor;
}

/* dividend / divisor (truncated).  divisor != 0. */
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

/*
 * q = dividend / divisor truncated towards zero (as C '/'), with
 * *rem = dividend - q * divisor (sign of the dividend).  divisor != 0.
 * The one overflowing case, INT64_MIN / -1, wraps to INT64_MIN (rem 0)
 * instead of trapping.
 */
static inline s64 div_s64_rem(s64 dividend, s32 divisor, s32 *rem)
{
	u64 a = dividend < 0 ? 0 - (u64)dividend : (u64)dividend;
	u32 b = divisor < 0 ? 0 - (u32)divisor : (u32)divisor;
	u32 r;
	u64 q = div_u64_rem(a, b, &r);

	*rem = dividend < 0 ? -(s32)r : (s32)r;
	/* negate in unsigned arithmetic, then convert (wraps for 2^63) */
	return (s64)((dividend < 0) != (divisor < 0) ? 0 - q : q);
}

/* dividend / divisor truncated towards zero; see div_s64_rem(). */
static inline s64 div_s64(s64 dividend, s32 divisor)
{
	s32 rem;

	return div_s64_rem(dividend, divisor, &rem);
}

/*
 * (a * mul) >> shift, computed exactly on the 96-bit product and truncated
 * to 64 bits, for 0 <= shift < 96.  No 128-bit type needed: with
 * a = ah * 2^32 + al the product is
 *	hi * 2^32 + lo,  hi = ah * mul + ((al * mul) >> 32),  lo = (u32)(al * mul)
 * and hi cannot overflow (at most (2^32-1)^2 + 2^32-1 < 2^64).
 * The usual use is converting cycles to ns: ns = mul_u64_u32_shr(cyc, mult, shift)
 * with mult/shift chosen so that mult / 2^shift = ns per cycle.
 */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	u64 lo_prod = (u64)(u32)a * mul;
	u64 hi = (u64)(u32)(a >> 32) * mul + (lo_prod >> 32);
	u32 lo = (u32)lo_prod;

	if (shift < 32)
		return (hi << (32 - shift)) | (lo >> shift);
	if (shift < 96)
		return hi >> (shift - 32);
	return 0;
}

/*
 * (a * mul) / divisor, exact on the 96-bit product (Linux's
 * mul_u64_u32_div), truncated to 64 bits.  With hi and lo as above,
 *	q_hi = hi / divisor, r = hi % divisor,
 *	q_lo = (r * 2^32 + lo) / divisor		(r < divisor: fits in 64 bits)
 * and the quotient is q_hi * 2^32 + q_lo.  divisor != 0.
 */
static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 divisor)
{
	u64 lo_prod = (u64)(u32)a * mul;
	u64 hi = (u64)(u32)(a >> 32) * mul + (lo_prod >> 32);
	u32 r;
	u64 q_hi = div_u64_rem(hi, divisor, &r);
	u64 q_lo = div_u64(((u64)r << 32) | (u32)lo_prod, divisor);

	return (q_hi << 32) + q_lo;
}

#endif
