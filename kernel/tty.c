/*
 * kernel/tty.c - the console as file descriptors 0, 1 and 2.
 *
 * fd 1 and 2 write to every console (serial, screen) without printk's
 * timestamps; fd 0 reads what the UART interrupt handed to tty_receive(),
 * blocking until at least one byte is there (or a signal comes).
 *
 * A long write is copied and written in TTY_WRITE_CHUNK pieces, as Linux's
 * do_tty_write (2.6.35 drivers/char/tty_io.c) does: between two pieces it
 * is a scheduling point (cond_resched(): the kernel is not preemptible, and
 * 1 MiB to a 115200-baud UART takes long) and it stops early for a fatal
 * signal, returning the count written so far (Linux stops for any pending
 * signal; Granule's libc does not retry short writes, so only a signal that
 * ends the process cuts a write short here).
 */
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/task.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

#define TTY_BUF	256
#define TTY_WRITE_CHUNK	128	/* bytes copied from user per step (on the kernel stack) */

static char rx[TTY_BUF];
static unsigned rx_head, rx_tail;	/* head: next write, tail: next read */
static DECLARE_WAIT_QUEUE_HEAD(tty_readers);

void tty_receive(char c)
{
	unsigned next = (rx_head + 1) % TTY_BUF;

	if (next == rx_tail)
		return;		/* full: drop */
	rx[rx_head] = c;
	rx_head = next;
	wake_up_all(&tty_readers);
}

long sys_write(int fd, const char *ubuf, u32 count)
{
	char chunk[TTY_WRITE_CHUNK];
	u32 done = 0;

	if (fd != 1 && fd != 2)
		return -EBADF;
	if (!access_ok((u32)ubuf, count))
		return -EFAULT;
	while (done < count) {
		u32 n = min(count - done, (u32)sizeof(chunk));
		if (copy_from_user(chunk, ubuf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
		if (done == count)
			break;
		if (fatal_signal_pending(current))
			return done;	/* dies on the way out */
		cond_resched();
	}
	return done;
}

long sys_read(int fd, char *ubuf, u32 count)
{
	unsigned long flags;
	u32 n = 0;

	if (fd != 0)
		return -EBADF;
	if (!access_ok((u32)ubuf, count))
		return -EFAULT;
	if (!count)
		return 0;
	/* A bad buffer fails now, not after blocking for input that may never
	 * come; one read returns at most TTY_BUF - 1 bytes, so check that much. */
	if (fault_in_user(ubuf, min(count, (u32)TTY_BUF), 1))
		return -EFAULT;
	local_irq_save(flags);
	while (rx_head == rx_tail) {
		if (signal_pending(current)) {
			local_irq_restore(flags);
			return -ERESTARTSYS;	/* SA_RESTART restarts it */
		}
		wait_sleep(&tty_readers, TASK_INTERRUPTIBLE);
	}
	while (n < count && rx_tail != rx_head) {
		char c = rx[rx_tail];
		rx_tail = (rx_tail + 1) % TTY_BUF;
		local_irq_restore(flags);
		if (copy_to_user(ubuf + n, &c, 1))
			return n ? (long)n : -EFAULT;
		n++;
		local_irq_save(flags);
	}
	local_irq_restore(flags);
	return n;
}
