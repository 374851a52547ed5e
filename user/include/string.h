/*
 * string.h - memory and string functions.  The core set is the kernel's own
 * kernel/lib/string.c (declared in <kernel/string.h>), compiled into the
 * user library; the rest is user/lib/string.c.
 */
#ifndef _STRING_H
#define _STRING_H

#include <kernel/string.h>

void *memchr(const void *s, int c, size_t n);
char *strcat(char *dst, const char *src);
char *strncat(char *dst, const char *src, size_t n);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strtok_r(char *s, const char *delim, char **save);
char *strdup(const char *s);			/* malloc()ed; NULL + ENOMEM */
char *strndup(const char *s, size_t n);
char *strerror(int errnum);	/* do not modify; "Unknown error N" is static */

#endif
