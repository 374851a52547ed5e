/*
 * kernel/fs/namei.c - path lookup over the whole name space, and the
 * path queries: readlink, access/faccessat, getcwd, chdir, fchdir.
 *
 * A path under /dev, /proc or /sys names a pseudo file (kernel/fs/pseudo.c,
 * no links there); any other path is walked through the initrd's tree
 * (kernel/fs/initrd.c: directories, ".", "..", symbolic links); a path
 * under /tmp names a RAM file (kernel/fs/tmpfs.c, no links either).  The
 * root directory holds them all.  A relative path starts at the process's current
 * directory (chdir, fchdir; kept with the fd table), or at a directory fd
 * for the *at() calls.
 *
 * Errors are Linux's: -EFAULT for a bad pointer, -ENOENT, -ENOTDIR,
 * -ELOOP, -ENAMETOOLONG from the walk, -EINVAL for a bad size, mode or
 * flag, -EBADF for a dirfd that is neither AT_FDCWD nor an open fd.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/procfs.h>
#include <kernel/task.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>
#include <kernel/ustar.h>

#define F_OK		0
#define X_OK		1
#define W_OK		2
#define R_OK		4

static const char *const pseudo_roots[] = { "dev", "proc", "sys", "tmp" };

/* PATH (canonical, or absolute) lies under /dev, /proc, /sys or /tmp. */
static int under_pseudo_root(const char *path)
{
	while (*path == '/')
		path++;
	for (size_t i = 0; i < ARRAY_SIZE(pseudo_roots); i++) {
		size_t l = strlen(pseudo_roots[i]);
		if (!strncmp(path, pseudo_roots[i], l) && (path[l] == '\0' || path[l] == '/'))
			return 1;
	}
	return 0;
}

/* PATH with "", "." and ".." components resolved textually into OUT (no
 * leading '/'); 1 if it lies under /dev, /proc, /sys or /tmp. */
