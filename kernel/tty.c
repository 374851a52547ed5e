/*
 * kernel/tty.c - the console as file descriptors 0, 1 and 2.
 *
 * The console as a file (/dev/console, /dev/tty, and init's fds 0, 1, 2):
 * a write goes to every console (serial, screen) without printk's
 * timestamps; a read takes what the UART interrupt handed to
 * tty_receive(), blocking until at least one byte is there (or a signal
 * comes).  ioctl answers the terminal queries a C library makes at
 * start-up (isatty's TCGETS, the window size).  The line discipline is
 * still raw: TCSETS* keep the settings and report them back, nothing more.
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
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/poll.h>
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

static long console_file_write(struct file *f, const char *ubuf, u32 count)
{
	char chunk[TTY_WRITE_CHUNK];
	u32 done = 0;

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

static long console_file_read(struct file *f, char *ubuf, u32 count)
{
	unsigned long flags;
	u32 n = 0;

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

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414

/* Linux i386's struct termios (TCGETS), and its tty_std_termios defaults:
 * ICRNL|IXON, OPOST|ONLCR, B38400|CS8|CREAD|HUPCL, ISIG|ICANON|ECHO|ECHOE|
 * ECHOK|ECHOCTL|ECHOKE|IEXTEN, and INIT_C_CC (^C ^\ DEL ^U ^D ...). */
struct termios32 {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[19];
};
struct winsize { u16 ws_row, ws_col, ws_xpixel, ws_ypixel; };

static struct termios32 console_termios = {
	0x0500, 0x0005, 0x04bf, 0x8a3b, 0,
	{ 3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0, 0, 0 },
};
static struct winsize console_winsize = { 25, 80, 0, 0 };	/* the VGA text screen */

/* Readable when input is waiting; writing never blocks (the UART is
 * polled). */
static unsigned console_file_poll(struct file *f, struct poll_table *pt)
{
	unsigned mask = POLLOUT | POLLWRNORM;

	poll_wait(f, &tty_readers, pt);
	if (rx_head != rx_tail)
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

static const struct file_ops console_ops = {
	.read = console_file_read, .write = console_file_write, .poll = console_file_poll,
};

struct file *console_open(u32 flags)
{
	struct file *f = file_alloc(&console_ops, flags);

	if (f) {
		f->mode = S_IFCHR | 0600;
		f->rdev = (5 << 8) | 1;		/* /dev/console */
		f->ino = 3;
	}
	return f;
}

int file_is_tty(const struct file *f)
{
	return f->ops == &console_ops;
}

/* ioctl(fd, cmd, arg): -EBADF for no fd, -ENOTTY for a file that is not
 * the console or a command a tty does not know, -EFAULT for a bad ARG. */
long sys_ioctl(int fd, u32 cmd, u32 arg)
{
	void *u = (void *)(unsigned long)arg;
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!file_is_tty(f))
		return -ENOTTY;
	switch (cmd) {
	case TCGETS:
		return copy_to_user(u, &console_termios, sizeof(console_termios)) ? -EFAULT : 0;
	case TCSETS: case TCSETSW: case TCSETSF: {
		struct termios32 t;
		if (copy_from_user(&t, u, sizeof(t)))
			return -EFAULT;
		console_termios = t;
		return 0;
	}
	case TIOCGWINSZ:
		return copy_to_user(u, &console_winsize, sizeof(console_winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ: {
		struct winsize w;
		if (copy_from_user(&w, u, sizeof(w)))
			return -EFAULT;
		console_winsize = w;
		return 0;
	}
	}
	return -ENOTTY;
}
