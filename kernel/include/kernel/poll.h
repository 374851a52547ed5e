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
#include <kernel/wait.h>

struct file;
struct wait_queue_head;
struct poll_table;

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

/*
 * The registrations of one poll/select call (Linux's poll_wqueues with its
 * poll_table_entry pages): POLL_INLINE_ENTRIES on the caller's stack, then
 * kmalloc'd blocks of POLL_BLOCK_ENTRIES.  Each entry is a wait queue entry
 * of the polling task on one queue; poll_freewait() takes every one off
 * its queue, on every way out of the call.
 */
#define POLL_INLINE_ENTRIES	8
#define POLL_BLOCK_ENTRIES	32

struct poll_table_entry {
	struct wait_queue_entry wait;
	struct wait_queue_head *wq;
	struct file *filp;		/* a reference, dropped by poll_freewait() */
};

struct poll_table_block {
	struct poll_table_block *next;
	int nr;
	struct poll_table_entry entries[POLL_BLOCK_ENTRIES];
};

struct poll_table {
	struct task *task;
	int triggered;		/* a registered queue was woken since the last look */
	int error;		/* -ENOMEM: an entry could not be allocated */
	int nr_inline;
	struct poll_table_entry inline_entries[POLL_INLINE_ENTRIES];
	struct poll_table_block *blocks;
};

void poll_initwait(struct poll_table *pt);
void poll_freewait(struct poll_table *pt);

/* The events F is ready for now (DEFAULT_POLLMASK without ->poll),
 * registering on its queues when PT is not NULL. */
unsigned file_poll(struct file *f, struct poll_table *pt);

/* kernel/fs/select.c */
struct timespec32;
struct kernel_timespec;
struct pollfd;
long sys_poll(struct pollfd *ufds, u32 nfds, int timeout_ms);
long sys_ppoll(struct pollfd *ufds, u32 nfds, const struct timespec32 *tsp, const u64 *sigmask, u32 sigsetsize);
long sys_ppoll_time64(struct pollfd *ufds, u32 nfds, const struct kernel_timespec *tsp,
		      const u64 *sigmask, u32 sigsetsize);
long sys_select(int n, u32 *inp, u32 *outp, u32 *exp, void *tvp);
long sys_pselect6(int n, u32 *inp, u32 *outp, u32 *exp, struct timespec32 *tsp, const void *sig);
long sys_pselect6_time64(int n, u32 *inp, u32 *outp, u32 *exp, struct kernel_timespec *tsp,
			 const void *sig);

#endif
