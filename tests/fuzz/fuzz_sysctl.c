/*
 * tests/fuzz/fuzz_sysctl.c - libFuzzer target: the scheduler's run-time
 * knob writers, /proc/sys/kernel/sched_* and
 * /sys/kernel/debug/sched_features (kernel/fs/pseudo.c's write path into
 * kernel/cmdline.c's knob_write and the knobs' hooks in kernel/sched, all
 * unchanged; tests/host/sched/fake_arch.c and pseudo_host.c around them).
 *
 * Input: one byte for the class chosen at boot (bit 0: EEVDF, i.e.
 * sched_preset=linux-6.12, else CFS: the knob sets differ), then up to 32
 * writes, each a file byte, a length byte and that many bytes.  The file byte:
 * bit 6 sched_features, else bits 0-5 an entry of the /proc/sys/kernel
 * listing (modulo its length); bit 7 takes the rest of the input (past the
 * 256 bytes a write may bring).  After every write:
 *   - it returned its length or -EINVAL (-EBUSY: sched_rt_runtime_us=0,
 *     as Linux's sched_rt_handler), nothing else;
 *   - a refused write changed no knob (every knob's shown value compared);
 *   - every knob is within its range (a bool 0/1, a number within
 *     [min, max], an enum a choice, a string terminated), whatever the
 *     ->changed hooks derived;
 *   - the schedstats key (the patched branches) is what sched_schedstats
 *     shows;
 *   - the file reads back as one line, and the read text is accepted as a
 *     write: for sched_features always, leaving every feature as it was
 *     (its own read format round-trips); for a plain knob whenever its
 *     check hook takes writes at all.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/cmdline.h>
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/sched.h>
#include <kernel/trace.h>
#include <kernel/jump_label.h>
#include "../../kernel/sched/sched.h"	/* the rt throttling knobs, this_rq()->rt */
#include "pseudo_host.h"

extern struct static_key sched_schedstats_key;	/* kernel/sched/tunables.c */
extern int sysctl_sched_schedstats;

#define KNOB_DIR	"proc/sys/kernel/"
#define FEATURES	"sys/kernel/debug/sched_features"
#define MAX_KNOBS	64
#define VAL_MAX		128		/* a knob's shown value (pseudo.c's 128-byte snapshot) */
#define READ_MAX	4096		/* a generated file's buffer (pseudo.c's SHOW_SIZE) */
#define WRITE_MAX	256		/* bytes a write may bring (pseudo.c's) */
#define MAX_RECORDS	32		/* writes an input makes: each is checked whole */

/* The tracer is not in this image (trace_on 0): pseudo.c never asks it. */
int trace_on;
int trace_fs_lookup(const char *path, struct fs_node *n) { abort(); }

int trace_fs_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	abort();
}

static char paths[MAX_KNOBS][80];
static int nr_paths;
static char before[MAX_KNOBS * 2][VAL_MAX], after[MAX_KNOBS * 2][VAL_MAX];

/* The knobs' files, as the directory lists them. */
static void list_files(void)
{
	char name[64];
	u32 mode, ino;

	nr_paths = 0;
	/* the knob files: not sched_domain/, whose directory at one CPU holds cpu0 alone, empty */
	for (int i = 0; nr_paths < MAX_KNOBS &&
	     pseudo_dir_entry("proc/sys/kernel", i, name, sizeof(name), &mode, &ino); i++)
		if (!S_ISDIR_MODE(mode))
			snprintf(paths[nr_paths++], sizeof(paths[0]), KNOB_DIR "%s", name);
	if (!nr_paths)
		abort();
}

static void snapshot(char (*vals)[VAL_MAX])
{
	int i = 0;

	if (__stop_knobs - __start_knobs > MAX_KNOBS * 2)
		abort();
	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)
		knob_show(k, vals[i++], VAL_MAX);
}

/* Every knob shows what it showed at snapshot(before). */
static void check_unchanged(void)
{
	snapshot(after);
	for (int i = 0; i < __stop_knobs - __start_knobs; i++)
		if (strcmp(before[i], after[i]))
			abort();
}

