/*
 * tools/granule/sim/engine/rtapp.c - `build/sim rtapp SPEC [--preset P] [--hz H]
 * [--tick-phase US] [--trace FILE] [KNOB=VALUE...]`: an rt-app workload on the simulated machine (machine.c)
 * with the kernel's measured costs (calib.c).  tools/sim experiment --rt-app
 * FILE and tools/sim tasks --rt-app FILE reach it through
 * tools/granule/sim/rtapp_sim.py, which reads rt-app's JSON (granule.rtapp),
 * refuses what this engine cannot do with one line, and writes SPEC:
 *
 *   duration NS
 *   pload NS                              rt-app's ns per loop, as it calibrated them
 *   loop NS                               what one of its loops costs on the image
 *   costs CREATE PRE WAKE START LOG WRITE RESUME  rt-app's own code on the image, ns (below)
 *   thread NAME POLICY PRIO DELAY_NS LOOP LOGPATH
 *   phase LOOP
 *   run NS | sleep NS | timer ID PERIOD_NS | lock ID | unlock ID
 *   signal ID | broad ID | wait COND_ID MUTEX_ID | barrier ID USERS
 *
 * (POLICY 0 SCHED_OTHER with PRIO the nice value, 1 SCHED_FIFO, 2 SCHED_RR;
 * timers, mutexes, conditions and barriers numbered by the front end, a
 * "unique" timer one per thread.)  Each thread follows rt-app 1.0's
 * run_event() and its thread loop step by step: a run event of NS is
 * rt-app's loadwait(), NS / pload loops of its busy function, each of them
 * LOOP ns of CPU, a fixed count that the interrupts and switches it sits
 * through make longer (every step of a thread is: it is a "fixed" mproc); a
 * timer sleeps with clock_nanosleep(TIMER_ABSTIME) to the timer's next
 * expiry, or, when that has passed, takes the present as the new reference
 * (rt-app's default "relative" mode); the log line of a pass is rt-app's: run (wall time in
 * the run events), period, slack, c_duration, c_period, wu_lat.  Locks
 * hand over in FIFO order, as glibc's futex mutex wakes one waiter; a
 * condition's waiter takes the mutex back before it runs on.
 *
 * rt-app's own code costs what the image measured (tools/granule/sim/rtapp_sim.py
 * has the figures): main's pthread_create() before each clone (CREATE); a
 * thread's set-up before the start barrier (PRE: "Using ... policy" on the
 * console); the barrier's last arrival wakes each waiter (WAKE); after the
 * barrier, "starting thread" on the console and the log's header (START);
 * between two passes, the log line formatted into the FILE buffer (LOG) and,
 * when the 4096-byte buffer fills, its write() (WRITE); after a timer's sleep,
 * the way back in user mode (glibc's return from clock_nanosleep, rt-app's
 * code, the vDSO's clock_gettime) to the clock read that ends wu_lat
 * (RESUME).  The console writes and the system calls are kernel work, which
 * nothing preempts.
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
	size_t buffered;		/* bytes in its log's FILE buffer */
	int flush;			/* this pass's line filled the buffer */
};

struct rt_queue { int w[RT_MAX_THREADS], n; };
struct rt_mutex { int owner; struct rt_queue q; };	/* owner -1: free */
struct rt_barrier { int users; struct rt_queue q; };

static struct {
	u64 duration, pload, loop_ns;
	u64 create_ns, pre_ns, wake_ns, start_ns, log_ns, write_ns, resume_ns;	/* rt-app's own costs */
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

/* "costs CREATE PRE WAKE START LOG WRITE RESUME": rt-app's own code, ns. */
static void spec_costs(char **a)
{
	u64 *c[] = { &rt.create_ns, &rt.pre_ns, &rt.wake_ns, &rt.start_ns, &rt.log_ns, &rt.write_ns,
		     &rt.resume_ns };

	for (int k = 0; k < 7; k++)
		*c[k] = strtoull(a[k], NULL, 10);
}

static void spec_load(const char *path)
{
	char line[512], *w[9], *save;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		die("rtapp: cannot read %s%s", path, "");
	while (fgets(line, sizeof(line), f)) {
		for (n = 0, w[0] = strtok_r(line, " \t\n", &save); w[n] && n < 8;)
			w[++n] = strtok_r(NULL, " \t\n", &save);
		if (!n)
			continue;
		if (!strcmp(w[0], "duration"))
			rt.duration = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "pload"))
			rt.pload = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "loop"))
			rt.loop_ns = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "costs") && n == 8)
			spec_costs(w + 1);
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
	if (!rt.nth || !rt.duration || !rt.pload || !rt.loop_ns)
		die("rtapp spec %s: no thread, duration, pload or loop%s", path, "");
}

/* ---- the threads -------------------------------------------------------------- */

/* The futex's queue key of thread I (kernel/proc/futex.c, 2.6.35's plist):
 * min(normal_prio, MAX_RT_PRIO), i.e. 99 - priority for SCHED_FIFO/RR and
 * 100 for every SCHED_OTHER thread. */
