/*
 * kernel/time/hrtimer.c - each CPU's timer queue and the two expiry modes
 * (see kernel/hrtimer.h).
 *
 * Boot knob highres=on|off (default on where the clock event can do
 * one-shot, i.e. with a local APIC).  In highres mode every CPU's clock
 * event is one-shot, programmed for the earliest timer of that CPU's queue,
 * and the periodic tick is emulated per CPU (kernel/time/tick_sched.c), so
 * HZ, jiffies and scheduler_tick() behave the same in both modes; only
 * timer expiry differs.
 *
 * Linux 2.6.35's kernel/hrtimer.c, one clock base: a struct hrtimer_cpu_base
 * per CPU (the per-CPU variable hrtimer_bases), each with a raw spinlock.
 * hrtimer_start() queues the timer on the CPU that arms it
 * (switch_hrtimer_base()), so a task's sleep expires from its own CPU's
 * clock event; a timer whose callback is running stays on the base that
 * runs it.  A timer that may sit on another CPU's base is reached through
 * lock_hrtimer_base(), which follows timer->base until it holds the lock
 * of the base the timer is still on.
 *
 * Invariants: a timer is in its base's tree iff HRTIMER_STATE_ENQUEUED;
 * `first` caches the leftmost node; a base's tree, `first`, `seq` and its
 * timers' state change only under the base's lock, with interrupts off.
 * Lock order: a runqueue's lock, then a base's lock (the hrtick arms a
 * timer under rq->lock); the giant lock is outside both.  At one CPU the
 * base lock is not taken (smp_key: a jump over each site), and the
 * functions are what they were with one global queue.
 *
 * Callbacks run with the base lock dropped (2.6.35's __run_hrtimer()).
 * Every callback but the emulated tick runs under the giant kernel lock
 * (<kernel/smp_lock.h>): they wake tasks and send signals, which the giant
 * lock still covers.  The boot CPU's timer interrupt takes it on entry
 * (arch/x86/traps.c); another CPU's takes it here, only when such a timer
 * is due, and lets it go at the end of the interrupt.  So the callback of a
 * timer a task cancels (holding the giant lock) never runs meanwhile, and
 * hrtimer_cancel()'s wait for a running callback is Linux's, never long.
 */
#include <kernel/clockevent.h>
#include <kernel/cmdline.h>
#include <kernel/hrtimer.h>
#include <kernel/jump_label.h>
#include <kernel/kernel_stat.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/smp_copies.h>
#include <kernel/spinlock.h>
#include <kernel/tick.h>
#include <kernel/time.h>
#include <arch/barrier.h>
#include <arch/irqflags.h>
#include "tick_sched.h"

struct hrtimer_cpu_base {
	raw_spinlock_t lock;
	struct rb_root active;		/* the queued timers, by (expires, seq) */
	struct rb_node *first;		/* leftmost of active, or NULL */
	u64 seq;			/* arming order on this base */
	u64 expires_next;		/* highres: what the device was last programmed for */
	int clockevent;			/* this CPU has a tick: timers may be queued here */
	int hres_active;		/* this CPU's clock event is one-shot */
	u64 nr_hangs;			/* hrtimer_interrupt() gave up (hang protection) */
};

static DEFINE_PER_CPU(struct hrtimer_cpu_base, hrtimer_bases);

static const char *const highres_names[] = { "on", "off", NULL };
static int highres_choice;
DEFINE_KNOB_ENUM(highres, highres_choice, 0, highres_names,
		 "one-shot high-resolution timers (on) or tick-quantised expiry (off)");
static int hres_enabled;	/* highres chosen and the clock event can do one-shot */

/*
 * 2.6.35's lock_hrtimer_base(): lock the base TIMER is on.  timer->base is
 * NULL while switch_hrtimer_base() moves the timer (it holds neither lock
 * for a moment), and may change before the lock is ours: retry until the
 * base locked is still the timer's.
 */
static struct hrtimer_cpu_base *lock_hrtimer_base(struct hrtimer *t, unsigned long *flags)
{
	struct hrtimer_cpu_base *b;

