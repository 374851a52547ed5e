/*
 * tests/host/lib/test_string.c - kernel/lib/string.c against glibc, and the
 * kstrto* parsers against a table of edge cases.
 *
 * libc's functions are captured as libc_* pointers BEFORE <kernel/string.h>
 * renames the plain names to the kernel's k-prefixed versions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void *(*const libc_memmove)(void *, const void *, size_t) = memmove;
static int (*const libc_memcmp)(const void *, const void *, size_t) = memcmp;
static int (*const libc_strcmp)(const char *, const char *) = strcmp;
static int (*const libc_strncmp)(const char *, const char *, size_t) = strncmp;
static char *(*const libc_strstr)(const char *, const char *) = strstr;
static char *(*const libc_strchr)(const char *, int) = strchr;
static char *(*const libc_strrchr)(const char *, int) = strrchr;

#include <kernel/string.h>
#include <kernel/errno.h>

static int sign(int x) { return (x > 0) - (x < 0); }

static void test_memcpy_memset(void **state)
{
	u8 src[64], dst[80];

	for (int i = 0; i < 64; i++)
		src[i] = (u8)(i * 7 + 1);
	for (size_t n = 0; n <= 64; n++) {
		kmemset(dst, 0xee, sizeof(dst));
		assert_ptr_equal(memcpy(dst + 3, src, n), dst + 3);
		assert_int_equal(libc_memcmp(dst + 3, src, n), 0);
		assert_int_equal(dst[2], 0xee);		/* no underrun */
		assert_int_equal(dst[3 + n], 0xee);	/* no overrun */
	}
	kmemset(dst, 0xee, sizeof(dst));
	assert_ptr_equal(memset(dst, 0x1ab, 10), dst);	/* c is cut to u8 */
	for (int i = 0; i < 10; i++)
		assert_int_equal(dst[i], 0xab);
	assert_int_equal(dst[10], 0xee);
}

/*
 * The word paths: every dst/src alignment 0..7 and every length 0..67 (so
 * 0-4 whole 16-byte blocks, 0-3 words and 0-3 tail bytes), against a byte
 * reference, with guard bytes on both sides; memset with a value whose
 * high bits must be cut off.
 */
static void test_memcpy_memset_alignments(void **state)
{
	_Alignas(16) u8 src[96], dst[96], ref[96];

	for (int i = 0; i < 96; i++)
		src[i] = (u8)(i * 13 + 5);
	for (int da = 0; da < 8; da++)
		for (int sa = 0; sa < 8; sa++)
			for (size_t n = 0; n < 68; n++) {
				for (int i = 0; i < 96; i++)
					dst[i] = ref[i] = 0xee;
				for (size_t i = 0; i < n; i++)
					ref[da + i] = src[sa + i];
				assert_ptr_equal(memcpy(dst + da, src + sa, n), dst + da);
				assert_int_equal(libc_memcmp(dst, ref, sizeof(dst)), 0);
			}
	for (int da = 0; da < 8; da++)
		for (size_t n = 0; n < 68; n++) {
			for (int i = 0; i < 96; i++)
				dst[i] = ref[i] = 0xee;
			for (size_t i = 0; i < n; i++)
				ref[da + i] = 0x5a;
			assert_ptr_equal(memset(dst + da, 0x7715a, n), dst + da);
			assert_int_equal(libc_memcmp(dst, ref, sizeof(dst)), 0);
		}
}

/* Every overlap: dst/src offsets 0..15 in a 48-byte buffer, n 0..32. */
static void test_memmove_overlap(void **state)
{
	u8 a[48], b[48];

	for (int d = 0; d < 16; d++)
		for (int s = 0; s < 16; s++)
			for (size_t n = 0; n <= 32; n++) {
				for (int i = 0; i < 48; i++)
					a[i] = b[i] = (u8)(i + 100);
				memmove(a + d, a + s, n);
				libc_memmove(b + d, b + s, n);
				assert_memory_equal(a, b, sizeof(a));
			}
}

