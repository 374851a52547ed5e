/*
 * tools/granule/sim/engine/rtapp.c - `build/sim rtapp SPEC [--preset P] [--hz H]
 * [KNOB=VALUE...]`: an rt-app workload on the simulated machine (machine.c)
 * with the kernel's measured costs (calib.c).  tools/sim experiment --rt-app
 * FILE and tools/sim tasks --rt-app FILE reach it through
 * tools/granule/sim/rtapp_sim.py, which reads rt-app's JSON (granule.rtapp),
 * refuses what this engine cannot do with one line, and writes SPEC:
 *
 *   duration NS
 *   pload NS                              rt-app's ns per loop (its "perf" column)
 *   thread NAME POLICY PRIO DELAY_NS LOOP LOGPATH
 *   phase LOOP
 *   run NS | sleep NS | timer ID PERIOD_NS | lock ID | unlock ID
 *   signal ID | broad ID | wait COND_ID MUTEX_ID | barrier ID USERS
 *
 * (POLICY 0 SCHED_OTHER with PRIO the nice value, 1 SCHED_FIFO, 2 SCHED_RR;
 * timers, mutexes, conditions and barriers numbered by the front end, a
 * "unique" timer one per thread.)  Each thread follows rt-app 1.0's
 * run_event() and its thread loop step by step: a run event burns NS of its
 * own CPU time (a fixed count of rt-app's loops), a timer sleeps with
 * clock_nanosleep(TIMER_ABSTIME) to the timer's next expiry, or, when that
 * has passed, takes the present as the new reference (rt-app's default
 * "relative" mode); the log line of a pass is rt-app's: run (wall time in
 * the run events), period, slack, c_duration, c_period, wu_lat.  Locks
 * hand over in FIFO order, as glibc's futex mutex wakes one waiter; a
 * condition's waiter takes the mutex back before it runs on.
 *
 * Output: each thread's log after "==> LOGPATH <==", as rt-app-logs prints
 * it on the image (tools/granule/rtapp.py reads both).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "calib.h"
#include "machine.h"
#include "../../tests/host/sched/fake.h"
#include "../../kernel/sched/sched.h"

#define RT_MAX_THREADS	64
#define RT_MAX_EVENTS	1024
#define RT_MAX_PHASES	256
#define RT_MAX_OBJS	64		/* timers, mutexes, conditions, barriers */

enum { EV_RUN, EV_SLEEP, EV_TIMER, EV_LOCK, EV_UNLOCK, EV_SIGNAL, EV_BROAD, EV_WAIT, EV_BARRIER };

struct rt_event { int kind, id, id2; u64 ns; };
struct rt_phase { int loop, first, n; };
struct rt_row { u64 perf, run, period, start, end; s64 slack; u64 c_dur, c_per, wu_lat; };

struct rt_thread {
	char name[32], log[128];
	int policy, prio, loop, first_phase, nphases;
	u64 delay;
	struct mproc *p;
	/* where it is: phase, event, loops left of the phase and of the thread */
	int ph, ev, ph_left, th_left;
	u64 t_first, mark;		/* its first timer's reference; a run event's start */
	struct rt_row cur;
	struct rt_row *rows;
	int nrows, maxrows;
};

struct rt_queue { int w[RT_MAX_THREADS], n; };
struct rt_mutex { int owner; struct rt_queue q; };	/* owner -1: free */
struct rt_barrier { int users; struct rt_queue q; };

static struct {
	u64 duration, pload;
	struct rt_thread th[RT_MAX_THREADS];
	struct rt_phase ph[RT_MAX_PHASES];
	struct rt_event ev[RT_MAX_EVENTS];
	int nth, nph, nev;
	u64 timer_next[RT_MAX_OBJS];
	int timer_init[RT_MAX_OBJS];
	struct rt_mutex mutex[RT_MAX_OBJS];
	struct rt_queue cond[RT_MAX_OBJS];
	struct rt_barrier barrier[RT_MAX_OBJS];
} rt;

static struct machine mach;

/* ---- the spec --------------------------------------------------------------- */

static int obj_id(const char *v)
{
	int id = atoi(v);

	if (id < 0 || id >= RT_MAX_OBJS)
		die("rtapp spec: object %s out of range (0..63)%s", v, "");
	return id;
}

