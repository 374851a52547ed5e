/*
 * user/lib/stdlib.c - program start and exit, environment, number
 * conversion (strtol family with C semantics: leading blanks, sign, base 0
 * auto-detection, *end after the last digit, ERANGE + clamp on overflow).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include "tls.h"
#include "ulib.h"

char **environ;

#define ATEXIT_MAX 32
static void (*atexit_fns[ATEXIT_MAX])(void);
static int atexit_count;

int main(int argc, char **argv, char **envp);

/* Called by crt0's _start with the Linux initial stack already decoded. */
__attribute__((noreturn)) void __libc_start(int argc, char **argv, char **envp)
{
	__libc_tls_init();	/* %gs -> the main thread's TCB (errno) */
	__libc_vdso_init(envp);	/* clock_gettime through the vDSO (vdso.c) */
	environ = envp;
	exit(main(argc, argv, envp));
}

int atexit(void (*fn)(void))
{
	if (atexit_count == ATEXIT_MAX)
		return -1;
	atexit_fns[atexit_count++] = fn;
	return 0;
}

void exit(int status)
{
	while (atexit_count > 0)
		atexit_fns[--atexit_count]();
	_exit(status);
}

void abort(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGABRT);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGABRT);
	signal(SIGABRT, SIG_DFL);	/* a handler returned: die anyway */
	raise(SIGABRT);
	_exit(127);
}

char *getenv(const char *name)
{
	size_t len = strlen(name);
	char **e;

	for (e = environ; e && *e; e++)
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

static int digit(int c)
{
	if (isdigit(c))
		return c - '0';
	if (isalpha(c))
		return tolower(c) - 'a' + 10;
	return 99;
}

/*
 * The common parser: magnitude (saturated at ULLONG_MAX with *ovf set),
 * sign in *neg, *end after the last digit (or = s when there is none).
 */
static unsigned long long parse(const char *s, char **end, int base,
				int *neg, int *ovf)
{
	const char *p = s, *digits;
	unsigned long long v = 0;

	*neg = *ovf = 0;
	if (base < 0 || base == 1 || base > 36) {
		errno = EINVAL;
		if (end)
			*end = (char *)s;
		return 0;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		*neg = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 32) == 'x' &&
	    digit((unsigned char)p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	for (digits = p; digit((unsigned char)*p) < base; p++) {
		unsigned int d = (unsigned int)digit((unsigned char)*p);

		if (v > (ULLONG_MAX - d) / (unsigned int)base)
			*ovf = 1;
		else
			v = v * (unsigned int)base + d;
	}
	if (end)
		*end = (char *)(p == digits ? s : p);
	return *ovf ? ULLONG_MAX : v;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? -v : v;
}

long long strtoll(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf || v > (neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX)) {
		errno = ERANGE;
		return neg ? LLONG_MIN : LLONG_MAX;
	}
	return neg ? (long long)(0 - v) : (long long)v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf || v > ULONG_MAX) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -(unsigned long)v : (unsigned long)v;
}

long strtol(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf || v > (neg ? (unsigned long long)LONG_MAX + 1 : (unsigned long long)LONG_MAX)) {
		errno = ERANGE;
		return neg ? LONG_MIN : LONG_MAX;
	}
	return neg ? (long)(0 - v) : (long)v;
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

long atol(const char *s)
{
	return strtol(s, NULL, 10);
}

int abs(int v)
{
	return v < 0 ? -v : v;
}

long labs(long v)
{
	return v < 0 ? -v : v;
}

void help_exit(int argc, char **argv, const char *usage)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		exit(0);
	}
}
