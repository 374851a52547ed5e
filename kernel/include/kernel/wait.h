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
	struct list_head head;		/* of struct wait_queue_entry */
};

/*
 * One sleeper on one queue (Linux's wait_queue_t).  A task sleeping in
 * wait_sleep() has one, on its stack; poll() and select() hold one per
 * queue a polled file registers (kernel/fs/poll.c), so a wake_up_all() on
 * any of them wakes the poller.  TRIGGERED, if set, is raised by the wakeup
 * (Linux's pollwake), so that a wakeup between the poller's last look at
 * its files and its schedule() is not lost.
 */
struct wait_queue_entry {
	struct list_head entry;		/* in wait_queue_head.head */
	struct task *task;		/* woken with try_to_wake_up(TASK_NORMAL) */
	int *triggered;			/* set to 1 by the wakeup, or NULL */
};

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e);
void remove_wait_queue(struct wait_queue_entry *e);

#define WAIT_QUEUE_HEAD_INIT(n)	{ LIST_HEAD_INIT((n).head) }
#define DECLARE_WAIT_QUEUE_HEAD(n) struct wait_queue_head n = WAIT_QUEUE_HEAD_INIT(n)

static inline void init_waitqueue_head(struct wait_queue_head *wq) { INIT_LIST_HEAD(&wq->head); }

/* Put current to sleep in STATE on WQ until woken (or a signal, if
 * interruptible).  Call with the condition already found false. */
void wait_sleep(struct wait_queue_head *wq, long state);

/* Does anyone sleep (or poll) on WQ?  Linux's waitqueue_active().  An
 * entry is added and removed only with interrupts off, so on one CPU no
 * waker can see one half-added: an empty list means nobody to wake. */
static inline int waitqueue_active(const struct wait_queue_head *wq)
{
	return !list_empty(&wq->head);
}

void __wake_up_all(struct wait_queue_head *wq);

/* Wake every task sleeping on WQ (nothing to do, and no call, when the
 * queue is empty: the common case of a pipe's every read and write). */
static inline void wake_up_all(struct wait_queue_head *wq)
{
	if (waitqueue_active(wq))
		__wake_up_all(wq);
}

#endif
