/*
 * tests/host/lib/test_vsprintf.c - kernel/lib/vsprintf.c (built as
 * kvsnprintf/ksnprintf on the host) against glibc's snprintf.
 *
 * The integer matrix crosses every flag subset, several widths and
 * precisions, every length modifier and edge values (INT_MIN, LLONG_MIN,
 * ULLONG_MAX ...): about half a million formats, each compared byte for
 * byte and by return value.  Truncation is checked separately for every
 * buffer size 0..len+1, with guard bytes.  The documented departures from
 * glibc (%p, %s of NULL, unknown conversions) have fixed expectations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <sys/types.h>
#include <cmocka.h>
#include "host_lib.h"

#define GUARD	'\x5a'

/*
 * Compare kvsnprintf with vsnprintf for FMT; with TRUNC also check every
 * buffer size 0..len+1 (prefix, NUL, return value, no byte past size).
 */
static void vcheck(int line, bool trunc, const char *fmt, va_list ap)
{
	char want[512], got[512];
	va_list a1, a2;
	int wn, gn;

	va_copy(a1, ap);
	wn = vsnprintf(want, sizeof(want), fmt, a1);
	va_end(a1);
	va_copy(a2, ap);
	memset(got, GUARD, sizeof(got));
	gn = kvsnprintf(got, sizeof(got), fmt, a2);
	va_end(a2);
	if (gn != wn || strcmp(got, want))
		fail_msg("line %d: fmt \"%s\": got \"%s\" (%d), want \"%s\" (%d)",
			 line, fmt, got, gn, want, wn);
	if (!trunc)
		return;
	for (int size = 0; size <= wn + 1; size++) {
		char small[520];

		memset(small, GUARD, sizeof(small));
		va_copy(a1, ap);
		gn = kvsnprintf(size ? small : NULL, (size_t)size, fmt, a1);
		va_end(a1);
		if (gn != wn)
			fail_msg("line %d: fmt \"%s\" size %d returned %d, want %d",
				 line, fmt, size, gn, wn);
		if (size == 0)
			continue;
		int kept = wn < size - 1 ? wn : size - 1;
		if (memcmp(small, want, (size_t)kept) || small[kept] != '\0')
			fail_msg("line %d: fmt \"%s\" size %d: bad prefix", line,
				 fmt, size);
		for (int i = kept + 1; i < (int)sizeof(small); i++)
			if (small[i] != GUARD)
				fail_msg("line %d: fmt \"%s\" size %d: wrote byte %d",
					 line, fmt, size, i);
	}
}

static void __printf(3, 4) check_at(int line, bool trunc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcheck(line, trunc, fmt, ap);
	va_end(ap);
}

#define CHECK(...)	check_at(__LINE__, false, __VA_ARGS__)
#define CHECK_T(...)	check_at(__LINE__, true, __VA_ARGS__)

/* Against a fixed expectation (documented departures from glibc). */
static void __printf(4, 5) expect_at(int line, const char *want, int wn,
				     const char *fmt, ...)
{
	char got[256];
	va_list ap;
	int gn;

	va_start(ap, fmt);
	gn = kvsnprintf(got, sizeof(got), fmt, ap);
	va_end(ap);
	if (gn != wn || strcmp(got, want))
		fail_msg("line %d: fmt \"%s\": got \"%s\" (%d), want \"%s\" (%d)",
			 line, fmt, got, gn, want, wn);
}

#define EXPECT(want, ...) expect_at(__LINE__, want, (int)strlen(want), __VA_ARGS__)

/*
 * Repeated flags and '0' with a precision are valid C (the '0' is then
 * ignored), but gcc's -Wformat flags them; so is a NULL %s argument.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-overflow"

static void test_literals(void **state)
{
	CHECK_T("%s", "");
	CHECK_T("plain text");
	CHECK_T("100%% sure %%");
	CHECK_T("%d%d%d", 1, 22, 333);
	CHECK_T("a%cb", 'x');
	CHECK("%c", 0);			/* a NUL byte counts */
	CHECK_T("%5c|%-5c|", 'a', 'b');
	CHECK_T("[%10s][%-10s][%.2s][%10.3s][%-10.1s]", "abc", "abc", "abc",
		"abcdef", "abcdef");
	CHECK_T("%s and %s", "one", "two");
	CHECK("%.0s|%.s|", "abc", "abc");
	CHECK_T("%--5d|%-+-5d|%00005d|%  d|%++d", 1, 2, 3, 4, 5);
}

