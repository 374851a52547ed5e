/*
 * kernel/fs/pipe.c - pipe(2) and pipe2(2): a bounded byte ring between a
 * read end and a write end, after Linux 2.6.35's fs/pipe.c.
 *
 * A pipe is one struct pipe_inode_info: a ring of PIPE_SIZE bytes (one
 * kmalloc'd frame), the number of open read and write files, and one wait
 * queue that both sides sleep on and every change wakes.  Each end is an
 * ordinary struct file (f->node points at the pipe), so dup, fork,
 * close-on-exec and fcntl need nothing special; the pipe is freed when its
 * last file is released.
 *
 * The rules are Linux's (pipe_read, pipe_write, pipe_poll):
 *  - read returns what is there (at most COUNT), blocks while the ring is
 *    empty and a writer exists, and returns 0 (end of file) when none is
 *    left; O_NONBLOCK makes an empty ring -EAGAIN.
 *  - a write of at most PIPE_BUF bytes goes in whole or not at all
 *    (it waits for room); a longer one may be split between readers.
 *  - writing with no reader left sends SIGPIPE and fails with -EPIPE
 *    (or returns what was written before the last reader left).
 *  - a sleep ends on a signal: -ERESTARTSYS if nothing was moved yet (the
 *    signal code turns it into -EINTR, or restarts it under SA_RESTART).
 *
 * Deliberate difference: Linux 2.6.35 holds up to 16 pages (PIPE_BUFFERS,
 * 64 KiB) in page-sized buffers; Granule's ring is one page, so a writer
 * blocks after 4096 unread bytes and PIPE_BUF atomicity means "waits for
 * an empty ring" when the write is a whole page.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/kmalloc.h>
#include <kernel/pipe.h>
#include <kernel/poll.h>
#include <kernel/signal.h>
#include <kernel/signal_nr.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

struct pipe_inode_info {
	char *buf;			/* PIPE_SIZE bytes */
	u32 head;			/* index of the oldest unread byte */
	u32 len;			/* unread bytes, 0..PIPE_SIZE */
	int readers, writers;		/* open files of each end */
	struct wait_queue_head wait;	/* readers and writers, woken on every change */
};

static int nr_pipes;			/* live pipes, at most PIPE_MAX (-ENFILE) */
static u32 pipe_ino = 0x10000;		/* fstat st_ino of the next pipe */

/*
 * Sleep on the pipe's queue until woken; 0, or -ERESTARTSYS with a signal
 * pending.  Only process context changes a pipe (no interrupt handler
 * touches one, and the kernel is not preempted), so the caller's test of
 * the ring needs no lock; what can arrive from an interrupt is a signal,
 * so interrupts are off from the signal test to the sleep.
 */
static int pipe_wait(struct pipe_inode_info *p)
{
	unsigned long flags;

	local_irq_save(flags);
	if (signal_pending(current)) {
		local_irq_restore(flags);
		return -ERESTARTSYS;
	}
	wait_sleep(&p->wait, TASK_INTERRUPTIBLE);
	local_irq_restore(flags);
	return 0;
}

/* Copy N bytes at ring offset OFF to or from UBUF: one piece, or two when
 * the range wraps past the end of the ring.  0 or -EFAULT. */
static int ring_copy_out(const struct pipe_inode_info *p, u32 off, char *ubuf, u32 n)
{
	u32 first = min(n, PIPE_SIZE - off);

	if (copy_to_user(ubuf, p->buf + off, first))
		return -EFAULT;
	return n > first ? copy_to_user(ubuf + first, p->buf, n - first) : 0;
}

static int ring_copy_in(struct pipe_inode_info *p, u32 off, const char *ubuf, u32 n)
{
	u32 first = min(n, PIPE_SIZE - off);

	if (copy_from_user(p->buf + off, ubuf, first))
		return -EFAULT;
	return n > first ? copy_from_user(p->buf, ubuf + first, n - first) : 0;
}

static long pipe_read(struct file *f, char *ubuf, u32 count)
{
	struct pipe_inode_info *p = (struct pipe_inode_info *)f->node;
	int err;

	if (!count)
		return 0;
	while (!p->len && p->writers) {
		if (f->flags & O_NONBLOCK)
			return -EAGAIN;
		if ((err = pipe_wait(p)))
			return err;
	}
	if (!p->len)
		return 0;			/* no writer: end of file */
	u32 n = min(count, p->len);
	if (ring_copy_out(p, p->head, ubuf, n))
		return -EFAULT;			/* nothing consumed */
	p->head = (p->head + n) % PIPE_SIZE;
	p->len -= n;
	wake_up_all(&p->wait);			/* room for the writers */
	return n;
}

