/*
 * kernel/n_tty.c - the line discipline of the console (Linux's N_TTY,
 * drivers/char/n_tty.c in 2.6.35, reduced to one terminal).
 *
 * Input side, n_tty_receive_char(), runs in the interrupt handler of the
 * UART or the keyboard for each byte:
 *
 *   1. input mapping: \r becomes \n under ICRNL (dropped under IGNCR),
 *      \n becomes \r under INLCR, ISTRIP clears bit 7;
 *   2. ISIG: VINTR (^C), VQUIT (^\) and VSUSP (^Z) send SIGINT, SIGQUIT
 *      and SIGTSTP to the foreground process group, flush the queue
 *      (unless NOFLSH) and echo as ^C;
 *   3. ICANON: VERASE (DEL, 0x7f) and ^H (0x08) rub out the last byte of
 *      the line being edited, echoed as "\b \b" under ECHOE; VKILL (^U)
 *      the whole line, VWERASE (^W, with IEXTEN) the last word; \n, VEOL
 *      and VEOL2 end the line, VEOF (^D) ends it without being stored, so
 *      an empty line is a read of 0 bytes (end of file);
 *   4. otherwise the byte is queued and echoed under ECHO (a control byte
 *      as ^X under ECHOCTL).
 *
 * Deliberate difference: Linux rubs out only VERASE; ^H also does here, as
 * terminals send either for the backspace key.
 *
 * Read side, n_tty_read(): in canonical mode it waits for a whole line
 * and returns at most that line; in raw mode it follows VMIN/VTIME as
 * termios(3) describes (VMIN=0 VTIME=0: what is there, maybe 0; VMIN>0
 * VTIME=0: at least min(VMIN, count); VMIN=0 VTIME>0: one byte or VTIME
 * tenths of a second; VMIN>0 VTIME>0: VTIME is the gap allowed between
 * bytes after the first).
 *
 * Echo and output processing share the console's output path: the serial
 * driver always turns \n into \r\n, which is OPOST|ONLCR, the default
 * (Granule does not turn it off when a program clears OPOST).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/hrtimer.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

#define MASK(i)		((i) & (N_TTY_BUF_SIZE - 1))
#define L(tty, f)	((tty)->termios.c_lflag & (f))
#define I(tty, f)	((tty)->termios.c_iflag & (f))
#define CC(tty, i)	((tty)->termios.c_cc[i])

static int is_eol(struct tty *tty, u32 i)
{
	return tty->eol[MASK(i) / 8] >> (MASK(i) % 8) & 1;
}

static void set_eol(struct tty *tty, u32 i, int on)
{
	u8 bit = 1u << (MASK(i) % 8);

	if (on)
		tty->eol[MASK(i) / 8] |= bit;
	else
		tty->eol[MASK(i) / 8] &= ~bit;
}

static void echo(const char *s, u32 n)
{
	console_write_user(s, n);
}

/* Echo C as typed: a control byte as ^X under ECHOCTL (not \t, \n). */
static void echo_char(struct tty *tty, char c)
{
	unsigned char u = (unsigned char)c;

	if (L(tty, ECHOCTL) && (u < 0x20 || u == 0x7f) && c != '\t' && c != '\n') {
		char s[2] = { '^', (char)(u ^ 0100) };
		echo(s, 2);
	} else {
		echo(&c, 1);
	}
}

void n_tty_flush_input(struct tty *tty)
{
	unsigned long flags;

	local_irq_save(flags);
	tty->head = tty->tail = tty->canon_head = 0;
	local_irq_restore(flags);
}

/* Rub out the last byte of the edited line; 0 if there is none. */
static int rub_out(struct tty *tty)
{
	if (tty->head == tty->canon_head)
		return 0;
	tty->head--;
	if (L(tty, ECHO)) {
		unsigned char u = (unsigned char)tty->buf[MASK(tty->head)];
		int width = (L(tty, ECHOCTL) && (u < 0x20 || u == 0x7f) && u != '\t') ? 2 : 1;
		if (L(tty, ECHOE))
			while (width--)
				echo("\b \b", 3);
		else
			echo_char(tty, CC(tty, VERASE));
	}
	return 1;
}

static void put_queue(struct tty *tty, char c, int eol)
{
	if (tty->head - tty->tail >= N_TTY_BUF_SIZE - 1)
		return;		/* full: dropped, as Linux drops past 4095 */
	tty->buf[MASK(tty->head)] = c;
	set_eol(tty, tty->head, eol);
	tty->head++;
	if (eol)
		tty->canon_head = tty->head;
}

static void isig(struct tty *tty, int sig, char c)
{
	if (!L(tty, NOFLSH))
		tty->head = tty->tail = tty->canon_head = 0;
	if (L(tty, ECHO))
		echo_char(tty, c);
	if (tty->pgrp > 0)
		kill_pgrp(tty->pgrp, sig);
}

