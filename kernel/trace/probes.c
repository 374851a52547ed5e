/*
 * kernel/trace/probes.c - where the events come from: kprobes on the
 * scheduler's and the timers' own functions (<kernel/kprobes.h>), each
 * turned into the record Linux's tracepoint at the same place writes.
 *
 *   event                 probe (entry, +ret: at return)        Linux 6.1's tracepoint
 *   sched_switch          arch_switch_to(prev, next)            __schedule, before the switch
 *   sched_wakeup          try_to_wake_up(p, state, flags) +ret  ttwu_do_wakeup
 *   sched_process_fork,   wake_up_new_task(p)                   kernel_clone;
 *    sched_wakeup_new                                           wake_up_new_task
 *   sched_process_exit    do_exit(code)                         do_exit
 *   sched_stat_runtime    update_curr(cfs_rq) +ret              update_curr
 *   sched_place           place_entity(cfs_rq, se, initial) +ret  (ours)
 *   sched_preempt_check   check_preempt_wakeup, check_preempt_tick +ret  (ours)
 *   hrtimer_expire_*      every hrtimer callback +ret           __run_hrtimer
 *   posix_timer_expire    the POSIX timers' callback            (ours)
 *
 * Hrtimer callbacks are static functions: a probe on hrtimer_init() and
 * hrtimer_start() probes each new callback the first time it is seen (so
 * the emulated tick, armed by hrtimers_init() after trace_probes_init(),
 * is one of them).  The callback hrtimer_init() gets inside timer_create()
 * is the POSIX timers' one.
 *
 * At run time (set_event, kernel/trace/tracefs.c) trace_probes_update()
 * patches in the probes the new events need and disables the others
 * (disable_kprobe: the function's own first byte again).  Those two
 * finding probes run at boot whatever the events, until trace_init()
 * (after hrtimers_init()), so that the tick's callback is known if timer
 * events are turned on later; a POSIX timer created while they were off
 * is found at its next timer_create()/hrtimer_start().
 *
 * Values a probe computes (the sleeper credit, the wakeup granularity) use
 * the scheduler's own formulas without calling anything with side effects.
 */
#include <kernel/kprobes.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/hrtimer.h>
#include <kernel/posix_timers.h>
#include <kernel/proc.h>
#include <arch/thread.h>
#include <arch/irqflags.h>
#include "../sched/sched.h"
#include "trace_internal.h"

/* The probed functions (declared here: the scheduler keeps them internal). */
int try_to_wake_up(struct task *p, unsigned int state, int wake_flags);
void update_curr(struct cfs_rq *cfs_rq);
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr);
struct sched_entity *__pick_next_entity(struct cfs_rq *cfs_rq);

#define ARG(i, type)	((type)(unsigned long)args[i])
#define EV(type, T, fl, task) ((struct T *)trace_reserve(type, sizeof(struct T), fl, task))

static void set_task(char *comm, s32 *pid, s32 *prio, const struct task *t)
{
	strlcpy(comm, t->comm, TASK_COMM_LEN);
	*pid = t->pid;
	if (prio)
		*prio = t->prio;
}

static u64 get64(const u32 *d)
{
	return d[0] | (u64)d[1] << 32;
}

static void put64(u32 *d, u64 v)
{
	d[0] = (u32)v;
	d[1] = (u32)(v >> 32);
}

/* ---- sched_switch ---- */

/* Linux 6.1's prev_state bits for a task switched out in STATE. */
static s32 report_state(const struct task *t)
{
	if (t->state & TASK_DEAD)
		return t->exit_state == EXIT_ZOMBIE ? TRACE_STATE_Z : TRACE_STATE_X;
	if (t->state & TASK_INTERRUPTIBLE)
		return TRACE_STATE_S;
	if (t->state & TASK_UNINTERRUPTIBLE)
		return TRACE_STATE_D;
	if (t->state & TASK_STOPPED)
		return TRACE_STATE_T;
	return 0;				/* R */
}

static int switch_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct task *prev = ARG(0, struct task *), *next = ARG(1, struct task *);
	struct ev_sched_switch *e = EV(TRACE_SCHED_SWITCH, ev_sched_switch, fl, prev);

	if (e) {
		set_task(e->prev_comm, &e->prev_pid, &e->prev_prio, prev);
		e->prev_state = report_state(prev);
		set_task(e->next_comm, &e->next_pid, &e->next_prio, next);
		trace_commit(&e->ent);
	}
	return 0;
}

