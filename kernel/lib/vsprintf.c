/*
 * kernel/lib/vsprintf.c - vsnprintf/snprintf for the kernel and the user
 * library.  Depends only on <kernel/types.h>, <kernel/compiler.h>,
 * <stdarg.h> (through <kernel/printk.h>, which holds the prototypes).
 *
 * Conversion spec:  %[flags][width][.precision][length]conv
 *   flags      '-' left-justify, '0' zero-pad, '+' always sign, ' ' space
 *              for a positive sign, '#' alternate form (0x / leading 0)
 *   width      decimal or '*' (int argument; negative = '-' flag + |w|)
 *   precision  '.' decimal or '.*' (negative argument = no precision);
 *              integers: minimum digits (and '0' is then ignored),
 *              %s: maximum bytes read from the argument
 *   length     hh h l ll z j t
 *   conv       d i u x X o s c p %
 *
 * Semantics follow C99 (checked against glibc by tests/host/lib/), except:
 *   %s of NULL prints "(null)" (precision still applies, as in Linux);
 *   %p prints "0x" + the pointer zero-padded to its full width
 *      (0x0012abcd on i686), NULL included;
 *   an unknown conversion is copied out literally, '%' included.
 *
 * Return value: the length the full output would have had (C99), not
 * counting the NUL.  When size > 0 the output is always NUL-terminated
 * (truncated to size-1 bytes); size == 0 writes nothing (buf may be NULL).
 *
 * Host unit tests: compiled as kvsnprintf/ksnprintf so that libc keeps its
 * own vsnprintf/snprintf (used by cmocka, the sanitizers and the tests'
 * reference output).
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */

#include <kernel/printk.h>

/* Output cursor: bytes past size-1 are counted but not stored. */
struct sink {
	char *buf;
	size_t size;
	size_t len;		/* bytes produced so far (may exceed size) */
};

static void put(struct sink *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_n(struct sink *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

#define F_LEFT	0x01	/* '-' */
#define F_ZERO	0x02	/* '0' */
#define F_PLUS	0x04	/* '+' */
#define F_SPACE	0x08	/* ' ' */
#define F_ALT	0x10	/* '#' */
#define F_UPPER	0x20	/* %X */

struct spec {
	int flags;
	int width;		/* 0 = none */
	int prec;		/* -1 = none */
};

/* Emit TEXT of length N right/left-justified in the field (no zero pad). */
static void put_field(struct sink *o, const struct spec *sp, const char *text,
		      int n)
{
	int pad = sp->width - n;

	if (!(sp->flags & F_LEFT))
		put_n(o, ' ', pad);
	while (n-- > 0)
		put(o, *text++);
	if (sp->flags & F_LEFT)
		put_n(o, ' ', pad);
}

/*
 * Emit an integer: MAG is the magnitude, NEG its sign (signed conversions
 * only), BASE 8/10/16.  Layout: [pad][sign][prefix][zeros][digits][pad].
 */
static void put_number(struct sink *o, const struct spec *sp, u64 mag,
		       bool neg, bool is_signed, unsigned int base)
{
	const char *digits = (sp->flags & F_UPPER) ? "0123456789ABCDEF"
						   : "0123456789abcdef";
	char tmp[24];		/* 2^64 in octal is 22 digits */
	int ndig = 0, zeros, len, pad;
	char sign = 0;
	const char *prefix = "";
	int plen = 0;

	/* Digits, least significant first.  32-bit values use 32-bit math. */
	if (base == 10) {
		while (mag > UINT32_MAX) {
			tmp[ndig++] = digits[mag % 10];
			mag /= 10;
		}
		for (u32 m = (u32)mag; m; m /= 10)
			tmp[ndig++] = digits[m % 10];
	} else {
		unsigned int shift = base == 16 ? 4 : 3;

		for (; mag; mag >>= shift)
			tmp[ndig++] = digits[mag & (base - 1)];
	}

	/* Precision = minimum digits; the value 0 gives "0" unless prec == 0. */
	if (sp->prec < 0 && ndig == 0)
		tmp[ndig++] = '0';
	zeros = sp->prec > ndig ? sp->prec - ndig : 0;

	if (is_signed) {
		if (neg)
			sign = '-';
		else if (sp->flags & F_PLUS)
			sign = '+';
		else if (sp->flags & F_SPACE)
			sign = ' ';
	}
	if (sp->flags & F_ALT) {
		if (base == 16 && ndig > 0 && !(ndig == 1 && tmp[0] == '0')) {
			prefix = (sp->flags & F_UPPER) ? "0X" : "0x";
			plen = 2;
		} else if (base == 8 && zeros == 0 &&
			   (ndig == 0 || tmp[ndig - 1] != '0')) {
			zeros = 1;	/* "%#o" makes the first digit a 0 */
		}
	}

	len = (sign ? 1 : 0) + plen + zeros + ndig;
	pad = sp->width > len ? sp->width - len : 0;
	/* '0' pads after the sign/prefix, unless '-' or a precision is given. */
	if ((sp->flags & F_ZERO) && !(sp->flags & F_LEFT) && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}

	if (!(sp->flags & F_LEFT))
		put_n(o, ' ', pad);
	if (sign)
		put(o, sign);
	while (*prefix)
		put(o, *prefix++);
	put_n(o, '0', zeros);
	while (ndig)
		put(o, tmp[--ndig]);
	if (sp->flags & F_LEFT)
		put_n(o, ' ', pad);
}

enum length { LEN_HH, LEN_H, LEN_NONE, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

/* Fetch a signed argument of the given length, widened to s64. */
static s64 get_signed(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH:	return (signed char)va_arg(*ap, int);
	case LEN_H:	return (short)va_arg(*ap, int);
	case LEN_L:	return va_arg(*ap, long);
	case LEN_LL:	return va_arg(*ap, long long);
	case LEN_Z:	return (ptrdiff_t)va_arg(*ap, size_t); /* ssize_t */
	case LEN_J:	return va_arg(*ap, intmax_t);
	case LEN_T:	return va_arg(*ap, ptrdiff_t);
	default:	return va_arg(*ap, int);
	}
}

/* Fetch an unsigned argument of the given length, widened to u64. */
static u64 get_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH:	return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:	return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:	return va_arg(*ap, unsigned long);
	case LEN_LL:	return va_arg(*ap, unsigned long long);
	case LEN_Z:	return va_arg(*ap, size_t);
	case LEN_J:	return va_arg(*ap, uintmax_t);
	case LEN_T:	return (size_t)va_arg(*ap, ptrdiff_t);
	default:	return va_arg(*ap, unsigned int);
	}
}

