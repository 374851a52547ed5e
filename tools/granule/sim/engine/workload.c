/*
 * tools/granule/sim/engine/workload.c - the experiment's programs (see workload.h).
 * Each program is a small state machine on mproc.pc: the comment before
 * each case is the line of user/bench/ or user/lib/ it stands for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "../../user/bench/kjob.h"
#include "../../kernel/sched/sched.h"
#include "../../kernel/sched/eevdf.h"

#define MSEC	1000000ULL

struct wl_sim wl;

/* ---- kbuild-load: make -jN (user/bench/kbuild-load.c) --------------------- */

static void kjob_of(const struct mproc *p, struct kjob *j)
{
	kjob_params(wl.seed, (u64)p->reg[0], j);
}

/* At N > 1 a job and its "as" read /proc/self/sched's se.nr_migrations when they
 * start and before they exit (self_nr_migrations(), user/bench/bench.c). */
static u64 proc_sched_read(const struct machine *m)
{
	return m->ncpus > 1 ? m->cost.proc_sched_read : 0;
}

/* the "as" grandchild: burn_cpu_ns(as_ns); _exit(0) */
static void as_prog(struct machine *m, struct mproc *p)
{
	struct kjob j;

	switch (p->pc++) {
	case 0:
		kjob_of(p, &j);
		p->nr_migrations0 = (s64)p->t.se.nr_migrations;	/* start_migrations() */
		m_burn_loop(m, p, (u64)j.as_ns);
		return;
	case 1:
		m_kernel(p, m->cost.exit + proc_sched_read(m));	/* report_migrations()'s read, exit */
		return;
	default:	/* report_migrations(): to the job, which make drains */
		p->parent->reg[5] += (s64)p->t.se.nr_migrations - p->nr_migrations0;
		m_exit(m, p);
	}
}

/* one job: kjob_body (burn a, sleep s1, burn b, sleep s2, burn c), then
 * maybe fork "as" and wait for it, then _exit */
static void job_prog(struct machine *m, struct mproc *p)
{
	struct kjob j;
	struct mproc *c;

	kjob_of(p, &j);
	switch (p->pc++) {
	case 0:
		p->nr_migrations0 = (s64)p->t.se.nr_migrations;	/* start_migrations() */
		m_burn_loop(m, p, (u64)j.a);
		return;
	case 1: m_kernel(p, j.s1 ? m->cost.sleep : 0); return;
	case 2: m_sleep(m, p, (u64)j.s1); return;
	case 3: m_burn_loop(m, p, (u64)j.b); return;
	case 4: m_kernel(p, j.s2 ? m->cost.sleep : 0); return;
	case 5: m_sleep(m, p, (u64)j.s2); return;
	case 6: m_burn_loop(m, p, (u64)j.c); return;
	case 7:
		if (!j.as_ns) {
			p->pc = 11;
			m_next(p);
			return;
		}
		m_kernel(p, m->cost.fork_parent);
		return;
	case 8:
		c = m_fork(m, p, "as", as_prog, 0);
		c->stall += proc_sched_read(m);		/* its start_migrations() */
		c->reg[0] = p->reg[0];
		wl.as_children++;
		return;
	case 9: m_wait(m, p); return;
	case 10: m_kernel(p, m->cost.wait); return;
	case 11: m_kernel(p, m->cost.exit + proc_sched_read(m)); return;	/* report_migrations() */
	default:
		/* what make's wait() reports: the job's planned work, if in the window */
		if (m_now(m) <= wl.kb_end) {
			wl.jobs++;
			wl.work += (u64)(j.work + j.as_ns);
			wl.migrations += (s64)p->t.se.nr_migrations - p->nr_migrations0 + p->reg[5];
		} else {
			wl.tail_jobs++;
		}
		m_exit(m, p);
	}
}

/* make: keep N jobs in flight until the window ends, then reap the rest.
 * reg[0]: next job index, reg[1]: jobs in flight */
