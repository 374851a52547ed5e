/*
 * kernel/tty.c - the console as file descriptors 0, 1 and 2.
 *
 * The console as a file (/dev/console, /dev/tty, and init's fds 0, 1, 2):
 * a write goes to every console (serial, screen) without printk's
 * timestamps, and not into the kernel log (dmesg); a read goes through the line discipline (kernel/n_tty.c),
 * which the UART and keyboard interrupts feed with tty_receive().  ioctl
 * has the termios calls (TCGETS, TCSETS/W/F, TCFLSH, FIONREAD), the window
 * size and the job control calls (TIOCSCTTY, TIOCGPGRP/TIOCSPGRP,
 * TIOCGSID, TIOCNOTTY) with Linux's checks (drivers/char/tty_io.c).
 *
 * Job control on output (tty_check_change(), Linux 6.1's
 * drivers/tty/tty_jobctrl.c): a process of a background group of the
 * terminal's session gets SIGTTOU for its group when it writes with TOSTOP
 * set (n_tty_write's check, before anything is written) and, whatever
 * TOSTOP says, when it changes the terminal (TCSETS/W/F, TCFLSH,
 * TIOCSPGRP); the call restarts once the group is continued.  If it
 * ignores or blocks SIGTTOU the call goes ahead; an orphaned group gets
 * -EIO (TIOCSPGRP: -ENOTTY, as Linux's tiocspgrp).  Reads get SIGTTIN the
 * same way (kernel/n_tty.c), -EIO if ignored or blocked.
 *
 * A long write is copied and written in TTY_WRITE_CHUNK pieces, as Linux's
 * do_tty_write (2.6.35 drivers/char/tty_io.c) does: between two pieces it
 * is a scheduling point (cond_resched(): the kernel is not preemptible, and
 * 1 MiB to a 115200-baud UART takes long; there another CPU waiting for the
 * giant lock gets it, kernel/smp_lock.c) and it stops early for a fatal
 * signal, returning the count written so far (Linux stops for any pending
 * signal; Granule's libc does not retry short writes, so only a signal that
 * ends the process cuts a write short here).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/poll.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

#define TTY_WRITE_CHUNK	128	/* bytes copied from user per step (on the kernel stack) */

/* Linux's tty_std_termios: ICRNL|IXON, OPOST|ONLCR, B38400|CS8|CREAD|HUPCL,
 * ISIG|ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|IEXTEN, and INIT_C_CC
 * (^C ^\ DEL ^U ^D, VTIME 0, VMIN 1, ^Q ^S ^Z, ^R ^O ^W ^V). */
struct tty console_tty = {
	.termios = { 0x0500, 0x0005, 0x04bf, 0x8a3b, 0,
		     { 3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0, 0, 0 } },
	.winsize = { 25, 80, 0, 0 },	/* the VGA text screen */
	.read_wait = WAIT_QUEUE_HEAD_INIT(console_tty.read_wait),
};

static long console_file_write(struct file *f, const char *ubuf, u32 count)
{
	char chunk[TTY_WRITE_CHUNK];
	u32 done = 0;
	long ret;

	/* Job control check, at the start (POSIX.1 7.1.1.4; Linux's n_tty_write). */
	if ((console_tty.termios.c_lflag & TOSTOP) && (ret = tty_check_change(&console_tty, SIGTTOU)))
		return ret;

	while (done < count) {
		u32 n = min(count - done, (u32)sizeof(chunk));
		if (copy_from_user(chunk, ubuf + done, n))
			return done ? (long)done : -EFAULT;
		console_write_user(chunk, n);
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
	if (!count)
		return 0;
	/* A bad buffer fails now, not after blocking for input that may never
	 * come; one read returns at most a queue's worth, so check that much. */
	if (fault_in_user(ubuf, min(count, (u32)N_TTY_BUF_SIZE), 1))
		return -EFAULT;
	return n_tty_read(&console_tty, f, ubuf, count);
}

/* Readable when a read would not block; writing never blocks (the UART
 * is polled). */
static unsigned console_file_poll(struct file *f, struct poll_table *pt)
{
	unsigned mask = POLLOUT | POLLWRNORM;

	poll_wait(f, &console_tty.read_wait, pt);
	if (n_tty_input_available(&console_tty))
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
		f->rdev = CONSOLE_RDEV;
		f->ino = 3;
	}
	return f;
}

int file_is_tty(const struct file *f)
{
	return f->ops == &console_ops;
}

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TCFLSH		0x540B
#define TIOCSCTTY	0x540E
#define TIOCGPGRP	0x540F
#define TIOCSPGRP	0x5410
#define TIOCOUTQ	0x5411
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414
#define FIONREAD	0x541B
#define TIOCNOTTY	0x5422
#define TIOCGSID	0x5429
#define TCIFLUSH	0
#define TCOFLUSH	1
#define TCIOFLUSH	2

static long set_termios(struct tty *tty, const void *u, int flush)
{
	struct termios32 t, old = tty->termios;
	long ret = tty_check_change(tty, SIGTTOU);

	if (ret)
		return ret;
	if (copy_from_user(&t, u, sizeof(t)))
		return -EFAULT;
	if (flush)
		n_tty_flush_input(tty);
	tty->termios = t;
	n_tty_set_termios(tty, &old);
	return 0;
}

