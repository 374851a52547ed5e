/*
 * kernel/fs/tmpfs.c - /tmp, a small file system in kernel memory (Linux's
 * ramfs: files live in RAM only and vanish at power-off).
 *
 * A tree of struct tmpfs_node: a directory holds a singly linked list of
 * its children, newest first; a regular file holds its bytes in one
 * kmalloc'd block that doubles as it grows.  There are no links, hard or
 * symbolic, and no owners or permissions beyond the mode bits shown by
 * stat (everything runs as root).
 *
 * Limits, so a program cannot eat the kernel heap: TMPFS_MAX_NODES files
 * and directories and TMPFS_MAX_BYTES of file data (the blocks held, not
 * the sizes); beyond them a creation or a write fails with -ENOSPC, as a
 * full tmpfs mounted with size= and nr_inodes= does on Linux.
 *
 * An unlinked file that is still open keeps its bytes until its last file
 * is closed (node->opens), as on Linux.  Errors are Linux's: -ENOENT,
 * -ENOTDIR, -EISDIR, -EEXIST, -ENOTEMPTY, -ENAMETOOLONG (a name above
 * NAME_MAX), -EBUSY (removing or renaming /tmp itself), -EINVAL (moving a
 * directory under itself), -EXDEV (renaming between /tmp and elsewhere).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/hrtimer.h>
#include <kernel/kmalloc.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>

struct tmpfs_node {
	struct tmpfs_node *parent;	/* NULL: /tmp itself, or unlinked */
	struct tmpfs_node *next;	/* next sibling */
	struct tmpfs_node *children;	/* a directory's entries, newest first */
	u32 mode, ino;
	char *data;			/* a file's bytes */
	u32 size, cap;			/* bytes used, bytes held */
	int opens;			/* open files on it */
	u64 mtime;			/* CLOCK_REALTIME ns of the last change (stat's
					 * atime, mtime and ctime alike) */
	char name[TMPFS_NAME_MAX + 1];
};

static struct tmpfs_node root = { .mode = S_IFDIR | 01777, .ino = TMPFS_INO, .name = "tmp" };
static u32 nr_nodes, nr_bytes, next_ino = TMPFS_INO + 1;

static const struct file_ops tmpfs_ops;

/* File times: the wall clock (CLOCK_REALTIME: the RTC at boot + the
 * monotonic time since), as Linux's current_time().  /tmp itself was
 * made at boot. */
static u64 now_real(void)
{
	return boot_realtime_ns + sched_clock();
}

u64 tmpfs_mtime(const struct fs_node *n)
{
	return n->tn->mtime ? n->tn->mtime : boot_realtime_ns;
}

u64 tmpfs_file_mtime(const struct file *f)
{
	if (f->ops != &tmpfs_ops)
		return 0;
	const struct tmpfs_node *t = f->node;
	return t->mtime ? t->mtime : boot_realtime_ns;
}

void tmpfs_set_mtime(const struct fs_node *n, u64 ns)
{
	n->tn->mtime = ns ? ns : now_real();
}

/* Usage for statfs: bytes held and nodes in use. */
void tmpfs_usage(u32 *bytes, u32 *nodes)
{
	*bytes = nr_bytes;
	*nodes = nr_nodes;
}

int tmpfs_path(const char *path)
{
	return !strncmp(path, "tmp", 3) && (path[3] == '\0' || path[3] == '/');
}

static struct tmpfs_node *find_child(struct tmpfs_node *dir, const char *name, size_t len)
{
	for (struct tmpfs_node *c = dir->children; c; c = c->next)
		if (strlen(c->name) == len && !memcmp(c->name, name, len))
			return c;
	return NULL;
}

/* Walk canonical PATH ("tmp/a/b").  0 and *NODE; or -ENOENT / -ENOTDIR,
 * with *PARENT set when only the last component is missing (for create). */
static int walk(const char *path, struct tmpfs_node **node, struct tmpfs_node **parent,
		const char **last)
{
	struct tmpfs_node *cur = &root;
	const char *p = path + 3;

	*node = NULL;
	if (parent)
		*parent = NULL;
	while (*p == '/') {
		const char *c = p + 1, *end = strchr(c, '/');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		if (!S_ISDIR_MODE(cur->mode))
			return -ENOTDIR;
		if (len > TMPFS_NAME_MAX)
			return -ENAMETOOLONG;
		struct tmpfs_node *next = find_child(cur, c, len);
		if (!next) {
			if (!end && parent) {
				*parent = cur;
				*last = c;
			}
			return -ENOENT;
		}
		cur = next;
		p = c + len;
	}
	*node = cur;
	return 0;
}

