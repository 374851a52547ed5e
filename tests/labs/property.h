/*
 * tests/labs/property.h - the labs' property tests: the student's function
 * and the reference (the repository's, renamed ref_*: tests/labs/rules.mk)
 * run side by side on many random cases; the first case on which they
 * differ is shrunk to a small one and printed in words.
 *
 * A lab describes its cases with struct prop_lab (prop_NAME.c):
 *   generate  fills a case from the random stream (fixed seed: every run
 *             sees the same cases); its values lean on the edges on
 *             purpose (nice -20 and 19, deltas past 2^32 ns, keys on a
 *             comparison's boundary, the 2^64 wrap, empty and one-entity
 *             queues, equal keys);
 *   run       builds the case from scratch and calls the student's
 *             function (reference = 0) or the reference's (1), recording
 *             what it observes (struct prop_obs, in a fixed order);
 *   shrink    the K-th simpler variant of a case (a task fewer, a value
 *             nearer 0 or nice 0, a feature off), 0 when there is none;
 *   describe  the case in words.
 * prop_check() runs the cases, shrinks the first that differs while the
 * variant still differs, prints it and fails the check (report.c).
 */
#ifndef TESTS_LABS_PROPERTY_H
#define TESTS_LABS_PROPERTY_H

#include "lab.h"

/* splitmix64: a fixed seed gives the same cases everywhere */
struct prop_rng {
	u64 s;
};
u64 prop_u64(struct prop_rng *r);
u64 prop_below(struct prop_rng *r, u64 n);		/* [0, n) */
s64 prop_range(struct prop_rng *r, s64 lo, s64 hi);	/* [lo, hi] */
int prop_chance(struct prop_rng *r, int percent);
int prop_nice(struct prop_rng *r);			/* -20..19, ends and 0 often */
/* one of N values, or (one time in four) a random one in [lo, hi] */
s64 prop_edge(struct prop_rng *r, const s64 *edges, int n, s64 lo, s64 hi);

/* What one run saw, in order: numbers, yes/no answers, entities by name. */
#define PROP_MAX_OBS	64
enum prop_kind { OBS_NUM, OBS_YESNO, OBS_TASK };
struct prop_obs {
	int n;
	struct {
		char what[96];
		s64 v;
		enum prop_kind kind;
	} o[PROP_MAX_OBS];
};
void obs_num(struct prop_obs *o, s64 v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void obs_yesno(struct prop_obs *o, int v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* entity I of the case by name (NAMES[I]), -1 for none */
void obs_task(struct prop_obs *o, int i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A growing line of text (describe). */
struct prop_text {
	char buf[2048];
	size_t len;
};
void prop_say(struct prop_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "min_vruntime + 3 ms", "min_vruntime - 1 ns": an offset in words */
const char *prop_offset(char *buf, size_t len, s64 ns);

struct prop_lab {
	const char *lab;
	size_t size;			/* of one case */
	int cases;
	u64 seed;
	void (*generate)(struct prop_rng *r, void *c);
	void (*run)(const void *c, int reference, struct prop_obs *out);
	int (*shrink)(const void *c, int k, void *out);
	void (*describe)(const void *c, struct prop_text *t);
	const char *const *task_names;	/* OBS_TASK's names, by index */
};

/* Run P's cases; on the first difference, shrink, print and fail (at FILE:LINE). */
void prop_check_at(const struct prop_lab *p, const char *file, int line);
#define prop_check(p)	prop_check_at((p), __FILE__, __LINE__)

/* Shrinking helpers: the K-th candidate of a list of simplifications. */
#define SHRINK_TRY(cond, change) do {					\
	if ((cond) && k-- == 0) { change; return 1; }			\
} while (0)

#endif
