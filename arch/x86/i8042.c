/*
 * arch/x86/i8042.c - the PS/2 keyboard: the i8042 controller, IRQ 1, scan
 * code set 1 and a US layout, feeding the same tty_receive() as the UART.
 *
 * Controller set-up (after Linux's drivers/input/serio/i8042.c, reduced):
 * a status port reading 0xff means nothing decodes 0x64 (no controller, as
 * on many UEFI-only machines): the driver gives up silently.  Otherwise
 * both ports are disabled, stale output is drained (at most
 * I8042_BUFFER_SIZE bytes), the configuration byte gets the keyboard IRQ
 * and translation to set 1 on and the aux (mouse) IRQ off, and the
 * keyboard port is enabled.  Every wait for the controller is bounded
 * (I8042_TIMEOUT polls), so a missing or stuck controller never hangs the
 * boot.  The keyboard itself keeps the firmware's settings (no reset, no
 * LED commands: Caps Lock's light does not follow).
 *
 * Decoding: a make code presses a key, the same code | 0x80 releases it;
 * 0xe0 prefixes the extended keys.  Shift, Ctrl and Caps Lock change the
 * byte sent; Enter sends \r (the line discipline's ICRNL makes it \n),
 * Backspace sends DEL (0x7f, VERASE), the arrows, Home, End and Delete
 * send the VT100 escape sequences a serial terminal would.
 *
 * Machines left out: USB keyboards reach this driver only through the
 * firmware's legacy emulation (BIOS "USB legacy support"), which many
 * UEFI-only machines do not offer; Granule has no USB HID driver.
 */
#include <kernel/tty.h>
#include <arch/cpu.h>
#include <arch/i8042.h>
#include <arch/irq.h>

#define I8042_DATA		0x60
#define I8042_STATUS		0x64	/* read */
#define I8042_COMMAND		0x64	/* write */
#define I8042_STR_OBF		0x01	/* output buffer full: a byte to read */
#define I8042_STR_IBF		0x02	/* input buffer full: do not write yet */
#define I8042_STR_AUXDATA	0x20	/* the byte is the mouse's */
#define I8042_CMD_CTL_RCTR	0x20
#define I8042_CMD_CTL_WCTR	0x60
#define I8042_CMD_AUX_DISABLE	0xa7
#define I8042_CMD_KBD_DISABLE	0xad
#define I8042_CMD_KBD_ENABLE	0xae
#define I8042_CTR_KBDINT	0x01
#define I8042_CTR_AUXINT	0x02
#define I8042_CTR_KBDDIS	0x10
#define I8042_CTR_XLATE		0x40
#define I8042_TIMEOUT		10000	/* polls of the status port (~10 ms of port I/O) */
#define I8042_BUFFER_SIZE	16

static int wait_write(void)
{
	for (int i = 0; i < I8042_TIMEOUT; i++)
		if (!(inb(I8042_STATUS) & I8042_STR_IBF))
			return 0;
	return -1;
}

static int wait_read(void)
{
	for (int i = 0; i < I8042_TIMEOUT; i++)
		if (inb(I8042_STATUS) & I8042_STR_OBF)
			return 0;
	return -1;
}

static int command(u8 cmd)
{
	if (wait_write())
		return -1;
	outb(I8042_COMMAND, cmd);
	return 0;
}

/* US layout, set 1 make codes 0x00-0x39, without and with Shift. */
static const char keymap[0x3a] =
	"\0\033" "1234567890-=\x7f" "\tqwertyuiop[]\r" "\0asdfghjkl;'`" "\0\\zxcvbnm,./\0" "*\0 ";
static const char keymap_shift[0x3a] =
	"\0\033" "!@#$%^&*()_+\x7f" "\tQWERTYUIOP{}\r" "\0ASDFGHJKL:\"~" "\0|ZXCVBNM<>?\0" "*\0 ";

#define SC_LSHIFT	0x2a
#define SC_RSHIFT	0x36
#define SC_CTRL		0x1d
#define SC_CAPS		0x3a

static int shift, ctrl, caps, extended;

static void send(const char *s)
{
	while (*s)
		tty_receive(*s++);
}

static void key(u8 sc)
{
	int up = sc & 0x80;
	char c;

	sc &= 0x7f;
	if (extended) {
		extended = 0;
		if (sc == SC_CTRL) {		/* right Ctrl */
			ctrl = !up;
			return;
		}
		if (up)
			return;
		switch (sc) {
		case 0x48: send("\033[A"); return;	/* up */
		case 0x50: send("\033[B"); return;	/* down */
		case 0x4d: send("\033[C"); return;	/* right */
		case 0x4b: send("\033[D"); return;	/* left */
		case 0x47: send("\033[H"); return;	/* Home */
		case 0x4f: send("\033[F"); return;	/* End */
		case 0x53: send("\033[3~"); return;	/* Delete */
		case 0x1c: tty_receive('\r'); return;	/* keypad Enter */
		}
		return;
	}
	switch (sc) {
	case SC_LSHIFT: case SC_RSHIFT:
		shift = !up;
		return;
	case SC_CTRL:
		ctrl = !up;
		return;
	case SC_CAPS:
		if (!up)
			caps = !caps;
		return;
	}
	if (up || sc >= sizeof(keymap))
		return;
	c = shift ? keymap_shift[sc] : keymap[sc];
	if (caps && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		c ^= 0x20;
	if (ctrl && ((c >= '@' && c <= '_') || (c >= 'a' && c <= 'z')))
		c &= 0x1f;		/* ^A = 1 ... ^Z = 26, ^[ ^\ ^] ^^ ^_ */
	if (c)
		tty_receive(c);
}

static void i8042_irq(struct trap_frame *tf)
{
	u8 st;

	(void)tf;
	while ((st = inb(I8042_STATUS)) & I8042_STR_OBF) {
		u8 b = inb(I8042_DATA);
		if (st & I8042_STR_AUXDATA)
			continue;	/* a mouse byte: not ours */
		if (b == 0xe0)
			extended = 1;
		else
			key(b);
	}
}

void i8042_init(void)
{
	u8 ctr;

	if (inb(I8042_STATUS) == 0xff)
		return;			/* no controller */
	if (command(I8042_CMD_KBD_DISABLE) || command(I8042_CMD_AUX_DISABLE))
		return;
	for (int i = 0; i < I8042_BUFFER_SIZE && (inb(I8042_STATUS) & I8042_STR_OBF); i++)
		(void)inb(I8042_DATA);
	if (command(I8042_CMD_CTL_RCTR) || wait_read())
		return;
	ctr = inb(I8042_DATA);
	ctr = (ctr | I8042_CTR_KBDINT | I8042_CTR_XLATE) & ~(I8042_CTR_AUXINT | I8042_CTR_KBDDIS);
	if (command(I8042_CMD_CTL_WCTR) || wait_write())
		return;
	outb(I8042_DATA, ctr);
	request_irq(1, i8042_irq);
	command(I8042_CMD_KBD_ENABLE);
}