static void n_tty_receive_char(struct tty *tty, char c)
{
	if (I(tty, ISTRIP))
		c &= 0x7f;
	if (c == '\r') {
		if (I(tty, IGNCR))
			return;
		if (I(tty, ICRNL))
			c = '\n';
	} else if (c == '\n' && I(tty, INLCR)) {
		c = '\r';
	}
	if (L(tty, ISIG) && c) {
		if (c == CC(tty, VINTR))
			return isig(tty, SIGINT, c);
		if (c == CC(tty, VQUIT))
			return isig(tty, SIGQUIT, c);
		if (c == CC(tty, VSUSP))
			return isig(tty, SIGTSTP, c);
	}
	if (L(tty, ICANON)) {
		if (c && (c == CC(tty, VERASE) || c == '\b')) {
			rub_out(tty);
			return;
		}
		if (c && c == CC(tty, VKILL)) {
			while (rub_out(tty))
				;
			return;
		}
		if (c && c == CC(tty, VWERASE) && L(tty, IEXTEN)) {
			while (tty->head != tty->canon_head && tty->buf[MASK(tty->head - 1)] == ' ')
				rub_out(tty);
			while (tty->head != tty->canon_head && tty->buf[MASK(tty->head - 1)] != ' ')
				rub_out(tty);
			return;
		}
		if (c && c == CC(tty, VEOF)) {
			put_queue(tty, c, 1);	/* ends the line, not returned by read */
			return;
		}
		if (c == '\n' || (c && (c == CC(tty, VEOL) || c == CC(tty, VEOL2)))) {
			if (L(tty, ECHO) || (c == '\n' && L(tty, ECHONL)))
				echo_char(tty, c);
			put_queue(tty, c, 1);
			return;
		}
		/* Keep room for the line's end. */
		if (tty->head - tty->tail >= N_TTY_BUF_SIZE - 2)
			return;
	}
	if (L(tty, ECHO))
		echo_char(tty, c);
	put_queue(tty, c, 0);
}

void tty_receive(char c)
{
	struct tty *tty = &console_tty;
	unsigned long flags;

	local_irq_save(flags);
	n_tty_receive_char(tty, c);
	local_irq_restore(flags);
	wake_up_all(&tty->read_wait);
}

/* Bytes a read may take now. */
static u32 readable(struct tty *tty)
{
	return (L(tty, ICANON) ? tty->canon_head : tty->head) - tty->tail;
}

int n_tty_input_available(struct tty *tty)
{
	u32 min = CC(tty, VMIN);

	if (L(tty, ICANON))
		return tty->canon_head != tty->tail;
	return tty->head - tty->tail >= (min ? min : 1);
}

u32 n_tty_inq(struct tty *tty)
{
	return readable(tty);
}

/* Leaving canonical mode makes the edited line readable; entering it
 * makes what is queued one line (Linux's n_tty_set_termios). */
void n_tty_set_termios(struct tty *tty, const struct termios32 *old)
{
	unsigned long flags;

	local_irq_save(flags);
	if ((old->c_lflag ^ tty->termios.c_lflag) & ICANON)
		tty->canon_head = tty->head;
	local_irq_restore(flags);
	wake_up_all(&tty->read_wait);
}

/*
 * Wait until WANT bytes are readable or (TIMEOUT ns, if not 0) pass with
 * none arriving; 0, -EAGAIN (O_NONBLOCK) or -ERESTARTSYS.
 */
static long wait_input(struct tty *tty, struct file *f, u32 want, u64 timeout)
{
	struct hrtimer_sleeper rt;
	unsigned long flags;
	long ret = 0;

	hrtimer_init_sleeper(&rt, current);
	local_irq_save(flags);
	while (readable(tty) < want) {
		if (f->flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (rt.expired)
			break;
		if (timeout)
			hrtimer_start(&rt.timer, sched_clock() + timeout);
		wait_sleep(&tty->read_wait, TASK_INTERRUPTIBLE);
	}
	hrtimer_cancel(&rt.timer);
	local_irq_restore(flags);
	return ret;
}

/* Copy up to COUNT readable bytes to UBUF; stops after a line end in
 * canonical mode (a VEOF is consumed, not copied).  Bytes or -EFAULT. */
static long copy_out(struct tty *tty, char *ubuf, u32 count)
{
	u32 n = 0;

	while (n < count && readable(tty)) {
		unsigned long flags;
		local_irq_save(flags);
		char c = tty->buf[MASK(tty->tail)];
		int eol = L(tty, ICANON) && is_eol(tty, tty->tail);
		int eof = eol && c == CC(tty, VEOF) && c;
		local_irq_restore(flags);
		if (!eof && copy_to_user(ubuf + n, &c, 1))
			return n ? (long)n : -EFAULT;
		local_irq_save(flags);
		tty->tail++;
		local_irq_restore(flags);
		if (!eof)
			n++;
		if (eol)
			break;
	}
	return n;
}

/*
 * A background process reading its controlling terminal (Linux's
 * job_control()): its group gets SIGTTIN (which stops it) and the read is
 * restarted once it is continued in the foreground; -EIO if it ignores or
 * blocks SIGTTIN or its group is orphaned (nobody would continue it).
 */
static long job_control(struct tty *tty)
{
	return tty_check_change(tty, SIGTTIN);
}

long n_tty_read(struct tty *tty, struct file *f, char *ubuf, u32 count)
{
	u32 min = CC(tty, VMIN), want;
	u64 vtime = (u64)CC(tty, VTIME) * 100 * NSEC_PER_MSEC;	/* tenths of a second */
	long ret, n;

	if (!count)
		return 0;
	if ((ret = job_control(tty)))
		return ret;
	if (L(tty, ICANON)) {
		if ((ret = wait_input(tty, f, 1, 0)))
			return ret;
		return copy_out(tty, ubuf, count);
	}
	if (!min && !vtime)
		return copy_out(tty, ubuf, count);
	if (!min) {
		if ((ret = wait_input(tty, f, 1, vtime)))
			return ret;
		return copy_out(tty, ubuf, count);
	}
	want = min < count ? min : count;
	if ((ret = wait_input(tty, f, 1, 0)))
		return ret;
	n = copy_out(tty, ubuf, count);
	/* VTIME > 0: more until WANT, each within VTIME of the last. */
	while (n > 0 && (u32)n < want) {
		ret = wait_input(tty, f, 1, vtime);
		if (ret || !readable(tty))
			break;
		long m = copy_out(tty, ubuf + n, count - n);
		if (m <= 0)
			break;
		n += m;
	}
	return n;
}