static void spec_event(const char *w, char **a, int n)
{
	static const char *const names[] = { "run", "sleep", "timer", "lock", "unlock", "signal",
					     "broad", "wait", "barrier" };
	struct rt_event *e = &rt.ev[rt.nev];

	if (rt.nev >= RT_MAX_EVENTS || !rt.nph)
		die("rtapp spec: too many events, or an event before a phase%s%s", "", "");
	for (e->kind = 0; e->kind < 9 && strcmp(w, names[e->kind]); e->kind++)
		;
	if (e->kind == 9 || n < 1)
		die("rtapp spec: '%s': unknown line%s", w, "");
	if (e->kind == EV_RUN || e->kind == EV_SLEEP)
		e->ns = strtoull(a[0], NULL, 10);
	else
		e->id = obj_id(a[0]);
	if (e->kind == EV_TIMER && n > 1)
		e->ns = strtoull(a[1], NULL, 10);
	if (e->kind == EV_WAIT && n > 1)
		e->id2 = obj_id(a[1]);
	if (e->kind == EV_BARRIER && n > 1)
		rt.barrier[e->id].users = atoi(a[1]);
	rt.nev++;
	rt.ph[rt.nph - 1].n++;
}

static void spec_load(const char *path)
{
	char line[512], *w[8], *save;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		die("rtapp: cannot read %s%s", path, "");
	while (fgets(line, sizeof(line), f)) {
		for (n = 0, w[0] = strtok_r(line, " \t\n", &save); w[n] && n < 7;)
			w[++n] = strtok_r(NULL, " \t\n", &save);
		if (!n)
			continue;
		if (!strcmp(w[0], "duration"))
			rt.duration = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "pload"))
			rt.pload = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "thread") && n == 7 && rt.nth < RT_MAX_THREADS) {
			struct rt_thread *t = &rt.th[rt.nth++];

			snprintf(t->name, sizeof(t->name), "%s", w[1]);
			t->policy = atoi(w[2]);
			t->prio = atoi(w[3]);
			t->delay = strtoull(w[4], NULL, 10);
			t->loop = atoi(w[5]);
			snprintf(t->log, sizeof(t->log), "%s", w[6]);
			t->first_phase = rt.nph;
		} else if (!strcmp(w[0], "phase") && n == 2 && rt.nth && rt.nph < RT_MAX_PHASES) {
			rt.ph[rt.nph] = (struct rt_phase){ atoi(w[1]), rt.nev, 0 };
			rt.nph++;
			rt.th[rt.nth - 1].nphases++;
		} else {
			spec_event(w[0], w + 1, n - 1);
		}
	}
	fclose(f);
	if (!rt.nth || !rt.duration)
		die("rtapp spec %s: no thread or no duration%s", path, "");
}

/* ---- the threads -------------------------------------------------------------- */

static void q_push(struct rt_queue *q, int i)
{
	q->w[q->n++] = i;
}

static int q_pop(struct rt_queue *q)
{
	int i = q->w[0];

	memmove(q->w, q->w + 1, sizeof(q->w[0]) * (size_t)--q->n);
	return i;
}

/* MUTEX to thread I (woken if it waits), or to nobody. */
static void mutex_give(int id, int i)
{
	rt.mutex[id].owner = i;
	if (i >= 0)
		m_wake(rt.th[i].p);
}

static void mutex_release(int id)
{
	struct rt_mutex *mx = &rt.mutex[id];

	mutex_give(id, mx->q.n ? q_pop(&mx->q) : -1);
}

/* A condition's waiter I runs on once it holds its mutex again. */
static void cond_wake(int i)
{
	const struct rt_event *e = &rt.ev[rt.ph[rt.th[i].ph].first + rt.th[i].ev - 1];	/* its wait */

	if (rt.mutex[e->id2].owner < 0)
		mutex_give(e->id2, i);
	else
		q_push(&rt.mutex[e->id2].q, i);
}

static void row_end(struct rt_thread *t, u64 now)
{
	if (t->nrows == t->maxrows) {
		t->maxrows = t->maxrows ? 2 * t->maxrows : 256;
		t->rows = realloc(t->rows, sizeof(*t->rows) * (size_t)t->maxrows);
		if (!t->rows)
			die("rtapp: out of memory%s%s", "", "");
	}
	t->cur.end = now;
	t->cur.period = now - t->cur.start;
	t->rows[t->nrows++] = t->cur;
}

/* Past the last event of a pass: log it, then the next pass, phase or the end.
 * A pass that ends after the run's duration is not logged: rt-app's main has
 * cleared continue_running by then, and the thread logs only while it is set. */
