/*
 * kernel/fs/dir.c - the calls that change the name space: unlink,
 * unlinkat, rmdir, mkdir, mkdirat, rename, renameat; and ftruncate and
 * utimensat.
 *
 * Only /tmp (kernel/fs/tmpfs.c) can change.  Elsewhere an existing name
 * answers -EROFS, Linux's answer on a read-only mount, and a new name
 * -EROFS when its directory exists (-ENOENT or -ENOTDIR when not, which
 * Linux's lookup finds first).  A rename between /tmp and elsewhere is
 * -EXDEV, as between two Linux mounts.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>

#define AT_REMOVEDIR	0x200

/* -EROFS if the directory of missing canonical PATH exists, else its error. */
static int parent_error(const char *path)
{
	char parent[INITRD_PATH_MAX + 1];
	struct fs_node n;
	char *slash;
	int err;

	snprintf(parent, sizeof(parent), "/%s", path);
	slash = strrchr(parent, '/');
	slash[slash == parent ? 1 : 0] = '\0';
	if ((err = fs_lookup(parent, 1, &n)))
		return err;
	return S_ISDIR_MODE(n.mode) ? -EROFS : -ENOTDIR;
}

enum { LAST_NORM, LAST_DOT, LAST_DOTDOT };

/*
 * What the last component of user path UPATH is (Linux's last_type): "."
 * or "..", trailing slashes ignored, or an ordinary name.  The lookup
 * resolves both textually, so without this rmdir("dir/.") would remove
 * dir; Linux refuses a call that would act on a "." or ".." entry.  Read
 * after a successful lookup, so the path is known to copy.
 */
static int last_type(const char *upath)
{
	char path[INITRD_PATH_MAX];
	long len = strncpy_from_user(path, upath, sizeof(path));

	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (len <= 0)
		return LAST_NORM;
	const char *last = strrchr(path, '/');
	last = last ? last + 1 : path;
	return !strcmp(last, ".") ? LAST_DOT : !strcmp(last, "..") ? LAST_DOTDOT : LAST_NORM;
}

/* unlinkat(dirfd, path, flags): FLAGS 0 (a file: -EISDIR for a directory)
 * or AT_REMOVEDIR (rmdir); other flags -EINVAL.  A last component "." is
 * -EINVAL for rmdir, ".." -ENOTEMPTY, either -EISDIR for unlink (Linux's
 * do_rmdir and do_unlinkat). */
long sys_unlinkat(int dirfd, const char *upath, int flags)
{
	struct fs_node n;
	int err, type;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	if ((err = fs_lookup_at(dirfd, upath, 0, &n)))
		return err;
	if ((type = last_type(upath)) != LAST_NORM)
		return !(flags & AT_REMOVEDIR) ? -EISDIR : type == LAST_DOT ? -EINVAL : -ENOTEMPTY;
	if (!n.tn)
		return -EROFS;
	return tmpfs_remove(&n, !!(flags & AT_REMOVEDIR));
}

long sys_unlink(const char *upath)
{
	return sys_unlinkat(AT_FDCWD, upath, 0);
}

long sys_rmdir(const char *upath)
{
	return sys_unlinkat(AT_FDCWD, upath, AT_REMOVEDIR);
}

/* mkdirat(dirfd, path, mode): -EEXIST, -ENOENT, -ENOTDIR, -ENOSPC,
 * -ENAMETOOLONG, -EROFS outside /tmp. */
long sys_mkdirat(int dirfd, const char *upath, u32 mode)
{
	struct fs_node n;
	int err = fs_lookup_at(dirfd, upath, 1, &n);

	if (!err)
		return -EEXIST;
	if (err != -ENOENT)
		return err;
	if (!tmpfs_path(n.path))
		return parent_error(n.path);
	return tmpfs_create(n.path, S_IFDIR | (mode & 07777 & ~TMPFS_UMASK), &n);
}

long sys_mkdir(const char *upath, u32 mode)
{
	return sys_mkdirat(AT_FDCWD, upath, mode);
}

/* renameat(olddirfd, old, newdirfd, new): NEW is replaced if it exists
 * (a file by a file, an empty directory by a directory); a "." or ".."
 * at the end of either is -EBUSY. */
long sys_renameat(int olddirfd, const char *uold, int newdirfd, const char *unew)
{
	struct fs_node from, to;
	int err;

	if ((err = fs_lookup_at(olddirfd, uold, 0, &from)))
		return err;
	err = fs_lookup_at(newdirfd, unew, 0, &to);
	if (err && err != -ENOENT)
		return err;
	if (last_type(uold) != LAST_NORM || last_type(unew) != LAST_NORM)
		return -EBUSY;		/* Linux's do_renameat2 */
	if (from.tn && tmpfs_path(to.path))
		return tmpfs_rename(&from, to.path);
	if (from.tn || tmpfs_path(to.path))
		return -EXDEV;
	return err ? parent_error(to.path) : -EROFS;
}

long sys_rename(const char *uold, const char *unew)
{
	return sys_renameat(AT_FDCWD, uold, AT_FDCWD, unew);
}

/* ftruncate64(fd, length as lo, hi): a /tmp file opened for writing;
 * -EINVAL for a negative length or another file, -EFBIG past /tmp's size. */
long sys_ftruncate64(int fd, u32 lo, u32 hi)
{
	struct file *f = fget(fd);
	s64 len = (s64)(((u64)hi << 32) | lo);

	if (!f)
		return -EBADF;
	if (len < 0)
		return -EINVAL;
	return tmpfs_truncate(f, (u64)len);
}

long sys_ftruncate(int fd, u32 length)
{
	return sys_ftruncate64(fd, length, (s32)length < 0 ? 0xffffffffu : 0);	/* a long */
}

#define UTIME_NOW	((1l << 30) - 1l)
#define UTIME_OMIT	((1l << 30) - 2l)

/*
 * utimensat(dirfd, path, times, flags): a /tmp file keeps one time (stat's
 * atime, mtime and ctime): TIMES[1] (the mtime; UTIME_NOW or a NULL TIMES:
 * now; UTIME_OMIT: unchanged) becomes it; a pseudo file's cannot change (0
 * is returned), the initrd's gives -EROFS.  Checked as Linux: FLAGS only
 * AT_SYMLINK_NOFOLLOW (-EINVAL), each tv_nsec in 0..999999999 or
 * UTIME_NOW/UTIME_OMIT (-EINVAL), TIMES readable (-EFAULT); a NULL PATH
 * means DIRFD itself (-EBADF).
 */
long sys_utimensat(int dirfd, const char *upath, const s32 *utimes, int flags)
{
	s32 ts[4];
	struct fs_node n;
	int err;

	if (flags & ~AT_SYMLINK_NOFOLLOW)
		return -EINVAL;
	if (utimes) {
		if (copy_from_user(ts, utimes, sizeof(ts)))
			return -EFAULT;
		for (int i = 1; i < 4; i += 2)
			if ((ts[i] < 0 || ts[i] > 999999999) && ts[i] != UTIME_NOW && ts[i] != UTIME_OMIT)
				return -EINVAL;
	}
	if (!upath)
		return fget(dirfd) ? 0 : -EBADF;
	if ((err = fs_lookup_at(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &n)))
		return err;
	if (n.tn && (!utimes || ts[3] != UTIME_OMIT))
		tmpfs_set_mtime(&n, !utimes || ts[3] == UTIME_NOW ? 0 :
				(u64)(u32)ts[2] * 1000000000ull + (u32)ts[3]);
	return n.tn || fs_node_pseudo(&n) ? 0 : -EROFS;
}
