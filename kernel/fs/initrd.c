/*
 * kernel/fs/initrd.c - the initrd as a tree: path lookup with directories
 * and symbolic links over the ustar archive the kernel image embeds
 * (arch/x86/initrd.asm).  See kernel/initrd.h.
 *
 * The index is a list of nodes, one per archive member, built once at boot
 * (initrd_init, before the tick report's wait, so that its cost moves no
 * later event): the archive's headers are checked (checksums, bounds)
 * there.  A lookup afterwards hashes the name and compares it with the few
 * members of its bucket (a strcmp per member was 7,500 instructions of an
 * exec's 100,000: docs/FASTPATHS.md).
 *
 * Lookup follows Linux's path walk (fs/namei.c) in miniature: components
 * are taken left to right; "" and "." are skipped, ".." goes up (and stays
 * at the root); a symbolic link met in the middle of a path - or at its
 * end when FOLLOW - is replaced by its target (relative to the link's
 * directory, or to the root if it starts with '/') and the walk goes on.
 */
#include <kernel/errno.h>
#include <kernel/bootinfo.h>
#include <kernel/initrd.h>
#include <kernel/mm.h>
#include <kernel/kmalloc.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/ustar.h>

extern const u8 initrd_start[], initrd_end[];

static struct initrd_node *nodes;
#define NAME_BUCKETS	256		/* power of two; ~300 members */
static struct initrd_node *buckets[NAME_BUCKETS];

/* FNV-1a, 32 bits: the bucket of NAME. */
static u32 name_bucket(const char *name)
{
	u32 h = 2166136261u;

	while (*name)
		h = (h ^ (u8)*name++) * 16777619u;
	return h & (NAME_BUCKETS - 1);
}
static int indexed;		/* 1 once built; -errno if it failed */
static const struct initrd_node *find(const char *name);

/* Append ARCHIVE's members to the index (after *COUNT members, at **TAIL);
 * MODULE: skip the names already indexed.  The new count, or -errno. */
static int build_index(const u8 *archive, size_t len_bytes, struct initrd_node ***tailp, int count,
		       int module)
{
	struct initrd_node **tail = *tailp;
	struct ustar_iter it;
	struct ustar_entry e;
	int ret;

	ustar_iter_init(&it, archive, len_bytes);
	while ((ret = ustar_next(&it, &e)) > 0) {
		size_t len = strlen(e.name);
		while (len && e.name[len - 1] == '/')	/* "bin/" -> "bin" */
			e.name[--len] = '\0';
		if (!len)
			continue;
		if (module && find(e.name))	/* the module's "usr" that the image has: one node */
			continue;
		struct initrd_node *n = kmalloc(sizeof(*n) + len + 1);
		if (!n)
			return -ENOMEM;
		n->next = NULL;
		n->data = e.data;
		n->size = e.size;
		n->ino = count + 2;
		n->type = e.type;
		strlcpy(n->link, e.linkname, sizeof(n->link));
		memcpy(n->name, e.name, len + 1);
		*tail = n;
		tail = &n->next;
		u32 b = name_bucket(n->name);	/* appended: a duplicate name keeps the first */
		struct initrd_node **h = &buckets[b];
		while (*h)
			h = &(*h)->hnext;
		n->hnext = NULL;
		*h = n;
		count++;
	}
	*tailp = tail;
	return ret < 0 ? ret : count;
}

/*
 * The embedded archive, then the boot loader's module if there is one (a
 * second ustar archive, as Linux's initramfs is the embedded one plus
 * initrd=: Debian's rt-tests and the glibc they load come that way, so that
 * the default image, and every figure measured with it, stays the same).
 * A module member whose name the image already has is ignored, so that it is
 * neither found nor listed: a directory both archives hold ("usr", "usr/lib")
 * is one directory, as initramfs merges them; for a file the image's copy
 * stays (Linux's later archive would replace it; the image's figures must not
 * depend on a module).
 */
void initrd_init(void)
{
	struct initrd_node **tail = &nodes;
	int ret = build_index(initrd_start, initrd_end - initrd_start, &tail, 0, 0), n = ret;

	if (ret >= 0 && boot_info.mod_end > boot_info.mod_start)
		ret = build_index(__va(boot_info.mod_start), boot_info.mod_end - boot_info.mod_start,
				  &tail, n, 1);
	indexed = ret < 0 ? ret : 1;
	if (ret < 0)
		printk("initrd: corrupt or out of memory (%d): no programs\n", ret);
	else
		printk("initrd: %d files, directories and links in %uK\n", n,
		       (u32)(initrd_end - initrd_start) >> 10);
	if (ret > n)
		printk("initrd: module at 0x%08x: %d more in %uK\n", boot_info.mod_start, ret - n,
		       (boot_info.mod_end - boot_info.mod_start) >> 10);
}

const struct initrd_node *initrd_first(void)
{
	return nodes;
}

static const struct initrd_node *find(const char *name)
{
	for (const struct initrd_node *n = buckets[name_bucket(name)]; n; n = n->hnext)
		if (strcmp(n->name, name) == 0)
			return n;
	return NULL;
}

/* Drop the last component of the resolved prefix CUR ("bin/ls" -> "bin"). */
static void up(char *cur)
{
	char *slash = strrchr(cur, '/');

	if (slash)
		*slash = '\0';
	else
		cur[0] = '\0';
}

int initrd_lookup(const char *path, int follow, const struct initrd_node **node)
{
	char cur[INITRD_PATH_MAX], rest[INITRD_PATH_MAX];
	const struct initrd_node *n = NULL;	/* NULL: the root */
	int links = 0;

	if (!indexed)
		initrd_init();
	if (indexed < 0)
		return indexed;
	if (!path[0])
		return -ENOENT;
	if (strlcpy(rest, path, sizeof(rest)) >= sizeof(rest))
		return -ENAMETOOLONG;
	cur[0] = '\0';
	char *p = rest;
	while (*p) {
		char *comp = p, *end = strchr(p, '/');
		size_t clen = end ? (size_t)(end - p) : strlen(p);
		p = end ? end + 1 : p + clen;
		if (clen == 0 || (clen == 1 && comp[0] == '.'))
			continue;
		if (n && n->type != USTAR_DIR)
			return -ENOTDIR;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			up(cur);
			n = cur[0] ? find(cur) : NULL;
			continue;
		}
		size_t used = strlen(cur);
		if (used + (used > 0) + clen >= sizeof(cur))
			return -ENAMETOOLONG;
		if (used)
			cur[used++] = '/';
		memcpy(cur + used, comp, clen);
		cur[used + clen] = '\0';
		if (!(n = find(cur)))
			return -ENOENT;
		if (n->type != USTAR_SYMLINK || (!*p && !follow))
			continue;
		/* A link: its target, then what was left of the path. */
		char tmp[INITRD_PATH_MAX];
		if (++links > INITRD_MAX_LINKS)
			return -ELOOP;
		size_t llen = strlen(n->link), plen = strlen(p);
		if (llen + 1 + plen >= sizeof(tmp))
			return -ENAMETOOLONG;
		memcpy(tmp, n->link, llen);
		tmp[llen] = '/';
		memcpy(tmp + llen + 1, p, plen + 1);
		memcpy(rest, tmp, llen + 1 + plen + 1);
		p = rest;
		up(cur);
		if (rest[0] == '/')
			cur[0] = '\0';
		n = cur[0] ? find(cur) : NULL;
	}
	if (n && n->type != USTAR_DIR && path[strlen(path) - 1] == '/')
		return -ENOTDIR;	/* "bin/hello/" */
	*node = n;
	return 0;
}
