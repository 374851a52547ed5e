/*
 * kernel/lib/string.c - memory/string functions and strict number parsing.
 *
 * Plain byte loops (correct first, small), except memcpy and memset: they
 * move 32-bit words, four per iteration, when the pointers allow it, since
 * the signal path copies ~1.8 KiB per delivery (the FPU frame) and a byte
 * loop costs ~5 instructions a byte - which under -icount is ~5 ns a byte
 * of every measured latency.  Both are weak: the kernel links
 * arch/x86/string.asm's string-instruction versions instead (~1
 * instruction per 4 bytes); these serve user space and the host tests.
 * Page copies use their own code.  Depends only
 * on <kernel/types.h>, <kernel/compiler.h>, <kernel/errno.h>.
 *
 * GCC may recognise a byte loop as "memset"/"memcpy" and replace it with a
 * call to that very function (infinite recursion inside memset itself), so
 * the pattern-distribution pass is switched off for this file.
 *
 * Under HOST_TEST every libc-named function is compiled with a 'k' prefix
 * (see <kernel/string.h>).
 */
#pragma GCC optimize("no-tree-loop-distribute-patterns")

#include <kernel/string.h>
#include <kernel/errno.h>

/* A 32-bit word that may alias anything (the copies below go through it). */
typedef u32 __attribute__((may_alias)) word_t;

/*
 * Word loops: only when dst and src are both 4-byte aligned (memcpy) or dst
 * is (memset); 16 bytes an iteration, then the tail byte by byte.
 */
__attribute__((weak)) void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
		word_t *dw = (word_t *)d;
		const word_t *sw = (const word_t *)s;

		for (; n >= 16; n -= 16, dw += 4, sw += 4) {
			dw[0] = sw[0];
			dw[1] = sw[1];
			dw[2] = sw[2];
			dw[3] = sw[3];
		}
		for (; n >= 4; n -= 4)
			*dw++ = *sw++;
		d = (u8 *)dw;
		s = (const u8 *)sw;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d == s || n == 0)
		return dst;
	/* Copy forwards unless dst starts inside [src, src+n). */
	if ((uintptr_t)d - (uintptr_t)s >= n) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

__attribute__((weak)) void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;

	if (((uintptr_t)d & 3) == 0) {
		word_t *dw = (word_t *)d;
		u32 w = (u8)c * 0x01010101u;

		for (; n >= 16; n -= 16, dw += 4)
			dw[0] = dw[1] = dw[2] = dw[3] = w;
		for (; n >= 4; n -= 4)
			*dw++ = w;
		d = (u8 *)dw;
	}
	while (n--)
		*d++ = (u8)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p < *q ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	while (n < maxlen && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return *p == *q ? 0 : (*p < *q ? -1 : 1);
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
		if (!*p)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return (char *)haystack;
	for (; *haystack; haystack++)
		if (*haystack == *needle && !strncmp(haystack, needle, n))
			return (char *)haystack;
	return NULL;
}

/* ---- number parsing ---------------------------------------------------- */

/* Value of digit C, or 99 if C is not a digit/letter. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	if (c >= 'a' && c <= 'z')
		return (unsigned int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'Z')
		return (unsigned int)(c - 'A' + 10);
	return 99;
}

/*
 * Parse an unsigned magnitude (no sign) in BASE (0 = auto).
 * Returns 0, -EINVAL or -ERANGE as documented in <kernel/string.h>.
 */
static int parse_u64(const char *s, unsigned int base, u64 *out)
{
	u64 v = 0;
	bool overflow = false;

	if (base == 0) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			base = 16;
			s += 2;
		} else if (s[0] == '0') {
			base = 8;	/* the leading 0 is itself a digit */
		} else {
			base = 10;
		}
	} else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	} else if (base < 2 || base > 16) {
		return -EINVAL;
	}
	if (!*s)
		return -EINVAL;		/* "", "0x" */
	for (; *s; s++) {
		unsigned int d = digit_value(*s);

		if (d >= base)
			return -EINVAL;
		/* v * base + d > U64_MAX  <=>  v > (U64_MAX - d) / base */
		if (v > (UINT64_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	*out = v;
	return 0;
}

int kstrtou64(const char *s, unsigned int base, u64 *out)
{
	if (*s == '+')
		s++;
	return parse_u64(s, base, out);
}

int kstrtos64(const char *s, unsigned int base, s64 *out)
{
	bool neg = false;
	u64 mag;
	int err;

	if (*s == '-') {
		neg = true;
		s++;
	} else if (*s == '+') {
		s++;
	}
	err = parse_u64(s, base, &mag);
	if (err)
		return err;
	if (neg) {
		/* magnitude 2^63 is INT64_MIN itself */
		if (mag > (u64)INT64_MAX + 1)
			return -ERANGE;
		*out = mag == (u64)INT64_MAX + 1 ? INT64_MIN : -(s64)mag;
	} else {
		if (mag > (u64)INT64_MAX)
			return -ERANGE;
		*out = (s64)mag;
	}
	return 0;
}

__host_test_only int kstrtou32(const char *s, unsigned int base, u32 *out)
{
	u64 v;
	int err = kstrtou64(s, base, &v);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (u32)v;
	return 0;
}

__host_test_only int kstrtos32(const char *s, unsigned int base, s32 *out)
{
	s64 v;
	int err = kstrtos64(s, base, &v);

	if (err)
		return err;
	if (v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*out = (s32)v;
	return 0;
}
