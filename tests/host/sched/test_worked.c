/*
 * tests/host/sched/test_worked.c - the worked example at the top of
 * docs/SCHEDULER.md, produced by the unchanged kernel/sched/ code.
 *
 * Three nice-0 CPU hogs A, B, C and one nice-5 hog D at HZ=1000 under the
 * default preset (commit-0bf377bbb0be).  Each table of the document sits
 * between two markers, <!-- worked:NAME --> and <!-- /worked:NAME -->; this
 * program builds the same table from a run and fails if the two differ by
 * one byte.
 *
 *	build/host/sched_worked            run the checks (cmocka)
 *	build/host/sched_worked --print    print the tables as the code makes them
 *	build/host/sched_worked --write    rewrite them in docs/SCHEDULER.md
 *
 * Tables:
 *   weights  the weights, the period, each slice and vslice;
 *   ticks    vruntime after each 1 ms tick, and who runs next;
 *   fork     where a fork lands under START_DEBIT and NO_START_DEBIT, and
 *            how long the child waits for the CPU;
 *   wakeup   a sleeper waking with the GENTLE_FAIR_SLEEPERS credit, after a
 *            long and after a short sleep, and whether it preempts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include "../../../kernel/sched/sched.h"

#define RQ	(&runqueue)
#define CFS	(&runqueue.cfs)
#define NTASK	4
#define NTICKS	12	/* rows of the tick table */

static struct task *T[NTASK];		/* A, B, C (nice 0), D (nice 5) */
static u64 v0, t0;			/* the common start vruntime, time 0 */

/* ---- formatting: every figure is an exact integer of ns -------------------- */

struct buf {
	char s[16384];
	size_t n;
};

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	b->n += (size_t)vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	assert_true(b->n < sizeof(b->s));
}

/* NS as milliseconds with all six decimals ("1.802759", "-0.250000"). */
static const char *ms(s64 ns)
{
	static char ring[16][32];
	static int i;
	char *s = ring[i++ % 16];
	u64 a = ns < 0 ? (u64)-ns : (u64)ns;

	snprintf(s, 32, "%s%llu.%06llu", ns < 0 ? "-" : "", (unsigned long long)(a / 1000000),
		 (unsigned long long)(a % 1000000));
	return s;
}

static const char *name(struct task *t)
{
	return t == sched_idle_task() ? "idle" : t->comm;
}

/* ---- the scenario ---------------------------------------------------------- */

/*
 * Fork A, B, C, D from the idle task, then line them up: all four at the
 * same vruntime v0 (= min_vruntime), queued in the order A, B, C, D, so the
 * equal keys run first-in first-out.  (Forked one by one, START_DEBIT
 * would have spread them out; the fork step shows that on its own.)
 * Time 0 is the first pick.
 */
static void setup_four(void)
{
	static const char *names[NTASK] = { "A", "B", "C", "D" };
	static const int nices[NTASK] = { 0, 0, 0, 5 };

	sched_test_reset();
	for (int i = 0; i < NTASK; i++)
		T[i] = spawn(names[i], nices[i]);
	for (int i = 0; i < NTASK; i++)
		dequeue_task(RQ, T[i], 0);	/* vruntime made relative */
	for (int i = 0; i < NTASK; i++) {
		T[i]->se.vruntime = 0;		/* = min_vruntime once queued */
		enqueue_task(RQ, T[i], 0);
	}
	v0 = CFS->min_vruntime;
	t0 = fake_clock_ns;
	resched_if_needed();			/* the idle task picks A */
	assert_ptr_equal(current, T[0]);
}

static s64 rel(u64 v)
{
	return (s64)(v - v0);
}

/* ---- table 1: weights, period, slices -------------------------------------- */

static void table_weights(struct buf *b)
{
	u32 W = CFS->load.weight;

	put(b, "| task | nice | weight w | share w / W | slice = period × w / W (ms) | "
	       "vslice = slice × 1024 / w (ms) |\n");
	put(b, "|---|---|---|---|---|---|\n");
	for (int i = 0; i < NTASK; i++) {
		struct sched_entity *se = &T[i]->se;
		u32 w = se->load.weight;

		put(b, "| %s | %ld | %u | %u.%02u %% | %s | %s |\n", T[i]->comm, task_nice(T[i]),
		    w, w * 10000 / W / 100, w * 10000 / W % 100,
		    ms((s64)sched_slice(CFS, se)), ms((s64)sched_vslice(CFS, se)));
	}
	put(b, "| all | | W = %u | 100 %% | period = %s (n = %u ≤ sched_nr_latency = %u) | |\n",
	    W, ms((s64)__sched_period(CFS->nr_running)), CFS->nr_running, sched_nr_latency);
}

/* ---- table 2: tick by tick ------------------------------------------------- */

