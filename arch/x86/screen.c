/*
 * arch/x86/screen.c - the text engine both screen consoles share.
 *
 * screen_write() turns printk's bytes into cells: it decodes UTF-8 (user
 * programs print "µs"), moves the cursor for the controls \n (new line),
 * \r, \b and \t (to the next multiple of 8; past the last column it starts
 * a new line), asks the console for the character of a non-ASCII code
 * point (->glyph), stores each printable one with ->put, and wraps at the
 * last column.  A new line below the last row calls ->scroll, which moves
 * every line up one and blanks the last; the cursor then stays on it.
 * Invariant between calls: row < rows and col < cols.
 */
#include <arch/screen.h>

/*
 * Feed one byte; returns a code point when one is complete, -1 while a
 * sequence is pending.  A malformed byte comes back as U+FFFD.
 */
static int utf8_feed(struct utf8_state *st, u8 b)
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

static void newline(struct screen *sc)
{
	sc->col = 0;
	if (++sc->row == sc->rows) {
		sc->scroll();
		sc->row = sc->rows - 1;
	}
}

void screen_write(struct screen *sc, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int cp = utf8_feed(&sc->utf8, (u8)s[i]);

		switch (cp) {
		case -1:
			continue;
		case '\n':
			newline(sc);
			continue;
		case '\r':
			sc->col = 0;
			continue;
		case '\b':
			if (sc->col)
				sc->col--;
			continue;
		case '\t':
			sc->col = (sc->col + 8) & ~7u;
			if (sc->col >= sc->cols)
				newline(sc);
			continue;
		}
		sc->put(sc->row, sc->col, cp < 0x80 ? (char)cp : sc->glyph(cp));
		if (++sc->col == sc->cols)
			newline(sc);
	}
}
