/*
 * tests/host/acpi/test_acpi_s5.c - acpi_parse_s5() (arch/x86/acpi_s5.c) on
 * the \_S5 encodings firmware emits (QEMU's Zero elements, Intel-style
 * BytePrefix elements, a root-prefixed name, 1- to 4-byte PkgLengths), on
 * AML without a usable \_S5, and on every truncation of the good cases.
 *
 * Every buffer handed to the parser is a heap copy of exactly its length,
 * so ASan reports any read past the end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <arch/acpi.h>

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define UNSET		0xee

/* acpi_parse_s5 on a heap copy of exactly LEN bytes of AML. */
static int parse(const u8 *aml, u32 len, u8 *typa, u8 *typb)
{
	u8 *copy = malloc(len ? len : 1);
	int r;

	assert_non_null(copy);
	memcpy(copy, aml, len);
	*typa = *typb = UNSET;
	r = acpi_parse_s5(copy, len, typa, typb);
	free(copy);
	return r;
}

static void expect_s5(const u8 *aml, u32 len, u8 want_a, u8 want_b)
{
	u8 a, b;

	assert_int_equal(parse(aml, len, &a, &b), 0);
	assert_int_equal(a, want_a);
	assert_int_equal(b, want_b);
}

static void expect_none(const u8 *aml, u32 len)
{
	u8 a, b;

	assert_int_equal(parse(aml, len, &a, &b), -1);
}

/* Every proper prefix of a good encoding is malformed (the package is cut). */
static void expect_truncations_fail(const u8 *aml, u32 len)
{
	for (u32 n = 0; n < len; n++) {
		u8 a, b;
		if (parse(aml, n, &a, &b) != -1)
			fail_msg("a %u-byte prefix of a %u-byte encoding parsed", n, len);
	}
}

static const u8 qemu_s5[] = {		/* Name (_S5, Package (4) { Zero, Zero, Zero, Zero }) */
	0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};
static const u8 intel_s5[] = {		/* Name (_S5, Package (4) { 7, 7, Zero, Zero }) */
	0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x04, 0x0a, 0x07, 0x0a, 0x07, 0x00, 0x00,
};
static const u8 root_s5[] = {		/* Name (\_S5, Package (4) { 5, One, Zero, Zero }) */
	0x08, '\\', '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0a, 0x05, 0x01, 0x00, 0x00,
};
static const u8 root_only_s5[] = {	/* \_S5_ without a NameOp in front */
	'\\', '_', 'S', '5', '_', 0x12, 0x05, 0x02, 0x0a, 0x06, 0x00,
};
static const u8 bare_s5[] = {		/* the name at the very start of the buffer */
	'_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x01, 0x00,
};
/* 2-byte PkgLength 9: lead 0x49 (1 more byte, bits 3-0 = 9), then 0x00 */
static const u8 pkglen2_s5[] = {
	0x08, '_', 'S', '5', '_', 0x12, 0x49, 0x00, 0x04, 0x0a, 0x03, 0x0a, 0x04, 0x00, 0x00,
};
/* Word and DWord prefixed elements (small values, wide encodings) */
static const u8 wide_s5[] = {
	0x08, '_', 'S', '5', '_', 0x12, 0x0a, 0x02, 0x0b, 0x06, 0x00, 0x0c, 0x02, 0x00, 0x00, 0x00,
};

static void test_qemu_style_zero_elements(void **state)
{
	expect_s5(qemu_s5, sizeof(qemu_s5), 0, 0);
}

static void test_intel_style_byte_prefix(void **state)
{
	expect_s5(intel_s5, sizeof(intel_s5), 7, 7);
}

static void test_root_prefixed_and_bare_names(void **state)
{
	expect_s5(root_s5, sizeof(root_s5), 5, 1);
	expect_s5(root_only_s5, sizeof(root_only_s5), 6, 0);
	expect_s5(bare_s5, sizeof(bare_s5), 1, 0);
}

