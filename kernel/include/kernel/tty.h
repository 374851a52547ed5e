/*
 * kernel/tty.h - the console terminal: its settings, its input queue and
 * its job control state (kernel/tty.c: the file and ioctl side;
 * kernel/n_tty.c: the line discipline).
 */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

#include <kernel/types.h>
#include <kernel/wait.h>

struct file;
struct poll_table;

/* Linux i386's struct termios (TCGETS/TCSETS: 36 bytes, NCCS 19). */
struct termios32 {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[19];
};
struct winsize { u16 ws_row, ws_col, ws_xpixel, ws_ypixel; };

/* c_cc indexes (asm-generic/termbits.h) */
#define VINTR	0
#define VQUIT	1
#define VERASE	2
#define VKILL	3
#define VEOF	4
#define VTIME	5
#define VMIN	6
#define VSTART	8
#define VSTOP	9
#define VSUSP	10
#define VEOL	11
#define VWERASE	14
#define VEOL2	16

/* c_iflag */
#define ISTRIP	0000040
#define INLCR	0000100
#define IGNCR	0000200
#define ICRNL	0000400
/* c_oflag */
#define OPOST	0000001
#define ONLCR	0000004
/* c_lflag */
#define ISIG	0000001
#define ICANON	0000002
#define ECHO	0000010
#define ECHOE	0000020
#define ECHOK	0000040
#define ECHONL	0000100
#define NOFLSH	0000200
#define TOSTOP	0000400
#define ECHOCTL	0001000
#define ECHOKE	0004000
#define IEXTEN	0100000

#define N_TTY_BUF_SIZE	1024	/* input queue, bytes (a power of two; Linux: 4096) */

struct tty {
	struct termios32 termios;
	struct winsize winsize;
	/* The input queue: free-running counters, index & (N_TTY_BUF_SIZE - 1).
	 * [tail, canon_head) is readable in canonical mode (whole lines);
	 * [canon_head, head) is the line being edited.  In raw mode all of
	 * [tail, head) is readable. */
	char buf[N_TTY_BUF_SIZE];
	u8 eol[N_TTY_BUF_SIZE / 8];	/* bit: this byte ends a line (\n, EOL, EOF) */
	u32 head, tail, canon_head;
	int pgrp;			/* foreground process group (0: none) */
	int session;			/* the session it is the controlling tty of (0: none) */
	struct wait_queue_head read_wait;
};

extern struct tty console_tty;

/* The console's device number, major 5 minor 1 as /dev/console shows it
 * (stat's st_rdev, major << 8 | minor); the only controlling terminal. */
#define CONSOLE_RDEV	((5 << 8) | 1)

/* A byte arrived from the keyboard/UART (interrupt context). */
void tty_receive(char c);

/* kernel/n_tty.c */
long n_tty_read(struct tty *tty, struct file *f, char *ubuf, u32 count);
int n_tty_input_available(struct tty *tty);	/* a read would not block */
u32 n_tty_inq(struct tty *tty);			/* bytes a read could take now (FIONREAD) */
void n_tty_flush_input(struct tty *tty);
void n_tty_set_termios(struct tty *tty, const struct termios32 *old);

/* kernel/tty.c: every process of session SID loses its controlling tty. */
void release_ctty(int sid);
/* kernel/tty.c: job control for a caller of TTY (Linux's __tty_check_change):
 * 0, -ERESTARTSYS after SIG went to its background group, or -EIO. */
long tty_check_change(struct tty *tty, int sig);

#endif
