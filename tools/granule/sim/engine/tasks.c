/*
 * tools/granule/sim/engine/tasks.c - `tools/sim tasks SPEC [--preset P] [--hz H]
 * [--until T] [-s SEED] [-c] [KNOB=VAL...]`: an OSTEP-style problem on the
 * discrete-event simulator of tests/host/sched/sim.c.  Without -c it
 * prints the question (task set, knobs, the scheduling points with "who
 * runs next" blank); with -c the answers, read from the scheduler's own
 * state at each point, then a timeline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "common.h"
#include "../../tests/host/sched/fake.h"
#include "../../tests/host/sched/sim.h"
#include "tasks.h"
#include "cpus.h"
#include "../../kernel/sched/sched.h"
#include "../../kernel/sched/eevdf.h"
#include <kernel/cmdline.h>


static struct sim sim;
static struct sim_task storage[96];

/* ---- the task SPEC ------------------------------------------------------- */


static const char *const kinds_accepted =
	"hog, sleeper:run=T:sleep=T, yield:run=T, forker:every=T:child=T (T like 2ms, 500us), "
	"each with optional :nice=-20..19 and :cpu=N (forked on CPU N, then free; :pinned keeps it there)";

static void spec_param(struct spec_task *t, const char *word, char *p)
{
	char *eq = strchr(p, '=');
	long long v;

	if (!strcmp(p, "pinned")) {	/* taskset without the later taskset -p */
		t->pinned = 1;
		return;
	}
	if (!eq)
		die("task '%s': parameter '%s' needs =VALUE", word, p);
	*eq++ = '\0';
	if (!strcmp(p, "nice")) {
		char *end;
		long n = strtol(eq, &end, 10);

		if (*end || end == eq || n < -20 || n > 19)
			die("task '%s': nice=%s out of range (expected -20..19)", word, eq);
		t->nice = (int)n;
		return;
	}
	if (!strcmp(p, "cpu")) {	/* checked against --cpus in cmd_tasks() */
		char *end;
		long n = strtol(eq, &end, 10);

		if (*end || end == eq || n < 0 || n >= SIM_MAX_CPUS)
			die("task '%s': cpu=%s out of range (expected 0..7, below --cpus)", word, eq);
		t->cpu = (int)n;
		return;
	}
	v = parse_time(eq);
	if (v <= 0)
		die("task '%s': %s is not a time > 0 (expected e.g. 2ms, 500us, 1s)",
		    word, eq);
	if (!strcmp(p, "run") && t->kind == SIM_SLEEPER)
		t->run_ns = v;
	else if (!strcmp(p, "sleep") && t->kind == SIM_SLEEPER)
		t->sleep_ns = v;
	else if (!strcmp(p, "run") && t->kind == SIM_YIELDER)
		t->run_ns = v;
	else if (!strcmp(p, "every") && t->kind == SIM_FORKER)
		t->run_ns = v;
	else if (!strcmp(p, "child") && t->kind == SIM_FORKER)
		t->child_ns = v;
	else
		die("task '%s': unknown parameter '%s' (expected sleeper:run,sleep; "
		    "yield:run; forker:every,child; any:nice,cpu,pinned)", word, p);
}

static int parse_spec(const char *spec, struct spec_task *out)
{
	char buf[512], *save = NULL, *w;
	int n = 0;

	if (strlen(spec) >= sizeof(buf))
		die("SPEC '%s' too long%s", spec, " (at most 511 characters)");
	strcpy(buf, spec);
	for (w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		char word[128], *p, *save2 = NULL;
		struct spec_task *t = &out[n];

		if (n == MAX_TASKS)
			die("SPEC '%s': too many tasks%s", spec, " (at most 16)");
		snprintf(word, sizeof(word), "%s", w);
		memset(t, 0, sizeof(*t));
		t->cpu = -1;
		p = strtok_r(w, ":", &save2);
		if (!strcmp(p, "hog")) {
			t->kind = SIM_HOG;
		} else if (!strcmp(p, "sleeper")) {
			t->kind = SIM_SLEEPER;
			t->run_ns = 2 * MSEC;
			t->sleep_ns = 8 * MSEC;
		} else if (!strcmp(p, "yield")) {
			t->kind = SIM_YIELDER;
			t->run_ns = 1 * MSEC;
		} else if (!strcmp(p, "forker")) {
			t->kind = SIM_FORKER;
			t->run_ns = 10 * MSEC;
			t->child_ns = 1 * MSEC;
		} else {
			fprintf(stderr, "sim: unknown task kind '%s' in '%s' (expected %s)\n",
				p, word, kinds_accepted);
			exit(2);
		}
		snprintf(t->name, sizeof(t->name), "%c%d", p[0], n);
		while ((p = strtok_r(NULL, ":", &save2)))
			spec_param(t, word, p);
		n++;
	}
	if (!n)
		die("empty SPEC '%s' (expected %s)", spec, kinds_accepted);
	return n;
}