static long pipe_write(struct file *f, const char *ubuf, u32 count)
{
	struct pipe_inode_info *p = (struct pipe_inode_info *)f->node;
	u32 done = 0;
	int err;

	if (!count)
		return 0;
	while (done < count) {
		if (!p->readers) {
			send_signal(current, SIGPIPE);
			return done ? (long)done : -EPIPE;
		}
		u32 room = PIPE_SIZE - p->len, want = count - done;
		/* PIPE_BUF atomicity: a short write waits for room for all of it. */
		if (room && (want > PIPE_BUF || room >= want)) {
			u32 n = min(room, want);
			if (ring_copy_in(p, (p->head + p->len) % PIPE_SIZE, ubuf + done, n))
				return done ? (long)done : -EFAULT;
			p->len += n;
			done += n;
			wake_up_all(&p->wait);	/* data for the readers */
			continue;
		}
		if (f->flags & O_NONBLOCK)
			return done ? (long)done : -EAGAIN;
		if ((err = pipe_wait(p)))
			return done ? (long)done : err;
	}
	return done;
}

/* pipe_poll: POLLIN with data, POLLHUP with no writer (read end); POLLOUT
 * with room, POLLERR with no reader (write end). */
static unsigned pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe_inode_info *p = (struct pipe_inode_info *)f->node;
	unsigned mask = 0;

	poll_wait(f, &p->wait, pt);
	if ((f->flags & O_ACCMODE) == O_RDONLY) {
		mask = p->len ? POLLIN | POLLRDNORM : 0;
		if (!p->writers)
			mask |= POLLHUP;
	} else {
		mask = p->len < PIPE_SIZE ? POLLOUT | POLLWRNORM : 0;
		if (!p->readers)
			mask |= POLLERR;
	}
	return mask;
}

static void pipe_release(struct file *f)
{
	struct pipe_inode_info *p = (struct pipe_inode_info *)f->node;

	if ((f->flags & O_ACCMODE) == O_RDONLY)
		p->readers--;
	else
		p->writers--;
	if (p->readers || p->writers) {
		wake_up_all(&p->wait);		/* EOF for readers, EPIPE for writers */
		return;
	}
	kfree(p->buf);
	kfree(p);
	nr_pipes--;
}

static const struct file_ops pipe_ops = {
	.read = pipe_read, .write = pipe_write, .release = pipe_release, .poll = pipe_poll,
};

static struct file *pipe_file(struct pipe_inode_info *p, u32 flags, u32 ino)
{
	struct file *f = file_alloc(&pipe_ops, flags);

	if (f) {
		f->node = p;
		f->mode = S_IFIFO | 0600;
		f->ino = ino;
	}
	return f;
}

/*
 * pipe2(fds, flags): fds[0] the read end, fds[1] the write end; FLAGS only
 * O_CLOEXEC and O_NONBLOCK.  0, or -EINVAL (other flags), -EFAULT (FDS not
 * writable; nothing stays open), -EMFILE (fewer than two free fds),
 * -ENFILE (PIPE_MAX pipes exist), -ENOMEM.
 */
long sys_pipe2(int *ufds, u32 flags)
{
	struct pipe_inode_info *p;
	struct file *rf, *wf;
	int fds[2];

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	if (!access_ok((u32)ufds, sizeof(fds)))
		return -EFAULT;
	if (nr_pipes >= PIPE_MAX)
		return -ENFILE;
	if (!(p = kzalloc(sizeof(*p))))
		return -ENOMEM;
	if (!(p->buf = kmalloc(PIPE_SIZE))) {
		kfree(p);
		return -ENOMEM;
	}
	init_waitqueue_head(&p->wait);
	p->readers = p->writers = 1;
	nr_pipes++;
	u32 ino = pipe_ino++;
	rf = pipe_file(p, O_RDONLY | (flags & O_NONBLOCK), ino);
	wf = rf ? pipe_file(p, O_WRONLY | (flags & O_NONBLOCK), ino) : NULL;
	if (!wf) {
		if (rf)
			fput(rf);		/* readers 0, writers 1 */
		p->writers = 0;
		kfree(p->buf);
		kfree(p);
		nr_pipes--;
		return -ENOMEM;
	}
	if ((fds[0] = fd_install(rf, flags & O_CLOEXEC)) < 0) {
		fput(rf);
		fput(wf);
		return fds[0];
	}
	if ((fds[1] = fd_install(wf, flags & O_CLOEXEC)) < 0) {
		sys_close(fds[0]);
		fput(wf);
		return fds[1];
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		sys_close(fds[0]);
		sys_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}
