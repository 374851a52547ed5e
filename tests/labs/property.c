/*
 * tests/labs/property.c - the property tests' driver (property.h): random
 * cases, the student's function against the reference, shrinking, and the
 * report in words.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/common_interface_defs.h>
#include "property.h"
#include "watch.h"

#define MAX_CASE	4096	/* bytes of one lab's case */
#define MAX_SHRINKS	400	/* accepted simplifications, at most */

u64 prop_u64(struct prop_rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 prop_below(struct prop_rng *r, u64 n)
{
	return n ? prop_u64(r) % n : 0;
}

s64 prop_range(struct prop_rng *r, s64 lo, s64 hi)
{
	return lo + (s64)prop_below(r, (u64)(hi - lo) + 1);
}

int prop_chance(struct prop_rng *r, int percent)
{
	return (int)prop_below(r, 100) < percent;
}

int prop_nice(struct prop_rng *r)
{
	static const s64 ends[] = { -20, 19, 0, -1, 1 };

	return (int)prop_edge(r, ends, 5, -20, 19);
}

s64 prop_edge(struct prop_rng *r, const s64 *edges, int n, s64 lo, s64 hi)
{
	if (prop_chance(r, 25))
		return prop_range(r, lo, hi);
	return edges[prop_below(r, (u64)n)];
}

static void obs_add(struct prop_obs *o, enum prop_kind kind, s64 v, const char *fmt,
		    va_list ap)
{
	if (o->n >= PROP_MAX_OBS)
		return;
	vsnprintf(o->o[o->n].what, sizeof(o->o[o->n].what), fmt, ap);
	o->o[o->n].v = v;
	o->o[o->n].kind = kind;
	o->n++;
}

#define OBS_FN(name, kind, type)					\
void name(struct prop_obs *o, type v, const char *fmt, ...)		\
{									\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	obs_add(o, kind, (s64)v, fmt, ap);				\
	va_end(ap);							\
}
OBS_FN(obs_num, OBS_NUM, s64)
OBS_FN(obs_yesno, OBS_YESNO, int)
OBS_FN(obs_task, OBS_TASK, int)

void prop_say(struct prop_text *t, const char *fmt, ...)
{
	va_list ap;

	if (t->len >= sizeof(t->buf) - 1)
		return;
	va_start(ap, fmt);
	t->len += (size_t)vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	if (t->len > sizeof(t->buf) - 1)
		t->len = sizeof(t->buf) - 1;
}

const char *prop_offset(char *buf, size_t len, s64 ns)
{
	u64 a = ns < 0 ? -(u64)ns : (u64)ns;

	if (a && a % 1000000 == 0)
		snprintf(buf, len, "%c %llu ms", ns < 0 ? '-' : '+', (unsigned long long)(a / 1000000));
	else
		snprintf(buf, len, "%c %llu ns", ns < 0 ? '-' : '+', (unsigned long long)a);
	return buf;
}

/* ---- the driver ---- */

static const struct prop_lab *running;
static const void *running_case;

/* A sanitizer or a fault stopped the binary inside a case: say which. */
static void died(void)
{
	struct prop_text t = { .len = 0 };

	if (!running || !running_case)
		return;
	running->describe(running_case, &t);
	printf("  property: the binary died while running this case:\n"
	       "            %s\n", t.buf);
	fflush(stdout);
}

static void value(char *buf, size_t len, const struct prop_lab *p, enum prop_kind kind, s64 v)
{
	if (kind == OBS_YESNO)
		snprintf(buf, len, "%s", v ? "yes" : "no");
	else if (kind == OBS_TASK)
		snprintf(buf, len, "%s", v < 0 ? "none" : p->task_names[v]);
	else
		snprintf(buf, len, "%lld", (long long)v);
}

/* The index of the first observation that differs, -1 if none. */
static int differs(const struct prop_lab *p, const void *c, struct prop_obs *got,
		   struct prop_obs *want)
{
	memset(got, 0, sizeof(*got));
	memset(want, 0, sizeof(*want));
	running_case = c;
	p->run(c, 0, got);
	p->run(c, 1, want);
	running_case = NULL;
	for (int i = 0; i < want->n || i < got->n; i++) {
		if (i >= want->n || i >= got->n || got->o[i].v != want->o[i].v ||
		    strcmp(got->o[i].what, want->o[i].what))
			return i;
	}
	return -1;
}

/* Shrink C in place while a simpler variant still differs; returns the steps. */
static int shrink(const struct prop_lab *p, unsigned char *c)
{
	static unsigned char next[MAX_CASE];
	static struct prop_obs got, want;
	int steps = 0;

	for (int k = 0; steps < MAX_SHRINKS && p->shrink(c, k, next); k++) {
		if (differs(p, next, &got, &want) >= 0) {
			memcpy(c, next, p->size);
			steps++;
			k = -1;		/* from the first simplification again */
		}
	}
	return steps;
}

void prop_check_at(const struct prop_lab *p, const char *file, int line)
{
	static unsigned char c[MAX_CASE];
	static struct prop_obs got, want;
	struct prop_rng r = { .s = p->seed };
	struct prop_text t = { .len = 0 };
	char w[64], g[64];

	assert_true(p->size <= MAX_CASE);
	running = p;
	__sanitizer_set_death_callback(died);	/* AddressSanitizer */
	watch_on_abort(died);			/* UndefinedBehaviorSanitizer */
	for (int i = 0; i < p->cases; i++) {
		int at, steps;

		memset(c, 0, p->size);
		p->generate(&r, c);
		if (differs(p, c, &got, &want) < 0)
			continue;
		steps = shrink(p, c);
		at = differs(p, c, &got, &want);
		assert_true(at >= 0);
		p->describe(c, &t);
		lab_scenario("random case %d of %d (seed %llu), shrunk in %d steps to: %s",
			     i + 1, p->cases, (unsigned long long)p->seed, steps, t.buf);
		if (at >= got.n || at >= want.n) {
			lab_fail(file, line, "what the case observes",
				 at < want.n ? want.o[at].what : "(nothing more)",
				 at < got.n ? got.o[at].what : "(nothing more)");
		}
		value(w, sizeof(w), p, want.o[at].kind, want.o[at].v);
		value(g, sizeof(g), p, got.o[at].kind, got.o[at].v);
		lab_fail(file, line, want.o[at].what, w, g);
	}
	running = NULL;
	printf("  property: %d random cases (seed %llu) agree with the reference\n",
	       p->cases, (unsigned long long)p->seed);
}