	local_irq_save(*flags);
	if (!static_branch_on(&smp_key))
		return t->base;
	for (;;) {
		b = READ_ONCE(t->base);
		if (b) {
			raw_spin_lock(&b->lock);
			if (b == t->base)
				return b;
			raw_spin_unlock(&b->lock);
		}
		cpu_relax();
	}
}

static void unlock_hrtimer_base(struct hrtimer_cpu_base *b, unsigned long flags)
{
	smp_raw_spin_unlock(&b->lock);
	local_irq_restore(flags);
}

static int before(const struct hrtimer *a, const struct hrtimer *b)
{
	return a->expires < b->expires || (a->expires == b->expires && a->seq < b->seq);
}

/* enqueue_hrtimer(): into B's tree; 1 if it became the leftmost. */
static int enqueue_hrtimer(struct hrtimer *t, struct hrtimer_cpu_base *b)
{
	struct rb_node **link = &b->active.rb_node, *parent = NULL;
	int leftmost = 1;

	t->seq = b->seq++;
	while (*link) {
		parent = *link;
		if (before(t, rb_entry(parent, struct hrtimer, node))) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = 0;
		}
	}
	rb_link_node(&t->node, parent, link);
	rb_insert_color(&t->node, &b->active);
	if (leftmost)
		b->first = &t->node;
	t->state |= HRTIMER_STATE_ENQUEUED;
	return leftmost;
}

/* __remove_hrtimer(): out of B's tree, leaving the state NEWSTATE (which
 * keeps CALLBACK if it was set).  The device is not reprogrammed: a stale
 * interrupt just finds nothing due. */
static void __remove_hrtimer(struct hrtimer *t, struct hrtimer_cpu_base *b,
			     unsigned long newstate)
{
	if (b->first == &t->node)
		b->first = rb_next(&t->node);
	rb_erase(&t->node, &b->active);
	t->state = newstate;
}

/* remove_hrtimer(): 1 if it was queued. */
static int remove_hrtimer(struct hrtimer *t, struct hrtimer_cpu_base *b)
{
	if (!hrtimer_is_queued(t))
		return 0;
	__remove_hrtimer(t, b, t->state & HRTIMER_STATE_CALLBACK);
	return 1;
}

/* One-shot mode: program this CPU's device for B's earliest timer. */
static void hrtimer_reprogram(struct hrtimer_cpu_base *b)
{
	if (!b->hres_active || !b->first)
		return;
	u64 now = sched_clock();
	u64 exp = rb_entry(b->first, struct hrtimer, node)->expires;
	b->expires_next = exp;
	clockevent_program(exp > now ? exp - now : 0);
}

void hrtimer_init(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *))
{
	t->function = fn;
	t->state = HRTIMER_STATE_INACTIVE;
	t->base = this_cpu_ptr(&hrtimer_bases);
}

/*
 * 2.6.35's switch_hrtimer_base(): the timer (not queued, BASE locked) moves
 * to this CPU's base, unless its callback is running: then it stays, or
 * hrtimer_cancel() would no longer find the callback it waits for.  A CPU
 * without a tick of its own (an AP with the PIT as clock event, or one not
 * yet ticking) would never run it: it goes to tick_do_timer_cpu's base
 * then.  Returns the base it is on, locked.
 */
static struct hrtimer_cpu_base *switch_hrtimer_base(struct hrtimer *t,
						    struct hrtimer_cpu_base *b)
{
	struct hrtimer_cpu_base *new_base = this_cpu_ptr(&hrtimer_bases);

	if (!new_base->clockevent)
		new_base = per_cpu_ptr(&hrtimer_bases, tick_do_timer_cpu);
	if (b == new_base || hrtimer_callback_running(t))
		return b;
	t->base = NULL;		/* lock_hrtimer_base() waits meanwhile */
	smp_raw_spin_unlock(&b->lock);
	smp_raw_spin_lock(&new_base->lock);
	WRITE_ONCE(t->base, new_base);
	return new_base;
}

void hrtimer_start(struct hrtimer *t, u64 expires)
{
	struct hrtimer_cpu_base *b;
	unsigned long flags;

	b = lock_hrtimer_base(t, &flags);
	remove_hrtimer(t, b);
	t->expires = expires;
	b = switch_hrtimer_base(t, b);
	/* Only this CPU's device can be programmed; a base whose callback is
	 * running reprograms itself when its interrupt ends. */
	if (enqueue_hrtimer(t, b) && b == this_cpu_ptr(&hrtimer_bases))
		hrtimer_reprogram(b);
	unlock_hrtimer_base(b, flags);
}

