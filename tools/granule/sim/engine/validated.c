/*
 * tools/granule/sim/engine/validated.c - what `tools/sim experiment` was held to QEMU
 * at, and one line of warning for a run outside it.
 *
 * A run's settings are NAME VALUE pairs: the experiment's own (hz, mode,
 * load, period_ms, notify_pad_us, slice_us) and the scheduler's effective
 * tunables as sched_print_tunables() prints them ("kernel." dropped), so a
 * knob given on the line and the same value set by a preset are one thing.
 * `--settings` prints them; `tools/sim calibrate` runs every configuration
 * of the cross-validation (tools/granule/sim/engine/reference.json, offgrid.json) with
 * it and writes their union to tools/granule/sim/engine/validated:
 *	# comment
 *	NAME LO..HI		a number in [LO, HI]
 *	NAME WORD WORD ...	each of the value's words one of these (a
 *				feature list is checked word by word)
 * A setting of the run that the file does not name, or whose value lies
 * outside its line, is named in the warning with the validated range.
 * The figures are still printed: the warning says only that no QEMU run
 * stands behind them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validated.h"
#include "../../tests/host/sched/fake.h"
#include "../../kernel/sched/sched.h"

#define MAX_SETTINGS	32
#define LINE		1024

static struct { char name[48]; char value[LINE]; } set[MAX_SETTINGS];
static int nset;

static void add(const char *name, const char *value)
{
	if (nset == MAX_SETTINGS)
		return;
	snprintf(set[nset].name, sizeof(set[nset].name), "%s", name);
	snprintf(set[nset].value, sizeof(set[nset].value), "%s", value);
	nset++;
}

void settings_collect(const struct run_settings *r)
{
	char buf[32], *save, *line;

	nset = 0;
	snprintf(buf, sizeof(buf), "%u", HZ);
	add("hz", buf);
	add("mode", r->thread_mode ? "thread" : "signal");
	add("load", r->load);
	snprintf(buf, sizeof(buf), "%ld", r->period_ms);
	add("period_ms", buf);
	snprintf(buf, sizeof(buf), "%ld", r->pad_us);
	add("notify_pad_us", buf);
	snprintf(buf, sizeof(buf), "%ld", r->slice_us);
	add("slice_us", buf);
	if (r->cpus > 1) {		/* no QEMU run at several CPUs stands behind it yet */
		snprintf(buf, sizeof(buf), "%d", r->cpus);
		add("cpus", buf);
	}
	capture_reset();
	sched_print_tunables();
	for (line = strtok_r(capture_buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strstr(line, " = ");

		if (!eq || !strcmp(line, "sched_class") || !strncmp(line, "sched_class ", 12))
			continue;			/* a description, not a setting */
		*eq = '\0';
		add(strncmp(line, "kernel.", 7) ? line : line + 7, eq + 3);
	}
}

void settings_print(void)
{
	for (int i = 0; i < nset; i++)
		printf("%s %s\n", set[i].name, set[i].value);
}

/* VALUE against a file line's RULE ("LO..HI" or words): 1 if within. */
static int within(const char *value, const char *rule)
{
	char v[LINE], *save, *w;
	const char *dots = strstr(rule, "..");

	if (dots && !strchr(rule, ' ')) {
		char *end;
		double x = strtod(value, &end);

		return end != value && !*end && x >= strtod(rule, NULL) && x <= strtod(dots + 2, NULL);
	}
	snprintf(v, sizeof(v), "%s", value);
	for (w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t l = strlen(w);
		const char *p = rule;

		while ((p = strstr(p, w)) && !((p == rule || p[-1] == ' ') && (!p[l] || p[l] == ' ')))
			p += l;
		if (!p)
			return 0;
	}
	return 1;
}

/* The words of VALUE not in RULE (a feature list: only those that differ). */
static void outside_words(char *out, size_t n, const char *value, const char *rule)
{
	char v[LINE], *save, *w;
	size_t used = 0;

	out[0] = '\0';
	snprintf(v, sizeof(v), "%s", value);
	for (w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!within(w, rule) && used < n)
			used += (size_t)snprintf(out + used, n - used, "%s%s", used ? "," : "", w);
}

void validated_check(const char *path)
{
	char buf[LINE + 64], rules[MAX_SETTINGS][LINE], msg[2048], words[LINE];
	int have[MAX_SETTINGS] = { 0 }, bad = 0;
	size_t used = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "sim: warning: %s is missing: this run's settings are not checked "
			"against what was validated\n", path);
		return;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *sp = strchr(buf, ' ');

		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == '#' || !sp)
			continue;
		*sp = '\0';
		for (int i = 0; i < nset; i++)
			if (!strcmp(set[i].name, buf)) {
				snprintf(rules[i], sizeof(rules[i]), "%s", sp + 1);
				have[i] = 1;
			}
	}
	fclose(f);
	msg[0] = '\0';
	for (int i = 0; i < nset && used < sizeof(msg); i++) {
		const char *sep = bad++ ? "; " : "";

		if (!have[i])
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s=%s (never validated)",
						 sep, set[i].name, set[i].value);
		else if (within(set[i].value, rules[i]))
			bad--;
		else if (strchr(set[i].value, ' ')) {	/* a feature list: the words that differ */
			outside_words(words, sizeof(words), set[i].value, rules[i]);
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s %s (validated: only "
						 "the validated presets' own features)", sep, set[i].name, words);
		} else
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s=%s (validated: %s)",
						 sep, set[i].name, set[i].value, rules[i]);
	}
	if (bad)
		fprintf(stderr, "sim: warning: outside what was validated against QEMU "
			"(docs/EXPLORE.md, \"How close\"): %s\n", msg);
}
