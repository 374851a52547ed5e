/*
 * arch/x86/fbcon.c - a text console on the multiboot2 linear framebuffer
 * (what GRUB hands over under UEFI, where there is no VGA text mode).
 *
 * Cells are 8x16 pixels from font8x16 (tools/fontgen.py), scaled by 2 when
 * the screen is 2048 pixels wide or more, so a text screen is
 *	cols = width / (8 * scale),  rows = height / (16 * scale).
 * Pixels: 32 and 24 bpp (any RGB order), 16 bpp (5:6:5) and 15 bpp
 * (5:5:5).  Foreground grey 0xAAAAAA on black: equal channels, so the
 * channel order the firmware chose does not matter.
 *
 * Text is UTF-8: ASCII is drawn as is, U+00B5 (micro) as 'u', anything
 * else as a hollow box (glyph 0x7f).
 *
 * A shadow copy of the characters lives in RAM.  Scrolling moves the
 * shadow and redraws only the cells whose character changed (most of a log
 * line is blank), so video memory is never read: on real hardware the
 * framebuffer is mapped uncached and reads are very slow.
 *
 * Mapping: ioremap() of pitch * height bytes (the fixmap takes up to
 * 28 MiB; a larger screen uses only the rows that fit).  A framebuffer
 * above 4 GiB cannot be reached without PAE: no console then.
 */
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/ioremap.h>
#include <arch/screen.h>

#define FB_MAX_COLS	256
#define FB_MAX_ROWS	128
#define FG_GREY		0xAAu	/* each channel of the foreground */

static u8 *fb;
static u32 pitch, bpp, scale;
static u32 fg_pixel;		/* foreground in the framebuffer's format */
static char text[FB_MAX_COLS * FB_MAX_ROWS];
static struct screen scr;	/* defined below its callbacks */

static void put_pixel(u8 *p, u32 v)
{
	switch (bpp) {
	case 32:
		*(volatile u32 *)p = v;
		break;
	case 24:
		((volatile u8 *)p)[0] = (u8)v;
		((volatile u8 *)p)[1] = (u8)(v >> 8);
		((volatile u8 *)p)[2] = (u8)(v >> 16);
		break;
	default:	/* 15 and 16 */
		*(volatile u16 *)p = (u16)v;
		break;
	}
}

static void draw_cell(unsigned r, unsigned c)
{
	u8 ch = (u8)text[r * scr.cols + c];
	const u8 *g = font8x16[ch < 128 ? ch : 127];
	u32 bytes = (bpp + 7) / 8;
	u8 *base = fb + (r * 16 * scale) * pitch + c * 8 * scale * bytes;

	for (u32 y = 0; y < 16 * scale; y++) {
		u8 bits = g[y / scale];
		u8 *p = base + y * pitch;
		for (u32 x = 0; x < 8 * scale; x++, p += bytes)
			put_pixel(p, (bits & (0x80 >> (x / scale))) ? fg_pixel : 0);
	}
}

/* Every line up one, the last blanked (struct screen's ->scroll). */
static void fbcon_scroll(void)
{
	unsigned cols = scr.cols, n = (scr.rows - 1) * cols;

	for (unsigned i = 0; i < n; i++) {
		char next = text[i + cols];
		if (text[i] != next) {
			text[i] = next;
			draw_cell(i / cols, i % cols);
		}
	}
	for (unsigned i = n; i < n + cols; i++) {
		if (text[i] != ' ') {
			text[i] = ' ';
			draw_cell(i / cols, i % cols);
		}
	}
}

static void fbcon_put(unsigned r, unsigned c, char ch)
{
	text[r * scr.cols + c] = ch;
	draw_cell(r, c);
}

/* The font has ASCII only: micro becomes 'u', anything else a hollow box. */
static char fbcon_glyph(int cp)
{
	return cp == 0xb5 ? 'u' : 0x7f;
}

static struct screen scr = { .glyph = fbcon_glyph, .put = fbcon_put, .scroll = fbcon_scroll };

static void fbcon_write(const char *s, size_t n)
{
	screen_write(&scr, s, n);
}

static struct console fbcon_console = { .name = "fb", .write = fbcon_write };

/* Start the console; DESC (LEN bytes) gets one line saying what was set up
 * or why not (printed later by setup.c: nothing may precede the banner). */
int fbcon_init(char *desc, size_t len)
{
	u32 height = boot_info.fb_height, size;

	bpp = boot_info.fb_bpp;
	pitch = boot_info.fb_pitch;
	if (bpp != 32 && bpp != 24 && bpp != 16 && bpp != 15) {
		snprintf(desc, len, "fbcon: %u bpp framebuffer not supported", bpp);
		return 0;
	}
	if (boot_info.fb_addr + (u64)pitch * height > 0x100000000ull) {
		snprintf(desc, len, "fbcon: framebuffer at 0x%llx is above 4 GiB", boot_info.fb_addr);
		return 0;
	}
	scale = boot_info.fb_width >= 2048 ? 2 : 1;
	/* Use only the pixel rows the fixmap can take. */
	if ((u64)pitch * height > ioremap_room())
		height = ioremap_room() / pitch;
	size = pitch * height;
	scr.cols = min(boot_info.fb_width / (8 * scale), (u32)FB_MAX_COLS);
	scr.rows = min(height / (16 * scale), (u32)FB_MAX_ROWS);
	if (!scr.cols || !scr.rows || !(fb = ioremap_nopanic((u32)boot_info.fb_addr, size))) {
		snprintf(desc, len, "fbcon: cannot map the %ux%u framebuffer",
			 boot_info.fb_width, boot_info.fb_height);
		return 0;
	}

	if (bpp == 16)
		fg_pixel = (FG_GREY >> 3) << 11 | (FG_GREY >> 2) << 5 | (FG_GREY >> 3);
	else if (bpp == 15)
		fg_pixel = (FG_GREY >> 3) << 10 | (FG_GREY >> 3) << 5 | (FG_GREY >> 3);
	else
		fg_pixel = FG_GREY << 16 | FG_GREY << 8 | FG_GREY;

	for (u32 y = 0; y < height; y++)	/* clear to black */
		memset(fb + y * pitch, 0, boot_info.fb_width * ((bpp + 7) / 8));
	memset(text, ' ', sizeof(text));
	scr.row = scr.col = 0;
	register_console(&fbcon_console);
	snprintf(desc, len, "fbcon: %ux%ux%u framebuffer at 0x%08x, %ux%u text (8x16 font, scale %u)",
		 boot_info.fb_width, boot_info.fb_height, bpp, (u32)boot_info.fb_addr, scr.cols, scr.rows, scale);
	return 1;
}