int hrtimer_try_to_cancel(struct hrtimer *t)
{
	struct hrtimer_cpu_base *b;
	unsigned long flags;
	int ret = -1;

	b = lock_hrtimer_base(t, &flags);
	if (!hrtimer_callback_running(t))
		ret = remove_hrtimer(t, b);
	unlock_hrtimer_base(b, flags);
	return ret;
}

int hrtimer_cancel(struct hrtimer *t)
{
	for (;;) {
		int ret = hrtimer_try_to_cancel(t);
		if (ret >= 0)
			return ret;
		cpu_relax();
	}
}

u64 hrtimer_forward(struct hrtimer *t, u64 now, u64 interval)
{
	u64 n;

	if (now < t->expires || !interval)
		return 0;
	n = (now - t->expires) / interval + 1;
	t->expires += n * interval;
	return n;
}

/*
 * B's lock in the copies below: SMP (a constant) 1 takes it behind smp_key,
 * 0 (the uniprocessor copy, one possible CPU: smp_key is never on) not at all.
 */
static __always_inline void base_lock(struct hrtimer_cpu_base *b, const int smp)
{
	if (smp)
		smp_raw_spin_lock(&b->lock);
}

static __always_inline void base_unlock(struct hrtimer_cpu_base *b, const int smp)
{
	if (smp)
		smp_raw_spin_unlock(&b->lock);
}

/*
 * 2.6.35's __run_hrtimer(): take T off B (state CALLBACK), run its callback
 * with B's lock dropped, and queue it again if it asks for it and nobody
 * queued it meanwhile.  B locked on entry and on return.
 */
static __always_inline void __run_hrtimer(struct hrtimer *t, struct hrtimer_cpu_base *b,
					  const int smp)
{
	enum hrtimer_restart restart;

	__remove_hrtimer(t, b, HRTIMER_STATE_CALLBACK);
	base_unlock(b, smp);
	restart = t->function(t);
	base_lock(b, smp);
	if (restart == HRTIMER_RESTART && !hrtimer_is_queued(t))
		enqueue_hrtimer(t, b);
	t->state &= ~HRTIMER_STATE_CALLBACK;
}

/*
 * Run every timer of B due at NOW (B locked).  A callback other than the
 * emulated tick needs the giant lock: if this CPU does not hold it, drop
 * B's lock, take it (it is outside B's lock) and look again.  Returns 1 if
 * it took the giant lock, which the caller lets go at the end.
 */
static __always_inline int __hrtimer_run_queues(struct hrtimer_cpu_base *b, u64 now,
						 const int smp)
{
	int took = 0;

	while (b->first) {
		struct hrtimer *t = rb_entry(b->first, struct hrtimer, node);
		if (t->expires > now)
			break;
		/* at one possible CPU this CPU always holds it (kernel_locked()) */
		if (smp && !kernel_locked() && !tick_sched_timer_is(t)) {
			base_unlock(b, smp);
			lock_kernel();
			took = 1;
			base_lock(b, smp);
			continue;
		}
		__run_hrtimer(t, b, smp);
	}
	return took;
}

void hrtimer_run_queues(void)
{
	struct hrtimer_cpu_base *b;

	if (this_cpu_read(hrtimer_bases.hres_active))	/* one %fs load */
		return;
	b = this_cpu_ptr(&hrtimer_bases);
	smp_raw_spin_lock(&b->lock);
	int took = __hrtimer_run_queues(b, sched_clock(), 1);
	smp_raw_spin_unlock(&b->lock);
	if (took)
		unlock_kernel();
}

/*
 * Linux 2.6.35's hrtimer_interrupt() with its hang protection: run what is
 * due; if by then the next timer is already due again, retry, at most 3
 * times.  If it is still behind after that, the timers are arriving faster
 * than they can be run: instead of looping forever in interrupt context,
 * program the next event as far away as the last pass took (at most
 * 100 ms), so that the interrupted task runs, and say so once.
 */