/* ---- wakeups, fork, exit ---- */

static void task_event(int type, u32 fl, const struct task *t)
{
	struct ev_sched_task *e = EV(type, ev_sched_task, fl, current);

	if (e) {
		set_task(e->comm, &e->pid, &e->prio, t);
		trace_commit(&e->ent);
	}
}

static int ttwu_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct task *p = ARG(0, struct task *);

	d[0] = (u32)p;
	d[1] = fl;
	return (p->state & ARG(1, unsigned int)) != 0;	/* it will be woken */
}

static void ttwu_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	task_event(TRACE_SCHED_WAKEUP, d[1], (struct task *)d[0]);
}

static int wake_new_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct task *p = ARG(0, struct task *);
	struct ev_sched_fork *e = EV(TRACE_SCHED_PROCESS_FORK, ev_sched_fork, fl, current);

	if (e) {
		set_task(e->parent_comm, &e->parent_pid, NULL, current);
		set_task(e->child_comm, &e->child_pid, NULL, p);
		trace_commit(&e->ent);
	}
	task_event(TRACE_SCHED_WAKEUP_NEW, fl, p);
	return 0;
}

static int exit_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	task_event(TRACE_SCHED_PROCESS_EXIT, fl, current);
	return 0;
}

/* ---- sched_stat_runtime: what one update_curr() charged ---- */

static int update_curr_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct sched_entity *se = ARG(0, struct cfs_rq *)->curr;

	if (!se)
		return 0;
	d[0] = (u32)se;
	d[1] = fl;
	put64(&d[2], se->sum_exec_runtime);
	return 1;
}

static void update_curr_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	struct sched_entity *se = (struct sched_entity *)d[0];
	u64 delta = se->sum_exec_runtime - get64(&d[2]);
	struct ev_sched_stat_runtime *e;

	if (!delta)
		return;
	e = EV(TRACE_SCHED_STAT_RUNTIME, ev_sched_stat_runtime, d[1], current);
	if (e) {
		set_task(e->comm, &e->pid, NULL, task_of(se));
		e->runtime = delta;
		e->vruntime = se->vruntime;
		trace_commit(&e->ent);
	}
}

/* ---- sched_place ---- */

static int place_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct sched_entity *se = ARG(1, struct sched_entity *);

	d[0] = args[0];
	d[1] = (u32)se;
	d[2] = args[2];
	d[3] = fl;
	put64(&d[4], se->vruntime);
	return 1;
}

static void place_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	struct cfs_rq *cfs_rq = (struct cfs_rq *)d[0];
	struct sched_entity *se = (struct sched_entity *)d[1];
	int initial = (int)d[2];
	struct ev_sched_place *e = EV(TRACE_SCHED_PLACE, ev_sched_place, d[3], current);

	if (!e)
		return;
	set_task(e->comm, &e->pid, NULL, task_of(se));
	e->old_vruntime = get64(&d[4]);
	e->vruntime = se->vruntime;
	e->min_vruntime = cfs_rq->min_vruntime;
	if (initial) {
		/* place_entity() computed the same vslice just now (same state) */
		e->delta = sched_feat(START_DEBIT) ? (s64)sched_vslice(cfs_rq, se) : 0;
		e->reason = se->fork_nice_penality ? PLACE_START_NICE : PLACE_INITIAL;
	} else {
		u32 thresh = sysctl_sched_latency;

		if (sched_feat(GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;
		e->delta = -(s64)thresh;
		e->reason = PLACE_WAKEUP;
	}
	trace_commit(&e->ent);
}

/* ---- sched_preempt_check ---- */

/* wakeup_gran(curr, se) without calc_delta_fair()'s penalty expiry. */
static s64 wakeup_gran_of(const struct sched_entity *se)
{
	u64 gran = sysctl_sched_wakeup_granularity;

	if (se->load.weight != NICE_0_LOAD)
		gran = gran * NICE_0_LOAD / se->load.weight;
	if (se->fork_nice_penality &&
	    (s64)(se->sum_exec_runtime - se->fork_nice_timeout) <= 0)
		gran <<= se->fork_nice_penality;
	return (s64)gran;
}

static int cpw_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct task *curr = ARG(0, struct rq *)->curr;

	d[0] = (u32)curr;
	d[1] = args[1];
	d[2] = (u32)curr->need_resched;
	d[3] = fl;
	return 1;
}