static int in_range(const struct knob *k)
{
	int n = 0;

	switch (k->type) {
	case KNOB_BOOL:
		return *(int *)k->ptr == 0 || *(int *)k->ptr == 1;
	case KNOB_INT:
		return *(s32 *)k->ptr >= k->min && *(s32 *)k->ptr <= k->max;
	case KNOB_UINT:
		return *(u32 *)k->ptr >= (u64)k->min && *(u32 *)k->ptr <= (u64)k->max;
	case KNOB_U64:
		return *(u64 *)k->ptr >= (u64)k->min && *(u64 *)k->ptr <= (u64)k->max;
	case KNOB_STRING:
		return memchr(k->ptr, 0, (size_t)k->max) != NULL;
	case KNOB_ENUM:
		while (k->choices[n])
			n++;
		return *(int *)k->ptr >= 0 && *(int *)k->ptr < n;
	case KNOB_CUSTOM:
		break;
	}
	return 1;
}

static void check_ranges(void)
{
	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)
		if (!in_range(k))
			abort();
	if (sched_schedstats_key.enabled != sysctl_sched_schedstats)
		abort();
	/* rt throttling (2.6.35's sched_rt_handler): period > 0, runtime
	 * not 0 (any other value: above the period, or negative for no
	 * limit), and the rt_rq follows the knob */
	if (sysctl_sched_rt_period <= 0 || !sysctl_sched_rt_runtime ||
	    this_rq()->rt.rt_runtime != sched_rt_runtime())
		abort();
}

/*
 * sched_features' read text, written back, leaves every feature as it is.
 * Word by word, as Linux's file takes them (one name a write): the whole
 * list (up to 447 bytes under EEVDF) is longer than the 256 bytes a write
 * may bring; when it fits, the whole line too.
 */
static void check_features_words(const char *text)
{
	size_t n = strlen(text);

	snapshot(before);
	if (pseudo_write_words(FEATURES, text))
		abort();
	check_unchanged();
	if (n <= WRITE_MAX && pseudo_write(FEATURES, O_WRONLY, text, n) != (long)n)
		abort();
	check_unchanged();
}

/* PATH reads as one line, and that line is accepted back. */
static void check_read_back(const char *path)
{
	static char text[READ_MAX];
	const struct knob *k;
	long n = pseudo_read(path, text, sizeof(text));

	if (n <= 0 || text[n - 1] != '\n' || memchr(text, '\n', (size_t)n - 1))
		abort();
	if (!strcmp(path, FEATURES)) {
		check_features_words(text);
		return;
	}
	k = knob_find(path + strlen(KNOB_DIR));
	if (!k || k->type == KNOB_CUSTOM || (k->check && k->check(k) < 0))
		return;
	if (pseudo_write(path, O_WRONLY, text, (size_t)n) != n)
		abort();
}

static void one_write(const char *path, const uint8_t *data, size_t len)
{
	long r;

	snapshot(before);
	r = pseudo_write(path, O_WRONLY, data, len);
	if (r != (long)len && r != -EINVAL && r != -EBUSY)
		abort();
	if (r < 0)
		check_unchanged();
	check_ranges();
	check_read_back(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 1;

	if (size < 1)
		return 0;
	knobs_init();			/* as at boot: the knobs, then the runqueue */
	if (data[0] & 1 && knob_apply("sched_preset", "linux-6.12"))
		abort();
	sched_init();
	list_files();
	check_ranges();
	for (int n = 0; n < MAX_RECORDS && i + 2 <= size; n++) {
		const char *path = data[i] & 0x40 ? FEATURES : paths[(data[i] & 0x3f) % nr_paths];
		size_t len = data[i] & 0x80 ? size - i - 2 : data[i + 1];

		len = len < size - i - 2 ? len : size - i - 2;
		one_write(path, data + i + 2, len);
		i += 2 + len;
	}
	return 0;
}