#define HRTIMER_MAX_HANG_NS	(100 * 1000000ull)
static int hang_reported;

/*
 * Compiled twice (SMP_COPIES, <kernel/smp_copies.h>): the uniprocessor copy,
 * the symbol callers call, has no lock site and no giant-lock test and
 * takes CPU 0's base without %fs; at more than one possible CPU it jumps to
 * the _smp copy, this CPU's base and its lock behind smp_key.
 */
static __always_inline void hrtimer_interrupt_body(const int smp)
{
	struct hrtimer_cpu_base *b = smp ? this_cpu_ptr(&hrtimer_bases)
					 : per_cpu_ptr(&hrtimer_bases, 0);
	u64 entry, now;
	int took = 0;

	base_lock(b, smp);
	for (int retries = 0; retries < 3; retries++) {
		entry = sched_clock();
		took |= __hrtimer_run_queues(b, entry, smp);
		if (!b->first)
			goto out;
		/* Linux's tick_program_event(): one clock read both decides that
		 * the next timer is still ahead and programs the device for it,
		 * right after the read (as hrtimer_reprogram() would, one read later). */
		now = sched_clock();
		u64 exp = rb_entry(b->first, struct hrtimer, node)->expires;
		if (exp > now) {
			b->expires_next = exp;
			clockevent_program(exp - now);
			goto out;
		}
	}
	b->nr_hangs++;
	u64 delta = min(now - entry, HRTIMER_MAX_HANG_NS);
	b->expires_next = now + delta;
	clockevent_program(delta);
	if (!hang_reported++)
		printk("hrtimer: interrupt took %llu ns\n", (unsigned long long)(now - entry));
out:
	base_unlock(b, smp);
	if (smp && took)
		unlock_kernel();
}
#ifdef HOST_TEST	/* the host tests and the simulator run several CPUs on one copy */
void hrtimer_interrupt(void)
{
	hrtimer_interrupt_body(1);
}
#else
SMP_COPIES_VOID(hrtimer_interrupt, (void))
#endif

int hrtimer_highres_active(void)
{
	return this_cpu_ptr(&hrtimer_bases)->hres_active;
}

/*
 * hrtimer_switch_to_hres(), for this CPU: its base goes high-resolution,
 * its tick is emulated (tick_setup_sched_timer()) and its device is
 * programmed for whatever is queued first.
 */
static void hrtimer_switch_to_hres(struct hrtimer_cpu_base *cpu_base)
{
	cpu_base->hres_active = 1;
	tick_setup_sched_timer();
	smp_raw_spin_lock(&cpu_base->lock);
	hrtimer_reprogram(cpu_base);
	smp_raw_spin_unlock(&cpu_base->lock);
}

void init_hrtimers_cpu(void)
{
	struct hrtimer_cpu_base *cpu_base = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags;

	local_irq_save(flags);
	cpu_base->clockevent = 1;
	if (hres_enabled)
		hrtimer_switch_to_hres(cpu_base);
	local_irq_restore(flags);
}

/*
 * Before the per-CPU areas exist (kmain): the boot CPU works on the
 * template, so the lock initialised here is every CPU's copy's, with one
 * lockdep class for all ("&cpu_base->lock", as Linux's); nothing is queued
 * until init_hrtimers_cpu() or a task arms a timer.
 */
void hrtimers_init(void)
{
	struct hrtimer_cpu_base *cpu_base = this_cpu_ptr(&hrtimer_bases);
	u64 tick_ns = clockevent_tick_ns();

	raw_spin_lock_init(&cpu_base->lock);
	tick_nsec = (u32)tick_ns;	/* what a tick of CPU time is worth (kernel_stat.h) */
	if (highres_choice == 0 && clockevent_can_oneshot()) {
		hres_enabled = 1;
		clockevent_set_oneshot();
		tick_sched_init(tick_ns, sched_clock() + tick_ns);
		printk("hrtimer: high-resolution mode (one-shot clock event, tick emulated every %llu ns)\n",
		       (unsigned long long)tick_ns);
	} else {
		printk("hrtimer: periodic mode, timers expire on the %u HZ tick (%s)\n", HZ,
		       highres_choice ? "highres=off" : "the clock event cannot do one-shot");
	}
}
