/*
 * tests/host/sched/sim.c - the discrete-event simulator (see sim.h).
 *
 * Event order at one instant: the running task's action, then wakeups,
 * then the hrtick, then the periodic tick, then a random event.  After
 * every event the invariant checker runs (sched_verify(); core.c also
 * runs it inside, since the tests set sched_verify=1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim.h"
#include "sim_core.h"
#include "fake.h"
#include <kernel/sched.h>
#include <kernel/hrtick.h>
#include <kernel/cmdline.h>
#include "../../../kernel/sched/sched.h"

u32 sim_rand(struct sim *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	return s->rng;
}

/* uniform in [lo, hi] */
static u64 rnd_range(struct sim *s, u64 lo, u64 hi)
{
	u64 r = ((u64)sim_rand(s) << 32) | sim_rand(s);

	return lo + r % (hi - lo + 1);
}

struct sim_task *sim_of(struct task *t)
{
	if (!t || t == sched_idle_task())
		return NULL;
	return container_of(t, struct sim_task, t);
}

void sim_init(struct sim *s, struct sim_task *storage, int max, u32 seed)
{
	memset(s, 0, sizeof(*s));
	memset(storage, 0, sizeof(*storage) * (size_t)max);
	s->tasks = storage;
	s->max = max;
	s->tick_ns = 1000000000ULL / HZ;
	s->next_tick = fake_clock_ns + s->tick_ns;
	s->start = fake_clock_ns;
	s->rng = seed ? seed : 1;
	s->last_current[raw_smp_processor_id()] = current;
	s->ncpus = 1;
	s->max_live = max / 2;
}

u64 sim_elapsed(const struct sim *s)
{
	return fake_clock_ns - s->start;
}

static int nr_live(struct sim *s)
{
	int n = 0;

	for (int i = 0; i < s->max; i++)
		n += s->tasks[i].used && !s->tasks[i].dead;
	return n;
}

struct sim_task *sim_slot_alloc(struct sim *s)
{
	static int next_pid = 1000;

	for (int i = 0; i < s->max; i++) {
		struct sim_task *st = &s->tasks[i];

		if (!st->used) {
			memset(st, 0, sizeof(*st));
			st->used = 1;
			st->t.pid = st->t.tgid = next_pid++;
			return st;
		}
	}
	return NULL;
}

u64 sim_first_burst(struct sim *s, struct sim_task *st)
{
	switch (st->kind) {
	case SIM_HOG:
		return SIM_INF;
	case SIM_RANDOM:
		return rnd_range(s, 1000, 8000000);
	default:
		return st->run_ns;
	}
}

struct sim_task *sim_spawn(struct sim *s, enum sim_kind kind, const char *name,
			   int nice, u64 run_ns, u64 sleep_ns)
{
	struct sim_task *st = sim_slot_alloc(s);

	if (!st)
		return NULL;
	st->kind = kind;
	st->run_ns = run_ns;
	st->sleep_ns = sleep_ns;
	st->child_run_ns = run_ns;
	snprintf(st->t.comm, sizeof(st->t.comm), "%s", name);
	st->burst_left = sim_first_burst(s, st);
	st->created_at = fake_clock_ns;
	sched_fork(&st->t);
	if (s->ncpus > 1)	/* the parent's affinity, as init's (sim_smp.c) */
		st->t.cpus_allowed = s->spawn_mask;
	if (nice)
		set_user_nice(&st->t, nice);
	wake_up_new_task(&st->t);
	s->forks++;
	return st;
}

/* Note switch-ins: first runs and wakeup latencies; free dead slots. */
void sim_after_event(struct sim *s)
{
	struct sim_task *cur = sim_of(current);

	struct task **last = &s->last_current[raw_smp_processor_id()];

	if (current != *last) {
		struct sim_task *prev = sim_of(*last);

		if (prev && prev->dead)
			prev->used = 0;		/* switched out for good */
		if (cur) {
			if (!cur->first_run_at) {
				u64 lat = fake_clock_ns - cur->created_at;

				cur->first_run_at = fake_clock_ns;
				if (cur->kind == SIM_CHILD) {
					s->child_lat_sum += lat;
					s->child_lat_n++;
					if (lat > s->child_lat_max)
						s->child_lat_max = lat;
				}
			}
			if (cur->woken_at) {
				u64 lat = fake_clock_ns - cur->woken_at;

				if (lat > cur->max_wake_latency)
					cur->max_wake_latency = lat;
				cur->sum_wake_latency += lat;
				cur->nr_wake_latency++;
				cur->woken_at = 0;
			}
		}
		*last = current;
	}
	s->events++;
	assert_int_equal(sched_verify(), 0);
	/* work conserving: idle runs only when nothing is runnable */
	if (!cur)
		assert_int_equal(this_rq()->nr_running, 0);
}

