/*
 * kernel/poll.h - readiness of open files, for poll(2) and select(2).
 *
 * A file type that can block (the tty, a pipe) gives its file_ops a
 * ->poll(f, pt): it calls poll_wait() for each wait queue a change of its
 * state is announced on, then returns the events that are true now, as
 * Linux's f_op->poll does (include/linux/poll.h, 2.6.35).  PT is NULL when
 * the caller only wants the mask.  A file without ->poll is always ready
 * for reading and writing (DEFAULT_POLLMASK), as on Linux.
 */
#ifndef KERNEL_POLL_H
#define KERNEL_POLL_H

#include <kernel/types.h>

struct file;
struct poll_table;
struct wait_queue_head;

/* Event bits: Linux's asm-generic/poll.h values (the i386 ABI). */
#define POLLIN		0x0001
#define POLLPRI		0x0002
#define POLLOUT		0x0004
#define POLLERR		0x0008
#define POLLHUP		0x0010
#define POLLNVAL	0x0020
#define POLLRDNORM	0x0040
#define POLLRDBAND	0x0080
#define POLLWRNORM	0x0100
#define POLLWRBAND	0x0200

#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* Register the polling task on WQ, so that a wake_up_all(WQ) wakes it;
 * does nothing when PT is NULL. */
void poll_wait(struct file *f, struct wait_queue_head *wq, struct poll_table *pt);

#endif