static int futex_key(int i)
{
	return rt.th[i].policy ? 99 - rt.th[i].prio : 100;
}

/* Queue thread I behind every waiter of its key or a lower one, as the
 * image's futex queues a waiter: a wake takes rt threads first, the highest
 * first, the others in the order they came. */
static void q_push(struct rt_queue *q, int i)
{
	int k = q->n;

	while (k > 0 && futex_key(q->w[k - 1]) > futex_key(i)) {
		q->w[k] = q->w[k - 1];
		k--;
	}
	q->w[k] = i;
	q->n++;
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

#define RT_FILE_BUF	4096		/* glibc's FILE buffer: st_blksize of a tmpfs file */

/* rt-app's timespec_to_usec(): ns to the nearest us (round(), half away from zero). */
static s64 usec(s64 ns)
{
	return ns >= 0 ? (ns + 500) / 1000 : -((-ns + 500) / 1000);
}

/* rt-app's log_timing() line for R of thread I, into BUF (its length): every time
 * rounded to the us as rt-app rounds it; run and wu_lat are already sums of
 * rounded us (in ns), one per run event and timer, as rt-app adds them. */
static int row_text(char *buf, size_t n, int i, const struct rt_row *r)
{
	return snprintf(buf, n, "%4d %8llu %8llu %8llu %15llu %15llu %15llu %10lld %10llu %10llu %10llu\n", i,
			(unsigned long long)r->perf, (unsigned long long)usec((s64)r->run),
			(unsigned long long)usec((s64)r->period), (unsigned long long)usec((s64)r->start),
			(unsigned long long)usec((s64)r->end), (unsigned long long)usec((s64)r->start),
			(long long)usec(r->slack), (unsigned long long)(r->c_dur / 1000),
			(unsigned long long)(r->c_per / 1000), (unsigned long long)usec((s64)r->wu_lat));
}

/* The log's header lines (the policy, the columns), as rt-app writes them. */
static int header_text(char *buf, size_t n, const struct rt_thread *t)
{
	static const char *const pol[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR" };

	return snprintf(buf, n, "# Policy : %s priority : %d\n#idx     perf      run   period           start"
			"             end          rel_st      slack c_duration   c_period     wu_lat\n",
			pol[t->policy], t->prio);
}

static void row_end(struct rt_thread *t, u64 now)
{
	char line[256];

	if (t->nrows == t->maxrows) {
		t->maxrows = t->maxrows ? 2 * t->maxrows : 256;
		t->rows = realloc(t->rows, sizeof(*t->rows) * (size_t)t->maxrows);
		if (!t->rows)
			die("rtapp: out of memory%s%s", "", "");
	}
	t->cur.end = now;
	t->cur.period = now - t->cur.start;
	t->rows[t->nrows++] = t->cur;
	t->buffered += (size_t)row_text(line, sizeof(line), (int)(t - rt.th), &t->cur);
	t->flush = t->buffered > RT_FILE_BUF;
	if (t->flush)
		t->buffered -= RT_FILE_BUF;
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
	return 1;
}

/* rt-app's loadwait(): the loops of a run of NS at pload ns per loop, counted in
 * whole microseconds, one second's worth at a time (its unsigned long is 32 bits). */
static u64 run_loops(u64 ns)
{
	u64 us = ns / 1000;

	return us / 1000000 * (1000000000 / rt.pload) + us % 1000000 * 1000 / rt.pload;
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
		t->cur.perf += run_loops(e->ns);
		p->pc = 3;
		m_burn(p, run_loops(e->ns) * rt.loop_ns);
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
 * reference of every thread's timers.  The last to arrive wakes the others
 * in the futex's order (q_push: rt threads first, the highest first, then
 * the others in the order they came, as 2.6.35's hash bucket plist and the
 * image's futex), WAKE_NS each, then runs on.
 */
static struct rt_queue start_q;
static u64 t_zero;
static s64 tick_phase = -1;	/* --tick-phase: t_zero's place past a tick, ns (-1: as calibrated) */

static void start_barrier(struct machine *m, struct mproc *p, int i)
{
	if (i == 0) {
		t_zero = m_now(m);
		if (tick_phase >= 0)		/* the next tick, TICK - PHASE from now */
			m->next_tick = fake_clock_ns + m->tick_ns - (u64)tick_phase % m->tick_ns;
	}
	if (start_q.n + 1 < rt.nth) {
		q_push(&start_q, i);
		m_block(m, p);
		return;
	}
	for (int k = 0; k < start_q.n; k++)
		m_wake(rt.th[start_q.w[k]].p);
	m_kernel(p, (u64)start_q.n * rt.wake_ns);	/* futex_wake, one waiter at a time */
	start_q.n = 0;
}

static void rt_prog(struct machine *m, struct mproc *p)
{
	struct rt_thread *t = &rt.th[p->reg[0]];
	u64 now = m_now(m);

	switch (p->pc) {
	case 0:					/* "Using ... policy" on the console */
		p->fixed = 1;
		p->pc = 10;
		m_kernel(p, rt.pre_ns);
		return;
	case 10:				/* its own sched_setattr, then the start barrier */
		if (t->policy)
			sched_setscheduler_prio(&p->t, t->policy == 1 ? SCHED_FIFO : SCHED_RR, t->prio);
		else
			set_user_nice(&p->t, t->prio);
		p->pc = 6;
		start_barrier(m, p, (int)(t - rt.th));
		return;
	case 6:					/* "starting thread" on the console, the log's header */
		t->buffered = (size_t)header_text(NULL, 0, t);
		p->pc = 9;
		m_kernel(p, rt.start_ns);
		return;
	case 9:					/* "delay": to t_zero + delay */
		t->t_first = t_zero + t->delay;
		p->pc = 1;
		m_sleep_until(m, p, t->t_first);
		return;
	case 1:					/* the thread's start */
		t->ph = t->first_phase;
		t->ph_left = rt.ph[t->ph].loop;
		t->th_left = t->loop;
		t->cur.start = now;
		p->pc = 2;
		m_next(p);
		return;
	case 7:					/* its log line formatted; the buffer written if full */
		p->pc = 8;
		if (t->flush)
			m_kernel(p, rt.write_ns);
		else
			m_next(p);
		return;
	case 8:					/* the next pass starts */
		t->cur.start = now;
		break;
	case 3:					/* a run event ended */
		t->cur.run += (u64)usec((s64)(now - t->mark)) * 1000;	/* rt-app adds rounded us */
		t->cur.c_dur += rt.ev[rt.ph[t->ph].first + t->ev - 1].ns;
		break;
	case 4:					/* a timer's sleep ended: back to its clock read */
		p->pc = 11;
		m_burn(p, rt.resume_ns);
		return;
	case 11:				/* the clock read that ends wu_lat */
		t->cur.wu_lat += (u64)usec((s64)(now - t->mark)) * 1000;
		break;
	case 5:
		m_exit(m, p);
		return;
	}
	if (t->ev == rt.ph[t->ph].n) {
		if (!pass_end(t, now)) {
			p->pc = 5;
			m_kernel(p, m->cost.exit);
		} else {
			p->pc = 7;
			m_burn(p, rt.log_ns);
		}
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

	if (i < rt.nth && p->pc++ % 2 == 0) {		/* pthread_create: its stack, then clone */
		m_kernel(p, rt.create_ns > m->cost.clone_parent ? rt.create_ns : m->cost.clone_parent);
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
	char line[256];

	for (int i = 0; i < rt.nth; i++) {
		struct rt_thread *t = &rt.th[i];

		header_text(line, sizeof(line), t);
		printf("==> %s <==\n%s", t->log, line);
		for (int k = 0; k < t->nrows; k++) {
			row_text(line, sizeof(line), i, &t->rows[k]);
			fputs(line, stdout);
		}
	}
}

int cmd_rtapp(int argc, char **argv)
{
	const char *env = getenv("SIM_CALIB"), *calib = env && *env ? env : "tools/granule/sim/engine/calibration";
	const char *preset = "commit-0bf377bbb0be";
	struct sim_costs costs;
	u64 phase, period;
	FILE *trace = NULL;

	if (argc < 1)
		die("usage: build/sim rtapp SPEC [--preset P] [--hz H] [--tick-phase US] [--trace FILE] [KNOB=VALUE...]%s%s", "", "");
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
		} else if (!strcmp(argv[i], "--tick-phase") && i + 1 < argc) {
			char *end;

			tick_phase = strtoll(argv[++i], &end, 10);
			if (*end || tick_phase < 0 || tick_phase >= 1000000)
				die("--tick-phase %s: expected 0..999999 (us past a tick)%s", argv[i], "");
			tick_phase *= 1000;
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			if (!(trace = fopen(argv[++i], "w")))
				die("--trace %s: cannot write it%s", argv[i], "");
		} else if (eq && eq != argv[i] && (size_t)(eq - argv[i]) < sizeof(name)) {
			memcpy(name, argv[i], (size_t)(eq - argv[i]));
			name[eq - argv[i]] = '\0';
			apply_knob(name, eq + 1);
		} else {
			die("%s: expected --preset P, --hz H, --tick-phase US, --trace FILE or KNOB=VALUE%s", argv[i], "");
		}
	}
	spec_load(argv[0]);
	for (int k = 0; k < RT_MAX_OBJS; k++)
		rt.mutex[k].owner = -1;
	calib_load(calib, &costs, sched_eevdf());
	calib_hz(&costs, HZ, &phase, &period);
	m_init(&mach, &costs, phase, period);
	mach.trace = trace;
	m_spawn(&mach, "rt-app", main_prog);
	m_run(&mach, rt.duration + 100 * MSEC);
	if (trace)
		fclose(trace);
	print_logs();
	return 0;
}
