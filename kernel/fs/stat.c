/*
 * kernel/fs/stat.c - stat64, lstat64, fstat64, fstatat64 and statx of
 * open files and of names in the name space (kernel/fs.h).
 *
 * Both layouts are Linux i386's: struct stat64 (96 bytes,
 * arch/x86/include/uapi/asm/stat.h) and struct statx (256 bytes,
 * include/uapi/linux/stat.h).  Times (atime = mtime = ctime): a /tmp
 * file's last change (kernel/fs/tmpfs.c, the wall clock); the boot's
 * wall-clock time for /proc, /sys and /dev (made at boot, as Linux's);
 * 0 for the initrd (packed with mtime 0, which Linux's initramfs would
 * keep too).  uid and gid 0; a file's device is 0:N, one N per mount of
 * /proc/mounts (kernel/fs/statfs.c; the initrd 0:1).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/hrtimer.h>
#include <kernel/math64.h>
#include <kernel/string.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>

#define AT_STATX_SYNC_TYPE	0x6000
#define STATX_BASIC_STATS	0x7ffu
#define STATX__RESERVED		0x80000000u

struct kstat {
	u32 mode, nlink, rdev_major, rdev_minor, dev_minor;
	u64 ino, size;
	u64 time;			/* CLOCK_REALTIME ns */
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
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	tmpfs_sync_len(f);
	*st = (struct kstat){ .mode = f->mode, .nlink = 1, .rdev_major = f->rdev >> 8,
			      .rdev_minor = f->rdev & 0xff, .dev_minor = 1, .ino = f->ino,
			      .size = (f->mode & S_IFMT) == S_IFREG ? f->len : 0 };
	st->dev_minor = fs_file_dev_minor(f);
	if (f->ops && tmpfs_file_mtime(f))
		st->time = tmpfs_file_mtime(f);
	else if (f->buf || f->rdev || !strncmp(f->path, "proc", 4) || !strncmp(f->path, "sys", 3) ||
		 !strncmp(f->path, "dev", 3))
		st->time = boot_realtime_ns;	/* generated, a device, or a pseudo directory */
	return 0;
}

static void node_stat(const struct fs_node *n, struct kstat *st)
{
	*st = (struct kstat){ .mode = n->mode, .nlink = S_ISDIR_MODE(n->mode) ? 2 : 1,
			      .rdev_major = n->rdev >> 8, .rdev_minor = n->rdev & 0xff,
			      .dev_minor = 1, .ino = n->ino, .size = n->size };
	st->dev_minor = fs_dev_minor(n->path);
	if (n->tn)
		st->time = tmpfs_mtime(n);
	else if (fs_node_pseudo(n) || n->proc_entry || n->proc_pid)
		st->time = boot_realtime_ns;
}

static int stat_path(const char *upath, int follow, struct kstat *st)
{
	struct fs_node n;
	int err = fs_lookup_at(AT_FDCWD, upath, follow, &n);

	if (!err)
		node_stat(&n, st);
	return err;
}

/* DIRFD + PATH as the *at() calls take them; AT_EMPTY_PATH with an empty
 * PATH stats DIRFD itself. */
static int stat_at(int dirfd, const char *upath, int flags, struct kstat *st)
{
	struct fs_node n;
	char c;
	int err;

	if (get_user(c, upath))
		return -EFAULT;
	if (!c && (flags & AT_EMPTY_PATH))
		return stat_fd(dirfd, st);
	if ((err = fs_lookup_at(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &n)))
		return err;
	node_stat(&n, st);
	return 0;
}

static long put_stat64(const struct kstat *k, struct stat64 *u)
{
	struct stat64 s = {
		.st_dev = k->dev_minor, .st_ino32 = (u32)k->ino, .st_mode = k->mode,
		.st_nlink = k->nlink, .st_rdev = (k->rdev_major << 8) | k->rdev_minor,
		.st_size = (s64)k->size, .st_blksize = 4096, .st_blocks = (k->size + 511) / 512,
		.st_ino = k->ino,
	};
	u32 nsec;
	u32 sec = (u32)div_u64_rem(k->time, 1000000000u, &nsec);

	s.st_atime = s.st_mtime = s.st_ctime = sec;
	s.st_atime_nsec = s.st_mtime_nsec = s.st_ctime_nsec = nsec;
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
	u32 nsec;

	s.stx_mtime.tv_sec = (s64)div_u64_rem(k.time, 1000000000u, &nsec);
	s.stx_mtime.tv_nsec = nsec;
	s.stx_atime = s.stx_ctime = s.stx_mtime;
	return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
}