/* A random problem from SEED (as OSTEP's scheduler.py -s): 2-4 tasks. */
static int random_spec(u32 seed, struct spec_task *out)
{
	u32 x = seed ? seed : 1;
	int n;

#define NEXT() (x ^= x << 13, x ^= x >> 17, x ^= x << 5, x)
	n = 2 + NEXT() % 3;
	for (int i = 0; i < n; i++) {
		struct spec_task *t = &out[i];

		memset(t, 0, sizeof(*t));
		t->cpu = -1;
		t->kind = NEXT() % 2 ? SIM_SLEEPER : SIM_HOG;
		t->nice = (int)(NEXT() % 11) - 5;
		if (t->kind == SIM_SLEEPER) {
			t->run_ns = (1 + NEXT() % 5) * MSEC;
			t->sleep_ns = (1 + NEXT() % 10) * MSEC;
		}
		snprintf(t->name, sizeof(t->name), "%c%d",
			 t->kind == SIM_HOG ? 'h' : 's', i);
	}
#undef NEXT
	return n;
}

static void describe(const struct spec_task *t, int n)
{
	printf("Tasks:\n");
	for (int i = 0; i < n; i++) {
		const struct spec_task *s = &t[i];

		printf("  %-4s nice %3d  ", s->name, s->nice);
		if (s->kind == SIM_HOG)
			printf("hog (always runnable)\n");
		else if (s->kind == SIM_YIELDER)
			printf("yielder: runs %.3f ms, calls sched_yield(), repeat\n", s->run_ns / 1e6);
		else if (s->kind == SIM_SLEEPER)
			printf("sleeper: runs %.3f ms, sleeps %.3f ms, repeat\n",
			       s->run_ns / 1e6, s->sleep_ns / 1e6);
		else
			printf("forker: every %.3f ms of CPU forks a child needing %.3f ms\n",
			       s->run_ns / 1e6, s->child_ns / 1e6);
	}
}

/* ---- tasks --------------------------------------------------------------- */

static const char tasks_help[] =
"usage: tools/sim tasks [SPEC] [--cpus N] [--preset P] [--hz H] [--until T] [-s SEED] [-c]\n"
"                       [KNOB=VALUE...]\n"
"  An OSTEP-style problem run on the real kernel/sched code.\n"
"  SPEC    comma-separated tasks: hog, sleeper:run=2ms:sleep=8ms, yield:run=1ms,\n"
"          forker:every=10ms:child=1ms, each with optional :nice=N and, with\n"
"          --cpus, :cpu=N (forked on CPU N and pinned, then let go: taskset, taskset -p;\n"
"          :pinned keeps it on CPU N, or 0, alone).\n"
"          Without SPEC, -s SEED makes a random problem (same seed, same problem).\n"
"  --cpus N     N CPUs (1..8, default 1), as the image at -smp N: per-CPU runqueues,\n"
"               fork and wakeup placement, the balancer; -c then says who moved and why\n"
"  --preset P   a kernel preset (sched_preset=P; e.g. linux-2.6.35, linux-6.12)\n"
"  --hz H       timer frequency: 100, 250, 300 or 1000 (default 1000)\n"
"  --until T    simulated time (default 30ms; at most 3999 ticks)\n"
"  -c           show the answers: who runs at each scheduling point and the\n"
"               scheduler's state (CFS: vruntime - min_vruntime, min_vruntime;\n"
"               EEVDF: V, lag, eligible, deadline), then a timeline.\n"
"  KNOB=VALUE   any boot-line knob (sched_latency_ns=..., sched_features=...)\n"
"  tools/sim tasks --rt-app FILE [--preset P] [--hz H] [--tick-phase US] [KNOB=VALUE...]: an rt-app\n"
"               workload simulated, one summary line per thread (docs/RTAPP.md)\n";


