/*
 * kernel/fs/open.c - open/openat over the name space, the initrd's files
 * as open files, and getdents64.
 *
 * The name space is read-only but for /tmp (kernel/fs/tmpfs.c) and the
 * pseudo files that take writes: creating a file elsewhere is -EROFS, and
 * so is opening an initrd file for writing; a directory opens read-only
 * (-EISDIR otherwise) and is read with getdents64.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/procfs.h>
#include <kernel/string.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>
#include <kernel/ustar.h>

#define OPEN_FLAGS	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | \
			 O_NONBLOCK | 010000 /* O_DSYNC */ | 020000 /* FASYNC */ | \
			 040000 /* O_DIRECT */ | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | \
			 01000000 /* O_NOATIME */ | O_CLOEXEC | 04000000 /* __O_SYNC */ | \
			 O_PATH | 020000000 /* __O_TMPFILE */)

static long initrd_read(struct file *f, char *ubuf, u32 count)
{
	const struct initrd_node *n = f->node;

	if (f->pos >= n->size)
		return 0;
	u32 len = min(count, (u32)(n->size - f->pos));
	if (copy_to_user(ubuf, (const char *)n->data + f->pos, len))
		return -EFAULT;
	f->pos += len;
	return len;
}

static const struct file_ops initrd_file_ops = { .read = initrd_read };
static const struct file_ops dir_ops = { 0 };

int file_mmap_node(struct file *f, const struct initrd_node **node)
{
	if (f->ops != &initrd_file_ops)
		return -ENODEV;
	*node = f->node;
	return 0;
}

static int open_node(const struct fs_node *n, u32 flags, struct file **out)
{
	struct file *f;
	int err;

	if (S_ISDIR_MODE(n->mode)) {
		if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
			return -EISDIR;
		if (!(f = file_alloc(&dir_ops, flags)))
			return -ENOMEM;
		strlcpy(f->path, n->path, sizeof(f->path));
	} else if (flags & O_DIRECTORY) {
		return -ENOTDIR;
	} else if (n->proc_entry) {
		if ((err = procfs_open(n, flags, &f)))
			return err;
	} else if (n->tn) {
		if ((err = tmpfs_open(n, flags, &f)))
			return err;
	} else if (fs_node_pseudo(n)) {
		if ((err = pseudo_open(n, flags, &f)))
			return err;
	} else {
		if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
			return -EROFS;
		if (!(f = file_alloc(&initrd_file_ops, flags)))
			return -ENOMEM;
		f->node = n->in;
		f->len = n->in->size;
	}
	if (!f->mode) {
		f->mode = n->mode;
		f->rdev = n->rdev;
	}
	f->ino = n->ino;
	*out = f;
	return 0;
}

/*
 * openat(dirfd, path, flags, mode): the new fd (the lowest free one), or
 * -EINVAL (unknown flags; O_CREAT|O_DIRECTORY), -ENOENT, -ENOTDIR, -ELOOP
 * (also O_NOFOLLOW on a link), -EEXIST (O_CREAT|O_EXCL of an existing
 * name), -EROFS (creating outside /tmp, or writing an initrd file; under
 * /proc -ENOENT, as Linux's proc lookup: sysctl -w of an unknown knob),
 * -EISDIR, -EACCES (writing a read-only pseudo file), -ENOSPC (/tmp
 * full), -ENAMETOOLONG, -EMFILE, -ENOMEM, -EFAULT.
 */
long sys_openat(int dirfd, const char *upath, u32 flags, u32 mode)
{
	struct fs_node n;
	struct file *f;
	int err, fd;

	if (flags & ~OPEN_FLAGS)
		return -EINVAL;
	if ((flags & O_CREAT) && (flags & O_DIRECTORY))
		return -EINVAL;
	err = fs_lookup_at(dirfd, upath, !(flags & O_NOFOLLOW), &n);
	if (err == -ENOENT && (flags & O_CREAT)) {
		char c;
		if (get_user(c, upath))
			return -EFAULT;
		if (!strncmp(n.path, "proc/", 5))
			return -ENOENT;		/* Linux's proc lookup fails: no such knob */
		if (!tmpfs_path(n.path))
			return -EROFS;		/* the only writable directory is /tmp */
		err = tmpfs_create(n.path, S_IFREG | (mode & 07777 & ~TMPFS_UMASK), &n);
	} else if (!err && (flags & O_CREAT) && (flags & O_EXCL)) {
		return -EEXIST;
	}
	if (err)
		return err;
	if ((n.mode & S_IFMT) == S_IFLNK)
		return -ELOOP;		/* O_NOFOLLOW on a link */
	if ((err = open_node(&n, flags, &f)))
		return err;
	if ((fd = fd_install(f, flags & O_CLOEXEC)) < 0)
		fput(f);
	return fd;
}

long sys_open(const char *upath, u32 flags, u32 mode)
{
	return sys_openat(AT_FDCWD, upath, flags, mode);
}

/* struct linux_dirent64: d_ino, d_off, d_reclen, d_type, d_name[] (8-aligned). */
struct dirent64_head {
	u64 d_ino;
	s64 d_off;
	u16 d_reclen;
	u8 d_type;
} __attribute__((packed));

/*
 * getdents64(fd, dirp, count): as many entries as fit, their total size;
 * 0 at the end; -ENOTDIR (not a directory), -EINVAL (COUNT too small for
 * the next entry), -EFAULT, -EBADF.  The position is the entry index.
 */
long sys_getdents64(int fd, void *udirp, u32 count)
{
	struct file *f = fget(fd);
	char name[128];
	u8 rec[sizeof(struct dirent64_head) + sizeof(name) + 8];
	u32 used = 0;

	if (!f)
		return -EBADF;
	if (!S_ISDIR_MODE(f->mode))
		return -ENOTDIR;
	if (!access_ok((u32)udirp, count))
		return -EFAULT;
	for (;;) {
		struct dirent64_head h = { 0 };
		u32 ino;
		if (!fs_dir_entry(f->path, f->dir_index, name, sizeof(name), &h.d_type, &ino))
			break;
		u32 nlen = strlen(name) + 1;
		h.d_reclen = (u16)ALIGN_UP(sizeof(h) + nlen, 8);
		if (used + h.d_reclen > count) {
			if (!used)
				return -EINVAL;
			break;
		}
		h.d_ino = ino;
		h.d_off = f->dir_index + 1;
		memset(rec, 0, h.d_reclen);
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + sizeof(h), name, nlen);
		if (copy_to_user((u8 *)udirp + used, rec, h.d_reclen))
			return used ? (long)used : -EFAULT;
		used += h.d_reclen;
		f->dir_index++;
		f->pos = f->dir_index;
	}
	return used;
}