static void table_ticks(struct buf *b)
{
	put(b, "| tick at (ms) | ran since the last tick | A | B | C | D | min_vruntime | "
	       "runs next |\n");
	put(b, "|---|---|---|---|---|---|---|---|\n");
	put(b, "| 0 | – |");
	for (int i = 0; i < NTASK; i++)
		put(b, " %s |", ms(rel(T[i]->se.vruntime)));
	put(b, " %s | %s |\n", ms(rel(CFS->min_vruntime)), name(current));

	for (int k = 1; k <= NTICKS; k++) {
		struct task *ran = current;

		tick();
		put(b, "| %d | %s |", k, name(ran));
		for (int i = 0; i < NTASK; i++)
			put(b, " %s%s%s |", T[i] == ran ? "**" : "",
			    ms(rel(T[i]->se.vruntime)), T[i] == ran ? "**" : "");
		put(b, " %s | %s%s |\n", ms(rel(CFS->min_vruntime)), name(current),
		    current != ran ? " (switch)" : "");
	}
}

/* ---- table 3: a fork under START_DEBIT and NO_START_DEBIT ------------------- */

struct fork_case {
	const char *parent;
	s64 parent_v, min_v, vslice, child_v;
	u32 n, W;			/* what the vslice counts: E as if queued */
	char before[64];		/* who runs between the fork and the child */
	u64 first_run, waited;
};

#define FORK_AT	7	/* ms: after the first round (the tick table's row 7) */

static void run_fork(struct fork_case *fc, int debit)
{
	struct task *e, *parent;
	struct load_weight lw;
	u64 fork_t;

	setup_four();
	if (!debit)
		knob_set_ok("sched_features", "NO_START_DEBIT");
	ticks(FORK_AT);
	parent = current;
	fc->parent = parent->comm;
	/* what task_fork_fair will see: curr charged up to now */
	update_curr(CFS);
	fc->parent_v = rel(parent->se.vruntime);
	fc->min_v = rel(CFS->min_vruntime);
	/* sched_vslice of a nice-0 entity not yet queued: n + 1, W + 1024 */
	lw = CFS->load;
	lw.weight += NICE_0_LOAD;
	fc->n = CFS->nr_running + 1;
	fc->W = lw.weight;
	lw.inv_weight = 0;
	fc->vslice = (s64)calc_delta_mine((u32)__sched_period(CFS->nr_running + 1),
					  NICE_0_LOAD, &lw);
	fork_t = fake_clock_ns;
	e = spawn("E", 0);
	fc->child_v = rel(e->se.vruntime);
	fc->before[0] = '\0';
	for (int i = 0; current != e; i++) {
		struct task *ran = current;

		assert_true(i < 1000);
		tick();
		if (current != ran && current != e &&
		    strlen(fc->before) + 4 < sizeof(fc->before)) {
			if (fc->before[0])
				strcat(fc->before, ", ");
			strcat(fc->before, current->comm);
		}
	}
	fc->first_run = switch_last(0)->when - t0;
	fc->waited = switch_last(0)->when - fork_t;
}

static void table_fork(struct buf *b)
{
	struct fork_case c[2];

	run_fork(&c[0], 1);
	run_fork(&c[1], 0);
	put(b, "| at t = %d ms, %s forks E (nice 0) | START_DEBIT (default) | NO_START_DEBIT |\n",
	    FORK_AT, c[0].parent);
	put(b, "|---|---|---|\n");
	put(b, "| parent's vruntime | %s | %s |\n", ms(c[0].parent_v), ms(c[1].parent_v));
	put(b, "| min_vruntime | %s | %s |\n", ms(c[0].min_v), ms(c[1].min_v));
	put(b, "| vslice of E (n = %u, W = %u) | %s | not used |\n", c[0].n, c[0].W,
	    ms(c[0].vslice));
	put(b, "| E placed at | %s | %s |\n", ms(c[0].child_v), ms(c[1].child_v));
	put(b, "| switched to before E | %s | %s |\n",
	    c[0].before[0] ? c[0].before : "–", c[1].before[0] ? c[1].before : "–");
	put(b, "| E first runs at t = (ms) | %s | %s |\n",
	    ms((s64)c[0].first_run), ms((s64)c[1].first_run));
	put(b, "| E waited (ms) | %s | %s |\n", ms((s64)c[0].waited), ms((s64)c[1].waited));
}

/* ---- table 4: a sleeper wakes --------------------------------------------- */

struct wake_case {
	const char *who, *curr;
	s64 slept_v, min_v, floor, placed, curr_v, vdiff, gran;
	int preempts;
};

#define SLEEP_AT 7	/* ms: the task running then goes to sleep */

static void run_wake(struct wake_case *wc, int sleep_ms)
{
	struct task *s;

	setup_four();
	ticks(SLEEP_AT);
	s = current;
	wc->who = s->comm;
	block_current(TASK_INTERRUPTIBLE);
	wc->slept_v = rel(s->se.vruntime);
	ticks(sleep_ms);
	update_curr(CFS);
	wc->curr = current->comm;
	wc->min_v = rel(CFS->min_vruntime);
	wc->floor = wc->min_v - (s64)(sysctl_sched_latency >> 1);
	wake_up_process(s);
	wc->placed = rel(s->se.vruntime);
	wc->curr_v = rel(current->se.vruntime);
	wc->vdiff = wc->curr_v - wc->placed;
	wc->gran = wakeup_gran(&current->se, &s->se);
	wc->preempts = current->need_resched;
}

