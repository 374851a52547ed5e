/*
 * kernel/lib/ustar.c - walk and search a ustar archive in memory; the
 * format and the robustness rules are in kernel/ustar.h.
 *
 * Invariant of the iterator: it->off is a multiple of 512 and <= it->len;
 * a member is reported only after off + 512 + size <= len was checked, so
 * nothing here ever reads outside [archive, archive + len).
 */
#include <kernel/ustar.h>
#include <kernel/errno.h>
#include <kernel/string.h>

/* Header field offsets and widths (POSIX.1-1988 ustar). */
#define H_NAME		0
#define H_NAME_LEN	100
#define H_MODE		100
#define H_SIZE		124
#define H_CHKSUM	148
#define H_TYPE		156
#define H_LINK		157
#define H_LINK_LEN	100
#define H_MAGIC		257
#define H_PREFIX	345
#define H_PREFIX_LEN	155

/*
 * Parse an octal field: optional leading spaces, at least one digit 0-7,
 * then only NULs or spaces to the end of the field.  Values above 2^63 are
 * refused (GNU's base-256 encoding, first byte >= 0x80, is refused too).
 */
static int parse_octal(const u8 *f, size_t width, u64 *out)
{
	size_t i = 0;
	u64 v = 0;
	int digits = 0;

	while (i < width && f[i] == ' ')
		i++;
	for (; i < width && f[i] >= '0' && f[i] <= '7'; i++, digits++) {
		if (v >> 60)
			return -EINVAL;
		v = (v << 3) | (u64)(f[i] - '0');
	}
	for (; i < width; i++)
		if (f[i] != '\0' && f[i] != ' ')
			return -EINVAL;
	if (!digits)
		return -EINVAL;
	*out = v;
	return 0;
}

static int is_zero_block(const u8 *h)
{
	size_t i;

	for (i = 0; i < USTAR_BLOCK; i++)
		if (h[i])
			return 0;
	return 1;
}

/* The stored checksum must match the unsigned (POSIX) or signed (old tar) sum. */
static int checksum_ok(const u8 *h)
{
	u64 stored;
	u32 usum = 0;
	s32 ssum = 0;
	size_t i;

	if (parse_octal(h + H_CHKSUM, 8, &stored))
		return 0;
	for (i = 0; i < USTAR_BLOCK; i++) {
		u8 c = (i >= H_CHKSUM && i < H_CHKSUM + 8) ? ' ' : h[i];

		usum += c;
		ssum += (s8)c;
	}
	return stored == usum || (s64)stored == ssum;
}

/* "./a/b" -> "a/b", "/a/b" -> "a/b" (repeated). */
static const char *strip_dot_slash(const char *s)
{
	for (;;) {
		if (s[0] == '/')
			s++;
		else if (s[0] == '.' && s[1] == '/')
			s += 2;
		else
			return s;
	}
}

/* prefix "/" name, each field possibly not NUL-terminated. */
static void build_name(const u8 *h, char *out)
{
	size_t plen = strnlen((const char *)h + H_PREFIX, H_PREFIX_LEN);
	size_t nlen = strnlen((const char *)h + H_NAME, H_NAME_LEN);
	char full[USTAR_NAME_MAX];
	size_t n = 0;

	if (plen) {
		memcpy(full, h + H_PREFIX, plen);
		n = plen;
		full[n++] = '/';
	}
	memcpy(full + n, h + H_NAME, nlen);
	full[n + nlen] = '\0';
	strlcpy(out, strip_dot_slash(full), USTAR_NAME_MAX);
}

void ustar_iter_init(struct ustar_iter *it, const void *archive, size_t len)
{
	it->archive = archive;
	it->len = archive ? len : 0;
	it->off = 0;
}

static int iter_fail(struct ustar_iter *it)
{
	it->off = it->len;
	return -EINVAL;
}

int ustar_next(struct ustar_iter *it, struct ustar_entry *e)
{
	const u8 *h;
	u64 size, mode, data_end;

	if (it->off >= it->len)
		return 0;			/* clean end at a block boundary */
	if (it->len - it->off < USTAR_BLOCK)
		return iter_fail(it);		/* truncated inside a header */
	h = it->archive + it->off;
	if (is_zero_block(h)) {
		it->off = it->len;		/* end-of-archive marker */
		return 0;
	}
	if (memcmp(h + H_MAGIC, "ustar", 5) != 0 ||
	    (h[H_MAGIC + 5] != '\0' && h[H_MAGIC + 5] != ' '))
		return iter_fail(it);
	if (!checksum_ok(h) || parse_octal(h + H_SIZE, 12, &size) ||
	    parse_octal(h + H_MODE, 8, &mode))
		return iter_fail(it);

	data_end = (u64)it->off + USTAR_BLOCK + size;
	if (data_end > it->len)
		return iter_fail(it);		/* member data truncated */

	build_name(h, e->name);
	e->data = h + USTAR_BLOCK;
	e->size = (size_t)size;
	e->mode = (u32)mode & 07777;
	e->type = h[H_TYPE] ? (char)h[H_TYPE] : USTAR_REG;
	size_t llen = strnlen((const char *)h + H_LINK, H_LINK_LEN);
	memcpy(e->linkname, h + H_LINK, llen);
	e->linkname[llen] = '\0';

	/* Next header: data rounded up to a block; past len means "end". */
	data_end = (data_end + USTAR_BLOCK - 1) & ~(u64)(USTAR_BLOCK - 1);
	it->off = data_end < it->len ? (size_t)data_end : it->len;
	return 1;
}

int ustar_find(const void *archive, size_t len, const char *name,
	       const void **data, size_t *size)
{
	struct ustar_iter it;
	struct ustar_entry e;
	int ret;

	name = strip_dot_slash(name);
	ustar_iter_init(&it, archive, len);
	while ((ret = ustar_next(&it, &e)) > 0) {
		if (e.type != USTAR_REG || strcmp(e.name, name) != 0)
			continue;
		*data = e.data;
		*size = e.size;
		return 0;
	}
	return ret < 0 ? ret : -ENOENT;
}
