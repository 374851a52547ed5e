/*
 * tools/granule/sim/engine/common.c - what every subcommand of build/sim shares: the
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

/*
 * A *_ns knob's value with a time unit, as tools/sim sweep's ranges take it:
 * "750us", "0.75ms", "2ms", "1s", "1500ns" -> ns, rounded to the nearest ns,
 * into OUT.  0 when V has no unit and no decimal point (the kernel parses it
 * as it is), -1 when it is not a time.
 */
static int knob_time(const char *name, const char *v, char *out, size_t n)
{
	static const struct { const char *unit; unsigned long long ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	unsigned long long mant = 0, scale = 1, mul = 1;
	size_t l = strlen(name), digits = 0;
	const char *p = v;
	int dot = 0;

	if (l < 3 || strcmp(name + l - 3, "_ns"))
		return 0;
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !dot); p++) {
		if (*p == '.') {
			dot = 1;
			continue;
		}
		if (++digits > 18)		/* 10^18 ns: past every knob's range */
			return -1;
		mant = mant * 10 + (unsigned long long)(*p - '0');
		if (dot)
			scale *= 10;
	}
	if (!digits)
		return *p || !*v ? 0 : -1;	/* not a number: the kernel's message */
	if (*p) {
		unsigned i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]) && strcmp(p, units[i].unit); i++)
			;
		if (i == sizeof(units) / sizeof(units[0]))
			return 0;		/* "4x": the kernel's "invalid" */
		mul = units[i].ns;
	} else if (!dot) {
		return 0;
	}
	if (mant > ~0ULL / mul)
		return -1;
	snprintf(out, n, "%llu", (mant * mul + scale / 2) / scale);
	return 1;
}

/*
 * The kernel's own validation: knob_apply(), as the boot line.  A refusal
 * stops the run: one line, the kernel's reason and range without its
 * "; keeping OLD" (nothing runs with the old value), then exit 2.
 */
void apply_knob(const char *name, const char *value)
{
	char ns[32], shown[128];
	int t = knob_time(name, value, ns, sizeof(ns));

	if (t < 0) {
		fprintf(stderr, "sim: %s=%s: not a time (expected ns, or a number with ns, us, "
			"ms or s, e.g. 750us); nothing was run\n", name, value);
		exit(2);
	}
	capture_reset();
	if (knob_apply(name, t ? ns : value)) {
		char *msg = strstr(capture_buf, "] "), *cut;	/* after printk's time */
		size_t l;

		msg = msg ? msg + 2 : capture_buf;
		if (!strncmp(msg, "cmdline: ", 9))
			msg += 9;
		cut = strstr(msg, "; keeping ");
		if (!cut)
			cut = strstr(msg, "; passed to init");
		if (cut)
			*cut = '\0';
		l = strlen(msg);
		while (l && msg[l - 1] == '\n')
			msg[--l] = '\0';
		if (t && !strncmp(msg, name, strlen(name))) {	/* name the value as given */
			snprintf(shown, sizeof(shown), "%s=%s", name, ns);
			if (!strncmp(msg, shown, strlen(shown))) {
				fprintf(stderr, "sim: %s=%s (%s ns)%s; nothing was run\n", name, value,
					ns, msg + strlen(shown));
				exit(2);
			}
		}
		fprintf(stderr, "sim: %s; nothing was run\n", l ? msg : "knob refused");
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

