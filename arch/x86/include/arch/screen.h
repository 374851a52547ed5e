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
 * The text engine both consoles share (arch/x86/screen.c): UTF-8, \n \r \b
 * \t, wrapping and scrolling.  The console sets cols/rows (and zeroes the
 * cursor) at init and supplies three callbacks.
 */
struct utf8_state { u32 cp; int need; };

struct screen {
	unsigned cols, rows;		/* text size, set by the console */
	unsigned row, col;		/* cursor: row < rows, col < cols */
	struct utf8_state utf8;		/* a pending UTF-8 sequence */
	char (*glyph)(int cp);		/* code point >= 0x80 -> a character to store */
	void (*put)(unsigned row, unsigned col, char c);	/* draw one cell */
	void (*scroll)(void);		/* every line up one, the last blanked */
};

void screen_write(struct screen *sc, const char *s, size_t n);

#endif
