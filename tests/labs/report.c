/*
 * tests/labs/report.c - what a failed lab check prints (lab.h): the
 * scenario in words, what was checked, expected and got, and where.
 * tools/lab reads the block back (the lines between cmocka's "[ RUN ]"
 * and "[  FAILED  ]") and adds how to run the check alone.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lab.h"

static char scenario[1024];

void lab_scenario(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(scenario, sizeof(scenario), fmt, ap);
	va_end(ap);
}

void lab_scenario_clear(void)
{
	scenario[0] = '\0';
}

void lab_fail(const char *file, int line, const char *what, const char *want,
	      const char *got)
{
	printf("  scenario: %s\n", scenario[0] ? scenario : "(the check states none)");
	printf("  check:    %s\n", what);
	printf("  expected: %s\n", want);
	printf("  got:      %s\n", got);
	printf("  at:       %s:%d\n", file, line);
	fflush(stdout);
	_fail(file, line);
	abort();	/* _fail does not return inside a test */
}

void lab_eq(const char *file, int line, const char *what, long long want, long long got)
{
	static int recording = -1;
	char w[32], g[32];

	if (recording < 0)
		recording = getenv("LAB_RECORD") && *getenv("LAB_RECORD") == '1';
	if (recording) {
		printf("  record: %s:%d: %lld%s\n", file, line, got, got == want ? "" : " (differs)");
		return;
	}
	if (got == want)
		return;
	snprintf(w, sizeof(w), "%lld", want);
	snprintf(g, sizeof(g), "%lld", got);
	lab_fail(file, line, what, w, g);
}

static void name_of(char *buf, size_t len, struct sched_entity *se)
{
	if (!se)
		snprintf(buf, len, "none (NULL)");
	else
		snprintf(buf, len, "task '%s'", task_of(se)->comm);
}

void lab_fail_task(const char *file, int line, const char *what, struct sched_entity *want,
		   struct sched_entity *got)
{
	char w[64], g[64];

	name_of(w, sizeof(w), want);
	name_of(g, sizeof(g), got);
	lab_fail(file, line, what, w, g);
}
