/*
 * kernel/fs/stat.c - stat64, lstat64, fstat64, fstatat64 and statx over
 * what Granule has: the console as file descriptors 0..2 (a character
 * device, 5:1 as /dev/console) and the initrd's tree (kernel/initrd.h).
 *
 * Both layouts are Linux i386's: struct stat64 (96 bytes,
 * arch/x86/include/uapi/asm/stat.h) and struct statx (256 bytes,
 * include/uapi/linux/stat.h).  Times are 0 (the initrd is packed with
 * mtime 0); uid and gid 0; the device of the initrd's files is 0:1.
 */
#include <kernel/errno.h>
#include <kernel/fs.h>
#include <kernel/initrd.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/ustar.h>

#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000
#define AT_STATX_SYNC_TYPE	0x6000
#define STATX_BASIC_STATS	0x7ffu
#define STATX__RESERVED		0x80000000u

struct kstat {
	u32 mode, nlink, rdev_major, rdev_minor, dev_minor;
	u64 ino, size;
};

struct stat64 {
	u64 st_dev;
	u8 pad0[4];
	u32 st_ino32;
	u32 st_mode, st_nlink, st_uid, st_gid;
	u64 st_rdev;
	u8 pad3[4];
	s64 st_size;
	u32 st_blksize;
	u64 st_blocks;
	u32 st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	u64 st_ino;
} __attribute__((packed));

struct statx_timestamp { s64 tv_sec; u32 tv_nsec; s32 reserved; };
struct statx {
	u32 stx_mask, stx_blksize;
	u64 stx_attributes;
	u32 stx_nlink, stx_uid, stx_gid;
	u16 stx_mode, spare0;
	u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	u64 spare2[14];
};

_Static_assert(sizeof(struct stat64) == 96, "Linux i386 struct stat64");
_Static_assert(sizeof(struct statx) == 256, "Linux struct statx");

static int stat_fd(int fd, struct kstat *st)
{
	if (!fd_is_console(fd))
		return -EBADF;
	*st = (struct kstat){ .mode = S_IFCHR | 0620, .nlink = 1, .rdev_major = 5, .rdev_minor = 1,
			      .dev_minor = 6, .ino = 3 };
	return 0;
}

static int stat_path(const char *upath, int follow, struct kstat *st)
{
	char path[INITRD_PATH_MAX];
	const struct initrd_node *n;
	long len = strncpy_from_user(path, upath, sizeof(path));
	int err;

	if (len < 0)
		return (int)len;
	if ((err = initrd_lookup(path, follow, &n)))
		return err;
	*st = (struct kstat){ .mode = S_IFDIR | 0755, .nlink = 2, .dev_minor = 1, .ino = 1 };
	if (!n)
		return 0;		/* the root */
	st->ino = n->ino;
	st->nlink = n->type == USTAR_DIR ? 2 : 1;
	st->mode = n->type == USTAR_DIR ? S_IFDIR | 0755 :
		   n->type == USTAR_SYMLINK ? S_IFLNK | 0777 : S_IFREG | 0755;
	st->size = n->type == USTAR_SYMLINK ? strlen(n->link) : n->type == USTAR_REG ? n->size : 0;
	return 0;
}

/* DIRFD + PATH as the *at() calls take them; only AT_FDCWD (or an absolute
 * PATH) for a path, any fd for AT_EMPTY_PATH with an empty PATH. */
static int stat_at(int dirfd, const char *upath, int flags, struct kstat *st)
{
	char c;

	if (flags & AT_EMPTY_PATH) {
		if (get_user(c, upath))
			return -EFAULT;
		if (!c)
			return stat_fd(dirfd, st);
	}
	if (get_user(c, upath))
		return -EFAULT;
	if (dirfd != AT_FDCWD && c != '/')
		return fd_is_console(dirfd) ? -ENOTDIR : -EBADF;
	return stat_path(upath, !(flags & AT_SYMLINK_NOFOLLOW), st);
}

static long put_stat64(const struct kstat *k, struct stat64 *u)
{
	struct stat64 s = {
		.st_dev = k->dev_minor, .st_ino32 = (u32)k->ino, .st_mode = k->mode,
		.st_nlink = k->nlink, .st_rdev = (k->rdev_major << 8) | k->rdev_minor,
		.st_size = (s64)k->size, .st_blksize = 4096, .st_blocks = (k->size + 511) / 512,
		.st_ino = k->ino,
	};
	return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
}

long sys_fstat64(int fd, struct stat64 *u)
{
	struct kstat k;
	int err = stat_fd(fd, &k);

	return err ? err : put_stat64(&k, u);
}

long sys_stat64(const char *path, struct stat64 *u)
{
	struct kstat k;
	int err = stat_path(path, 1, &k);

	return err ? err : put_stat64(&k, u);
}

long sys_lstat64(const char *path, struct stat64 *u)
{
	struct kstat k;
	int err = stat_path(path, 0, &k);

	return err ? err : put_stat64(&k, u);
}

long sys_fstatat64(int dirfd, const char *path, struct stat64 *u, int flags)
{
	struct kstat k;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	if ((err = stat_at(dirfd, path, flags, &k)))
		return err;
	return put_stat64(&k, u);
}

/* statx(dirfd, path, flags, mask, buf): every basic field is known, so
 * stx_mask is STATX_BASIC_STATS whatever MASK asked for. */
long sys_statx(int dirfd, const char *path, int flags, u32 mask, struct statx *u)
{
	struct kstat k;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	if ((err = stat_at(dirfd, path, flags, &k)))
		return err;
	struct statx s = {
		.stx_mask = STATX_BASIC_STATS, .stx_blksize = 4096, .stx_nlink = k.nlink,
		.stx_mode = (u16)k.mode, .stx_ino = k.ino, .stx_size = k.size,
		.stx_blocks = (k.size + 511) / 512, .stx_rdev_major = k.rdev_major,
		.stx_rdev_minor = k.rdev_minor, .stx_dev_minor = k.dev_minor,
	};
	return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
}
