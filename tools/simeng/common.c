/*
 * tools/simeng/common.c - what every subcommand of build/sim shares: the
 * one-line errors, times written "2ms", and knobs applied through the
 * kernel's own knob_apply() (so a bad one gets the kernel's message).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "../../tests/host/sched/fake.h"
#include <kernel/cmdline.h>

void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "sim: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(2);
}

/* "2ms", "500us", "1s", "3000000" (ns); -1 on a bad value */
long long parse_time(const char *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || x < 0)
		return -1;
	if (!strcmp(end, "") || !strcmp(end, "ns"))
		return (long long)x;
	if (!strcmp(end, "us"))
		return (long long)(x * 1e3);
	if (!strcmp(end, "ms"))
		return (long long)(x * 1e6);
	if (!strcmp(end, "s"))
		return (long long)(x * 1e9);
	return -1;
}

/* The kernel's own validation: knob_apply(), as the boot line; a refusal is
 * the kernel's one line, then exit 2. */
void apply_knob(const char *name, const char *value)
{
	capture_reset();
	if (knob_apply(name, value)) {
		size_t l = strlen(capture_buf);

		while (l && capture_buf[l - 1] == '\n')
			capture_buf[--l] = '\0';
		const char *msg = strstr(capture_buf, "] ");	/* after printk's time */

		msg = msg ? msg + 2 : capture_buf;
		fprintf(stderr, "sim: %s\n", l ? msg : "knob refused");
		exit(2);
	}
}

void apply_hz(const char *v)
{
	char *end;
	long hz = strtol(v, &end, 10);

	if (*end || end == v || (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
		die("--hz %s: not a kernel HZ (expected 100, 250, 300 or 1000)%s", v, "");
	HZ = (unsigned int)hz;
}