static void make_prog(struct machine *m, struct mproc *p)
{
	struct mproc *c;

	switch (p->pc) {
	case 0:					/* while (inflight < nj && now < end) */
		if (p->reg[1] < wl.kbuild_j && m_now(m) < wl.kb_end) {
			p->pc = 1;
			m_kernel(p, m->cost.fork_parent);
		} else {
			p->pc = 2;
			m_next(p);
		}
		return;
	case 1:					/* start_job(index++) */
		c = m_fork(m, p, "kbuild-job", job_prog, 0);
		c->stall += proc_sched_read(m);		/* its start_migrations() */
		c->reg[0] = p->reg[0]++;
		p->reg[1]++;
		p->pc = 0;
		return;
	case 2:					/* wait() */
		if (p->reg[1] == 0) {
			p->pc = 4;
			m_kernel(p, m->cost.exit);
			return;
		}
		p->pc = 3;
		m_wait(m, p);
		return;
	case 3:
		p->reg[1]--;
		p->pc = 0;
		m_kernel(p, m->cost.wait);
		return;
	default:
		m_exit(m, p);
	}
}

/* ---- video-load (user/bench/video-load.c) ---------------------------------- */

/* reg[0]: its t0, reg[1]: frame k, reg[2]: due */
static void video_prog(struct machine *m, struct mproc *p)
{
	const u64 frame = 40 * MSEC, end = (u64)p->reg[0] + wl.duration + 2 * LEAD_NS;
	u64 now = m_now(m), due = (u64)p->reg[0] + (u64)p->reg[1] * frame;

	switch (p->pc) {
	case 0:					/* t0 = now + frame */
		p->reg[0] = (s64)(now + frame);
		p->pc = 1;
		m_next(p);
		return;
	case 1:					/* for (k = 0; due < end;) sleep_until(due) */
		if (due >= end) {
			p->pc = 4;
			m_kernel(p, m->cost.exit);
			return;
		}
		p->pc = 2;
		m_sleep_until(m, p, due);
		return;
	case 2:					/* burn_cpu_ns(burst) */
		wl.max_wake = now - due > wl.max_wake ? now - due : wl.max_wake;
		wl.sum_wake += now - due;
		p->pc = 3;
		m_burn_loop(m, p, (u64)wl.video_burst_ms * MSEC);
		return;
	case 3:
		wl.frames++;
		if (now <= due + frame) {
			wl.met++;
			p->reg[1]++;
		} else {
			s64 next = (s64)((now - (u64)p->reg[0]) / frame) + 1;

			wl.late++;
			wl.dropped += next - p->reg[1] - 1;
			p->reg[1] = next;
		}
		p->pc = 1;
		m_next(p);
		return;
	default:
		m_exit(m, p);
	}
}

/* ---- the latency test (user/bench/latency.c, user/lib/timer.c) ------------- */

/* notified(): claim the expiry index, record now - expiry */
static void notified(struct machine *m, int overrun)
{
	int k = wl.next_k;

	wl.next_k += 1 + overrun;
	wl.overruns += overrun;
	if (k >= wl.n)
		return;
	wl.lat[k] = (s64)(m_now(m) - (wl.t0 + (u64)k * wl.period));
	wl.samples++;
}

/* A notification thread: runs fn (clock read first), then exits.  reg[0]: the
 * overrun of its expiry (latched by the helper). */
static void notify_prog(struct machine *m, struct mproc *p)
{
	switch (p->pc++) {
	case 0: m_burn(p, m->cost.notify_pre); return;
	case 1:
		notified(m, (int)p->reg[0]);
		m_kernel(p, m->cost.notify_post);
		return;
	default:
		wl.notify_cpu += p->cpu_ns;
		wl.threads++;
		m_exit(m, p);
	}
}

/* The SIGEV_THREAD helper: sigwaitinfo, pad, thread_create, loop. */
static void helper_prog(struct machine *m, struct mproc *p)
{
	struct mproc *c;
	int ov;

	switch (p->pc) {
	case 0:
		p->pc = 1;
		m_sigwait(m, p);
		return;
	case 1:
		ov = m_sigtake(p);
		if (ov < 0) {			/* woken without a signal: wait again */
			p->pc = 0;
			m_next(p);
			return;
		}
		p->reg[0] = ov;
		wl.expiries++;
		p->pc = 2;
		m_kernel(p, m->cost.helper + wl.pad);
		return;
	case 2:
		c = m_fork(m, p, "notify", notify_prog, 1);
		c->fixed = 1;
		c->reg[0] = p->reg[0];
		p->pc = 3;
		return;
	default:
		p->pc = 0;
		m_kernel(p, m->cost.clone_parent);
		return;
	}
}

