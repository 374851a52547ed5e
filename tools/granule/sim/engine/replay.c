/*
 * tools/granule/sim/engine/replay.c - `build/sim replay-script FILE [--preset P] [--hz H]
 * [KNOB=VALUE ...]`: run a demand rebuilt from a trace (tools/granule/sim/replay.py
 * writes FILE; `tools/sim replay` is the command people type) through the
 * scheduler on the simulated machine.
 *
 * FILE, one item per line (times and CPU in ns, trace times absolute):
 *	start T / end T / tick T	the trace's span, a periodic tick's time
 *	tick_preempt N			the recorded path from a preempting tick's
 *					check to schedule() (median; taken out of
 *					the tasks' CPU, charged by the machine)
 *	expiry T PID			the POSIX timer's expiries (periodic)
 *	sample T PID			a sample: from T to PID's first run after T
 *	task PID PARENT BORN COMM READS	a task (PARENT 0: spawned from idle at BORN;
 *					READS 1: its bursts are burn_cpu_ns() loops)
 *	PID STEP [ARGS]			its steps in order: burn N, fork C [measure],
 *					sleep N, sigwait, block, wake P, exit, hold
 *					(wake P, [burn N,] exit: one kernel path, not
 *					preempted, as an exit's wakeup of its parent
 *					in the image)
 * The kernel's other costs are in the recorded CPU already, so they are 0 here;
 * a burst is run in burn_cpu_ns()'s chunks (its CPU-clock reads matter under
 * EEVDF), ending exactly where the trace says.  Prints one line per sample:
 * "sample K LATENCY_NS" ("-" if the thread never ran); with --switches, first
 * one line per switch to a task, "switch T PID" (T absolute, ns), so that the
 * front end can find where the replayed schedule parts from the recorded one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "machine.h"
#include "../../tests/host/sched/fake.h"
#include "../../kernel/sched/sched.h"

enum op { BURN, FORK, SLEEP, SIGWAIT, BLOCK, WAKE, EXIT, HOLD };
struct rstep { enum op op; s64 arg; };
struct rtask {
	int pid, parent, reads;
	u64 born;
	char comm[16];
	struct rstep *steps;
	int n;
	struct mproc *p;
};
struct rsample { u64 t; int pid; s64 lat; };

static struct {
	u64 start, end, first_tick, chunk, tick_preempt;
	u64 *exp;
	int nexp, exp_target;
	int switches;			/* --switches: print each switch-in */
	struct rtask *task;
	int ntask;
	struct rsample *smp;
	int nsmp;
} R;

static struct machine mach;

static struct rtask *find(int pid)
{
	for (int i = 0; i < R.ntask; i++)
		if (R.task[i].pid == pid)
			return &R.task[i];
	return NULL;
}

/* An array of N items grown for item N: room for 16 at first, doubled at each power of two. */
static void *grow(void *a, int n, size_t size)
{
	if (n == 0 || (n >= 16 && !(n & (n - 1)))) {
		a = realloc(a, size * (size_t)(n ? 2 * n : 16));
		if (!a)
			die("out of memory%s%s", "", "");
	}
	return a;
}

static void parse_step(struct rtask *t, const char *op, long long arg, int lineno)
{
	static const char *const ops[] = { "burn", "fork", "sleep", "sigwait", "block", "wake",
					   "exit", "hold" };
	char where[32];

	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i])) {
			t->steps = grow(t->steps, t->n, sizeof(*t->steps));
			t->steps[t->n++] = (struct rstep){ (enum op)i, arg };
			return;
		}
	snprintf(where, sizeof(where), "line %d", lineno);
	die("replay script, %s: unknown step '%s'", where, op);
}