static void cpw_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	struct task *curr = (struct task *)d[0], *p = (struct task *)d[1];
	struct ev_sched_preempt_check *e;

	e = EV(TRACE_SCHED_PREEMPT_CHECK, ev_sched_preempt_check, d[3], current);
	if (!e)
		return;
	e->check = CHECK_WAKEUP;
	e->curr_pid = curr->pid;
	e->pid = p->pid;
	e->vdiff = (s64)(curr->se.vruntime - p->se.vruntime);
	e->gran = wakeup_gran_of(&p->se);
	e->resched = !d[2] && curr->need_resched;
	trace_commit(&e->ent);
}

static int cpt_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	d[0] = args[0];
	d[1] = args[1];
	d[2] = (u32)task_of(ARG(1, struct sched_entity *))->need_resched;
	d[3] = fl;
	return 1;
}

static void cpt_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	struct cfs_rq *cfs_rq = (struct cfs_rq *)d[0];
	struct sched_entity *se = (struct sched_entity *)d[1], *left;
	struct ev_sched_preempt_check *e;

	e = EV(TRACE_SCHED_PREEMPT_CHECK, ev_sched_preempt_check, d[3], current);
	if (!e)
		return;
	e->check = CHECK_TICK;
	e->curr_pid = task_of(se)->pid;
	e->ran = (s64)(se->sum_exec_runtime - se->prev_sum_exec_runtime);
	e->slice = (s64)sched_slice(cfs_rq, se);
	left = cfs_rq->rb_leftmost ? __pick_next_entity(cfs_rq) : NULL;
	if (left) {
		e->pid = task_of(left)->pid;
		e->vdiff = (s64)(se->vruntime - left->vruntime);
		e->gran = e->slice;
	}
	e->resched = !d[2] && task_of(se)->need_resched;
	trace_commit(&e->ent);
}

/* ---- hrtimers ---- */

#define TIMER_FNS_MAX	16

static struct kprobe timer_probes[TIMER_FNS_MAX];
static int nr_timer_probes;
static void *posix_fn;			/* the POSIX timers' callback */
static int in_timer_create;

static int hrtimer_cb_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	struct hrtimer *t = ARG(0, struct hrtimer *);
	struct ev_hrtimer_entry *e = EV(TRACE_HRTIMER_EXPIRE_ENTRY, ev_hrtimer_entry, fl, current);

	if (e) {
		e->hrtimer = (u32)t;
		e->now = (s64)e->ent.ts;
		e->function = (u32)kp->addr;
		e->ent.flags |= TRACE_FLAG_HARDIRQ;
		trace_commit(&e->ent);
	}
	if (kp->addr == posix_fn) {
		struct k_itimer *k = container_of(t, struct k_itimer, timer);
		struct ev_posix_timer *pe = EV(TRACE_POSIX_TIMER_EXPIRE, ev_posix_timer, fl, current);

		if (pe) {
			pe->timer_id = k->id;
			pe->pid = k->target_tid ? k->target_tid : k->leader->pid;
			pe->signo = k->signo;
			pe->overrun = k->overrun;
			pe->ent.flags |= TRACE_FLAG_HARDIRQ;
			trace_commit(&pe->ent);
		}
	}
	d[0] = (u32)t;
	d[1] = fl;
	return 1;
}

static void hrtimer_cb_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	struct ev_hrtimer_exit *e = EV(TRACE_HRTIMER_EXPIRE_EXIT, ev_hrtimer_exit, d[1], current);

	if (e) {
		e->hrtimer = d[0];
		e->ent.flags |= TRACE_FLAG_HARDIRQ;
		trace_commit(&e->ent);
	}
}

#define BIT(t)		(1u << (t))
#define TIMER_EVENTS	(BIT(TRACE_HRTIMER_EXPIRE_ENTRY) | BIT(TRACE_HRTIMER_EXPIRE_EXIT) | \
			 BIT(TRACE_POSIX_TIMER_EXPIRE))
#define FIND_TIMERS	BIT(0)		/* not an event (TRACE_PRINT is 1): the finding probes only */

static u32 probes_mask;			/* what the enabled probes serve */

