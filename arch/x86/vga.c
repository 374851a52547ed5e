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
 * position = row * cols + col) follows the text.  Handled controls: \n (new
 * line), \r, \b, \t (to the next multiple of 8).  Text is UTF-8: ASCII is
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
static unsigned cols, rows, col, row;
static struct utf8_state utf8;

static inline u16 cell(char c) { return (u16)(VGA_ATTR << 8 | (u8)c); }

static void flush_range(unsigned from, unsigned to)	/* cell indices [from, to) */
{
	for (unsigned i = from; i < to; i++)
		vga_mem[i] = shadow[i];
}

static void set_cursor(void)
{
	u16 pos = (u16)(row * cols + col);

	outb(CRTC_INDEX, 0x0f);
	outb(CRTC_DATA, pos & 0xff);
	outb(CRTC_INDEX, 0x0e);
	outb(CRTC_DATA, pos >> 8);
}

static void scroll(void)
{
	unsigned n = (rows - 1) * cols;

	memmove(shadow, shadow + cols, n * sizeof(u16));
	for (unsigned i = 0; i < cols; i++)
		shadow[n + i] = cell(' ');
	flush_range(0, rows * cols);
	row = rows - 1;
}

static void newline(void)
{
	col = 0;
	if (++row == rows)
		scroll();
}

static void vga_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int cp = utf8_feed(&utf8, (u8)s[i]);
		char c;

		if (cp < 0)
			continue;
		c = cp < 0x80 ? (char)cp : cp == 0xb5 ? (char)0xe6 : cp == 0xb0 ? (char)0xf8 : '?';
		int ctl = screen_control(c, &col, cols);
		if (ctl) {
			if (ctl == 2)
				newline();
			continue;
		}
		unsigned at = row * cols + col;
		shadow[at] = cell(c);
		vga_mem[at] = shadow[at];
		if (++col == cols)
			newline();
	}
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
	cols = c;
	rows = r;
	for (unsigned i = 0; i < cols * rows; i++)
		shadow[i] = cell(' ');
	flush_range(0, cols * rows);
	row = col = 0;
	set_cursor();
	register_console(&vga_console);
	snprintf(desc, len, "vga: %ux%u text console at 0x%05x", cols, rows, phys);
	return 1;
}