static void load(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], a[64], b[64];
	long long x, y, z;
	int lineno = 0;

	if (!f)
		die("%s: cannot read the replay script%s", path, "");
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		b[0] = '\0';
		if (sscanf(line, "start %lld", &x) == 1) R.start = (u64)x;
		else if (sscanf(line, "end %lld", &x) == 1) R.end = (u64)x;
		else if (sscanf(line, "tick %lld", &x) == 1) R.first_tick = (u64)x;
		else if (sscanf(line, "tick_preempt %lld", &x) == 1) R.tick_preempt = (u64)x;
		else if (sscanf(line, "expiry %lld %lld", &x, &y) == 2) {
			R.exp = grow(R.exp, R.nexp, sizeof(*R.exp));
			R.exp[R.nexp++] = (u64)x;
			R.exp_target = (int)y;
		} else if (sscanf(line, "sample %lld %lld", &x, &y) == 2) {
			R.smp = grow(R.smp, R.nsmp, sizeof(*R.smp));
			R.smp[R.nsmp++] = (struct rsample){ (u64)x, (int)y, -1 };
		} else if (sscanf(line, "task %lld %lld %lld %63s %63s", &x, &y, &z, a, b) >= 4) {
			R.task = grow(R.task, R.ntask, sizeof(*R.task));
			memset(&R.task[R.ntask], 0, sizeof(R.task[0]));
			R.task[R.ntask].pid = (int)x;
			R.task[R.ntask].parent = (int)y;
			R.task[R.ntask].born = (u64)z;
			R.task[R.ntask].reads = b[0] == '1';
			snprintf(R.task[R.ntask].comm, sizeof(R.task[0].comm), "%.15s", a);
			R.ntask++;
		} else if (sscanf(line, "%lld %63s %63s", &x, a, b) >= 2) {
			struct rtask *t = find((int)x);

			if (!t)
				die("replay script: a step for pid %s before its task line%s", a, "");
			parse_step(t, a, strtoll(b, NULL, 10), lineno);
		}
	}
	fclose(f);
}

static void replay_prog(struct machine *m, struct mproc *p);

/* reg[1]: its index in R.task (set by start_task) */
static struct rtask *rtask_of(struct mproc *p)
{
	return &R.task[p->reg[1]];
}

static struct mproc *start_task(struct machine *m, struct mproc *parent, struct rtask *t)
{
	struct mproc *c = parent ? m_fork(m, parent, t->comm, replay_prog, 1)
				 : m_spawn(m, t->comm, replay_prog);

	c->t.pid = c->t.tgid = t->pid;		/* the trace's pid */
	c->reg[1] = t - R.task;
	c->stall = 0;
	t->p = c;
	return c;
}

/* The replayed task's next step (p->pc indexes its steps; reg[0]: in sigwait). */
static void replay_prog(struct machine *m, struct mproc *p)
{
	struct rtask *t = rtask_of(p), *c;
	struct rstep *s;

	if (p->reg[0]) {			/* back from sigwait: take the signal */
		if (m_sigtake(p) < 0) {
			m_sigwait(m, p);
			return;
		}
		p->reg[0] = 0;
	}
	if (p->pc >= t->n) {
		m_burn(p, M_INF);
		return;
	}
	s = &t->steps[p->pc++];
	switch (s->op) {
	case BURN:
		if (t->reads)
			m_burn_exact(m, p, (u64)s->arg);
		else
			m_burn(p, (u64)s->arg);
		return;
	case SLEEP: m_sleep(m, p, (u64)s->arg); return;
	case SIGWAIT: p->reg[0] = 1; m_sigwait(m, p); return;
	case BLOCK: m_block(m, p); return;
	case EXIT: m_exit(m, p); return;
	case HOLD: m_burn(p, M_INF); return;
	case WAKE:
		c = find((int)s->arg);
		if (c && c->p && c->p->used && !c->p->dead && c->p->t.pid == c->pid)
			m_wake(c->p);
		/* The wakeup of an exit (exit_notify() waking the parent)
		 * and the rest of do_exit(): one kernel path, not preempted;
		 * the task dies in its own schedule(). */
		if (p->pc < t->n && t->steps[p->pc].op == EXIT) {
			p->pc++;
			m_exit(m, p);
			return;
		}
		if (p->pc + 1 < t->n && t->steps[p->pc].op == BURN &&
		    t->steps[p->pc + 1].op == EXIT) {
			m_kernel_on(p, (u64)t->steps[p->pc++].arg);
			return;
		}
		m_next(p);
		return;
	case FORK:
		c = find((int)s->arg);
		if (!c)
			die("replay script: fork of an unknown pid%s%s", "", "");
		start_task(m, p, c);
		return;
	}
}