static void fill(struct tmpfs_node *t, struct fs_node *n)
{
	n->tn = t;
	n->mode = t->mode;
	n->ino = t->ino;
	n->size = S_ISDIR_MODE(t->mode) ? 0 : t->size;
}

int tmpfs_lookup(const char *path, struct fs_node *n)
{
	struct tmpfs_node *t;
	int err = walk(path, &t, NULL, NULL);

	if (!err)
		fill(t, n);
	return err;
}

/* Create PATH (its parent must exist) with MODE (S_IFREG or S_IFDIR | perm). */
int tmpfs_create(const char *path, u32 mode, struct fs_node *n)
{
	struct tmpfs_node *t, *dir;
	const char *name;
	int err = walk(path, &t, &dir, &name);

	if (!err)
		return -EEXIST;
	if (err != -ENOENT || !dir)
		return err;
	if (!S_ISDIR_MODE(dir->mode))
		return -ENOTDIR;
	if (nr_nodes >= TMPFS_MAX_NODES)
		return -ENOSPC;
	if (!(t = kzalloc(sizeof(*t))))
		return -ENOMEM;
	strlcpy(t->name, name, sizeof(t->name));
	t->mode = mode;
	t->ino = next_ino++;
	t->mtime = dir->mtime = now_real();
	t->parent = dir;
	t->next = dir->children;
	dir->children = t;
	nr_nodes++;
	fill(t, n);
	return 0;
}

static void node_free(struct tmpfs_node *t)
{
	nr_bytes -= t->cap;
	nr_nodes--;
	kfree(t->data);
	kfree(t);
}

static void detach(struct tmpfs_node *t)
{
	struct tmpfs_node **pp = &t->parent->children;

	while (*pp != t)
		pp = &(*pp)->next;
	*pp = t->next;
	t->parent = NULL;
	if (!t->opens)
		node_free(t);
}

/* unlink (DIR 0) or rmdir (DIR 1) of N. */
int tmpfs_remove(const struct fs_node *n, int dir)
{
	struct tmpfs_node *t = n->tn;

	if (t == &root)
		return -EBUSY;			/* a mount point */
	if (!dir && S_ISDIR_MODE(t->mode))
		return -EISDIR;
	if (dir && !S_ISDIR_MODE(t->mode))
		return -ENOTDIR;
	if (dir && t->children)
		return -ENOTEMPTY;
	detach(t);
	return 0;
}

/* rename(FROM, TO) inside /tmp; TO_PATH is the target's canonical path. */
int tmpfs_rename(const struct fs_node *from, const char *to_path)
{
	struct tmpfs_node *t = from->tn, *old, *dir;
	const char *name;
	int err = walk(to_path, &old, &dir, &name);

	if (t == &root)
		return -EBUSY;
	if (!err) {				/* replace OLD */
		if (old == t)
			return 0;
		if (old == &root)
			return -EBUSY;
		if (S_ISDIR_MODE(t->mode) && !S_ISDIR_MODE(old->mode))
			return -ENOTDIR;
		if (!S_ISDIR_MODE(t->mode) && S_ISDIR_MODE(old->mode))
			return -EISDIR;
		if (old->children)
			return -ENOTEMPTY;
		dir = old->parent;
		name = old->name;
	} else if (err != -ENOENT || !dir) {
		return err;
	} else if (!S_ISDIR_MODE(dir->mode)) {
		return -ENOTDIR;
	}
	for (struct tmpfs_node *d = dir; d; d = d->parent)
		if (d == t)
			return -EINVAL;		/* a directory into its own subtree */
	char newname[TMPFS_NAME_MAX + 1];
	strlcpy(newname, name, sizeof(newname));
	if (!err)
		detach(old);
	struct tmpfs_node **pp = &t->parent->children;
	while (*pp != t)
		pp = &(*pp)->next;
	*pp = t->next;
	strlcpy(t->name, newname, sizeof(t->name));
	t->parent = dir;
	t->next = dir->children;
	dir->children = t;
	return 0;
}