static void test_compare_sign(void **state)
{
	static const char *const words[] = {
		"", "a", "ab", "abc", "abd", "b", "\x80", "\xff", "a\x80",
		"A", "abc\xff", "zz",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		for (size_t j = 0; j < sizeof(words) / sizeof(words[0]); j++) {
			const char *x = words[i], *y = words[j];

			assert_int_equal(sign(strcmp(x, y)),
					 sign(libc_strcmp(x, y)));
			for (size_t n = 0; n < 6; n++)
				assert_int_equal(sign(strncmp(x, y, n)),
						 sign(libc_strncmp(x, y, n)));
			size_t n = strlen(x) < strlen(y) ? strlen(x) : strlen(y);
			assert_int_equal(sign(memcmp(x, y, n + 1)),
					 sign(libc_memcmp(x, y, n + 1)));
		}
}

static void test_lengths(void **state)
{
	/* no NUL inside the first 4: strnlen must not read s[4] (ASan) */
	char *s = malloc(4);

	memcpy(s, "abcd", 4);
	assert_int_equal(strnlen(s, 4), 4);
	assert_int_equal(strnlen(s, 2), 2);
	assert_int_equal(strnlen("ab", 10), 2);
	assert_int_equal(strnlen("", 0), 0);
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen("hello"), 5);
	free(s);
}

static void test_search(void **state)
{
	const char *s = "hello, world";

	for (int c = 0; c < 256; c++) {
		assert_ptr_equal(strchr(s, c), libc_strchr(s, c));
		assert_ptr_equal(strrchr(s, c), libc_strrchr(s, c));
	}
	assert_ptr_equal(strchr(s, 0), s + 12);	/* the NUL itself */
	assert_ptr_equal(strchr(s, 'o' + 256), s + 4); /* c is cut to char */

	static const char *const needles[] = {
		"", "h", "hello", "o", "o,", "world", "worlds", "ld", "x",
		"hello, world", "hello, world!", "l, w",
	};
	for (size_t i = 0; i < sizeof(needles) / sizeof(needles[0]); i++)
		assert_ptr_equal(strstr(s, needles[i]), libc_strstr(s, needles[i]));
	assert_ptr_equal(strstr("", ""), libc_strstr("", ""));
	assert_null(strstr("", "a"));
	assert_ptr_equal(strstr("aaab", "aab"), libc_strstr("aaab", "aab"));
}

static void test_copies(void **state)
{
	char buf[16];

	kmemset(buf, 'x', sizeof(buf));
	assert_ptr_equal(strcpy(buf, "abc"), buf);
	assert_string_equal(buf, "abc");
	assert_int_equal(buf[4], 'x');

	/* strncpy pads with NULs and does not terminate when src is long */
	kmemset(buf, 'x', sizeof(buf));
	strncpy(buf, "ab", 6);
	assert_memory_equal(buf, "ab\0\0\0\0x", 7);
	strncpy(buf, "abcdefgh", 4);
	assert_memory_equal(buf, "abcd\0\0x", 7);

	/* strlcpy: always terminates, returns strlen(src) */
	kmemset(buf, 'x', sizeof(buf));
	assert_int_equal(strlcpy(buf, "hello", sizeof(buf)), 5);
	assert_string_equal(buf, "hello");
	assert_int_equal(strlcpy(buf, "hello", 3), 5);
	assert_string_equal(buf, "he");
	assert_int_equal(strlcpy(buf, "hello", 6), 5);
	assert_string_equal(buf, "hello");
	buf[0] = 'q';
	assert_int_equal(strlcpy(buf, "hello", 0), 5);	/* writes nothing */
	assert_int_equal(buf[0], 'q');
	assert_int_equal(strlcpy(buf, "", 1), 0);
	assert_string_equal(buf, "");
}

/* ---- kstrto* ---------------------------------------------------------- */

struct u64_case { const char *s; unsigned int base; int err; u64 v; };

