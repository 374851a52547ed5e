/*
 * kernel/ustar.h - read-only access to a POSIX ustar archive in memory (the
 * initrd that tools/mkinitrd packs and the kernel image embeds).
 *
 * Archive layout: 512-byte blocks; each member is one header block followed
 * by its data padded to a block multiple; the archive ends with a zero
 * block (normally two).  Header fields used (offsets in the block):
 *	name[100] @0, mode[8] @100, size[12] @124, chksum[8] @148,
 *	typeflag @156, linkname[100] @157, magic[6] @257 ("ustar\0" POSIX or "ustar " GNU),
 *	prefix[155] @345 (full name = prefix "/" name when prefix is set).
 * Numbers are octal ASCII, optionally led by spaces and ended by NUL or
 * space; the checksum is the byte sum of the header with chksum read as
 * eight spaces.
 *
 * Robustness: every header is checked (magic, octal syntax, checksum) and
 * every member must lie wholly inside LEN before it is reported; the
 * archive is never read past LEN.  A corrupt or truncated archive yields
 * -EINVAL at the first bad header, never a crash.  Running into LEN
 * exactly at a header boundary counts as a normal end (a missing end
 * marker is tolerated).
 */
#ifndef KERNEL_USTAR_H
#define KERNEL_USTAR_H

#include <kernel/types.h>

#define USTAR_BLOCK	512
#define USTAR_NAME_MAX	256	/* prefix(155) + '/' + name(100), NUL included */

#define USTAR_REG	'0'	/* regular file ('\0' too, old tar) */
#define USTAR_SYMLINK	'2'
#define USTAR_DIR	'5'

struct ustar_entry {
	char name[USTAR_NAME_MAX];	/* NUL-terminated, leading "./" removed */
	const void *data;		/* inside the archive */
	size_t size;			/* bytes of data */
	u32 mode;			/* permission bits */
	char type;			/* typeflag; '\0' reported as USTAR_REG */
	char linkname[101];		/* a link's target, NUL-terminated */
};

struct ustar_iter {
	const u8 *archive;
	size_t len;
	size_t off;			/* next header; len = finished */
};

void ustar_iter_init(struct ustar_iter *it, const void *archive, size_t len);

/*
 * Advance to the next member: 1 and *E filled, 0 at the end of the
 * archive, -EINVAL when the archive is corrupt or truncated (the iterator
 * then stays finished).
 */
int ustar_next(struct ustar_iter *it, struct ustar_entry *e);

/*
 * Find the regular file NAME (a leading "/" or "./" on either side is
 * ignored: "/bin/hello", "bin/hello" and "./bin/hello" are the same).
 * 0 with *data and *size set; -ENOENT if absent; -EINVAL if the archive is
 * corrupt before NAME was found.
 */
int ustar_find(const void *archive, size_t len, const char *name,
	       const void **data, size_t *size);

#endif