struct point points[MAX_POINTS];

/* Wakeups, seen by sim.on_wakeup between try_to_wake_up() and irq exit. */
struct wakeup {
	u64 t;
	int who, cur;			/* woken task, the one running */
	s64 key;			/* CFS: v - min_vruntime after place_entity;
					   EEVDF: lag after place_entity */
	s64 dl;				/* EEVDF: deadline - V */
	int preempt;			/* need_resched set by the wakeup check */
	int cpu;			/* where it was queued */
};

static struct wakeup wakeups[MAX_POINTS];
static int nwakeups, nspec;
static struct sim_task **spec_tasks;

static int index_of(struct sim_task **st, int n, struct task *t);

const char *who_name(const struct spec_task *sp, int i)
{
	return i == -1 ? "idle" : i == -2 ? "child" : i == -3 ? "stopper" : sp[i].name;
}

/* T, current on RQ, as who_name() names it. */
static int who_index(struct task *t, struct rq *rq)
{
	int i = index_of(spec_tasks, nspec, t);

	if (i < 0 && t != rq->idle)
		i = container_of(t, struct sim_task, t)->kind == SIM_STOPPER ? -3 : -2;
	return i;
}

/* The woken task's queue: this CPU's, or at several CPUs where
 * select_task_rq() put it. */
static void on_wakeup(struct sim *s, struct sim_task *st)
{
	struct rq *rq = cpu_rq(task_cpu(&st->t));
	struct cfs_rq *cfs = &rq->cfs;
	struct wakeup *w = &wakeups[nwakeups];
	struct sched_entity *se = &st->t.se;

	if (nwakeups == MAX_POINTS)
		return;
	nwakeups++;
	w->t = sim_elapsed(s);
	w->who = index_of(spec_tasks, nspec, &st->t);
	w->cpu = (int)task_cpu(&st->t);
	w->cur = who_index(rq->curr, rq);
	w->preempt = rq->curr->need_resched;
	if (sched_eevdf()) {
		u64 V = avg_vruntime(cfs);

		w->key = entity_lag(V, se);
		w->dl = (s64)(se->deadline - V);
	} else {
		w->key = (s64)(se->vruntime - cfs->min_vruntime);
	}
}

static void print_wakeups(const struct spec_task *sp, int answers)
{
	int eevdf = sched_eevdf();

	if (!nwakeups)
		return;
	printf("\nWakeups (where does place_entity put the sleeper, and does it preempt?):\n");
	printf("%10s  %-5s %s%-7s %18s  %s\n", "time(ms)", "woken", sim.ncpus > 1 ? "on    " : "",
	       "running", eevdf ? "lag/deadline(us)" : "v-minv(us)", "preempts?");
	for (int k = 0; k < nwakeups; k++) {
		const struct wakeup *w = &wakeups[k];
		char val[40], on[8] = "";

		if (eevdf)
			snprintf(val, sizeof(val), "%8.1f/%8.1f", w->key / 1e3, w->dl / 1e3);
		else
			snprintf(val, sizeof(val), "%.1f", w->key / 1e3);
		if (sim.ncpus > 1)	/* the CPU select_task_rq() chose */
			snprintf(on, sizeof(on), answers ? "CPU%-2d " : "?     ", w->cpu);
		printf("%10.3f  %-5s %s%-7s %18s  %s\n", w->t / 1e6, sp[w->who].name, on,
		       who_name(sp, w->cur), answers ? val : "?",
		       !answers ? "?" : w->preempt ? "yes" : "no");
	}
}

static int index_of(struct sim_task **st, int n, struct task *t)
{
	for (int i = 0; i < n; i++)
		if (&st[i]->t == t)
			return i;
	return -1;
}

static void record(struct point *p, struct sim_task **st, int n)
{
	struct cfs_rq *cfs = &this_rq()->cfs;
	u64 V = sched_eevdf() ? avg_vruntime(cfs) : cfs->min_vruntime;

	p->t = sim_elapsed(&sim);
	p->cur = index_of(st, n, current);
	if (p->cur < 0 && current != this_rq()->idle)
		p->cur = -2;		/* a forker's child */
	p->minv = sched_eevdf() ? V : cfs->min_vruntime;
	if (sim.ncpus > 1) {	/* each task against its own CPU's queue */
		smp_record(p, st, n);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct sched_entity *se = &st[i]->t.se;

		p->state[i] = se->on_rq ? 'R' : 'S';
		if (sched_eevdf()) {
			p->key[i] = se->on_rq ? entity_lag(V, se) : se->vlag;
			p->dl[i] = (s64)(se->deadline - V);
			if (se->on_rq && entity_eligible(cfs, se))
				p->state[i] = 'E';
		} else {
			p->key[i] = (s64)(se->vruntime - cfs->min_vruntime);
		}
	}
}

