/*
 * kernel/fs/poll.c - the wait side of file readiness (see kernel/poll.h).
 *
 * A poll or select call looks at each of its files with ->poll(f, pt).
 * The first time round PT is the call's poll_table, and each poll_wait()
 * the file makes adds one wait queue entry of the caller to that queue
 * (Linux's __pollwait).  If no file is ready the caller sleeps; a
 * wake_up_all() on any of the queues sets pt->triggered and wakes it, and
 * it looks again (with PT NULL: it is already on every queue).  At the end
 * poll_freewait() removes every entry, whatever the way out (ready, timed
 * out, signal, fault).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/kmalloc.h>
#include <kernel/poll.h>
#include <kernel/sched.h>
#include <kernel/task.h>

void poll_initwait(struct poll_table *pt)
{
	pt->task = current;
	pt->triggered = 0;
	pt->error = 0;
	pt->nr_inline = 0;
	pt->blocks = NULL;
}

static struct poll_table_entry *poll_get_entry(struct poll_table *pt)
{
	struct poll_table_block *b = pt->blocks;

	if (pt->nr_inline < POLL_INLINE_ENTRIES)
		return &pt->inline_entries[pt->nr_inline++];
	if (!b || b->nr == POLL_BLOCK_ENTRIES) {
		b = kmalloc(sizeof(*b));
		if (!b) {
			pt->error = -ENOMEM;
			return NULL;
		}
		b->nr = 0;
		b->next = pt->blocks;
		pt->blocks = b;
	}
	return &b->entries[b->nr++];
}

void poll_wait(struct file *f, struct wait_queue_head *wq, struct poll_table *pt)
{
	struct poll_table_entry *e;

	if (!pt || !wq)
		return;
	e = poll_get_entry(pt);
	if (!e)
		return;
	/* The entry holds a reference, as Linux's get_file(): a thread
	 * sharing the fd table may close the fd while we sleep on its queue. */
	f->refs++;
	e->filp = f;
	e->wq = wq;
	e->wait.task = pt->task;
	e->wait.triggered = &pt->triggered;
	add_wait_queue(wq, &e->wait);
}

static void free_entry(struct poll_table_entry *e)
{
	remove_wait_queue(&e->wait);
	fput(e->filp);
}

void poll_freewait(struct poll_table *pt)
{
	struct poll_table_block *b, *next;
	int i;

	for (i = 0; i < pt->nr_inline; i++)
		free_entry(&pt->inline_entries[i]);
	for (b = pt->blocks; b; b = next) {
		next = b->next;
		for (i = 0; i < b->nr; i++)
			free_entry(&b->entries[i]);
		kfree(b);
	}
	pt->nr_inline = 0;
	pt->blocks = NULL;
}

unsigned file_poll(struct file *f, struct poll_table *pt)
{
	return f->ops->poll ? f->ops->poll(f, pt) : DEFAULT_POLLMASK;
}