static void test_kstrtou64(void **state)
{
	static const struct u64_case cases[] = {
		{ "0", 0, 0, 0 },
		{ "1", 0, 0, 1 },
		{ "+7", 0, 0, 7 },
		{ "123456789", 10, 0, 123456789 },
		{ "0x1f", 0, 0, 0x1f },
		{ "0X1F", 0, 0, 0x1f },
		{ "1f", 16, 0, 0x1f },
		{ "0x1f", 16, 0, 0x1f },
		{ "017", 0, 0, 017 },
		{ "017", 10, 0, 17 },
		{ "101", 2, 0, 5 },
		{ "18446744073709551615", 0, 0, UINT64_MAX },
		{ "0xffffffffffffffff", 0, 0, UINT64_MAX },
		{ "01777777777777777777777", 0, 0, UINT64_MAX },
		{ "18446744073709551616", 0, -ERANGE, 0 },
		{ "99999999999999999999", 0, -ERANGE, 0 },
		{ "0x10000000000000000", 0, -ERANGE, 0 },
		{ "99999999999999999999x", 0, -EINVAL, 0 }, /* garbage wins */
		{ "", 0, -EINVAL, 0 },
		{ "+", 0, -EINVAL, 0 },
		{ "0x", 0, -EINVAL, 0 },
		{ "08", 0, -EINVAL, 0 },
		{ "12a", 10, -EINVAL, 0 },
		{ "abc", 0, -EINVAL, 0 },
		{ " 1", 0, -EINVAL, 0 },
		{ "1 ", 0, -EINVAL, 0 },
		{ "1\n", 0, -EINVAL, 0 },
		{ "-1", 0, -EINVAL, 0 },
		{ "-0", 0, -EINVAL, 0 },
		{ "++1", 0, -EINVAL, 0 },
		{ "2", 2, -EINVAL, 0 },
		{ "1", 1, -EINVAL, 0 },
		{ "1", 17, -EINVAL, 0 },
		{ "g", 16, -EINVAL, 0 },
		{ "0x0x1", 0, -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u64 v = 0xdeadbeef;
		int err = kstrtou64(cases[i].s, cases[i].base, &v);

		if (err != cases[i].err)
			fail_msg("kstrtou64(\"%s\", %u) = %d, want %d", cases[i].s,
				 cases[i].base, err, cases[i].err);
		if (v != (err ? 0xdeadbeef : cases[i].v))
			fail_msg("kstrtou64(\"%s\", %u) gave %llu", cases[i].s,
				 cases[i].base, (unsigned long long)v);
	}
}

struct s64_case { const char *s; int err; s64 v; };

static void test_kstrtos64(void **state)
{
	static const struct s64_case cases[] = {
		{ "0", 0, 0 },
		{ "-0", 0, 0 },
		{ "-1", 0, -1 },
		{ "+1", 0, 1 },
		{ "-0x10", 0, -16 },
		{ "-010", 0, -8 },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "-9223372036854775808", 0, INT64_MIN },
		{ "9223372036854775808", -ERANGE, 0 },
		{ "-9223372036854775809", -ERANGE, 0 },
		{ "-99999999999999999999", -ERANGE, 0 },
		{ "--1", -EINVAL, 0 },
		{ "-+1", -EINVAL, 0 },
		{ "-", -EINVAL, 0 },
		{ "1-", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s64 v = 42;
		int err = kstrtos64(cases[i].s, 0, &v);

		if (err != cases[i].err)
			fail_msg("kstrtos64(\"%s\") = %d, want %d", cases[i].s,
				 err, cases[i].err);
		assert_true(v == (err ? 42 : cases[i].v));
	}
}

static void test_kstrto32(void **state)
{
	u32 u = 7;
	s32 s = 7;

	assert_int_equal(kstrtou32("4294967295", 0, &u), 0);
	assert_true(u == UINT32_MAX);
	assert_int_equal(kstrtou32("0xffffffff", 0, &u), 0);
	assert_true(u == UINT32_MAX);
	assert_int_equal(kstrtou32("4294967296", 0, &u), -ERANGE);
	assert_int_equal(kstrtou32("0x100000000", 0, &u), -ERANGE);
	assert_int_equal(kstrtou32("99999999999999999999", 0, &u), -ERANGE);
	assert_int_equal(kstrtou32("-1", 0, &u), -EINVAL);
	assert_int_equal(kstrtou32("1x", 0, &u), -EINVAL);
	assert_true(u == UINT32_MAX);			/* untouched */

	assert_int_equal(kstrtos32("2147483647", 0, &s), 0);
	assert_int_equal(s, INT32_MAX);
	assert_int_equal(kstrtos32("-2147483648", 0, &s), 0);
	assert_int_equal(s, INT32_MIN);
	assert_int_equal(kstrtos32("2147483648", 0, &s), -ERANGE);
	assert_int_equal(kstrtos32("-2147483649", 0, &s), -ERANGE);
	assert_int_equal(kstrtos32("0x7fffffff", 0, &s), 0);
	assert_int_equal(s, INT32_MAX);
	assert_int_equal(kstrtos32("0x80000000", 0, &s), -ERANGE);
	assert_int_equal(kstrtos32("", 0, &s), -EINVAL);
	assert_int_equal(s, INT32_MAX);			/* untouched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_memset),
		cmocka_unit_test(test_memcpy_memset_alignments),
		cmocka_unit_test(test_memmove_overlap),
		cmocka_unit_test(test_compare_sign),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_kstrtou64),
		cmocka_unit_test(test_kstrtos64),
		cmocka_unit_test(test_kstrto32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
