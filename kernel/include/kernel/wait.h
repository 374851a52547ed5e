/*
 * kernel/wait.h - wait queues: a list of sleeping tasks to wake together.
 *
 * The sleep pattern (interrupts off between the test and the sleep, so no
 * wakeup can be lost on our uniprocessor):
 *
 *	while (!condition) {
 *		if (signal_pending(current)) return -EINTR;
 *		wait_sleep(&wq, TASK_INTERRUPTIBLE);   // queue, schedule, dequeue
 *	}
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include <kernel/list.h>

struct task;

struct wait_queue_head {
	struct list_head head;		/* of task->wait_entry */
};

#define WAIT_QUEUE_HEAD_INIT(n)	{ LIST_HEAD_INIT((n).head) }
#define DECLARE_WAIT_QUEUE_HEAD(n) struct wait_queue_head n = WAIT_QUEUE_HEAD_INIT(n)

static inline void init_waitqueue_head(struct wait_queue_head *wq) { INIT_LIST_HEAD(&wq->head); }

/* Put current to sleep in STATE on WQ until woken (or a signal, if
 * interruptible).  Call with the condition already found false. */
void wait_sleep(struct wait_queue_head *wq, long state);

/* Wake every task sleeping on WQ. */
void wake_up_all(struct wait_queue_head *wq);

#endif