/* Entry INDEX (after "." and "..") of directory DIR. */
int tmpfs_dir_entry(const char *dir, int index, char *name, size_t size, u8 *d_type, u32 *ino)
{
	struct tmpfs_node *d;

	if (walk(dir, &d, NULL, NULL) || !S_ISDIR_MODE(d->mode))
		return 0;
	for (struct tmpfs_node *c = d->children; c; c = c->next)
		if (index-- == 0) {
			strlcpy(name, c->name, size);
			*d_type = (u8)((c->mode & S_IFMT) >> 12);
			*ino = c->ino;
			return 1;
		}
	return 0;
}

/* Make T's size SIZE (zero-filling a gap): 0, -ENOSPC or -ENOMEM.  Size 0
 * gives the block back; a smaller size keeps it. */
static int resize(struct tmpfs_node *t, u32 size)
{
	if (!size) {
		nr_bytes -= t->cap;
		kfree(t->data);
		t->data = NULL;
		t->size = t->cap = 0;
		return 0;
	}
	if (size > t->cap) {
		u32 cap = t->cap ? t->cap : 64;
		while (cap < size)
			cap *= 2;
		if (cap > TMPFS_MAX_BYTES || nr_bytes - t->cap + cap > TMPFS_MAX_BYTES)
			return -ENOSPC;
		char *data = kmalloc(cap);
		if (!data)
			return -ENOMEM;
		memcpy(data, t->data, t->size);
		kfree(t->data);
		nr_bytes += cap - t->cap;
		t->data = data;
		t->cap = cap;
	}
	if (size > t->size)
		memset(t->data + t->size, 0, size - t->size);
	t->size = size;
	return 0;
}

static long tmpfs_read(struct file *f, char *ubuf, u32 count)
{
	struct tmpfs_node *t = (struct tmpfs_node *)f->node;

	if (f->pos >= t->size)
		return 0;
	u32 n = min(count, (u32)(t->size - f->pos));
	if (copy_to_user(ubuf, t->data + f->pos, n))
		return -EFAULT;
	f->pos += n;
	return n;
}

static long tmpfs_write(struct file *f, const char *ubuf, u32 count)
{
	struct tmpfs_node *t = (struct tmpfs_node *)f->node;
	u32 old = t->size;
	int err;

	if (f->flags & O_APPEND)
		f->pos = t->size;
	if (!count)
		return 0;
	if (f->pos + count > TMPFS_MAX_BYTES)
		return -ENOSPC;			/* also -EFBIG's place: files stay small */
	u32 end = (u32)f->pos + count;
	if (end > t->size && (err = resize(t, end)))
		return err;
	if (copy_from_user(t->data + f->pos, ubuf, count)) {
		if (end > old)
			t->size = old;
		return -EFAULT;
	}
	f->pos = end;
	t->mtime = now_real();
	f->len = t->size;
	return count;
}

static void tmpfs_release(struct file *f)
{
	struct tmpfs_node *t = (struct tmpfs_node *)f->node;

	if (--t->opens == 0 && !t->parent && t != &root)
		node_free(t);			/* unlinked while open */
}

static const struct file_ops tmpfs_ops = {
	.read = tmpfs_read, .write = tmpfs_write, .release = tmpfs_release,
};

int tmpfs_open(const struct fs_node *n, u32 flags, struct file **out)
{
	struct tmpfs_node *t = n->tn;
	struct file *f;

	if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
		resize(t, 0);
	if (!(f = file_alloc(&tmpfs_ops, flags)))
		return -ENOMEM;
	f->node = t;
	f->len = t->size;
	t->opens++;
	*out = f;
	return 0;
}

/* Bring F's cached size up to date (lseek SEEK_END, fstat). */
void tmpfs_sync_len(struct file *f)
{
	if (f->ops == &tmpfs_ops)
		f->len = ((const struct tmpfs_node *)f->node)->size;
}

/* ftruncate: 0, -EINVAL (not a /tmp file, or a size past the limit), -ENOSPC. */
int tmpfs_truncate(struct file *f, u64 size)
{
	if (f->ops != &tmpfs_ops || (f->flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL;
	if (size > TMPFS_MAX_BYTES)
		return -EFBIG;
	int err = resize((struct tmpfs_node *)f->node, (u32)size);

	if (!err)
		((struct tmpfs_node *)f->node)->mtime = now_real();
	tmpfs_sync_len(f);
	return err;
}
