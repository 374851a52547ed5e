/*
 * kernel/initrd.h - the initrd as a read-only tree of files, directories
 * and symbolic links: the start of Granule's file name space.
 *
 * tools/mkinitrd packs /bin/NAME for Granule's programs, /bin/busybox and
 * its applet links (/bin/ls -> busybox ...); initrd_init() indexes the
 * archive once, at boot, so a lookup never re-reads (or re-checksums) it.  Paths are absolute or relative to "/" (there is no chdir yet).
 */
#ifndef KERNEL_INITRD_H
#define KERNEL_INITRD_H

#include <kernel/types.h>

#define INITRD_PATH_MAX	256	/* bytes, NUL included (Linux: PATH_MAX 4096) */
#define INITRD_MAX_LINKS 8	/* symbolic links followed per lookup (Linux: 40) */

struct initrd_node {
	struct initrd_node *next;	/* index order = archive order */
	struct initrd_node *hnext;	/* the next node of its name's hash bucket */
	const void *data;		/* a file's bytes, inside the archive */
	u32 size;
	u32 ino;			/* inode number for stat: 2, 3 ... (the root is 1) */
	char type;			/* USTAR_REG, USTAR_DIR or USTAR_SYMLINK */
	char link[101];			/* a link's target */
	char name[];			/* "bin/ls": no leading or trailing '/' */
};

void initrd_init(void);
const struct initrd_node *initrd_first(void);	/* the index, in archive order */	/* index the archive, print one line (kmain) */

/*
 * Resolve PATH, following symbolic links in every component (and in the
 * last one if FOLLOW).  0 and *NODE (NULL for the root directory), or
 * -ENOENT (no such name, or an empty path), -ENOTDIR (a component is not
 * a directory), -ELOOP (more than INITRD_MAX_LINKS links),
 * -ENAMETOOLONG, -ENOMEM (the index could not be built), -EINVAL (a
 * corrupt archive).
 */
int initrd_lookup(const char *path, int follow, const struct initrd_node **node);

#endif