static int pass_end(struct rt_thread *t, u64 now)
{
	if (now >= rt.duration)
		return 0;
	row_end(t, now);
	t->ev = 0;
	if (t->ph_left < 0 || --t->ph_left > 0)
		goto next;
	if (++t->ph == t->first_phase + t->nphases) {
		t->ph = t->first_phase;
		if (t->th_left > 0 && --t->th_left == 0)
			return 0;
	}
	t->ph_left = rt.ph[t->ph].loop;
next:
	memset(&t->cur, 0, sizeof(t->cur));
	t->cur.start = now;
	return 1;
}

/* One event of thread T (its step resumes at pc 2 unless the event says otherwise). */
static void event(struct machine *m, struct mproc *p, struct rt_thread *t, const struct rt_event *e)
{
	u64 now = m_now(m), *next = &rt.timer_next[e->id];
	int i = (int)(t - rt.th);

	p->pc = 2;
	switch (e->kind) {
	case EV_RUN:
		t->mark = now;
		p->pc = 3;
		m_burn(p, e->ns);
		return;
	case EV_SLEEP:
		m_sleep(m, p, e->ns);
		return;
	case EV_TIMER:
		if (!rt.timer_init[e->id]) {
			rt.timer_init[e->id] = 1;
			*next = t->t_first;
		}
		*next += e->ns;
		t->cur.c_per += e->ns;
		t->cur.slack = (s64)*next - (s64)now;
		if (t->cur.slack > 0) {
			t->mark = *next;
			p->pc = 4;
			m_sleep_until(m, p, *next);
		} else {
			*next = now;		/* overrun: the present is the new reference */
			m_next(p);
		}
		return;
	case EV_LOCK:
		if (rt.mutex[e->id].owner < 0) {
			rt.mutex[e->id].owner = i;
			m_next(p);
		} else {
			q_push(&rt.mutex[e->id].q, i);
			m_block(m, p);
		}
		return;
	case EV_UNLOCK:
		mutex_release(e->id);
		m_next(p);
		return;
	case EV_SIGNAL:				/* the first waiter; broad: all of them */
	case EV_BROAD:
		for (int k = e->kind == EV_BROAD ? rt.cond[e->id].n : rt.cond[e->id].n > 0; k > 0; k--)
			cond_wake(q_pop(&rt.cond[e->id]));
		m_next(p);
		return;
	case EV_WAIT:
		mutex_release(e->id2);
		q_push(&rt.cond[e->id], i);
		m_block(m, p);
		return;
	case EV_BARRIER:
		if (rt.barrier[e->id].q.n + 1 >= rt.barrier[e->id].users) {
			while (rt.barrier[e->id].q.n)
				m_wake(rt.th[q_pop(&rt.barrier[e->id].q)].p);
			m_next(p);
		} else {
			q_push(&rt.barrier[e->id].q, i);
			m_block(m, p);
		}
		return;
	}
}

/*
 * rt-app's threads meet at a barrier (pthread_barrier_wait) before their
 * first event; thread 0 reads the clock just before it, t_zero, the
 * reference of every thread's timers.  The last to arrive runs on and wakes
 * the others, rt waiters first by priority (a futex's plist), then the rest
 * in the order they came.
 */
static struct rt_queue start_q;
static u64 t_zero;

static void start_barrier(struct machine *m, struct mproc *p, int i)
{
	if (i == 0)
		t_zero = m_now(m);
	if (start_q.n + 1 < rt.nth) {
		q_push(&start_q, i);
		m_block(m, p);
		return;
	}
	for (int prio = 0; prio < MAX_PRIO; prio++)	/* plist order: prio, then arrival */
		for (int k = 0; k < start_q.n; k++)
			if (rt.th[start_q.w[k]].p->t.prio == prio)
				m_wake(rt.th[start_q.w[k]].p);
	start_q.n = 0;
	m_next(p);
}