/* Is the console the caller's controlling terminal? */
static int is_ctty(struct tty *tty)
{
	return current->group_leader->ctty && tty->session &&
	       tty->session == current->group_leader->session;
}

/*
 * Linux's __tty_check_change(): may the caller use TTY as its controlling
 * terminal now?  0 unless it is a background process of TTY's session (a
 * foreground group exists and is not its own); then SIG for its whole
 * group and -ERESTARTSYS (the call runs again once the group is continued),
 * or, if the caller blocks or ignores SIG, 0 (SIGTTIN: -EIO), or for an
 * orphaned group, which no shell would continue, -EIO.
 */
long tty_check_change(struct tty *tty, int sig)
{
	struct task *me = current->group_leader;
	u32 handler;

	if (!is_ctty(tty) || !tty->pgrp || me->pgrp == tty->pgrp)
		return 0;
	handler = me->sig ? me->sig->action[sig - 1].handler : SIG_DFL;
	if (handler == SIG_IGN || (current->sig_blocked & sigmask(sig)))
		return sig == SIGTTIN ? -EIO : 0;
	if (pgrp_orphaned(me->pgrp))
		return -EIO;
	kill_pgrp(me->pgrp, sig);
	return -ERESTARTSYS;
}

/* Every process of session SID loses its controlling terminal (Linux's
 * disassociate_ctty for a session leader; Linux also sends SIGHUP and
 * SIGCONT to the foreground group, Granule does not). */
void release_ctty(int sid)
{
	struct tty *tty = &console_tty;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->group_leader == t && t->session == sid)
			t->ctty = 0;
	if (tty->session == sid)
		tty->session = tty->pgrp = 0;
}

/* TIOCSCTTY (Linux's tiocsctty): a session leader without a controlling
 * terminal takes this one; one another session holds is taken only with
 * ARG == 1 by root (every process is root here). */
static long tiocsctty(struct tty *tty, u32 arg)
{
	struct task *me = current->group_leader;

	if (me->session != me->tgid)
		return -EPERM;		/* not a session leader */
	if (is_ctty(tty))
		return 0;
	if (me->ctty)
		return -EPERM;		/* has another one */
	if (tty->session && tty->session != me->session) {
		if (arg != 1)
			return -EPERM;
		release_ctty(tty->session);
	}
	tty->session = me->session;
	tty->pgrp = me->pgrp;
	me->ctty = 1;
	return 0;
}

/* TIOCSPGRP (Linux's tiocspgrp): only on one's own controlling tty, to a
 * process group of one's own session. */
static long tiocspgrp(struct tty *tty, const void *u)
{
	long ret = tty_check_change(tty, SIGTTOU);
	s32 pgrp;
	int sid;

	if (ret == -EIO)
		return -ENOTTY;
	if (ret)
		return ret;
	if (!is_ctty(tty))
		return -ENOTTY;
	if (copy_from_user(&pgrp, u, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	sid = pgrp_session(pgrp);
	if (sid < 0)
		return -ESRCH;
	if (sid != current->group_leader->session)
		return -EPERM;
	tty->pgrp = pgrp;
	return 0;
}

static long put_int(void *u, s32 v)
{
	return copy_to_user(u, &v, sizeof(v)) ? -EFAULT : 0;
}

/* ioctl(fd, cmd, arg): -EBADF for no fd, -ENOTTY for a file that is not
 * the console or a command a tty does not know, -EFAULT for a bad ARG. */
long sys_ioctl(int fd, u32 cmd, u32 arg)
{
	struct tty *tty = &console_tty;
	void *u = (void *)(unsigned long)arg;
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!file_is_tty(f))
		return -ENOTTY;
	switch (cmd) {
	case TCGETS:
		return copy_to_user(u, &tty->termios, sizeof(tty->termios)) ? -EFAULT : 0;
	case TCSETS: case TCSETSW:	/* output is synchronous: nothing to drain */
		return set_termios(tty, u, 0);
	case TCSETSF:
		return set_termios(tty, u, 1);
	case TCFLSH: {
		long ret = tty_check_change(tty, SIGTTOU);
		if (ret)
			return ret;
		if (arg > TCIOFLUSH)
			return -EINVAL;
		if (arg != TCOFLUSH)
			n_tty_flush_input(tty);
		return 0;
	}
	case FIONREAD:
		return put_int(u, n_tty_inq(tty));
	case TIOCOUTQ:
		return put_int(u, 0);
	case TIOCGWINSZ:
		return copy_to_user(u, &tty->winsize, sizeof(tty->winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ: {
		struct winsize w;
		if (copy_from_user(&w, u, sizeof(w)))
			return -EFAULT;
		tty->winsize = w;
		return 0;
	}
	case TIOCSCTTY:
		return tiocsctty(tty, arg);
	case TIOCNOTTY:
		if (!is_ctty(tty))
			return -ENOTTY;
		if (current->group_leader->session == current->tgid)
			release_ctty(tty->session);	/* the leader: for the whole session */
		else
			current->group_leader->ctty = 0;
		return 0;
	case TIOCGPGRP:
		return is_ctty(tty) ? put_int(u, tty->pgrp) : -ENOTTY;
	case TIOCSPGRP:
		return tiocspgrp(tty, u);
	case TIOCGSID:
		return is_ctty(tty) ? put_int(u, tty->session) : -ENOTTY;
	}
	return -ENOTTY;
}
