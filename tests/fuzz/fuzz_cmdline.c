/*
 * tests/fuzz/fuzz_cmdline.c - libFuzzer target: the boot-line parser
 * (kernel/cmdline.c, unchanged) with every scheduler knob registered (the
 * kernel/sched sources and tests/host/sched/fake_arch.c, as the
 * sched_knobs host test links them).
 *
 * Each input is a boot line (cut at the first NUL): parsed from the
 * defaults, then every knob is shown (knob_show must always produce a
 * NUL-terminated value; knob_apply accepts a plain knob's back) and the unknown
 * words are walked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/cmdline.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	const char **words;
	char val[256];
	int n;

	memcpy(line, data, size);
	line[size] = 0;
	knobs_init();
	cmdline_parse(line);
	n = cmdline_unknown(&words);
	if (n < 0 || n > CMDLINE_MAX_UNKNOWN)
		abort();
	for (int i = 0; i < n; i++)
		if (!words[i] || strlen(words[i]) > size)
			abort();
	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++) {
		memset(val, 'x', sizeof(val));
		knob_show(k, val, sizeof(val));
		if (!memchr(val, 0, sizeof(val)))
			abort();
		/* A shown plain value must be accepted back (a custom knob's
		 * text is for people: sched_features shows "0x3C6F (default)"),
		 * unless the knob refuses every write now (its check hook: the
		 * knob of the scheduler class that is not running). */
		if (k->type != KNOB_CUSTOM && (!k->check || k->check(k) == 0) &&
		    knob_apply(k->name, val) != 0)
			abort();
	}
	free(line);
	return 0;
}
