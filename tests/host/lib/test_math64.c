/*
 * tests/host/lib/test_math64.c - <kernel/math64.h> against native 64-bit
 * division and 128-bit multiplication, on fixed edge values and on random
 * inputs from a fixed-seed xorshift64 generator (reproducible).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <kernel/compiler.h>
#include <kernel/math64.h>

#define ROUNDS	200000

static u64 rng_state = 0x9e3779b97f4a7c15ULL;	/* fixed seed */

static u64 rnd(void)
{
	u64 x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* Random value with a random bit length, so small and big both occur. */
static u64 rnd_bits(void)
{
	unsigned int bits = (unsigned int)(rnd() % 65);

	return bits == 64 ? rnd() : rnd() & ((1ULL << bits) - 1);
}

static const u64 edge_u64[] = {
	0, 1, 2, 3, 999, 1000000000, 0xffffffffULL, 0x100000000ULL,
	0x123456789abcdefULL, INT64_MAX, (u64)INT64_MAX + 1, UINT64_MAX - 1,
	UINT64_MAX,
};
static const u32 edge_u32[] = { 1, 2, 3, 7, 10, 1000, 1000000000, 0x7fffffff,
				0x80000000, 0xfffffffe, 0xffffffff };

static void check_div_u64(u64 a, u32 b)
{
	u32 rem = 12345;
	u64 q = div_u64_rem(a, b, &rem);

	if (q != a / b || rem != a % b || div_u64(a, b) != a / b)
		fail_msg("div_u64_rem(%llu, %u) = %llu rem %u", (unsigned long long)a,
			 b, (unsigned long long)q, rem);
}

static void test_div_u64(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(edge_u64); i++)
		for (size_t j = 0; j < ARRAY_SIZE(edge_u32); j++)
			check_div_u64(edge_u64[i], edge_u32[j]);
	for (int i = 0; i < ROUNDS; i++) {
		u32 b = (u32)rnd_bits();

		check_div_u64(rnd_bits(), b ? b : 1);
	}
}

static void check_div_s64(s64 a, s32 b)
{
	s32 rem = 12345;
	s64 q = div_s64_rem(a, b, &rem);

	if (q != a / b || rem != a % b || div_s64(a, b) != a / b)
		fail_msg("div_s64_rem(%lld, %d) = %lld rem %d", (long long)a, b,
			 (long long)q, rem);
}

static void test_div_s64(void **state)
{
	static const s64 as[] = { 0, 1, -1, 7, -7, 1000000007, -1000000007,
				  INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	static const s32 bs[] = { 1, -1, 2, -2, 3, -3, 10, -10, INT32_MAX,
				  INT32_MIN, INT32_MIN + 1 };

	for (size_t i = 0; i < ARRAY_SIZE(as); i++)
		for (size_t j = 0; j < ARRAY_SIZE(bs); j++)
			if (!(as[i] == INT64_MIN && bs[j] == -1))
				check_div_s64(as[i], bs[j]);
	for (int i = 0; i < ROUNDS; i++) {
		s64 a = (s64)rnd_bits();
		s32 b = (s32)(u32)rnd_bits();

		if (rnd() & 1)
			a = -a;
		if (a == INT64_MIN && b == -1)
			continue;
		check_div_s64(a, b ? b : 1);
	}

	/* the documented wrap instead of a trap */
	s32 rem = 5;
	assert_true(div_s64_rem(INT64_MIN, -1, &rem) == INT64_MIN);
	assert_int_equal(rem, 0);
}

static void check_mul_shr(u64 a, u32 mul, unsigned int shift)
{
	unsigned __int128 want = ((unsigned __int128)a * mul) >> shift;
	u64 got = mul_u64_u32_shr(a, mul, shift);

	if (got != (u64)want)
		fail_msg("mul_u64_u32_shr(%#llx, %#x, %u) = %#llx, want %#llx",
			 (unsigned long long)a, mul, shift, (unsigned long long)got,
			 (unsigned long long)want);
}

static void test_mul_u64_u32_shr(void **state)
{
	for (unsigned int shift = 0; shift < 96; shift++) {
		for (size_t i = 0; i < ARRAY_SIZE(edge_u64); i++)
			for (size_t j = 0; j < ARRAY_SIZE(edge_u32); j++)
				check_mul_shr(edge_u64[i], edge_u32[j], shift);
		check_mul_shr(UINT64_MAX, 0, shift);
	}
	for (int i = 0; i < ROUNDS; i++)
		check_mul_shr(rnd_bits(), (u32)rnd_bits(), (unsigned int)(rnd() % 96));

	/* the classic use: cycles -> ns, e.g. a 1.5 GHz TSC: ns = cyc * 2/3 */
	u32 mult = (u32)((2ULL << 31) / 3);		/* 2/3 * 2^31 */
	assert_true(mul_u64_u32_shr(3000000000ULL, mult, 31) == 1999999999ULL);
	/* no 64-bit overflow where a plain (a * mul) >> shift would wrap */
	assert_true(mul_u64_u32_shr(1ULL << 60, 1u << 31, 32) == 1ULL << 59);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_div_u64),
		cmocka_unit_test(test_div_s64),
		cmocka_unit_test(test_mul_u64_u32_shr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
