/*
 * kernel/cmdline.h - the boot command-line knob registry.
 *
 * Every subsystem declares its boot parameters with one DEFINE_KNOB_* line.
 * The entries land in the linker section "knobs" (bounded by __start_knobs /
 * __stop_knobs, which GNU ld provides on the host and linker.ld in the
 * kernel), so no central list has to be edited.
 *
 * Spellings accepted on the command line, applied strictly left to right
 * (a later word overrides an earlier one, so explicit knobs after a
 * sched_preset= win):
 *	NAME=VALUE			the bare name
 *	sysctl.kernel.NAME=VALUE	the Linux >= 5.8 sysctl spelling
 *	NAME				a bare flag: bool knobs only, means 1
 *	NAME="a value with spaces"	quotes are stripped
 *
 * Bad input never stops the boot: one line names the knob, the value and
 * the accepted range, and the previous value is kept, e.g.
 *	cmdline: sched_latency_ns=abc: invalid (expected an integer 100000..1000000000); keeping 6000000
 *	cmdline: unknown parameter 'sched_latncy_ns' (did you mean sched_latency_ns?); passed to init's programs
 *	cmdline: passed to init's programs: mode=thread load=kbuild:10
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <kernel/types.h>
#include <kernel/compiler.h>

enum knob_type {
	KNOB_BOOL,	/* int: 0/1; also y/n, yes/no, on/off, true/false */
	KNOB_INT,	/* s32 in [min, max] */
	KNOB_UINT,	/* u32 in [min, max] */
	KNOB_U64,	/* u64 in [min, max] (min/max given as s64, >= 0) */
	KNOB_STRING,	/* char[max]: max is the buffer size including NUL */
	KNOB_ENUM,	/* int index into choices[] (NULL-terminated) */
	KNOB_CUSTOM,	/* parse with ->set, print with ->show */
};

struct knob;

/* Parse VAL into the knob.  Return 0, or -1 and leave the value unchanged
 * (the registry prints the "invalid (expected ...)" line), or KNOB_REFUSED
 * after printing a line of its own (a value the knob takes only at boot),
 * or KNOB_BUSY after printing one: a value Linux's sysctl refuses with
 * EBUSY, not EINVAL (sched_rt_runtime_us=0). */
typedef int (*knob_set_fn)(const struct knob *k, const char *val);
#define KNOB_REFUSED	(-2)
#define KNOB_BUSY	(-16)	/* -EBUSY */
/* Write the current value as text (no newline). */
typedef void (*knob_show_fn)(const struct knob *k, char *buf, size_t len);
/* Called after every successful write (Linux's sysctl proc_handler role). */
typedef void (*knob_changed_fn)(const struct knob *k);
/* Before a write: return -1 (after printing one line) to refuse it, e.g.
 * a knob of a scheduler that is not the one running. */
typedef int (*knob_check_fn)(const struct knob *k);

struct knob {
	const char *name;		/* Linux sysctl name where one exists */
	enum knob_type type;
	void *ptr;			/* the variable */
	s64 def;			/* default (number, enum index, or 0) */
	s64 min, max;			/* accepted range; STRING: max = size */
	const char *help;		/* one line, with units */
	const char *const *choices;	/* KNOB_ENUM names */
	const char *def_str;		/* KNOB_STRING / KNOB_CUSTOM default text */
	const char *expect;		/* KNOB_CUSTOM: what is accepted */
	knob_set_fn set;		/* KNOB_CUSTOM */
	knob_show_fn show;		/* KNOB_CUSTOM */
	knob_changed_fn changed;	/* optional, any type */
	knob_check_fn check;		/* optional, any type */
	int flags;			/* KNOB_F_* */
	const char *bare;		/* optional: what a bare NAME (no =) means */
};

#define KNOB_F_QUIET	1	/* not listed in the boot table (e.g. run=) */

#define __KNOB(id) \
	static const struct knob __knob_##id __used __section("knobs") \
	__aligned(sizeof(void *))

#define DEFINE_KNOB_BOOL(id, var, d, h) \
	__KNOB(id) = { .name = #id, .type = KNOB_BOOL, .ptr = &(var), \
		       .def = (d), .min = 0, .max = 1, .help = (h) }