static void rt_prog(struct machine *m, struct mproc *p)
{
	struct rt_thread *t = &rt.th[p->reg[0]];
	u64 now = m_now(m);

	switch (p->pc) {
	case 0:					/* its own sched_setattr, then the start barrier */
		if (t->policy)
			sched_setscheduler_prio(&p->t, t->policy == 1 ? SCHED_FIFO : SCHED_RR, t->prio);
		else
			set_user_nice(&p->t, t->prio);
		p->pc = 6;
		start_barrier(m, p, (int)(t - rt.th));
		return;
	case 6:					/* "delay" */
		p->pc = 1;
		if (t->delay)
			m_sleep(m, p, t->delay);
		else
			m_next(p);
		return;
	case 1:					/* the thread's start */
		t->t_first = t_zero;
		t->ph = t->first_phase;
		t->ph_left = rt.ph[t->ph].loop;
		t->th_left = t->loop;
		t->cur.start = now;
		p->pc = 2;
		m_next(p);
		return;
	case 3:					/* a run event ended */
		t->cur.run += now - t->mark;
		t->cur.c_dur += rt.ev[rt.ph[t->ph].first + t->ev - 1].ns;
		break;
	case 4:					/* a timer's sleep ended */
		t->cur.wu_lat += now - t->mark;
		break;
	case 5:
		m_exit(m, p);
		return;
	}
	if (t->ev == rt.ph[t->ph].n && !pass_end(t, now)) {
		p->pc = 5;
		m_kernel(p, m->cost.exit);
		return;
	}
	event(m, p, t, &rt.ev[rt.ph[t->ph].first + t->ev++]);
}

/* rt-app's main: a pthread_create (clone) per thread, in the file's order, then
 * it sleeps for the duration; each thread sets its own policy, then waits at
 * the start barrier. */
static void main_prog(struct machine *m, struct mproc *p)
{
	int i = p->pc / 2;

	if (i < rt.nth && p->pc++ % 2 == 0) {
		m_kernel(p, m->cost.clone_parent);
	} else if (i < rt.nth) {
		rt.th[i].p = m_fork(m, p, rt.th[i].name, rt_prog, 1);
		rt.th[i].p->reg[0] = i;
	} else if (p->pc++ == 2 * rt.nth) {
		m_sleep_until(m, p, rt.duration + 50 * MSEC);
	} else {
		m_exit(m, p);
	}
}

/* ---- output --------------------------------------------------------------------- */

static void print_logs(void)
{
	static const char *const pol[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR" };

	for (int i = 0; i < rt.nth; i++) {
		struct rt_thread *t = &rt.th[i];

		printf("==> %s <==\n# Policy : %s priority : %d\n", t->log, pol[t->policy], t->prio);
		printf("#idx     perf      run   period           start             end          rel_st"
		       "      slack c_duration   c_period     wu_lat\n");
		for (int k = 0; k < t->nrows; k++) {
			const struct rt_row *r = &t->rows[k];

			printf("%4d %8llu %8llu %8llu %15llu %15llu %15llu %10lld %10llu %10llu %10llu\n", i,
			       (unsigned long long)(r->c_dur / (rt.pload ? rt.pload : 1)),
			       (unsigned long long)(r->run / 1000), (unsigned long long)(r->period / 1000),
			       (unsigned long long)(r->start / 1000), (unsigned long long)(r->end / 1000),
			       (unsigned long long)(r->start / 1000), (long long)(r->slack / 1000),
			       (unsigned long long)(r->c_dur / 1000), (unsigned long long)(r->c_per / 1000),
			       (unsigned long long)(r->wu_lat / 1000));
		}
	}
}

int cmd_rtapp(int argc, char **argv)
{
	const char *env = getenv("SIM_CALIB"), *calib = env && *env ? env : "tools/granule/sim/engine/calibration";
	const char *preset = "commit-0bf377bbb0be";
	struct sim_costs costs;
	u64 phase, period;

	if (argc < 1)
		die("usage: build/sim rtapp SPEC [--preset P] [--hz H] [KNOB=VALUE...]%s%s", "", "");
	sched_test_reset();
	sysctl_sched_verify = 0;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--preset"))
			preset = argv[i + 1];
	apply_knob("sched_preset", preset);
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char name[64];

		if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
			i++;
		} else if (!strcmp(argv[i], "--hz") && i + 1 < argc) {
			apply_hz(argv[++i]);
		} else if (eq && eq != argv[i] && (size_t)(eq - argv[i]) < sizeof(name)) {
			memcpy(name, argv[i], (size_t)(eq - argv[i]));
			name[eq - argv[i]] = '\0';
			apply_knob(name, eq + 1);
		} else {
			die("%s: expected --preset P, --hz H or KNOB=VALUE%s", argv[i], "");
		}
	}
	spec_load(argv[0]);
	for (int k = 0; k < RT_MAX_OBJS; k++)
		rt.mutex[k].owner = -1;
	calib_load(calib, &costs, sched_eevdf());
	calib_hz(&costs, HZ, &phase, &period);
	m_init(&mach, &costs, phase, period);
	m_spawn(&mach, "rt-app", main_prog);
	m_run(&mach, rt.duration + 100 * MSEC);
	print_logs();
	return 0;
}
