/*
 * kernel/fs/poll.c - the wait side of file readiness (see kernel/poll.h).
 *
 * Only the registration hook exists so far: the poll(2)/select(2) system
 * calls that sleep on several files at once come with the console's line
 * discipline.  Until then ->poll methods are called with PT == NULL only.
 */
#include <kernel/poll.h>

void poll_wait(struct file *f, struct wait_queue_head *wq, struct poll_table *pt)
{
	(void)f;
	(void)wq;
	(void)pt;
}