/* The irq-exit path. */
void sim_irq_exit(struct sim *s)
{
	if (s->ncpus > 1)
		sim_smp_irq_exit(s);	/* the softirq, a stopper's work queued */
	if (current->need_resched)
		preempt_schedule_irq();
	sim_after_event(s);
}

/* The syscall-exit path. */
static void syscall_exit(struct sim *s)
{
	if (current->need_resched)
		schedule();
	sim_after_event(s);
}

static void go_to_sleep(struct sim *s, struct sim_task *cur, u64 ns, long state)
{
	cur->wake_at = fake_clock_ns + ns;
	if (cur->wake_at == 0)
		cur->wake_at = 1;
	cur->timer_cpu = raw_smp_processor_id();	/* hrtimer_start() queues it here */
	cur->t.state = state;
	s->sleeps++;
	schedule();
	sim_after_event(s);
}

static void do_exit(struct sim *s, struct sim_task *cur)
{
	cur->dead = 1;
	cur->t.state = TASK_DEAD;
	s->exits++;
	schedule();
	sim_after_event(s);
}

static void do_fork(struct sim *s, struct sim_task *cur, enum sim_kind kind,
		    u64 run_ns, int nice)
{
	struct sim_task *c;

	if (nr_live(s) >= s->max_live)
		return;
	c = sim_spawn(s, kind, kind == SIM_CHILD ? "child" : "rand", nice,
		      run_ns, rnd_range(s, 100000, 20000000));
	(void)c;
	(void)cur;
}

/* The running task's burst is over: it makes a "system call". */
void sim_act(struct sim *s, struct sim_task *cur)
{
	switch (cur->kind) {
	case SIM_HOG:
		cur->burst_left = SIM_INF;
		sim_after_event(s);
		return;
	case SIM_SLEEPER:
		if (cur->period_ns) {	/* cyclictest: clock_nanosleep(TIMER_ABSTIME) */
			cur->next_expiry += cur->period_ns;
			go_to_sleep(s, cur, cur->next_expiry > fake_clock_ns ?
					    cur->next_expiry - fake_clock_ns : 0, TASK_INTERRUPTIBLE);
			return;
		}
		go_to_sleep(s, cur, cur->sleep_ns, TASK_INTERRUPTIBLE);
		return;
	case SIM_FORKER:
		do_fork(s, cur, SIM_CHILD, cur->child_run_ns, cur->child_nice);
		cur->burst_left = cur->run_ns;
		if (cur->sleep_ns)	/* like a timer thread: fork, then wait */
			go_to_sleep(s, cur, cur->sleep_ns, TASK_INTERRUPTIBLE);
		else
			syscall_exit(s);
		return;
	case SIM_CHILD:
		do_exit(s, cur);
		return;
	case SIM_YIELDER:
		cur->burst_left = cur->run_ns;
		s->yields++;
		sched_yield();
		sim_after_event(s);
		return;
	case SIM_STOPPER:
		sim_stopper_act(s, cur);
		return;
	case SIM_RANDOM:
		break;
	}

	/* SIM_RANDOM */
	cur->burst_left = rnd_range(s, 1000, 8000000);
	switch (sim_rand(s) % 10) {
	case 0: case 1: case 2:
		go_to_sleep(s, cur, rnd_range(s, 1000, 30000000), TASK_INTERRUPTIBLE);
		return;
	case 3:
		go_to_sleep(s, cur, rnd_range(s, 1000, 5000000), TASK_UNINTERRUPTIBLE);
		return;
	case 4:
		s->yields++;
		sched_yield();
		sim_after_event(s);
		return;
	case 5: case 6:
		do_fork(s, cur, sim_rand(s) % 2 ? SIM_RANDOM : SIM_CHILD,
			rnd_range(s, 100000, 10000000), (int)(sim_rand(s) % 40) - 20);
		syscall_exit(s);
		return;
	case 7:
		if (nr_live(s) > 2) {
			do_exit(s, cur);
			return;
		}
		syscall_exit(s);
		return;
	case 8:
		s->renices++;
		set_user_nice(&cur->t, (long)(sim_rand(s) % 40) - 20);
		syscall_exit(s);
		return;
	default:
		syscall_exit(s);	/* a plain syscall */
		return;
	}
}

