/*
 * user/preset.c - switch the whole scheduler configuration to a preset of
 * tools/presets at run time, as a user would with sysctl -w and echo:
 *
 *	preset			list the presets (* marks the running one)
 *	preset NAME		switch to NAME (or its alias) and print every
 *				value that changed, "kernel.X: OLD -> NEW"
 *
 * The table is tools/presets itself, generated at build time
 * (tools/genpresets --user > build/gen/user_presets.h), like the kernel's
 * sched_presets[]: for each CFS preset the files to write, in the order
 * sched_preset_apply() sets the values - sched_latency_ns,
 * sched_min_granularity_ns, sched_wakeup_granularity_ns (each write runs
 * Linux's sched_proc_update_handler, which recomputes sched_nr_latency),
 * sched_nr_latency as compiled, the feature line, then the variant knobs.
 * A write goes to /proc/sys/kernel/NAME; features go one word per write
 * to /sys/kernel/debug/sched_features, as Linux's file takes them, and
 * only the bits that differ.  Last the name goes to
 * /proc/sys/kernel/sched_preset: the kernel applies the preset itself
 * there (nothing changes any more by then) and labels what follows (the
 * RESULT lines' "preset").  Then every file is read back: the changes are
 * printed in that order, and a value that is not the table's is an error.
 *
 * The class is chosen at boot (CFS, or Linux 6.12's EEVDF for linux-6.12):
 * a preset of the other class prints one line saying to reboot with
 * sched_preset=NAME and changes nothing.  The EEVDF preset under EEVDF is
 * the kernel's own (kernel/sched/eevdf_tunables.c): only the name is
 * written, and the base slice and features are shown before and after.
 *
 * Exit status: 0 done (or listed), 1 a write failed, a value came back
 * different, or the preset needs a reboot; 2 usage or an unknown name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gen/user_syscalls.h>

#define SYSCTL_DIR	"/proc/sys/kernel/"
#define FEATURES	"/sys/kernel/debug/sched_features"
#define STEPS_MAX	9
#define VALUE_MAX	768

struct step {
	const char *file;	/* under /proc/sys/kernel, or "sched_features" */
	const char *value;	/* what to write; NULL: only shown (EEVDF) */
};

struct preset {
	const char *name, *alias, *desc;
	int eevdf;		/* class=eevdf: a boot-time choice */
	struct step steps[STEPS_MAX];
};

static const struct preset presets[] = {
#include <gen/user_presets.h>
};
#define NR_PRESETS	(sizeof(presets) / sizeof(presets[0]))

static const char *path_of(const char *file, char *buf, size_t size)
{
	if (!strcmp(file, "sched_features"))
		return FEATURES;
	snprintf(buf, size, SYSCTL_DIR "%s", file);
	return buf;
}