static int pseudo_path(const char *path, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	while (*path) {
		const char *c = path, *end = strchr(path, '/');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		path = end ? end + 1 : path + len;
		if (!len || (len == 1 && c[0] == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;
			out[n] = '\0';
			continue;
		}
		if (n + 1 + len >= size)
			return 0;	/* too long: let the initrd walk say so */
		if (n)
			out[n++] = '/';
		memcpy(out + n, c, len);
		out[n += len] = '\0';
	}
	return under_pseudo_root(out);
}

int fs_lookup(const char *path, int follow, struct fs_node *n)
{
	char full[INITRD_PATH_MAX];
	const struct initrd_node *in;
	int err;

	memset(n, 0, sizeof(*n));
	if (!path[0])
		return -ENOENT;
	if (pseudo_path(path, n->path, sizeof(n->path))) {
		if (tmpfs_path(n->path))
			return tmpfs_lookup(n->path, n);
		err = pseudo_lookup(n->path, n);
		if (err == -ENOENT && !strncmp(n->path, "proc/", 5))
			err = procfs_lookup(n->path + 5, follow, n);
		return err;
	}
	/* A path that starts in a pseudo directory and leaves it with ".."
	 * (/tmp/..) is resolved textually: no links lie on the way out. */
	if (under_pseudo_root(path) && strlen(n->path) + 2 < sizeof(full)) {
		snprintf(full, sizeof(full), "/%s", n->path);
		path = full;
	}
	if ((err = initrd_lookup(path, follow, &in)))
		return err;
	n->in = in;
	if (!in) {			/* the root */
		n->path[0] = '\0';
		n->mode = S_IFDIR | 0755;
		n->ino = 1;
		return 0;
	}
	strlcpy(n->path, in->name, sizeof(n->path));
	n->ino = in->ino;
	n->mode = in->type == USTAR_DIR ? S_IFDIR | 0755 :
		  in->type == USTAR_SYMLINK ? S_IFLNK | 0777 : S_IFREG | 0755;
	n->size = in->type == USTAR_SYMLINK ? strlen(in->link) : in->type == USTAR_REG ? in->size : 0;
	return 0;
}

int fs_lookup_at(int dirfd, const char *upath, int follow, struct fs_node *n)
{
	/* "/" DIR "/" PATH, each up to INITRD_PATH_MAX - 1 bytes: never cut short */
	char path[INITRD_PATH_MAX], full[2 * INITRD_PATH_MAX + 2];
	long len = strncpy_from_user(path, upath, sizeof(path));
	struct file *dir;

	if (len < 0)
		return (int)len;
	if (path[0] == '/')
		return fs_lookup(path, follow, n);
	if (!path[0])
		return -ENOENT;
	if (dirfd == AT_FDCWD) {
		snprintf(full, sizeof(full), "/%s/%s", current->files ? current->files->cwd : "", path);
		return fs_lookup(full, follow, n);
	}
	if (!(dir = fget(dirfd)))
		return -EBADF;
	if (!S_ISDIR_MODE(dir->mode))
		return -ENOTDIR;
	snprintf(full, sizeof(full), "/%s/%s", dir->path, path);
	return fs_lookup(full, follow, n);
}

/*
 * Directory listing for getdents64: ".", "..", then for the root the
 * pseudo roots (dev, proc, sys) and the initrd's top level, for a pseudo
 * directory its entries, for an initrd directory its members.
 */
int fs_dir_entry(const char *dir, int index, char *name, size_t size, u8 *d_type, u32 *ino)
{
	char canon[INITRD_PATH_MAX];
	size_t dlen = strlen(dir);
	u32 mode = 0;
	int r;

	if (index < 2) {
		strlcpy(name, index ? ".." : ".", size);
		*d_type = 4;		/* DT_DIR */
		*ino = 1;
		return 1;
	}
	index -= 2;
	if (tmpfs_path(dir))
		return tmpfs_dir_entry(dir, index, name, size, d_type, ino);
	if (!dlen || pseudo_path(dir, canon, sizeof(canon))) {
		if ((r = pseudo_dir_entry(dir, index, name, size, &mode, ino)) || dlen) {
			*d_type = (u8)((mode & S_IFMT) >> 12);	/* DT_* = S_IF* >> 12 */
			return r;
		}
		for (int k = 0; pseudo_dir_entry("", k, canon, sizeof(canon), &mode, ino); k++)
			index--;	/* the root: past its pseudo entries */
	}
	for (const struct initrd_node *n = initrd_first(); n; n = n->next) {
		const char *rest = n->name;
		if (dlen) {
			if (strncmp(n->name, dir, dlen) || n->name[dlen] != '/')
				continue;
			rest += dlen + 1;
		}
		if (strchr(rest, '/') || index-- > 0)
			continue;
		strlcpy(name, rest, size);
		*ino = n->ino;
		*d_type = n->type == USTAR_DIR ? 4 : n->type == USTAR_SYMLINK ? 10 : 8;
		return 1;
	}
	return 0;
}

long sys_readlinkat(int dirfd, const char *upath, char *ubuf, int size)
{
	struct fs_node n;
	int err;

	if (size <= 0)
		return -EINVAL;
	if ((err = fs_lookup_at(dirfd, upath, 0, &n)))
		return err;
	if (n.proc_entry)
		return procfs_readlink(&n, ubuf, size);	/* /proc/self */
	if (!n.in || n.in->type != USTAR_SYMLINK)
		return -EINVAL;		/* not a link */
	u32 len = min((u32)strlen(n.in->link), (u32)size);	/* no NUL, as Linux */
	return copy_to_user(ubuf, n.in->link, len) ? -EFAULT : (long)len;
}

long sys_readlink(const char *upath, char *ubuf, int size)
{
	return sys_readlinkat(AT_FDCWD, upath, ubuf, size);
}

/* Everything runs as root: R and X are allowed (X only where an x bit is
 * set); W fails with -EROFS on the initrd (Linux's answer for a read-only
 * mount) and on a pseudo file without a write method, as -EACCES. */
long sys_faccessat2(int dirfd, const char *upath, int mode, int flags)
{
	struct fs_node n;
	int err;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((err = fs_lookup_at(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &n)))
		return err;
	if ((mode & X_OK) && !(n.mode & 0111))
		return -EACCES;
	if (mode & W_OK)
		return n.tn ? 0 : fs_node_pseudo(&n) ? ((n.mode & 0222) ? 0 : -EACCES) : -EROFS;
	return 0;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	return sys_faccessat2(dirfd, upath, mode, 0);
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat2(AT_FDCWD, upath, mode, 0);
}

/* getcwd(buf, size): "/" + the current directory, and its length with the
 * NUL; -ERANGE if SIZE is too small for it. */
long sys_getcwd(char *ubuf, u32 size)
{
	char cwd[72];
	u32 len;

	if (!current->files)
		return -ENOENT;
	len = (u32)snprintf(cwd, sizeof(cwd), "/%s", current->files->cwd) + 1;
	if (size < len)
		return -ERANGE;
	return copy_to_user(ubuf, cwd, len) ? -EFAULT : (long)len;
}

static long set_cwd(const char *path, u32 mode)
{
	struct files *fs = current->files;

	if (!S_ISDIR_MODE(mode))
		return -ENOTDIR;
	if (strlen(path) >= sizeof(fs->cwd))
		return -ENAMETOOLONG;
	strlcpy(fs->cwd, path, sizeof(fs->cwd));
	return 0;
}

/* chdir(path): -ENOENT, -ENOTDIR, -ELOOP, -EFAULT, -ENAMETOOLONG (a
 * directory deeper than the 63 bytes kept). */
long sys_chdir(const char *upath)
{
	struct fs_node n;
	int err;

	if (!current->files)
		return -ENOENT;
	if ((err = fs_lookup_at(AT_FDCWD, upath, 1, &n)))
		return err;
	return set_cwd(n.path, n.mode);
}

long sys_fchdir(int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	return set_cwd(f->path, f->mode);
}
