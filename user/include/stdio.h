/*
 * stdio.h - formatted output to file descriptors.
 *
 * Unbuffered: every printf() is one write() of the whole formatted text
 * (so lines from different processes never interleave mid-line, and
 * nothing is lost if a program is killed).  Formatting is the kernel's
 * vsnprintf (kernel/lib/vsprintf.c): %d %i %u %x %X %o %s %c %p %% with
 * flags, width, precision and hh/h/l/ll/z/j/t; no floating point.
 * A FILE is just a file descriptor.
 */
#ifndef _STDIO_H
#define _STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF	(-1)

typedef struct __file {
	int fd;
} FILE;

extern FILE *stdin, *stdout, *stderr;

#define __uprintf(a, b)	__attribute__((format(printf, a, b)))

int printf(const char *fmt, ...) __uprintf(1, 2);
int vprintf(const char *fmt, va_list ap);
int fprintf(FILE *f, const char *fmt, ...) __uprintf(2, 3);
int vfprintf(FILE *f, const char *fmt, va_list ap);
int dprintf(int fd, const char *fmt, ...) __uprintf(2, 3);
int vdprintf(int fd, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __uprintf(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

int puts(const char *s);		/* s + "\n" to stdout */
int fputs(const char *s, FILE *f);
int putchar(int c);
int fputc(int c, FILE *f);
void perror(const char *s);		/* "s: strerror(errno)\n" to stderr */
int fflush(FILE *f);			/* nothing is buffered: returns 0 */

#endif