/* FILE's text without its newline into BUF; 0 or -errno. */
static long read_value(const char *file, char *buf, size_t size)
{
	char path[96];
	long fd = sys_open((long)path_of(file, path, sizeof(path)), 0 /* O_RDONLY */, 0), n;

	if (fd < 0)
		return fd;
	n = sys_read(fd, (long)buf, size - 1);
	sys_close(fd);
	if (n < 0)
		return n;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

static long write_value(const char *file, const char *value)
{
	char path[96], line[VALUE_MAX + 2];
	long fd = sys_open((long)path_of(file, path, sizeof(path)), 1 /* O_WRONLY */, 0), n;
	int len = snprintf(line, sizeof(line), "%s\n", value);

	if (fd < 0)
		return fd;
	n = sys_write(fd, (long)line, len);
	sys_close(fd);
	return n < 0 ? n : 0;
}

static const struct preset *lookup(const char *name)
{
	for (size_t i = 0; i < NR_PRESETS; i++)
		if (!strcmp(name, presets[i].name) || (presets[i].alias && !strcmp(name, presets[i].alias)))
			return &presets[i];
	return NULL;
}

/* The Nth blank-separated word of LIST into W ("" past the end). */
static void word(const char *list, int n, char *w, size_t size)
{
	size_t len;

	for (;;) {
		while (*list == ' ')
			list++;
		len = strcspn(list, " ");
		if (!n-- || !len)
			break;
		list += len;
	}
	if (len >= size)
		len = size - 1;
	memcpy(w, list, len);
	w[len] = '\0';
}

/* Print FILE's change from OLD to NEW, if any; how many lines. */
static int print_change(const char *file, const char *old, const char *new)
{
	char a[40], b[40];
	int n = 0;

	if (!strcmp(old, new))
		return 0;
	if (strcmp(file, "sched_features")) {
		printf("kernel.%s: %s -> %s\n", file, old, new);
		return 1;
	}
	for (int i = 0;; i++) {		/* one line per feature bit that moved */
		word(old, i, a, sizeof(a));
		word(new, i, b, sizeof(b));
		if (!a[0] && !b[0])
			return n;
		if (strcmp(a, b) && ++n)
			printf("sched_features: %s -> %s\n", a, b);
	}
}

/* Write the feature line WANT over HAVE: one word per bit that differs. */
static long write_features(const char *have, const char *want)
{
	char a[40], b[40];
	long err;

	for (int i = 0;; i++) {
		word(have, i, a, sizeof(a));
		word(want, i, b, sizeof(b));
		if (!b[0])
			return 0;
		if (strcmp(a, b) && (err = write_value("sched_features", b)))
			return err;
	}
}

/* Every preset; those of the other class than CUR's need a reboot. */
static void list(const char *running, const struct preset *cur)
{
	printf("presets (tools/presets; * = running, `preset NAME` switches):\n");
	for (size_t i = 0; i < NR_PRESETS; i++) {
		const struct preset *p = &presets[i];
		printf("%c %-20s %-5s %s", strcmp(running, p->name) ? ' ' : '*', p->name,
		       p->eevdf ? "EEVDF" : "CFS", p->desc);
		if (cur && p->eevdf != cur->eevdf)
			printf(" [reboot with sched_preset=%s]", p->name);
		printf("\n");
	}
}

static void accepted(FILE *f)
{
	for (size_t i = 0; i < NR_PRESETS; i++)
		fprintf(f, "%s%s", i ? "|" : "", presets[i].name);
	for (size_t i = 0, n = 0; i < NR_PRESETS; i++)
		if (presets[i].alias)
			fprintf(f, "%s%s", n++ ? "|" : ", or the aliases ", presets[i].alias);
}

static int fail(const char *what, const char *file, long err)
{
	fprintf(stderr, "preset: cannot %s %s: %s\n", what, file, strerror((int)-err));
	return 1;
}

static int switch_to(const struct preset *p, const struct preset *cur, const char *running)
{
	static char old[STEPS_MAX][VALUE_MAX], now[VALUE_MAX];
	const struct step *s;
	long err;
	int bad = 0, changed = 0;

	if (p->eevdf != cur->eevdf) {
		printf("preset: %s runs the %s class, and the class is chosen at boot (%s runs %s): "
		       "reboot with sched_preset=%s; nothing changed\n", p->name, p->eevdf ? "EEVDF" : "CFS",
		       running, cur->eevdf ? "EEVDF" : "CFS", p->name);
		return 1;
	}
	for (s = p->steps; s < p->steps + STEPS_MAX && s->file; s++)
		if ((err = read_value(s->file, old[s - p->steps], VALUE_MAX)))
			return fail("read", s->file, err);
	for (s = p->steps; s < p->steps + STEPS_MAX && s->file && s->value; s++) {
		if (!strcmp(s->file, "sched_features"))
			err = write_features(old[s - p->steps], s->value);
		else
			err = write_value(s->file, s->value);
		if (err)
			return fail("write", s->file, err);
	}
	if ((err = write_value("sched_preset", p->name)))
		return fail("write", "sched_preset", err);
	for (s = p->steps; s < p->steps + STEPS_MAX && s->file; s++) {
		if ((err = read_value(s->file, now, sizeof(now))))
			return fail("read", s->file, err);
		changed += print_change(s->file, old[s - p->steps], now);
		if (s->value && strcmp(now, s->value)) {
			fprintf(stderr, "preset: kernel.%s is %s, expected %s\n", s->file, now, s->value);
			bad = 1;
		}
	}
	if (!print_change("sched_preset", running, p->name) && !changed)
		printf("preset: %s: nothing to change\n", p->name);
	return bad;
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: preset [NAME]\nWithout NAME: list the scheduler presets and mark the running one; with NAME:\nswitch to it at run time (docs/VARIANTS.md).\n");
	char running[64];
	const struct preset *p, *cur;
	long err;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: preset [NAME]   (no NAME: list the presets)\n");
		return 2;
	}
	if ((err = read_value("sched_preset", running, sizeof(running))))
		return fail("read", SYSCTL_DIR "sched_preset", err);
	cur = lookup(running);
	if (argc == 1) {
		list(running, cur);
		return 0;
	}
	if (!(p = lookup(argv[1]))) {
		fprintf(stderr, "preset: unknown preset '%s' (accepted: ", argv[1]);
		accepted(stderr);
		fprintf(stderr, ")\n");
		return 2;
	}
	if (!cur) {
		fprintf(stderr, "preset: the running preset '%s' is not in tools/presets\n", running);
		return 1;
	}
	return switch_to(p, cur, running);
}
