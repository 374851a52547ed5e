/*
 * user/lib/stdio.c - printf and friends: format with the kernel's
 * vsnprintf (kernel/lib/vsprintf.c, compiled into this library), then one
 * write() of the whole text.  Output up to 511 bytes is formatted on the
 * stack; longer output is formatted into a malloc()ed buffer of the exact
 * size (vsnprintf returns the full length).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

static FILE f_stdin = { 0 }, f_stdout = { 1 }, f_stderr = { 2 };
FILE *stdin = &f_stdin, *stdout = &f_stdout, *stderr = &f_stderr;

/* Write all N bytes (retrying short writes); 0 or -1 + errno. */
static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list again;
	int n, ret;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(again);
		errno = EINVAL;
		return -1;
	}
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf) {
			va_end(again);
			return -1;		/* errno = ENOMEM */
		}
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	ret = write_all(fd, buf, (size_t)n) < 0 ? -1 : n;
	if (buf != small)
		free(buf);
	return ret;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	return vdprintf(f->fd, fmt, ap);
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(f->fd, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	return vdprintf(1, fmt, ap);
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(1, fmt, ap);
	va_end(ap);
	return n;
}

int fputs(const char *s, FILE *f)
{
	return write_all(f->fd, s, strlen(s)) < 0 ? EOF : 0;
}

int puts(const char *s)
{
	return dprintf(1, "%s\n", s) < 0 ? EOF : 0;
}

int fputc(int c, FILE *f)
{
	char ch = (char)c;

	return write_all(f->fd, &ch, 1) < 0 ? EOF : (unsigned char)c;
}

int putchar(int c)
{
	return fputc(c, stdout);
}

void perror(const char *s)
{
	if (s && *s)
		dprintf(2, "%s: %s\n", s, strerror(errno));
	else
		dprintf(2, "%s\n", strerror(errno));
}

int fflush(FILE *f)
{
	return 0;
}