static void print_points(int np, const struct spec_task *sp, int n, int answers)
{
	int eevdf = sched_eevdf();

	printf("\nScheduling points (after the first pick and after each tick):\n");
	printf("%10s  %-6s", "time(ms)", "runs");
	for (int i = 0; i < n; i++)
		printf(eevdf ? "  %4s lag/dl(us)  " : "  %4s v-minv(us)", sp[i].name);
	printf(eevdf ? "  %12s\n" : "  %14s\n", eevdf ? "V(us)" : "min_vruntime");
	for (int k = 0; k < np; k++) {
		const struct point *p = &points[k];

		printf("%10.3f  %-6s", p->t / 1e6,
		       !answers ? "?" : who_name(sp, p->cur));
		for (int i = 0; i < n; i++) {
			if (!answers)
				printf(eevdf ? "  %18s" : "  %15s", "?");
			else if (eevdf)
				printf("  %c%8.1f/%8.1f", p->state[i], p->key[i] / 1e3,
				       p->dl[i] / 1e3);
			else
				printf("  %c%14.1f", p->state[i], p->key[i] / 1e3);
		}
		if (answers)
			printf(eevdf ? "  %12.1f\n" : "  %14.1f\n", (double)(s64)p->minv / 1e3);
		else
			printf("  %s\n", "?");
	}
}

static void print_timeline(int np, const struct spec_task *sp, int n, u64 until)
{
	u64 cell = until / 60 ? until / 60 : 1;

	printf("\nTimeline (one column = %.3f ms):\n", cell / 1e6);
	for (int i = 0; i < n; i++) {
		int k = 0;

		printf("  %-4s |", sp[i].name);
		for (u64 t = 0; t < until; t += cell) {
			while (k + 1 < np && points[k + 1].t <= t)
				k++;
			putchar(points[k].cur == i ? '#' : '.');
		}
		printf("|\n");
	}
	for (int k = 0; k < np; k++)
		if (points[k].cur < 0) {
			printf("  (a column no task holds: a forker's child or idle)\n");
			break;
		}
}

struct tasks_opts {
	const char *spec;
	long long until;		/* ns of simulated time */
	u32 seed;
	int have_seed, answers;
};

/* One option that takes a value (A V). */
static void tasks_option(struct tasks_opts *o, const char *a, const char *v)
{
	char *end;
	unsigned long seed;

	if (!v)
		die("%s needs a value%s", a, " (see tools/sim tasks --help)");
	if (!strcmp(a, "--preset")) {
		apply_knob("sched_preset", v);
	} else if (!strcmp(a, "--hz")) {
		apply_hz(v);
	} else if (!strcmp(a, "--until")) {
		o->until = parse_time(v);
		if (o->until <= 0)
			die("--until %s: not a time > 0 (expected e.g. 30ms, 1s)%s", v, "");
	} else {
		seed = strtoul(v, &end, 10);
		if (*end || end == v || v[0] == '-' || seed > 0xffffffffUL)
			die("-s %s: not a seed (expected a number 0..4294967295)%s", v, "");
		o->seed = (u32)seed;
		o->have_seed = 1;
	}
}

/* Parse the command line after "tasks"; knobs are applied as they come.
 * Returns 1 after --help. */