static struct sim_task *random_live(struct sim *s)
{
	for (int tries = 0; tries < 4 * s->max; tries++) {
		struct sim_task *st = &s->tasks[sim_rand(s) % (u32)s->max];

		if (st->used && !st->dead)
			return st;
	}
	return NULL;
}

/* EEVDF's knob (the CFS ones refuse writes under sched_preset=linux-6.12). */
static void eevdf_knob(struct sim *s)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu",
		 (unsigned long long)rnd_range(s, 100000, 6000000));
	assert_int_equal(knob_apply("sched_base_slice_ns", val), 0);
}

/* Something happens from outside the running task (irq context). */
static void random_event(struct sim *s)
{
	static const char *const feats[] = {
		"GENTLE_FAIR_SLEEPERS", "START_DEBIT", "WAKEUP_PREEMPT",
		"NEXT_BUDDY", "LAST_BUDDY", "HRTICK", "DOUBLE_TICK",
	};
	/* under sched_preset=linux-6.12 (EEVDF): Linux 6.12's bits and knob */
	static const char *const feats_eevdf[] = {
		"PLACE_LAG", "PLACE_DEADLINE_INITIAL", "PLACE_REL_DEADLINE",
		"RUN_TO_PARITY", "PREEMPT_SHORT", "NEXT_BUDDY", "PICK_BUDDY",
		"DELAY_DEQUEUE", "DELAY_ZERO", "WAKEUP_PREEMPTION",
	};
	struct sim_task *st = random_live(s);
	char val[64];

	s->next_random = fake_clock_ns + rnd_range(s, 10000, 3000000);
	switch (sim_rand(s) % 12) {
	case 0: case 1:
		if (nr_live(s) < s->max_live)
			sim_spawn(s, sim_rand(s) % 3 ? SIM_RANDOM : SIM_HOG, "spawn",
				  (int)(sim_rand(s) % 40) - 20,
				  rnd_range(s, 100000, 5000000), 0);
		break;
	case 2: case 3:
		if (st) {
			s->renices++;
			set_user_nice(&st->t, (long)(sim_rand(s) % 40) - 20);
		}
		break;
	case 4:
		if (st)
			sched_setscheduler(&st->t, (int[]){ SCHED_NORMAL, SCHED_BATCH,
							    SCHED_IDLE }[sim_rand(s) % 3]);
		break;
	case 10:
		fake_hrtick.available = (int)(sim_rand(s) % 2);
		break;
	case 5: case 6:
		if (st && st->wake_at) {	/* an early wakeup */
			st->wake_at = 0;
			st->woken_at = fake_clock_ns;
			st->burst_left = sim_first_burst(s, st);
			wake_up_process(&st->t);
		}
		break;
	case 7:
		if (sched_eevdf())
			snprintf(val, sizeof(val), "%s%s", sim_rand(s) % 2 ? "NO_" : "",
				 feats_eevdf[sim_rand(s) % (sizeof(feats_eevdf) /
							    sizeof(feats_eevdf[0]))]);
		else
			snprintf(val, sizeof(val), "%s%s", sim_rand(s) % 2 ? "NO_" : "",
				 feats[sim_rand(s) % (sizeof(feats) / sizeof(feats[0]))]);
		assert_int_equal(knob_apply("sched_features", val), 0);
		break;
	case 8:
		if (sched_eevdf()) {
			eevdf_knob(s);
			break;
		}
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)rnd_range(s, 100000, 20000000));
		assert_int_equal(knob_apply(sim_rand(s) % 2 ? "sched_latency_ns" :
					    "sched_min_granularity_ns", val), 0);
		break;
	case 9:
		if (sched_eevdf()) {
			eevdf_knob(s);
			break;
		}
		snprintf(val, sizeof(val), "%u", sim_rand(s) % 2);
		assert_int_equal(knob_apply(sim_rand(s) % 2 ? "sched_child_runs_first" :
					    "sched_compat_yield", val), 0);
		break;
	default:
		if (sched_eevdf()) {
			eevdf_knob(s);
			break;
		}
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)rnd_range(s, 0, 5000000));
		assert_int_equal(knob_apply("sched_wakeup_granularity_ns", val), 0);
		break;
	}
	sim_irq_exit(s);
}

