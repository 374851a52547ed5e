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
#include "docblock.h"
#include "../../../kernel/sched/sched.h"

#define RQ	this_rq()
#define CFS	(&this_rq()->cfs)
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
static void setup_four_with(const char *features)
{
	static const char *names[NTASK] = { "A", "B", "C", "D" };
	static const int nices[NTASK] = { 0, 0, 0, 5 };

	sched_test_reset();
	fake_hrtick.available = 1;		/* high-resolution timers, as at boot */
	if (features)
		knob_set_ok("sched_features", features);
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

static void setup_four(void)
{
	setup_four_with(NULL);
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

static void tick_rows(struct buf *b, int nticks)
{
	put(b, "| tick at (ms) | ran since the last tick | A | B | C | D | min_vruntime | "
	       "runs next |\n");
	put(b, "|---|---|---|---|---|---|---|---|\n");
	put(b, "| %s | – |", ms(0));
	for (int i = 0; i < NTASK; i++)
		put(b, " %s |", ms(rel(T[i]->se.vruntime)));
	put(b, " %s | %s |\n", ms(rel(CFS->min_vruntime)), name(current));

	for (int k = 1; k <= nticks; k++) {
		struct task *ran = current;

		tick();
		put(b, "| %s | %s |", ms((s64)(fake_clock_ns - t0)), name(ran));
		for (int i = 0; i < NTASK; i++)
			put(b, " %s%s%s |", T[i] == ran ? "**" : "",
			    ms(rel(T[i]->se.vruntime)), T[i] == ran ? "**" : "");
		put(b, " %s | %s%s |\n", ms(rel(CFS->min_vruntime)), name(current),
		    current != ran ? " (switch)" : "");
	}
}

static void table_ticks(struct buf *b)
{
	tick_rows(b, NTICKS);
}

/* ---- table 3: a fork under START_DEBIT and NO_START_DEBIT ------------------- */

struct fork_case {
	const char *parent;
	s64 parent_v, min_v, vslice, child_v, parent_after;
	u32 n, W;			/* what the vslice counts: E as if queued */
	char before[64];		/* who runs between the fork and the child */
	u64 first_run, waited;
};

#define FORK_AT	7	/* ms: after the first round (the tick table's row 7) */

static int fork_child_first;	/* sched_child_runs_first for run_fork() */

static void run_fork(struct fork_case *fc, int debit)
{
	struct task *e, *parent;
	struct load_weight lw;
	u64 fork_t;

	setup_four();
	if (!debit)
		knob_set_ok("sched_features", "NO_START_DEBIT");
	if (fork_child_first)
		knob_set_ok("sched_child_runs_first", "1");
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
	fc->parent_after = rel(parent->se.vruntime);
	fc->before[0] = '\0';
	for (int i = 0; current != e; i++) {
		struct task *ran = current;

		assert_true(i < 1000);
		if (i || !current->need_resched)
			tick();
		else
			resched_if_needed();	/* the fork's syscall returns */
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

/* ---- the answers to the exercises (docs/answers/) ------------------------- */

/* SCHEDULER exercise 1: period and nice-0 slice for n hogs, two presets. */
static void table_answer_periods(struct buf *b)
{
	static const char *presets[2] = { "linux-2.6.35", "commit-0bf377bbb0be" };
	u64 period[2][13], slice[2][13];

	for (int p = 0; p < 2; p++) {
		struct task *h[12];

		sched_test_reset();
		knob_set_ok("sched_preset", presets[p]);
		for (int n = 1; n <= 12; n++) {
			h[n - 1] = spawn("hog", 0);
			period[p][n] = __sched_period(CFS->nr_running);
			slice[p][n] = sched_slice(CFS, &h[0]->se);
		}
	}
	put(b, "| n nice-0 hogs | linux-2.6.35: period | slice | commit-0bf377bbb0be: period | "
	       "slice |\n");
	put(b, "|---|---|---|---|---|\n");
	for (int n = 2; n <= 12; n++)
		put(b, "| %d | %s | %s | %s | %s |\n", n, ms((s64)period[0][n]),
		    ms((s64)slice[0][n]), ms((s64)period[1][n]), ms((s64)slice[1][n]));
}

/* SCHEDULER exercise 2: the tick table at HZ=250. */
static void table_answer_hz250(struct buf *b)
{
	HZ = 250;
	tick_rows(b, 6);
	HZ = 1000;
}

/* SCHEDULER exercise 3: how long must A sleep before the credit decides? */
static void table_answer_sleeps(struct buf *b)
{
	static const int sleeps[] = { 1, 2, 3, 4, 5, 6, 8, 12, 20 };

	put(b, "| A sleeps (ms) | min_vruntime at wakeup | credit floor | A placed at | "
	       "placed by | running task | vdiff | preempts? |\n");
	put(b, "|---|---|---|---|---|---|---|---|\n");
	for (unsigned int i = 0; i < sizeof(sleeps) / sizeof(sleeps[0]); i++) {
		struct wake_case c;

		run_wake(&c, sleeps[i]);
		put(b, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", sleeps[i], ms(c.min_v),
		    ms(c.floor), ms(c.placed), c.placed == c.slept_v ? "its own vruntime" : "the credit",
		    c.curr, ms(c.vdiff), c.preempts ? "yes" : "no");
	}
}

/* SCHEDULER exercise 4: the first 12 ms with HRTICK on, switch by switch. */
static void table_answer_hrtick(struct buf *b)
{
	unsigned long first;

	setup_four_with("HRTICK");
	first = switches.count;
	ticks(NTICKS);
	put(b, "| switch at (ms) | from | ran (ms) | to | it waited since it last ran (ms) |\n");
	put(b, "|---|---|---|---|---|\n");
	for (unsigned long i = switches.count - first; i-- > 0;) {
		const struct switch_record *r = switch_last((unsigned int)i);
		const struct switch_record *p = switch_last((unsigned int)i + 1);
		const struct switch_record *out = NULL;

		/* when did r->next last leave the CPU? */
		for (unsigned long j = i + 1; j < switches.count - first + 1 && !out; j++)
			if (switch_last((unsigned int)j)->prev == r->next)
				out = switch_last((unsigned int)j);
		put(b, "| %s | %s | %s | %s | %s |\n", ms((s64)(r->when - t0)), name(r->prev),
		    ms((s64)(r->when - p->when)), name(r->next),
		    out ? ms((s64)(r->when - out->when)) : "– (first run)");
	}
}

/* SCHEDULER exercise 5: the fork of step 3 with sched_child_runs_first=1. */
static void table_answer_crf(struct buf *b)
{
	struct fork_case c;

	fork_child_first = 1;
	run_fork(&c, 1);
	fork_child_first = 0;
	put(b, "| at t = %d ms, %s forks E, START_DEBIT | sched_child_runs_first=1 |\n", FORK_AT,
	    c.parent);
	put(b, "|---|---|\n");
	put(b, "| E's vruntime once queued | %s |\n", ms(c.child_v));
	put(b, "| %s's vruntime after the fork | %s |\n", c.parent, ms(c.parent_after));
	put(b, "| switched to before E | %s |\n", c.before[0] ? c.before : "–");
	put(b, "| E first runs at t = (ms) | %s |\n", ms((s64)c.first_run));
	put(b, "| E waited (ms) | %s |\n", ms((s64)c.waited));
}

/* VARIANTS exercise 2: where a START_HALF fork would land, beside the two. */
static void table_answer_half(struct buf *b)
{
	struct fork_case c[2];

	run_fork(&c[0], 1);
	run_fork(&c[1], 0);
	put(b, "| at t = %d ms, %s forks E | START_DEBIT | START_HALF (the exercise) | "
	       "NO_START_DEBIT |\n", FORK_AT, c[0].parent);
	put(b, "|---|---|---|---|\n");
	put(b, "| E placed at | min_vruntime + vslice = %s | min_vruntime + vslice / 2 = %s | "
	       "parent's = %s |\n", ms(c[0].child_v), ms(c[0].min_v + c[0].vslice / 2),
	    ms(c[1].child_v));
}

/* VARIANTS exercise 3: START_NICE's wakeup gran for a nice-0 and a nice-5 child. */
static void table_answer_startnice(struct buf *b)
{
	put(b, "| forked child under start-nice | weight | penalty | wakeup_gran (ms) | "
	       "vruntime per 1 ms run (ms) |\n");
	put(b, "|---|---|---|---|---|\n");
	for (int nice = 0; nice <= 5; nice += 5) {
		struct task *c;
		u32 gran, speed;

		sched_test_reset();
		knob_set_ok("sched_preset", "start-nice");
		spawn("p", nice);
		spawn("q", 0);
		resched_if_needed();
		TICK_WHILE(task_nice(current) != nice);
		c = task_alloc("c");
		sched_fork(c);
		gran = wakeup_gran(&current->se, &c->se);
		speed = calc_delta_fair(1000000, &c->se);
		put(b, "| nice %d | %u | %u | %s | %s |\n", nice, c->se.load.weight,
		    c->se.fork_nice_penality, ms(gran), ms(speed));
		wake_up_new_task(c);
	}
}

/* VARIANTS exercise 4: dyn-gran's tick gate and period against [0bf]'s. */
static void table_answer_dyngran(struct buf *b)
{
	put(b, "| n | dyn-gran: period | __sched_gran (the tick gate) | commit-0bf377bbb0be: "
	       "period | min_granularity (the tick gate) |\n");
	put(b, "|---|---|---|---|---|\n");
	for (u32 n = 1; n <= 12; n++) {
		u64 p_dyn, p_0bf;
		u32 g_dyn, g_0bf;

		knob_set_ok("sched_preset", "dyn-gran");
		p_dyn = __sched_period(n);
		g_dyn = __sched_gran(n);
		knob_set_ok("sched_preset", "commit-0bf377bbb0be");
		p_0bf = __sched_period(n);
		g_0bf = sysctl_sched_min_granularity;
		put(b, "| %u | %s | %s | %s | %s |\n", n, ms((s64)p_dyn), ms(g_dyn), ms((s64)p_0bf),
		    ms(g_0bf));
	}
}

/* ---- the documents ---------------------------------------------------------- */

#define DOC "docs/SCHEDULER.md"
#define ANS "docs/answers/SCHEDULER.md"
#define VAR "docs/answers/VARIANTS.md"

static const struct table {
	const char *doc, *name;
	void (*make)(struct buf *b);
} tables[] = {
	{ DOC, "weights", table_weights },
	{ DOC, "ticks", table_ticks },
	{ DOC, "fork", table_fork },
	{ DOC, "wakeup", table_wakeup },
	{ ANS, "answer-periods", table_answer_periods },
	{ ANS, "answer-hz250", table_answer_hz250 },
	{ ANS, "answer-sleeps", table_answer_sleeps },
	{ ANS, "answer-hrtick", table_answer_hrtick },
	{ ANS, "answer-crf", table_answer_crf },
	{ VAR, "answer-half", table_answer_half },
	{ VAR, "answer-startnice", table_answer_startnice },
	{ VAR, "answer-dyngran", table_answer_dyngran },
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

static void make_table(const struct table *t, struct buf *b)
{
	b->n = 0;
	b->s[0] = '\0';
	setup_four();
	t->make(b);
}

static void test_table(void **state)
{
	const struct table *t = *state;
	struct buf b;
	char *doc = read_doc(t->doc), *a, *z;

	assert_non_null(doc);
	make_table(t, &b);
	a = block(doc, t->name, &z);
	if (!a) {
		free(doc);
		fail_msg("%s has no <!-- worked:%s --> block", t->doc, t->name);
	}
	*z = '\0';
	if (strcmp(a, b.s)) {
		fprintf(stderr, "%s's table '%s' differs from what the code makes "
			"(build/host/sched_worked --write updates it):\n--- document\n%s--- code\n%s",
			t->doc, t->name, a, b.s);
		free(doc);
		fail();
	}
	free(doc);
}

/* Replace table T's block in DOC (a malloc'd copy of the file); NULL if
 * the markers are missing. */
static char *splice(char *doc, const struct table *t)
{
	struct buf b;
	char *a, *z, *out;

	a = block(doc, t->name, &z);
	if (!a) {
		fprintf(stderr, "%s: no marker for table %s\n", t->doc, t->name);
		return NULL;
	}
	make_table(t, &b);
	out = malloc(strlen(doc) + b.n + 1);
	memcpy(out, doc, (size_t)(a - doc));
	strcpy(out + (a - doc), b.s);
	strcat(out, z);
	free(doc);
	return out;
}

/* --print: every table with its markers; --write: update each document. */
static int print_or_write(int write)
{
	for (size_t i = 0; i < NTABLES; i++) {
		const char *path = tables[i].doc;
		char *doc;
		FILE *f;

		if (!write) {
			struct buf b;

			make_table(&tables[i], &b);
			printf("%s:\n<!-- worked:%s -->\n%s<!-- /worked:%s -->\n\n", path,
			       tables[i].name, b.s, tables[i].name);
			continue;
		}
		if (i && !strcmp(tables[i - 1].doc, path))
			continue;			/* done with the first of its tables */
		doc = read_doc(path);
		for (size_t j = i; doc && j < NTABLES && !strcmp(tables[j].doc, path); j++)
			doc = splice(doc, &tables[j]);
		f = doc ? fopen(path, "wb") : NULL;
		if (!f || fputs(doc, f) < 0 || fclose(f))
			return 1;
		free(doc);
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