static int tasks_args(int argc, char **argv, struct tasks_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(tasks_help, stdout);
			return 1;
		} else if (!strcmp(a, "-c")) {
			o->answers = 1;
		} else if (!strcmp(a, "--cpus")) {
			i++;		/* cpus_arg() read it before the boot */
		} else if (!strcmp(a, "--preset") || !strcmp(a, "--hz") ||
			   !strcmp(a, "--until") || !strcmp(a, "-s")) {
			tasks_option(o, a, i + 1 < argc ? argv[i + 1] : NULL);
			i++;
		} else if (a[0] == '-') {
			die("tasks: unknown option '%s' (expected --cpus, --preset, --hz, --until, -s, "
			    "-c, KNOB=VALUE)%s", a, "");
		} else if (strchr(a, '=') && !strchr(a, ':') && !strchr(a, ',')) {
			char kv[256], *eq;

			snprintf(kv, sizeof(kv), "%s", a);
			eq = strchr(kv, '=');
			*eq = '\0';
			apply_knob(kv, eq + 1);
		} else if (!o->spec) {
			o->spec = a;
		} else {
			die("tasks: a second SPEC '%s' (after '%s'; join tasks with commas)", a, o->spec);
		}
	}
	return 0;
}

/* The first pick, then each tick, to UNTIL: the points[] snapshots. */
static int run_points(struct sim_task **st, int n, u64 until)
{
	int np = 0;

	sim_run(&sim, 0);
	record(&points[np++], st, n);
	/*
	 * sim_run() stops before the events due at its end, so each step runs
	 * 1 ns past the tick: the snapshot shows the tick's decision (the 1 ns
	 * is charged to whoever it picked, as the real clock would).
	 */
	while (sim_elapsed(&sim) + sim.tick_ns <= until + 1 && np < MAX_POINTS) {
		sim_run(&sim, sim.next_tick - fake_clock_ns + 1);
		record(&points[np++], st, n);
		points[np - 1].t--;
	}
	return np;
}

int cmd_tasks(int argc, char **argv)
{
	struct tasks_opts o = { .until = 30 * MSEC };
	struct spec_task sp[MAX_TASKS];
	struct sim_task *st[MAX_TASKS];
	int n, np, ncpus;

	ncpus = cpus_arg(argc, argv);
	cpus_boot(ncpus);		/* at one CPU: sched_test_reset() */
	if (tasks_args(argc, argv, &o))
		return 0;
	if (o.spec)
		n = parse_spec(o.spec, sp);
	else if (o.have_seed)
		n = random_spec(o.seed, sp);
	else
		die("tasks: no SPEC and no -s SEED%s%s", " (see tools/sim tasks --help)", "");

	for (int i = 0; i < n; i++)
		if (sp[i].cpu >= ncpus)
			die("task '%s': cpu=%s out of range (expected 0..--cpus - 1)", sp[i].name,
			    (char[]){ (char)('0' + sp[i].cpu), '\0' });
	sim_init(&sim, storage, 96, o.seed ? o.seed : 1);
	if (sim.tick_ns * (MAX_POINTS - 1) < (u64)o.until)
		die("--until: at most %s ticks (%s)", "3999", "e.g. 3.999s at HZ=1000, 15.99s at HZ=250");
	sim.on_wakeup = on_wakeup;
	spec_tasks = st;
	nspec = n;
	if (ncpus > 1) {
		cpus_online(ncpus);
		sim_smp_init(&sim, ncpus);
		smp_watch(&sim, st, n);
	}
	for (int i = 0; i < n; i++) {
		st[i] = ncpus > 1 ? smp_spawn(&sim, sp, i) :
			sim_spawn(&sim, sp[i].kind, sp[i].name, sp[i].nice,
				  sp[i].run_ns, sp[i].sleep_ns);
		if (sp[i].kind == SIM_FORKER)
			st[i]->child_run_ns = sp[i].child_ns;
	}

	describe(sp, n);
	if (ncpus > 1)
		printf("Machine: %d CPUs, one package of %d cores (QEMU's -smp %d): "
		       "one sched domain, MC\n", ncpus, ncpus, ncpus);
	capture_reset();
	sched_print_tunables();
	printf("Scheduler: %s, HZ=%u\n%s", sched_eevdf() ? "EEVDF" : "CFS", HZ, capture_buf);

	np = run_points(st, n, (u64)o.until);
	if (ncpus > 1)
		smp_print_points(np, sp, n, o.answers);
	else
		print_points(np, sp, n, o.answers);
	print_wakeups(sp, o.answers);
	if (ncpus > 1)
		smp_print_migrations(sp, o.answers);
	if (o.answers && ncpus > 1)
		smp_print_timeline(np, sp, n, (u64)o.until);
	else if (o.answers)
		print_timeline(np, sp, n, (u64)o.until);
	else
		printf("\nWho runs at each point, and why? Check with -c.\n");
	return 0;
}