/* %s with a precision must not read past it (ASan checks the array). */
static void test_string_precision_bounds(void **state)
{
	char unterminated[3] = { 'a', 'b', 'c' };

	EXPECT("abc", "%.3s", unterminated);
	EXPECT("ab", "%.*s", 2, unterminated);
}

static void test_star(void **state)
{
	for (int w = -12; w <= 12; w += 3)
		for (int p = -3; p <= 8; p++) {
			CHECK("[%*d]", w, 42);
			CHECK("[%*.*d]", w, p, -42);
			CHECK("[%-*.*x]", w, p, 0xbeefu);
			CHECK("[%0*.*u]", w, p, 0u);
			CHECK("[%*.*s]", w, p, "hello");
			CHECK("[%0*d]", w, -7);
		}
}

static void test_truncation(void **state)
{
	CHECK_T("%d", INT_MIN);
	CHECK_T("%lld|%llu", LLONG_MIN, ULLONG_MAX);
	CHECK_T("%-20s|%20s", "left", "right");
	CHECK_T("%#o %#x %#X", 8u, 255u, 255u);
	CHECK_T("%+.10d", 12345);
	CHECK_T("%08.3x", 0xabcu);

	/* size 0 with a NULL buffer: nothing written, length returned */
	assert_int_equal(ksnprintf(NULL, 0, "%s-%d", "abc", 12345), 9);
	char one = GUARD;
	assert_int_equal(ksnprintf(&one, 1, "xyz"), 3);
	assert_int_equal(one, '\0');
}

#pragma GCC diagnostic pop