static void table_wakeup(struct buf *b)
{
	struct wake_case c[2];

	run_wake(&c[0], 20);
	run_wake(&c[1], 1);
	put(b, "| at t = %d ms, %s sleeps | for 20 ms | for 1 ms |\n", SLEEP_AT, c[0].who);
	put(b, "|---|---|---|\n");
	put(b, "| %s's vruntime when it slept | %s | %s |\n", c[0].who, ms(c[0].slept_v),
	    ms(c[1].slept_v));
	put(b, "| min_vruntime at the wakeup | %s | %s |\n", ms(c[0].min_v), ms(c[1].min_v));
	put(b, "| min_vruntime − latency / 2 (the credit) | %s | %s |\n", ms(c[0].floor),
	    ms(c[1].floor));
	put(b, "| placed at max(own, that) | %s | %s |\n", ms(c[0].placed), ms(c[1].placed));
	put(b, "| running task, its vruntime | %s, %s | %s, %s |\n", c[0].curr, ms(c[0].curr_v),
	    c[1].curr, ms(c[1].curr_v));
	put(b, "| vdiff = curr − woken | %s | %s |\n", ms(c[0].vdiff), ms(c[1].vdiff));
	put(b, "| wakeup_gran | %s | %s |\n", ms(c[0].gran), ms(c[1].gran));
	put(b, "| preempts (vdiff > gran)? | %s | %s |\n", c[0].preempts ? "yes" : "no",
	    c[1].preempts ? "yes" : "no");
}

/* ---- the document ---------------------------------------------------------- */

#define DOC "docs/SCHEDULER.md"

static const struct table {
	const char *name;
	void (*make)(struct buf *b);
} tables[] = {
	{ "weights", table_weights },
	{ "ticks", table_ticks },
	{ "fork", table_fork },
	{ "wakeup", table_wakeup },
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

static void make_table(const struct table *t, struct buf *b)
{
	b->n = 0;
	b->s[0] = '\0';
	setup_four();
	t->make(b);
}

static char *read_doc(void)
{
	FILE *f = fopen(DOC, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	s[n] = '\0';
	fclose(f);
	return s;
}

/* The text between <!-- worked:NAME --> and <!-- /worked:NAME --> (newline
 * after the first marker excluded); *END gets where the end marker starts. */
static char *block(char *doc, const char *nm, char **end)
{
	char open[64], close[64], *a, *z;

	snprintf(open, sizeof(open), "<!-- worked:%s -->\n", nm);
	snprintf(close, sizeof(close), "<!-- /worked:%s -->", nm);
	a = strstr(doc, open);
	if (!a)
		return NULL;
	a += strlen(open);
	z = strstr(a, close);
	if (!z)
		return NULL;
	*end = z;
	return a;
}

static void test_table(void **state)
{
	const struct table *t = *state;
	struct buf b;
	char *doc = read_doc(), *a, *z;

	assert_non_null(doc);
	make_table(t, &b);
	a = block(doc, t->name, &z);
	assert_non_null(a);
	*z = '\0';
	if (strcmp(a, b.s)) {
		fprintf(stderr, "docs/SCHEDULER.md's table '%s' differs from what the code makes "
			"(build/host/sched_worked --write updates it):\n--- document\n%s--- code\n%s",
			t->name, a, b.s);
		fail();
	}
	free(doc);
}

static int print_or_write(int write)
{
	char *doc = write ? read_doc() : NULL;

	if (write && !doc)
		return 1;
	for (size_t i = 0; i < NTABLES; i++) {
		struct buf b;

		make_table(&tables[i], &b);
		if (!write) {
			printf("<!-- worked:%s -->\n%s<!-- /worked:%s -->\n\n", tables[i].name, b.s,
			       tables[i].name);
		} else {
			char *a, *z, *out;

			a = block(doc, tables[i].name, &z);
			if (!a) {
				fprintf(stderr, "%s: no marker for table %s\n", DOC, tables[i].name);
				return 1;
			}
			out = malloc(strlen(doc) + b.n + 1);
			memcpy(out, doc, (size_t)(a - doc));
			strcpy(out + (a - doc), b.s);
			strcat(out, z);
			free(doc);
			doc = out;
		}
	}
	if (write) {
		FILE *f = fopen(DOC, "wb");

		if (!f || fputs(doc, f) < 0 || fclose(f))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[NTABLES];

	if (argc > 1 && !strcmp(argv[1], "--print"))
		return print_or_write(0);
	if (argc > 1 && !strcmp(argv[1], "--write"))
		return print_or_write(1);
	for (size_t i = 0; i < NTABLES; i++) {
		tests[i] = (struct CMUnitTest)cmocka_unit_test_prestate_setup_teardown(
			test_table, NULL, sched_test_teardown, (void *)&tables[i]);
		tests[i].name = tables[i].name;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