/* A sample ends at its thread's first switch-in at or after its expiry. */
static void on_switch_in(struct machine *m, struct mproc *p)
{
	u64 now = R.start + m_now(m);

	if (R.switches)
		printf("switch %llu %d\n", (unsigned long long)now, p->t.pid);
	for (int i = 0; i < R.nsmp; i++)
		if (R.smp[i].pid == p->t.pid && R.smp[i].lat < 0 && R.smp[i].t <= now) {
			R.smp[i].lat = (s64)(now - R.smp[i].t);
			return;
		}
}

/* The timer's period: the shortest gap between two recorded expiries (an
 * expiry whose signal was still pending is an overrun, with no event). */
static u64 timer_period(void)
{
	u64 p = 1000000000ULL;

	for (int i = 1; i < R.nexp; i++)
		if (R.exp[i] - R.exp[i - 1] < p)
			p = R.exp[i] - R.exp[i - 1];
	return p;
}

static void run(void)
{
	struct sim_costs costs = { .burn_chunk = 40139, .tick_preempt = R.tick_preempt };
	u64 tick = 1000000000ULL / HZ;
	struct rtask *target;

	m_init(&mach, &costs, (R.start - R.first_tick % tick + tick) % tick, tick);
	mach.on_switch_in = on_switch_in;
	for (int i = 0; i < R.ntask; i++)		/* the boot's tasks, from idle */
		if (!R.task[i].parent) {
			if (R.task[i].born > R.start)
				m_run(&mach, R.task[i].born - R.start);
			start_task(&mach, NULL, &R.task[i]);
		}
	if (R.nexp) {
		m_run(&mach, R.exp[0] - R.start - 1);
		target = find(R.exp_target);
		if (!target || !target->p || target->p->dead)
			die("replay: the timer's thread does not exist at its first expiry%s%s", "", "");
		m_timer_arm(&mach, target->p, R.exp[0] - R.start, timer_period());
		m_run(&mach, R.exp[R.nexp - 1] - R.start);
		m_timer_disarm(&mach);
	}
	m_run(&mach, R.end - R.start);
}

static const char replay_help[] =
"usage: build/sim replay-script FILE [--preset P] [--hz H] [--switches] [KNOB=VALUE ...]\n"
"  Replay a demand rebuilt from a trace (people run: tools/sim replay TRACE).\n";

int cmd_replay(int argc, char **argv)
{
	const char *path = NULL;

	sched_test_reset();
	sysctl_sched_verify = 0;
	for (int i = 0; i + 1 < argc; i++)	/* the preset first, as experiment does */
		if (!strcmp(argv[i], "--preset"))
			apply_knob("sched_preset", argv[i + 1]);
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(replay_help, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--preset") && i + 1 < argc)
			i++;
		else if (!strcmp(argv[i], "--switches"))
			R.switches = 1;
		else if (!strcmp(argv[i], "--hz") && i + 1 < argc)
			apply_hz(argv[++i]);
		else if (strchr(argv[i], '=')) {
			char name[64];
			const char *eq = strchr(argv[i], '=');

			snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
			apply_knob(name, eq + 1);
		} else if (!path)
			path = argv[i];
		else
			die("%s: unexpected argument%s", argv[i], "");
	}
	if (!path)
		die("replay-script: no FILE%s%s", "", "");
	load(path);
	run();
	for (int i = 0; i < R.nsmp; i++) {
		if (R.smp[i].lat < 0)
			printf("sample %d -\n", i);
		else
			printf("sample %d %lld\n", i, (long long)R.smp[i].lat);
	}
	return 0;
}