/*
 * Decode one directive's flags, width, precision and length (Linux's
 * format_decode()).  FMT points just past the '%'; a '*' width or
 * precision takes an int from AP.  Fills *SP and *LEN and returns a pointer
 * to the conversion character (which may be the terminating NUL).
 */
static const char *format_decode(const char *fmt, struct spec *sp, enum length *len,
				 va_list *ap)
{
	/* flags */
	for (;; fmt++) {
		if (*fmt == '-')
			sp->flags |= F_LEFT;
		else if (*fmt == '0')
			sp->flags |= F_ZERO;
		else if (*fmt == '+')
			sp->flags |= F_PLUS;
		else if (*fmt == ' ')
			sp->flags |= F_SPACE;
		else if (*fmt == '#')
			sp->flags |= F_ALT;
		else
			break;
	}
	/* width */
	if (*fmt == '*') {
		int w = va_arg(*ap, int);

		fmt++;
		if (w < 0) {
			sp->flags |= F_LEFT;
			w = w == INT32_MIN ? INT32_MAX : -w;
		}
		sp->width = w;
	} else {
		while (*fmt >= '0' && *fmt <= '9')
			sp->width = sp->width * 10 + (*fmt++ - '0');
	}
	/* precision */
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			int p = va_arg(*ap, int);

			fmt++;
			sp->prec = p < 0 ? -1 : p;
		} else {
			sp->prec = 0;
			while (*fmt >= '0' && *fmt <= '9')
				sp->prec = sp->prec * 10 + (*fmt++ - '0');
		}
	}
	/* length */
	if (*fmt == 'h') {
		fmt++;
		*len = LEN_H;
		if (*fmt == 'h') {
			fmt++;
			*len = LEN_HH;
		}
	} else if (*fmt == 'l') {
		fmt++;
		*len = LEN_L;
		if (*fmt == 'l') {
			fmt++;
			*len = LEN_LL;
		}
	} else if (*fmt == 'z') {
		fmt++;
		*len = LEN_Z;
	} else if (*fmt == 'j') {
		fmt++;
		*len = LEN_J;
	} else if (*fmt == 't') {
		fmt++;
		*len = LEN_T;
	}
	return fmt;
}

/*
 * The loop: copy plain characters, decode each directive (format_decode)
 * and emit its conversion.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct sink o = { .buf = buf, .size = size, .len = 0 };
	va_list ap;

	va_copy(ap, args);
	while (*fmt) {
		const char *start = fmt;
		struct spec sp = { .flags = 0, .width = 0, .prec = -1 };
		enum length len = LEN_NONE;

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = format_decode(fmt + 1, &sp, &len, &ap);

		switch (*fmt) {
		case 'd':
		case 'i': {
			s64 v = get_signed(&ap, len);
			/* |INT64_MIN| computed in unsigned arithmetic */
			u64 mag = v < 0 ? 0 - (u64)v : (u64)v;

			put_number(&o, &sp, mag, v < 0, true, 10);
			break;
		}
		case 'u':
			put_number(&o, &sp, get_unsigned(&ap, len), false, false, 10);
			break;
		case 'X':
			sp.flags |= F_UPPER;
			/* fall through */
		case 'x':
			put_number(&o, &sp, get_unsigned(&ap, len), false, false, 16);
			break;
		case 'o':
			put_number(&o, &sp, get_unsigned(&ap, len), false, false, 8);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);

			put_field(&o, &sp, &c, 1);
			break;
		}
		case 's': {
			const char *s = va_arg(ap, const char *);
			int n = 0;

			if (!s)
				s = "(null)";
			/* never read past the precision (s may be unterminated) */
			while ((sp.prec < 0 || n < sp.prec) && s[n])
				n++;
			put_field(&o, &sp, s, n);
			break;
		}
		case 'p': {
			uintptr_t p = (uintptr_t)va_arg(ap, void *);
			char tmp[2 + 2 * sizeof(void *)];
			int n = 0;

			tmp[n++] = '0';
			tmp[n++] = 'x';
			for (int i = 2 * (int)sizeof(void *) - 1; i >= 0; i--)
				tmp[n++] = "0123456789abcdef"[(p >> (4 * i)) & 0xf];
			put_field(&o, &sp, tmp, n);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		default:
			/* Unknown or truncated: copy the directive out as is. */
			if (!*fmt)
				fmt--;	/* keep the terminating NUL for the loop */
			while (start <= fmt)
				put(&o, *start++);
			break;
		}
		fmt++;
	}
	va_end(ap);

	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