#define DEFINE_KNOB_INT(id, var, d, lo, hi, h) \
	__KNOB(id) = { .name = #id, .type = KNOB_INT, .ptr = &(var), \
		       .def = (d), .min = (lo), .max = (hi), .help = (h) }
#define DEFINE_KNOB_UINT(id, var, d, lo, hi, h) \
	__KNOB(id) = { .name = #id, .type = KNOB_UINT, .ptr = &(var), \
		       .def = (d), .min = (lo), .max = (hi), .help = (h) }
#define DEFINE_KNOB_U64(id, var, d, lo, hi, h) \
	__KNOB(id) = { .name = #id, .type = KNOB_U64, .ptr = &(var), \
		       .def = (d), .min = (lo), .max = (hi), .help = (h) }
#define DEFINE_KNOB_STRING(id, buf, d, h) \
	__KNOB(id) = { .name = #id, .type = KNOB_STRING, .ptr = (buf), \
		       .def_str = (d), .max = sizeof(buf), .help = (h) }
#define DEFINE_KNOB_ENUM(id, var, d, names, h) \
	__KNOB(id) = { .name = #id, .type = KNOB_ENUM, .ptr = &(var), \
		       .def = (d), .choices = (names), .help = (h) }

/* Attach a ->changed hook: DEFINE_KNOB_UINT_HOOK(..., fn) etc. are spelled
 * out with designated initialisers where needed; see kernel/sched/. */

extern const struct knob __start_knobs[], __stop_knobs[];

/* Set every knob to its default.  Called once before cmdline_parse(). */
void knobs_init(void);

/* Find a knob by bare name or by "sysctl.kernel.NAME"; NULL if none. */
const struct knob *knob_find(const char *name);

/*
 * Apply one "NAME=VALUE" setting (VALUE may be NULL for a bare flag).
 * Prints the one-line error on failure.  Returns 0 on success, -1 if the
 * knob is unknown or the value was refused (KNOB_BUSY if refused so).
 */
int knob_apply(const char *name, const char *value);
/* The knob whose name NAME most likely misspells, or NULL (kernel/cmdline_suggest.c). */
const struct knob *knob_suggest(const char *name);

/*
 * The same for a run-time write (a /proc/sys file): SRC starts the error
 * line ("sysctl: sched_latency_ns=5: out of range (expected ...); keeping
 * 6000000").  0, or -1 (KNOB_BUSY: Linux's EBUSY) with nothing changed.
 */
int knob_write(const struct knob *k, const char *value, const char *src);

/* True while knob_write() runs: a ->set or ->check hook tells a run-time
 * write from the boot line (where, e.g., the scheduling class is chosen). */
bool knob_at_runtime(void);

/*
 * Parse a whole command line in place (it is modified: words are split and
 * NUL-terminated).  Unknown words are reported and ignored.  Returns the
 * number of errors (unknown or refused words).
 */
int cmdline_parse(char *line);

/*
 * Before cmdline_parse(): the boot line was FULL_LEN bytes but only
 * strlen(LINE) fit and NEXT is the first byte that did not.  If it was
 * cut, print one line (the length, the limit, what is dropped) and end
 * LINE before the word the cut fell in.  Returns the bytes dropped.
 */
size_t cmdline_clip(char *line, size_t full_len, char next);

/* Write a knob's current value as text. */
void knob_show(const struct knob *k, char *buf, size_t len);

/* Print "name = value" for every non-quiet knob, sorted by name. */
void knobs_print(void);

/*
 * The words of the last cmdline_parse() that named no knob, plus every word
 * after a bare "--", in order, as written ("foo", "foo=bar"; quotes
 * removed): Linux hands such words to init.  At most CMDLINE_MAX_UNKNOWN
 * are kept; the first one beyond is named in one line.  Sets *words to an array of pointers into the parsed line
 * (valid while that line lives) and returns how many there are.
 */
#define CMDLINE_MAX_UNKNOWN	32
int cmdline_unknown(const char ***words);

#endif
