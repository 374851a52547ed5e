/*
 * kernel/time/timer.c - the sorted kernel timer queue.
 *
 * Invariant: timer_list is sorted by expires (ties in arming order);
 * a timer is on it iff t->pending.  All operations run with interrupts off.
 */
#include <kernel/time.h>
#include <kernel/timer.h>
#include <arch/irqflags.h>

static LIST_HEAD(timer_list);

static void __timer_del(struct timer *t)
{
	if (t->pending) {
		list_del(&t->node);
		t->pending = 0;
	}
}

void timer_add(struct timer *t, u64 expires)
{
	struct list_head *pos;
	unsigned long flags;

	local_irq_save(flags);
	__timer_del(t);
	t->expires = expires;
	list_for_each(pos, &timer_list)
		if (list_entry(pos, struct timer, node)->expires > expires)
			break;
	list_add_tail(&t->node, pos);	/* before the first later timer */
	t->pending = 1;
	local_irq_restore(flags);
}

int timer_del(struct timer *t)
{
	unsigned long flags;
	int was;

	local_irq_save(flags);
	was = t->pending;
	__timer_del(t);
	local_irq_restore(flags);
	return was;
}

void run_timers(void)
{
	u64 now = sched_clock();

	while (!list_empty(&timer_list)) {
		struct timer *t = list_first_entry(&timer_list, struct timer, node);
		if (t->expires > now)
			break;
		__timer_del(t);
		t->fn(t);
	}
}
