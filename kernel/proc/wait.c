/*
 * kernel/proc/wait.c - wait queues (see kernel/wait.h).
 *
 * Every sleeper is a struct wait_queue_entry: wait_sleep() keeps its one on
 * the stack for the length of the sleep; poll/select keep one per queue
 * (kernel/fs/poll.c).  All list changes run with interrupts off, since
 * wakeups come from interrupt handlers (the UART, the keyboard, timers).
 */
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(&e->entry, &wq->head);
	local_irq_restore(flags);
}

void remove_wait_queue(struct wait_queue_entry *e)
{
	unsigned long flags;

	local_irq_save(flags);
	list_del(&e->entry);
	local_irq_restore(flags);
}

void wait_sleep(struct wait_queue_head *wq, long state)
{
	struct wait_queue_entry e = { .task = current };
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(&e.entry, &wq->head);
	current->state = state;
	schedule();
	list_del(&e.entry);
	local_irq_restore(flags);
}

void __wake_up_all(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e, *n;
	unsigned long flags;

	local_irq_save(flags);
	list_for_each_entry_safe(e, n, &wq->head, entry) {
		if (e->triggered)
			*e->triggered = 1;
		try_to_wake_up(e->task, TASK_NORMAL, 0);
	}
	local_irq_restore(flags);
}
