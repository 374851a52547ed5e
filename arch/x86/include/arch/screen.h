/*
 * arch/screen.h - the screen consoles: VGA text mode (arch/x86/vga.c) and
 * the multiboot2 linear framebuffer (arch/x86/fbcon.c).  Both register a
 * printk console, so every byte printk and the tty emit is drawn.
 */
#ifndef ARCH_SCREEN_H
#define ARCH_SCREEN_H

#include <kernel/types.h>

/* 8x16 glyphs for codes 0..127 (arch/x86/font8x16.c, from tools/fontgen.py). */
extern const u8 font8x16[128][16];

/*
 * Start a screen console; DESC (LEN bytes) receives one line saying what
 * was set up or why not, for the caller to print once the banner is out.
 * Returns 1 if a console was registered.  arch/x86/setup.c chooses: the
 * multiboot2 framebuffer tag (RGB -> fbcon, EGA text -> vga at its
 * address), else VGA text at 0xB8000 if the BIOS says a text mode is set.
 */
int vga_console_init(u32 phys, unsigned cols, unsigned rows, char *desc, size_t len);
int fbcon_init(char *desc, size_t len);

/*
 * UTF-8 for the screens (user programs print "µs"): feed bytes; returns a
 * code point when one is complete, -1 while a sequence is pending.  A
 * malformed byte comes back as U+FFFD.
 */
struct utf8_state { u32 cp; int need; };

static inline int utf8_feed(struct utf8_state *st, u8 b)
{
	if (st->need && (b & 0xc0) == 0x80) {
		st->cp = st->cp << 6 | (b & 0x3f);
		return --st->need ? -1 : (int)st->cp;
	}
	st->need = 0;
	if (b < 0x80)
		return b;
	if ((b & 0xe0) == 0xc0) { st->cp = b & 0x1f; st->need = 1; return -1; }
	if ((b & 0xf0) == 0xe0) { st->cp = b & 0x0f; st->need = 2; return -1; }
	if ((b & 0xf8) == 0xf0) { st->cp = b & 0x07; st->need = 3; return -1; }
	return 0xfffd;
}

/*
 * Cursor movement shared by the text consoles for \n \r \b \t.  Returns 0
 * if C is a character to draw; else 1 (handled), or 2 when the caller must
 * also start a new line (newline, or a tab past the last column).
 */
static inline int screen_control(char c, unsigned *col, unsigned cols)
{
	switch (c) {
	case '\n':
		return 2;
	case '\r':
		*col = 0;
		return 1;
	case '\b':
		if (*col)
			(*col)--;
		return 1;
	case '\t':
		*col = (*col + 8) & ~7u;
		return *col >= cols ? 2 : 1;
	}
	return 0;
}

#endif
