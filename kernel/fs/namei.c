/*
 * kernel/fs/namei.c - the path queries over the initrd's tree: readlink,
 * access/faccessat, getcwd.  There is no chdir yet: every process's
 * current directory is the root, so a relative path starts at "/".
 *
 * Errors are Linux's: -EFAULT for a bad pointer, -ENOENT, -ENOTDIR,
 * -ELOOP, -ENAMETOOLONG from the path walk, -EINVAL for a bad size, mode
 * or flag, -EBADF for a dirfd that is neither AT_FDCWD nor an open fd.
 */
#include <kernel/errno.h>
#include <kernel/fs.h>
#include <kernel/initrd.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/ustar.h>

#define F_OK		0
#define X_OK		1
#define W_OK		2
#define R_OK		4
#define AT_EACCESS		0x200
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_EMPTY_PATH		0x1000

/* Copy the user path and walk it; a relative path needs DIRFD = AT_FDCWD. */
static int lookup_at(int dirfd, const char *upath, int follow, const struct initrd_node **n)
{
	char path[INITRD_PATH_MAX];
	long len = strncpy_from_user(path, upath, sizeof(path));

	if (len < 0)
		return (int)len;
	if (dirfd != AT_FDCWD && path[0] != '/')
		return fd_is_console(dirfd) ? -ENOTDIR : -EBADF;
	return initrd_lookup(path, follow, n);
}

long sys_readlinkat(int dirfd, const char *upath, char *ubuf, int size)
{
	const struct initrd_node *n;
	int err;

	if (size <= 0)
		return -EINVAL;
	if ((err = lookup_at(dirfd, upath, 0, &n)))
		return err;
	if (!n || n->type != USTAR_SYMLINK)
		return -EINVAL;		/* not a link */
	u32 len = min((u32)strlen(n->link), (u32)size);	/* no NUL, as Linux */
	return copy_to_user(ubuf, n->link, len) ? -EFAULT : (long)len;
}

long sys_readlink(const char *upath, char *ubuf, int size)
{
	return sys_readlinkat(AT_FDCWD, upath, ubuf, size);
}

/* The initrd is read-only: W_OK fails with -EROFS (Linux's answer for a
 * read-only mount), everything else is allowed to root (mode 0755). */
long sys_faccessat2(int dirfd, const char *upath, int mode, int flags)
{
	const struct initrd_node *n;
	int err;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((err = lookup_at(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &n)))
		return err;
	return (mode & W_OK) ? -EROFS : 0;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	return sys_faccessat2(dirfd, upath, mode, 0);
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat2(AT_FDCWD, upath, mode, 0);
}

/* getcwd(buf, size): "/" and its length with the NUL; -ERANGE if SIZE is
 * too small for it. */
long sys_getcwd(char *ubuf, u32 size)
{
	if (size < 2)
		return -ERANGE;
	return copy_to_user(ubuf, "/", 2) ? -EFAULT : 2;
}