/* The experiment's own thread: fork the loads (start_loads()), sleep LEAD_NS
 * from then, start the test; in signal mode it takes the signals itself (its
 * handler runs notified()).  The machine starts at its first fork, which is
 * where the calibration's start phase is measured. */
static void main_prog(struct machine *m, struct mproc *p)
{
	struct mproc *c;
	int ov, i;

	switch (p->pc) {
	case 0:					/* spawn(load i): fork, exec; reg[1]: i */
		i = (int)p->reg[1]++;
		if (i == 2) {
			p->pc = 4;
			m_next(p);
			return;
		}
		if (!(i ? wl.video_burst_ms : wl.kbuild_j)) {
			m_next(p);
			return;
		}
		c = m_fork(m, p, i ? "video-load" : "kbuild-load", i ? video_prog : make_prog, 0);
		c->stall += m->cost.exec;
		if (!i) {
			wl.kb_start = m_now(m) + c->stall;
			wl.kb_end = wl.kb_start + wl.duration + 2 * LEAD_NS;
		}
		p->pc = 1;
		return;
	case 1:					/* the rest of the parent's fork() */
		p->pc = 0;
		m_kernel(p, m->cost.fork_parent);
		return;
	case 4:					/* sleep_until(now + LEAD_S) */
		p->pc = 5;
		m_sleep(m, p, LEAD_NS);
		return;
	case 5:					/* timer_create: the helper (thread mode) */
		if (wl.slice && sched_eevdf_running)	/* wl_set_slice(slice_us) */
			eevdf_change_slice(&p->t, wl.slice);
		if (wl.thread_mode) {
			wl.helper = m_fork(m, p, "timer-helper", helper_prog, 1);
			wl.helper->fixed = 1;
			if (wl.slice && sched_eevdf_running)	/* wl_set_slice(0) */
				eevdf_change_slice(&p->t, 0);
		}
		p->pc = 6;
		return;
	case 6:					/* t0 = now + period, timer_settime */
		wl.t0 = m_now(m) + wl.period;
		m_timer_arm(m, wl.thread_mode ? wl.helper : p, wl.t0, wl.period);
		p->fixed = 1;
		p->pc = 7;
		m_next(p);
		return;
	case 7:					/* sleep_until(end): signals interrupt it */
		p->pc = 8;
		if (wl.thread_mode)
			m_sleep_until(m, p, wl.t0 + (u64)wl.n * wl.period + END_GRACE_NS);
		else
			m_sigwait(m, p);
		return;
	case 8:
		ov = m_sigtake(p);
		if (ov < 0) {
			p->pc = 7;
			m_next(p);
			return;
		}
		p->pc = 9;
		p->reg[0] = ov;
		m_kernel(p, m->cost.sig_pre);
		return;
	case 9:
		notified(m, (int)p->reg[0]);
		p->pc = 7;
		m_kernel(p, m->cost.sig_post);
		return;
	}
}

void wl_start(struct machine *m)
{
	wl.n = (int)(wl.duration / wl.period);
	if (wl.n < 1)
		wl.n = 1;
	wl.lat = malloc(sizeof(*wl.lat) * (size_t)wl.n);
	if (!wl.lat) {
		fprintf(stderr, "sim: out of memory\n");
		exit(2);
	}
	for (int k = 0; k < wl.n; k++)
		wl.lat[k] = INT64_MIN;
	m_spawn(m, "experiment", main_prog);
}

void wl_finish(struct machine *m)
{
	u64 end;

	while (!wl.t0)				/* the test starts after LEAD_NS */
		m_run(m, m_now(m) + MSEC);
	wl.busy_from = m_now(m);		/* /proc/stat read before wl_run() */
	memcpy(wl.idle_from, m->idle_ns, sizeof(wl.idle_from));
	end = wl.t0 + (u64)wl.n * wl.period;
	m_run(m, end);
	/* then poll each period for late notifications, up to the grace */
	while (wl.next_k < wl.n && m_now(m) < end + END_GRACE_NS)
		m_run(m, m_now(m) + wl.period);
	wl.busy_to = m_now(m);			/* ... and after it */
	memcpy(wl.idle_to, m->idle_ns, sizeof(wl.idle_to));
	m_timer_disarm(m);
	/* the loads run out their window (the experiment waits for them) */
	if (wl.kbuild_j && m_now(m) < wl.kb_end)
		m_run(m, wl.kb_end);
}
