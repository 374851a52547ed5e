/*
 * kernel/string.h - the kernel's string and memory functions, and strict
 * number parsing (kstrto*, after Linux's lib/kstrtox.c).
 *
 * Implemented in kernel/lib/string.c, which depends only on
 * <kernel/types.h>, <kernel/compiler.h> and <kernel/errno.h>, so the same
 * file can serve user space.
 *
 * Host unit tests (HOST_TEST defined): the names below clash with the host
 * libc, which cmocka and the sanitizer runtimes rely on.  So on the host
 * every libc-named function is renamed with a 'k' prefix by the macros
 * below (memcpy -> kmemcpy, strlcpy -> kstrlcpy ...).  Code that includes
 * this header calls the kernel versions and must link kernel/lib/string.c;
 * code that does not include it keeps the libc ones.  Include this header
 * AFTER any libc header in a host test (the macros would otherwise rename
 * libc's own prototypes too - harmless, but confusing).  The kstrto*
 * names do not clash and are never renamed.
 */
#ifndef KERNEL_STRING_H
#define KERNEL_STRING_H

#include <kernel/types.h>
#include <kernel/compiler.h>

#ifdef HOST_TEST
#define memcpy	kmemcpy
#define memmove	kmemmove
#define memset	kmemset
#define memcmp	kmemcmp
#define strlen	kstrlen
#define strnlen	kstrnlen
#define strcmp	kstrcmp
#define strncmp	kstrncmp
#define strchr	kstrchr
#define strrchr	kstrrchr
#define strcpy	kstrcpy
#define strncpy	kstrncpy
#define strlcpy	kstrlcpy
#define strstr	kstrstr
#endif

/* Memory: the C standard semantics (memmove allows overlap, memcpy not). */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
/* Compares as unsigned char; returns <0, 0 or >0. */
int memcmp(const void *a, const void *b, size_t n);

/* Strings: the C standard semantics; comparisons are as unsigned char. */
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);	/* never reads s[maxlen] */
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);		/* c == 0 finds the NUL */
char *strrchr(const char *s, int c);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);	/* pads with NULs */
/*
 * BSD strlcpy: copy at most size-1 bytes and always NUL-terminate when
 * size > 0.  Returns strlen(src); truncation happened iff result >= size.
 */
size_t strlcpy(char *dst, const char *src, size_t size);
char *strstr(const char *haystack, const char *needle); /* "" -> haystack */

/*
 * Strict number parsing (Linux's kstrtoull family).  The WHOLE string must
 * be the number: no leading/trailing blanks, no trailing newline.
 *
 * base 0 auto-detects: "0x"/"0X" -> 16, a leading "0" -> 8, else 10.
 * base 16 also accepts an optional "0x" prefix.  Bases 2..16 are allowed.
 * An optional leading '+' is accepted; the signed forms also take '-'.
 *
 * Returns 0 and stores *out on success; *out is untouched on failure:
 *   -EINVAL  empty, not a number, a digit outside the base, trailing garbage,
 *            '-' for the unsigned forms, or a bad base;
 *   -ERANGE  a well-formed number that does not fit the type.
 * Garbage wins over overflow ("99999999999999999999x" -> -EINVAL).
 */
int kstrtou64(const char *s, unsigned int base, u64 *out);
int kstrtos64(const char *s, unsigned int base, s64 *out);
int kstrtou32(const char *s, unsigned int base, u32 *out);
int kstrtos32(const char *s, unsigned int base, s32 *out);

#endif