/* Probe FN, a callback seen for the first time (on only with timer events). */
static void probe_timer_fn(void *fn)
{
	struct kprobe *kp = &timer_probes[nr_timer_probes];
	int err;

	for (int i = 0; i < nr_timer_probes; i++)
		if (timer_probes[i].addr == fn)
			return;
	if (nr_timer_probes >= TIMER_FNS_MAX)
		return;
	*kp = (struct kprobe){
		.symbol = "hrtimer callback", .addr = fn,
		.pre = hrtimer_cb_pre, .ret = hrtimer_cb_ret,
	};
	err = register_kprobe(kp);
	nr_timer_probes++;	/* a failed entry stays too, so FN is not tried again */
	if (err)
		printk("trace: cannot probe hrtimer callback %p (error %d)\n", fn, err);
	else if (!(probes_mask & TIMER_EVENTS))
		disable_kprobe(kp);
}

static int hrtimer_init_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	if (in_timer_create && !posix_fn)
		posix_fn = ARG(1, void *);
	probe_timer_fn(ARG(1, void *));
	return 0;
}

static int hrtimer_start_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	probe_timer_fn((void *)ARG(0, struct hrtimer *)->function);
	return 0;
}

static int timer_create_pre(struct kprobe *kp, const u32 *args, u32 fl, u32 *d)
{
	in_timer_create = 1;
	return 1;
}

static void timer_create_ret(struct kprobe *kp, const u32 *d, u32 ret)
{
	in_timer_create = 0;
}

/* ---- registration ---- */

#define PROBE(fn, p, r)	{ .symbol = #fn, .addr = (void *)(fn), .pre = (p), .ret = (r) }

static struct kprobe sched_probes[] = {
	PROBE(arch_switch_to, switch_pre, NULL),
	PROBE(try_to_wake_up, ttwu_pre, ttwu_ret),
	PROBE(wake_up_new_task, wake_new_pre, NULL),
	PROBE(do_exit, exit_pre, NULL),
	PROBE(update_curr, update_curr_pre, update_curr_ret),
	PROBE(place_entity, place_pre, place_ret),
	{ .symbol = "check_preempt_wakeup", .pre = cpw_pre, .ret = cpw_ret },
	PROBE(check_preempt_tick, cpt_pre, cpt_ret),
	PROBE(hrtimer_init, hrtimer_init_pre, NULL),
	PROBE(hrtimer_start, hrtimer_start_pre, NULL),
	PROBE(sys_timer_create, timer_create_pre, timer_create_ret),
};

/* The events each probe above serves, in the same order. */
static const u32 probe_events[] = {
	BIT(TRACE_SCHED_SWITCH),
	BIT(TRACE_SCHED_WAKEUP),
	BIT(TRACE_SCHED_WAKEUP_NEW) | BIT(TRACE_SCHED_PROCESS_FORK),
	BIT(TRACE_SCHED_PROCESS_EXIT),
	BIT(TRACE_SCHED_STAT_RUNTIME),
	BIT(TRACE_SCHED_PLACE),
	BIT(TRACE_SCHED_PREEMPT_CHECK),
	BIT(TRACE_SCHED_PREEMPT_CHECK),
	TIMER_EVENTS | FIND_TIMERS,
	TIMER_EVENTS | FIND_TIMERS,
	BIT(TRACE_POSIX_TIMER_EXPIRE),
};

/* P on or off; registered the first time it is wanted.  1 if on after. */
static int set_probe(struct kprobe *p, int on)
{
	int err;

	if (!p->insn) {
		if (!on)
			return 0;
		err = register_kprobe(p);
		if (err)
			printk("trace: cannot probe %s (error %d)\n", p->symbol, err);
		return !err;
	}
	if (on != !p->disabled)
		on ? enable_kprobe(p) : disable_kprobe(p);
	return on;
}

int trace_probes_update(u32 mask)
{
	int n = 0;
	unsigned long flags;

	_Static_assert(ARRAY_SIZE(sched_probes) == ARRAY_SIZE(probe_events), "one mask per probe");
	local_irq_save(flags);
	sched_probes[6].addr = (void *)fair_sched_class.check_preempt_curr;
	probes_mask = mask;
	for (unsigned i = 0; i < ARRAY_SIZE(sched_probes); i++)
		n += set_probe(&sched_probes[i], (mask & probe_events[i]) != 0);
	for (int i = 0; i < nr_timer_probes; i++)
		n += set_probe(&timer_probes[i], (mask & TIMER_EVENTS) != 0);
	local_irq_restore(flags);
	return n;
}

int trace_probes_register(u32 mask)
{
	return trace_probes_update(mask | FIND_TIMERS);
}
