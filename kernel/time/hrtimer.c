/*
 * kernel/time/hrtimer.c - the timer queue and the two expiry modes
 * (see kernel/hrtimer.h).
 *
 * Boot knob highres=on|off (default on where the clock event can do
 * one-shot, i.e. with a local APIC).  In highres mode the periodic tick is
 * emulated by tick_timer, re-armed every tick_ns exactly as Linux's
 * tick_sched_timer does, so HZ, jiffies and scheduler_tick() behave the same
 * in both modes; only timer expiry differs.
 *
 * Invariants: a timer is in the tree iff t->queued; `first` caches the
 * leftmost node.  Every function runs with interrupts off.
 */
#include <kernel/clockevent.h>
#include <kernel/cmdline.h>
#include <kernel/hrtimer.h>
#include <kernel/kernel_stat.h>
#include <kernel/printk.h>
#include <kernel/tick.h>
#include <kernel/time.h>
#include <arch/irqflags.h>

static struct rb_root timer_tree = RB_ROOT;
static struct rb_node *first;
static u64 arm_seq;
static int highres_active;
static struct hrtimer tick_timer;
static u64 tick_ns;

static const char *const highres_names[] = { "on", "off", NULL };
static int highres_choice;
DEFINE_KNOB_ENUM(highres, highres_choice, 0, highres_names,
		 "one-shot high-resolution timers (on) or tick-quantised expiry (off)");

static int before(const struct hrtimer *a, const struct hrtimer *b)
{
	return a->expires < b->expires || (a->expires == b->expires && a->seq < b->seq);
}

static void enqueue(struct hrtimer *t)
{
	struct rb_node **link = &timer_tree.rb_node, *parent = NULL;
	int leftmost = 1;

	t->seq = arm_seq++;
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
	rb_insert_color(&t->node, &timer_tree);
	if (leftmost)
		first = &t->node;
	t->queued = 1;
}

static void dequeue(struct hrtimer *t)
{
	if (!t->queued)
		return;
	if (first == &t->node)
		first = rb_next(&t->node);
	rb_erase(&t->node, &timer_tree);
	t->queued = 0;
}

/* One-shot mode: program the device for the earliest timer. */
static void reprogram(void)
{
	if (!highres_active || !first)
		return;
	u64 now = sched_clock();
	u64 exp = rb_entry(first, struct hrtimer, node)->expires;
	clockevent_program(exp > now ? exp - now : 0);
}

void hrtimer_init(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *))
{
	t->function = fn;
	t->queued = 0;
}

void hrtimer_start(struct hrtimer *t, u64 expires)
{
	unsigned long flags;

	local_irq_save(flags);
	dequeue(t);
	t->expires = expires;
	enqueue(t);
	if (first == &t->node)
		reprogram();
	local_irq_restore(flags);
}

int hrtimer_cancel(struct hrtimer *t)
{
	unsigned long flags;
	int was;

	local_irq_save(flags);
	was = t->queued;
	dequeue(t);
	local_irq_restore(flags);
	return was;	/* a stale device interrupt just finds nothing due */
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

/* Run every timer due at NOW. */
static void expire_timers(u64 now)
{
	while (first) {
		struct hrtimer *t = rb_entry(first, struct hrtimer, node);
		if (t->expires > now)
			break;
		dequeue(t);
		if (t->function(t) == HRTIMER_RESTART && !t->queued)
			enqueue(t);
	}
}

void hrtimer_run_queues(void)
{
	if (!highres_active)
		expire_timers(sched_clock());
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

static u64 nr_hangs;

void hrtimer_interrupt(void)
{
	static int hang_reported;
	u64 entry, now;

	for (int retries = 0; retries < 3; retries++) {
		entry = sched_clock();
		expire_timers(entry);
		if (!first)
			return;
		/* Linux's tick_program_event(): one clock read both decides that
		 * the next timer is still ahead and programs the device for it,
		 * right after the read (as reprogram() would, one read later). */
		now = sched_clock();
		u64 exp = rb_entry(first, struct hrtimer, node)->expires;
		if (exp > now) {
			clockevent_program(exp - now);
			return;
		}
	}
	nr_hangs++;
	u64 delta = min(now - entry, HRTIMER_MAX_HANG_NS);
	clockevent_program(delta);
	if (!hang_reported++)
		printk("hrtimer: interrupt took %llu ns\n", (unsigned long long)(now - entry));
}

int hrtimer_highres_active(void)
{
	return highres_active;
}

/* The periodic tick, emulated on the timer queue in highres mode. */
static enum hrtimer_restart tick_sched_timer(struct hrtimer *t)
{
	t->expires += tick_ns;
	timer_tick();
	return HRTIMER_RESTART;
}

void hrtimers_init(void)
{
	tick_ns = clockevent_tick_ns();
	tick_nsec = (u32)tick_ns;	/* what a tick of CPU time is worth (kernel_stat.h) */
	if (highres_choice == 0 && clockevent_can_oneshot()) {
		highres_active = 1;
		clockevent_set_oneshot();
		hrtimer_init(&tick_timer, tick_sched_timer);
		hrtimer_start(&tick_timer, sched_clock() + tick_ns);
		printk("hrtimer: high-resolution mode (one-shot clock event, tick emulated every %llu ns)\n",
		       (unsigned long long)tick_ns);
	} else {
		printk("hrtimer: periodic mode, timers expire on the %u HZ tick (%s)\n", HZ,
		       highres_choice ? "highres=off" : "the clock event cannot do one-shot");
	}
}