static void test_two_byte_pkglength(void **state)
{
	expect_s5(pkglen2_s5, sizeof(pkglen2_s5), 3, 4);
}

static void test_word_and_dword_elements(void **state)
{
	expect_s5(wide_s5, sizeof(wide_s5), 6, 2);
}

/*
 * Name (_S5, Package (4) { TYPA, TYPB, Zero, Zero }) padded to a total
 * package length PLEN, encoded with a PkgLength of NBYTES (1..4) bytes, at
 * offset AT of a buffer of filler (NOP bytes, 0xa3).  Returns the length.
 */
static u32 build(u8 *buf, u32 at, u32 nbytes, u32 plen, u8 typa, u8 typb)
{
	u32 p = at;

	memset(buf, 0xa3, at);
	buf[p++] = 0x08;
	memcpy(buf + p, "_S5_", 4);
	p += 4;
	buf[p++] = 0x12;
	if (nbytes == 1) {
		buf[p++] = (u8)plen;		/* plen < 64 */
	} else {
		buf[p++] = (u8)(((nbytes - 1) << 6) | (plen & 0x0f));
		for (u32 i = 1; i < nbytes; i++)
			buf[p++] = (u8)(plen >> (4 + 8 * (i - 1)));
	}
	u32 body = p;
	buf[p++] = 0x04;
	buf[p++] = 0x0a;
	buf[p++] = typa;
	buf[p++] = 0x0a;
	buf[p++] = typb;
	u32 end = body - nbytes + plen;
	while (p < end)
		buf[p++] = 0x00;
	return end;
}

static void test_pkglength_of_every_size(void **state)
{
	static const struct { u32 nbytes, plen; } cases[] = {	/* the largest: 2^(4+8*(n-1)) - 1 */
		{ 1, 7 }, { 1, 63 }, { 2, 7 }, { 2, 0x150 }, { 2, 0xfff },
		{ 3, 0x1234 }, { 3, 0xfffff }, { 4, 0x12345 }, { 4, 0x123456 },
	};

	for (size_t i = 0; i < NELEM(cases); i++) {
		u8 *buf = malloc(cases[i].plen + 32), typa = i % 8, typb = 7 - typa;
		assert_non_null(buf);
		u32 len = build(buf, 17, cases[i].nbytes, cases[i].plen, typa, typb);
		assert_true(len <= cases[i].plen + 32);
		expect_s5(buf, len, typa, typb);
		/* one byte short of the package: malformed */
		expect_none(buf, len - 1);
		free(buf);
	}
}

static void test_every_truncation_fails(void **state)
{
	static const struct { const u8 *aml; u32 len; } good[] = {
		{ qemu_s5, sizeof(qemu_s5) }, { intel_s5, sizeof(intel_s5) },
		{ root_s5, sizeof(root_s5) }, { root_only_s5, sizeof(root_only_s5) },
		{ bare_s5, sizeof(bare_s5) }, { pkglen2_s5, sizeof(pkglen2_s5) },
		{ wide_s5, sizeof(wide_s5) },
	};

	for (size_t i = 0; i < NELEM(good); i++)
		expect_truncations_fail(good[i].aml, good[i].len);
}

static void test_no_s5_at_all(void **state)
{
	static const u8 s4_only[] = {	/* Name (_S4, Package (4) { Zero ... }) */
		0x08, '_', 'S', '4', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
	};
	static const u8 text[] = "DefinitionBlock (\"\", \"DSDT\", 2, \"\", \"\", 1) { }";
	u8 a, b;

	expect_none(s4_only, sizeof(s4_only));
	expect_none(text, sizeof(text));
	expect_none((const u8 *)"_S5", 3);
	expect_none(qemu_s5, 0);
	a = b = UNSET;
	assert_int_equal(acpi_parse_s5(NULL, 100, &a, &b), -1);
	assert_int_equal(a, UNSET);
	assert_int_equal(b, UNSET);
}

