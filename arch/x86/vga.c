/*
 * arch/x86/vga.c - the VGA (or EGA-compatible) text-mode console.
 *
 * Text memory is an array of 16-bit cells, row-major, at 0xB8000 under
 * BIOS (or where the multiboot2 "EGA text" framebuffer tag says):
 *	cell = attribute << 8 | character		attribute 0x07 = grey on black
 * The first 1 MiB is mapped at PAGE_OFFSET by the boot page tables and by
 * paging_init(), so no ioremap is needed.
 *
 * Output goes to a shadow copy in RAM and from there to the screen, so
 * scrolling never reads video memory (uncached reads are slow on real
 * hardware).  The hardware cursor (CRTC registers 0x0E/0x0F at 0x3D4/0x3D5,
 * position = row * cols + col) follows the text.  arch/x86/screen.c decodes
 * UTF-8 and handles \n \r \b \t, wrapping and scrolling; here ASCII is
 * drawn as is with the BIOS font (code page 437), U+00B5 (micro) as CP437
 * 0xE6, U+00B0 (degree) as 0xF8, anything else as '?'.
 */
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/mm.h>
#include <arch/cpu.h>
#include <arch/screen.h>

#define VGA_MAX_COLS	132
#define VGA_MAX_ROWS	60
#define VGA_ATTR	0x07	/* light grey on black */
#define CRTC_INDEX	0x3d4
#define CRTC_DATA	0x3d5

static volatile u16 *vga_mem;
static u16 shadow[VGA_MAX_COLS * VGA_MAX_ROWS];

static struct screen scr;	/* defined below its callbacks */

static inline u16 cell(char c) { return (u16)(VGA_ATTR << 8 | (u8)c); }

static void flush_range(unsigned from, unsigned to)	/* cell indices [from, to) */
{
	for (unsigned i = from; i < to; i++)
		vga_mem[i] = shadow[i];
}

static void set_cursor(void)
{
	u16 pos = (u16)(scr.row * scr.cols + scr.col);

	outb(CRTC_INDEX, 0x0f);
	outb(CRTC_DATA, pos & 0xff);
	outb(CRTC_INDEX, 0x0e);
	outb(CRTC_DATA, pos >> 8);
}

/* Every line up one, the last blanked (struct screen's ->scroll). */
static void vga_scroll(void)
{
	unsigned n = (scr.rows - 1) * scr.cols;

	memmove(shadow, shadow + scr.cols, n * sizeof(u16));
	for (unsigned i = 0; i < scr.cols; i++)
		shadow[n + i] = cell(' ');
	flush_range(0, scr.rows * scr.cols);
}

static void vga_put(unsigned r, unsigned c, char ch)
{
	unsigned at = r * scr.cols + c;

	shadow[at] = cell(ch);
	vga_mem[at] = shadow[at];
}

/* CP437 has the micro and degree signs; anything else is '?'. */
static char vga_glyph(int cp)
{
	return cp == 0xb5 ? (char)0xe6 : cp == 0xb0 ? (char)0xf8 : '?';
}

static struct screen scr = { .glyph = vga_glyph, .put = vga_put, .scroll = vga_scroll };

static void vga_write(const char *s, size_t n)
{
	screen_write(&scr, s, n);
	set_cursor();
}

static struct console vga_console = { .name = "vga", .write = vga_write };

/* Start the console on a C x R text screen at PHYS (below 1 MiB); DESC
 * (LEN bytes) gets one line saying what was set up or why not. */
int vga_console_init(u32 phys, unsigned c, unsigned r, char *desc, size_t len)
{
	if (phys >= 0x100000 || !c || !r || c > VGA_MAX_COLS || r > VGA_MAX_ROWS) {
		snprintf(desc, len, "vga: %ux%u text screen at 0x%08x not supported", c, r, phys);
		return 0;
	}
	vga_mem = (volatile u16 *)(phys + PAGE_OFFSET);
	scr.cols = c;
	scr.rows = r;
	for (unsigned i = 0; i < c * r; i++)
		shadow[i] = cell(' ');
	flush_range(0, c * r);
	scr.row = scr.col = 0;
	set_cursor();
	register_console(&vga_console);
	snprintf(desc, len, "vga: %ux%u text console at 0x%05x", c, r, phys);
	return 1;
}
