/*
 * kernel/proc/wait.c - wait queues (see kernel/wait.h).
 */
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

void wait_sleep(struct wait_queue_head *wq, long state)
{
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(&current->wait_entry, &wq->head);
	current->state = state;
	schedule();
	list_del(&current->wait_entry);
	local_irq_restore(flags);
}

void wake_up_all(struct wait_queue_head *wq)
{
	struct list_head *pos, *n;
	unsigned long flags;

	local_irq_save(flags);
	list_for_each_safe(pos, n, &wq->head)
		try_to_wake_up(list_entry(pos, struct task, wait_entry), TASK_NORMAL, 0);
	local_irq_restore(flags);
}