static void test_unusable_packages_are_rejected(void **state)
{
	static const u8 bad[][14] = {
		/* OnesOp as SLP_TYPa */
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0xff, 0x00, 0x00, 0x00 },
		/* value 8 does not fit SLP_TYP's 3 bits */
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x04, 0x0a, 0x08, 0x0a, 0x07, 0x00, 0x00 },
		/* NumElements 1 */
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x01, 0x00, 0x00, 0x00, 0x00 },
		/* PkgLength 3: too short to hold NumElements and two elements */
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x03, 0x04, 0x00, 0x00, 0x00, 0x00 },
		/* PkgLength 0x3f: past the end of the buffer */
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x3f, 0x04, 0x00, 0x00, 0x00, 0x00 },
		/* second element cut by the package end (PkgLength 5) */
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x04, 0x0a, 0x07, 0x0a, 0x07 },
		/* not a package: a MethodOp named _S5_ */
		{ 0x14, 0x06, '_', 'S', '5', '_', 0x00, 0xa4, 0x00 },
		/* a name being referenced, not declared ('X' in front) */
		{ 'X', '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00 },
	};
	static const u32 lens[] = { 12, 14, 12, 12, 12, 12, 9, 12 };

	for (size_t i = 0; i < NELEM(bad); i++) {
		u8 a, b;
		if (parse(bad[i], lens[i], &a, &b) != -1)
			fail_msg("bad case %zu parsed (%u, %u)", i, a, b);
	}
}

/* A reference to _S5_ that is no package must not hide the real one. */
static void test_first_unusable_match_is_skipped(void **state)
{
	u8 buf[64];
	u32 n = 0;
	static const u8 call[] = { 0x70, '\\', '_', 'S', '5', '_', 0x60 };	/* Store (\_S5, Local0) */

	memcpy(buf + n, call, sizeof(call));
	n += sizeof(call);
	memcpy(buf + n, intel_s5, sizeof(intel_s5));
	n += sizeof(intel_s5);
	expect_s5(buf, n, 7, 7);
}

/* Random bytes and random corruptions of the good encodings: no read out
 * of bounds (ASan), and a success always yields 3-bit values. */
static u32 rng = 0x2545f491;	/* fixed seed: reproducible */

static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void test_random_input_stays_in_bounds(void **state)
{
	u8 buf[40];

	for (int round = 0; round < 100000; round++) {
		u32 len = rnd() % sizeof(buf);
		for (u32 i = 0; i < len; i++)
			buf[i] = (u8)rnd();
		if (round & 1 && len >= sizeof(intel_s5)) {
			/* a good encoding with one or two bytes changed */
			memcpy(buf, intel_s5, sizeof(intel_s5));
			buf[rnd() % sizeof(intel_s5)] = (u8)rnd();
			buf[rnd() % sizeof(intel_s5)] = (u8)rnd();
			len = sizeof(intel_s5) + rnd() % 3;
		}
		if (round % 7 == 0 && len >= 8)
			memcpy(buf + rnd() % (len - 7), "\x08_S5_\x12", 6);
		u8 a, b;
		if (parse(buf, len, &a, &b) == 0 && (a > 7 || b > 7))
			fail_msg("round %d: SLP_TYP %u/%u out of range", round, a, b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_style_zero_elements),
		cmocka_unit_test(test_intel_style_byte_prefix),
		cmocka_unit_test(test_root_prefixed_and_bare_names),
		cmocka_unit_test(test_two_byte_pkglength),
		cmocka_unit_test(test_word_and_dword_elements),
		cmocka_unit_test(test_pkglength_of_every_size),
		cmocka_unit_test(test_every_truncation_fails),
		cmocka_unit_test(test_no_s5_at_all),
		cmocka_unit_test(test_unusable_packages_are_rejected),
		cmocka_unit_test(test_first_unusable_match_is_skipped),
		cmocka_unit_test(test_random_input_stays_in_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
