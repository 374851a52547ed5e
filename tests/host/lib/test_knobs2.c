/*
 * tests/host/lib/test_knobs2.c - knobs defined in a second translation
 * unit: the "knobs" section must gather entries from every object file.
 */
#include <kernel/cmdline.h>
#include <kernel/string.h>

int aaa_first = 3;		/* sorts first in knobs_print() */
char zz_run[32];		/* quiet: never listed */
int feat_mask;			/* CUSTOM: "A", "B", "A,B" or "none" */

DEFINE_KNOB_INT(aaa_first, aaa_first, 3, 0, 9, "first by name");

__KNOB(zz_run) = { .name = "zz_run", .type = KNOB_STRING, .ptr = zz_run,
		   .max = sizeof(zz_run), .def_str = "", .help = "quiet knob",
		   .flags = KNOB_F_QUIET };

static int feat_set(const struct knob *k, const char *val)
{
	if (!strcmp(val, "none"))
		feat_mask = 0;
	else if (!strcmp(val, "A"))
		feat_mask = 1;
	else if (!strcmp(val, "B"))
		feat_mask = 2;
	else if (!strcmp(val, "A,B"))
		feat_mask = 3;
	else
		return -1;
	return 0;
}

static void feat_show(const struct knob *k, char *buf, size_t len)
{
	static const char *const names[] = { "none", "A", "B", "A,B" };

	strlcpy(buf, names[feat_mask & 3], len);
}

__KNOB(features) = { .name = "features", .type = KNOB_CUSTOM, .ptr = &feat_mask,
		     .def_str = "A", .expect = "none, A, B or A,B",
		     .set = feat_set, .show = feat_show, .help = "custom knob" };