static void test_edge_values(void **state)
{
	CHECK("%d %i %d %d", INT_MIN, INT_MAX, 0, -1);
	CHECK("%u %x %X %o", UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX);
	CHECK("%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
	CHECK("%lld %lld %llu %llx %llo", LLONG_MIN, LLONG_MAX, ULLONG_MAX,
	      ULLONG_MAX, ULLONG_MAX);
	CHECK("%hd %hu %hhd %hhu", (short)SHRT_MIN, (unsigned short)USHRT_MAX,
	      (signed char)SCHAR_MIN, (unsigned char)UCHAR_MAX);
	CHECK("%hd %hhd %hu %hhx", 70000, 300, 70000, 0x1ff); /* converted */
	CHECK("%zu %zd %zx", (size_t)SIZE_MAX, (ssize_t)-5, (size_t)0xabc);
	CHECK("%jd %ju", (intmax_t)INTMAX_MIN, (uintmax_t)UINTMAX_MAX);
	CHECK("%td %tx", (ptrdiff_t)PTRDIFF_MIN, (ptrdiff_t)0x7f);
	CHECK("%25lld|%-25lld|%025lld|%+lld|% lld", LLONG_MIN, LLONG_MIN,
	      LLONG_MIN, LLONG_MAX, LLONG_MAX);
	CHECK("%.25llu|%30.25llx|%#.25llo", ULLONG_MAX, ULLONG_MAX, ULLONG_MAX);
	/* 32-bit boundary of the decimal fast path */
	CHECK("%llu %llu %llu", 4294967295ULL, 4294967296ULL, 42949672960ULL);
}

/* ---- the matrix -------------------------------------------------------- */

static const char *const lengths[] = { "hh", "h", "", "l", "ll", "z", "j", "t" };
static const long long values[] = {
	0, 1, -1, 7, -7, 8, 10, 99, 100, -100, 255, 256, 4095, 65535, 65536,
	INT_MAX, INT_MIN, (long long)UINT_MAX, 4294967296LL, 1000000000000LL,
	LLONG_MAX, LLONG_MIN, -2,
};

/* One value through FMT with the argument type LEN asks for. */
static void check_len(const char *fmt, const char *len, bool is_signed,
		      long long v)
{
	if (!strcmp(len, "l"))
		is_signed ? CHECK(fmt, (long)v) : CHECK(fmt, (unsigned long)v);
	else if (!strcmp(len, "ll"))
		is_signed ? CHECK(fmt, v) : CHECK(fmt, (unsigned long long)v);
	else if (!strcmp(len, "z"))
		is_signed ? CHECK(fmt, (ssize_t)v) : CHECK(fmt, (size_t)v);
	else if (!strcmp(len, "j"))
		is_signed ? CHECK(fmt, (intmax_t)v) : CHECK(fmt, (uintmax_t)v);
	else if (!strcmp(len, "t"))
		CHECK(fmt, (ptrdiff_t)v);
	else	/* hh, h, none: promoted to int */
		is_signed ? CHECK(fmt, (int)v) : CHECK(fmt, (unsigned int)v);
}

static void test_integer_matrix(void **state)
{
	static const char flag_chars[] = "-0+ #";
	static const char *const widths[] = { "", "1", "5", "12", "25" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".5", ".22" };
	static const char convs[] = "diuxXo";
	long checked = 0;

	for (const char *c = convs; *c; c++) {
		bool is_signed = *c == 'd' || *c == 'i';

		for (int fl = 0; fl < 32; fl++) {
			char flags[8];
			int nf = 0;

			if (is_signed && (fl & 16))
				continue;	/* '#' with d/i is undefined */
			for (int b = 0; b < 5; b++)
				if (fl & (1 << b))
					flags[nf++] = flag_chars[b];
			flags[nf] = '\0';
			for (size_t w = 0; w < ARRAY_SIZE(widths); w++)
				for (size_t p = 0; p < ARRAY_SIZE(precs); p++)
					for (size_t l = 0; l < ARRAY_SIZE(lengths); l++) {
						char fmt[40];

						snprintf(fmt, sizeof(fmt), "<%%%s%s%s%s%c>",
							 flags, widths[w], precs[p],
							 lengths[l], *c);
						for (size_t v = 0; v < ARRAY_SIZE(values); v++) {
							check_len(fmt, lengths[l], is_signed,
								  values[v]);
							checked++;
						}
					}
		}
	}
	assert_true(checked > 400000);
}

/* ---- documented departures from glibc ---------------------------------- */

static void test_pointer(void **state)
{
	char want[64], pad[160];
	void *p = (void *)(uintptr_t)0x12abcdefULL;

	snprintf(want, sizeof(want), "0x%0*llx", (int)(2 * sizeof(void *)),
		 (unsigned long long)(uintptr_t)p);
	EXPECT(want, "%p", p);
	snprintf(pad, sizeof(pad), "%30s|%-30s|", want, want);
	EXPECT(pad, "%30p|%-30p|", p, p);
	snprintf(want, sizeof(want), "0x%0*d", (int)(2 * sizeof(void *)), 0);
	EXPECT(want, "%p", NULL);
	EXPECT(sizeof(void *) == 8 ? "0xffffffffffffffff" : "0xffffffff", "%p",
	       (void *)UINTPTR_MAX);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-overflow"
static void test_null_string(void **state)
{
	EXPECT("(null)", "%s", (char *)NULL);
	EXPECT("  (null)|(null)  |", "%8s|%-8s|", (char *)NULL, (char *)NULL);
	EXPECT("(nu", "%.3s", (char *)NULL);
}
#pragma GCC diagnostic pop

static void test_unknown_conversion(void **state)
{
	char fmt[16];

	/* built at run time: -Wformat rightly rejects these as literals */
	strcpy(fmt, "a%qb");
	EXPECT("a%qb", fmt, 0);
	strcpy(fmt, "%-5.2y|");
	EXPECT("%-5.2y|", fmt, 0);
	strcpy(fmt, "x%");
	EXPECT("x%", fmt, 0);
	strcpy(fmt, "x%l");
	EXPECT("x%l", fmt, 0);
	strcpy(fmt, "%d%w%d");
	EXPECT("1%w2", fmt, 1, 2);	/* %w takes no argument */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_string_precision_bounds),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_edge_values),
		cmocka_unit_test(test_integer_matrix),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_null_string),
		cmocka_unit_test(test_unknown_conversion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