u64 sim_next_wake(struct sim *s, u64 t)
{
	for (int i = 0; i < s->max; i++) {
		struct sim_task *st = &s->tasks[i];

		if (st->used && !st->dead && st->wake_at && st->wake_at < t)
			t = st->wake_at;
	}
	return t;
}

void sim_charge(struct sim *s, struct sim_task *cur, u64 dt)
{
	if (!cur) {
		s->idle_ns += dt;
		return;
	}
	cur->cpu_ns += dt;
	if (cur->burst_left != SIM_INF)
		cur->burst_left -= dt;
}

void sim_timer_wake(struct sim *s, struct sim_task *st)
{
	st->woken_at = st->wake_at;	/* a wakeup's latency counts from the expiry */
	st->wake_at = 0;
	st->burst_left = sim_first_burst(s, st);
	try_to_wake_up(&st->t, TASK_NORMAL, 0);
	if (s->on_wakeup)
		s->on_wakeup(s, st);
	sim_irq_exit(s);
}

void sim_run(struct sim *s, u64 duration)
{
	u64 end = fake_clock_ns + duration;

	if (s->ncpus > 1) {
		sim_run_smp(s, duration);	/* sim_smp.c */
		return;
	}

	if (s->random && !s->next_random)
		s->next_random = fake_clock_ns + 1000;
	/* the idle loop: it notices need_resched (set by set-up forks) at once */
	if (current->need_resched)
		schedule();
	sim_after_event(s);

	for (;;) {
		struct sim_task *cur = sim_of(current);
		u64 now = fake_clock_ns, t = end, dt;

		if (s->next_tick < t)
			t = s->next_tick;
		if (cur && cur->burst_left != SIM_INF && now + cur->burst_left < t)
			t = now + cur->burst_left;
		t = sim_next_wake(s, t);
		if (fake_hrtick.armed && fake_hrtick.expires < t)
			t = fake_hrtick.expires;
		if (s->random && s->next_random < t)
			t = s->next_random;
		if (t < now)
			t = now;	/* an expiry in the past: now */

		dt = t - now;
		sim_charge(s, cur, dt);
		fake_clock_set(t);
		if (t == end)
			break;

		/* 1. the running task's action */
		if (cur && cur->burst_left == 0) {
			sim_act(s, cur);
			continue;
		}
		/* 2. timer wakeups */
		for (int i = 0; i < s->max; i++) {
			struct sim_task *st = &s->tasks[i];

			if (st->used && !st->dead && st->wake_at && st->wake_at <= t)
				sim_timer_wake(s, st);
		}
		/* 3. the hrtick */
		if (fake_hrtick.armed && fake_hrtick.expires <= t) {
			fake_hrtick.armed = 0;
			hrtick_fire();
			sim_irq_exit(s);
		}
		/* 4. the periodic tick */
		if (s->next_tick <= t) {
			s->next_tick += s->tick_ns;
			jiffies++;
			scheduler_tick();
			sim_irq_exit(s);
		}
		/* 5. something random */
		if (s->random && s->next_random <= t)
			random_event(s);
	}
}

int sim_check_runtimes(struct sim *s)
{
	int bad = 0;

	for (int i = 0; i < s->max; i++) {
		struct sim_task *st = &s->tasks[i];

		if (!st->used || st->dead)
			continue;
		if (task_sched_runtime(&st->t) != st->cpu_ns) {
			print_message("%s/%d: scheduler says %llu ns, simulator %llu ns\n",
				      st->t.comm, st->t.pid,
				      (unsigned long long)task_sched_runtime(&st->t),
				      (unsigned long long)st->cpu_ns);
			bad++;
		}
	}
	return bad;
}
