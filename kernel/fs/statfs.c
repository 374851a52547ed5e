/*
 * kernel/fs/statfs.c - the mount table: /proc/mounts (Linux's layout,
 * fs/proc_namespace.c show_vfsmnt) and statfs(2), fstatfs(2),
 * statfs64(2), fstatfs64(2), so that busybox's mount and df work.
 *
 * Granule mounts nothing at run time: its file name space is one fixed
 * tree, shown as the mounts a Linux initramfs system would have:
 *
 *	rootfs / rootfs ro 0 0			the initrd (read-only here)
 *	devtmpfs /dev devtmpfs rw,relatime,mode=755 0 0
 *	proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
 *	sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
 *	debugfs /sys/kernel/debug debugfs rw,nosuid,nodev,noexec,relatime 0 0
 *	tmpfs /tmp tmpfs rw,relatime,size=1024k,nr_inodes=256 0 0
 *
 * A path belongs to the mount with the longest matching directory.
 * statfs reports Linux's magic numbers (include/uapi/linux/magic.h),
 * 4096-byte blocks and ST_* flags; rootfs counts the initrd's bytes (all
 * used), tmpfs its TMPFS_MAX_BYTES and TMPFS_MAX_NODES limits (free =
 * what is not held); the pseudo file systems report 0 blocks (df leaves
 * them out unless -a, as on Linux).  An open file's mount (fstatfs) is
 * judged by what it is: a /tmp file, a directory (its path), a device
 * (/dev), a generated file (/proc: a /sys file shows as /proc - a small
 * difference), else the initrd.
 * Errors: -EFAULT (bad path or buffer), the lookup's -ENOENT etc., -EBADF;
 * statfs64 and fstatfs64 take the struct's size and give -EINVAL unless it
 * is 84 (Linux i386's packed struct statfs64).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/printk.h>
#include <kernel/procfs.h>
#include <kernel/string.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>

#define RAMFS_MAGIC		0x858458f6u
#define TMPFS_MAGIC		0x01021994u
#define PROC_SUPER_MAGIC	0x9fa0u
#define SYSFS_MAGIC		0x62656572u
#define DEBUGFS_MAGIC		0x64626720u

#define ST_RDONLY	0x0001u
#define ST_NOSUID	0x0002u
#define ST_NODEV	0x0004u
#define ST_NOEXEC	0x0008u
#define ST_RELATIME	0x1000u
#define ST_PSEUDO	(ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_RELATIME)

#define BLOCK		4096u
#define NAME_MAX_FS	255u

extern const u8 initrd_start[], initrd_end[];

struct mount {
	const char *dev, *dir, *type, *opts;	/* dir: canonical, "" = / */
	u32 magic, flags;
};

static const struct mount mounts[] = {
	{ "rootfs", "", "rootfs", "ro", RAMFS_MAGIC, ST_RDONLY },
	{ "devtmpfs", "dev", "devtmpfs", "rw,relatime,mode=755", TMPFS_MAGIC, ST_RELATIME },
	{ "proc", "proc", "proc", "rw,nosuid,nodev,noexec,relatime", PROC_SUPER_MAGIC, ST_PSEUDO },
	{ "sysfs", "sys", "sysfs", "rw,nosuid,nodev,noexec,relatime", SYSFS_MAGIC, ST_PSEUDO },
	{ "debugfs", "sys/kernel/debug", "debugfs", "rw,nosuid,nodev,noexec,relatime",
	  DEBUGFS_MAGIC, ST_PSEUDO },
	{ "tmpfs", "tmp", "tmpfs", "rw,relatime,size=1024k,nr_inodes=256", TMPFS_MAGIC,
	  ST_RELATIME },
};

size_t procfs_mounts_show(char *buf, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(mounts) && n < size; i++)
		n += snprintf(buf + n, size - n, "%s /%s %s %s 0 0\n", mounts[i].dev,
			      mounts[i].dir, mounts[i].type, mounts[i].opts);
	return min(n, size - 1);
}

/* The mount canonical PATH ("" = /) is on: the longest matching directory. */
static const struct mount *mount_of(const char *path)
{
	const struct mount *best = &mounts[0];

	for (size_t i = 1; i < ARRAY_SIZE(mounts); i++) {
		size_t len = strlen(mounts[i].dir);

		if (!strncmp(path, mounts[i].dir, len) && (path[len] == '\0' || path[len] == '/') &&
		    len > strlen(best->dir))
			best = &mounts[i];
	}
	return best;
}

struct kstatfs {
	u32 type, bsize, namelen, frsize, flags;
	u64 blocks, bfree, files, ffree;
};

static void fill_statfs(const struct mount *m, struct kstatfs *st)
{
	*st = (struct kstatfs){ .type = m->magic, .bsize = BLOCK, .namelen = NAME_MAX_FS,
				.frsize = BLOCK, .flags = m->flags };
	if (m == &mounts[0]) {
		st->blocks = ((u32)(initrd_end - initrd_start) + BLOCK - 1) / BLOCK;
	} else if (!strcmp(m->type, "tmpfs")) {
		u32 bytes, nodes;

		tmpfs_usage(&bytes, &nodes);
		st->blocks = TMPFS_MAX_BYTES / BLOCK;
		st->bfree = (TMPFS_MAX_BYTES - bytes) / BLOCK;
		st->files = TMPFS_MAX_NODES;
		st->ffree = TMPFS_MAX_NODES - nodes;
	}
}

static int statfs_path(const char *upath, struct kstatfs *st)
{
	struct fs_node n;
	int err = fs_lookup_at(AT_FDCWD, upath, 1, &n);

	if (!err)
		fill_statfs(mount_of(n.path), st);
	return err;
}

/* An open file's mount, judged by what it is (see the top). */
static const struct mount *mount_of_file(const struct file *f)
{
	if (tmpfs_file_mtime(f))
		return mount_of("tmp");
	if ((f->mode & S_IFMT) == S_IFDIR)
		return mount_of(f->path);
	if (f->rdev)
		return mount_of("dev");
	return mount_of(f->buf ? "proc" : "");
}

/* stat's st_dev: 0:N, N = the mount's place in the table + 1 (rootfs
 * 0:1), so that df FILE finds FILE's mount by its device, as on Linux. */
u32 fs_dev_minor(const char *path)
{
	return (u32)(mount_of(path) - mounts) + 1;
}

u32 fs_file_dev_minor(const struct file *f)
{
	return (u32)(mount_of_file(f) - mounts) + 1;
}

static int statfs_fd(int fd, struct kstatfs *st)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	fill_statfs(mount_of_file(f), st);
	return 0;
}

struct statfs32 {
	u32 f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	s32 f_fsid[2];
	u32 f_namelen, f_frsize, f_flags, f_spare[4];
};

struct statfs64 {
	u32 f_type, f_bsize;
	u64 f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	s32 f_fsid[2];
	u32 f_namelen, f_frsize, f_flags, f_spare[4];
} __attribute__((packed, aligned(4)));

_Static_assert(sizeof(struct statfs32) == 64, "Linux i386 struct statfs");
_Static_assert(sizeof(struct statfs64) == 84, "Linux i386 struct statfs64");

static long put_statfs(const struct kstatfs *k, struct statfs32 *u)
{
	struct statfs32 s = {
		.f_type = k->type, .f_bsize = k->bsize, .f_blocks = (u32)k->blocks,
		.f_bfree = (u32)k->bfree, .f_bavail = (u32)k->bfree, .f_files = (u32)k->files,
		.f_ffree = (u32)k->ffree, .f_namelen = k->namelen, .f_frsize = k->frsize,
		.f_flags = k->flags,
	};
	return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
}

static long put_statfs64(const struct kstatfs *k, struct statfs64 *u)
{
	struct statfs64 s = {
		.f_type = k->type, .f_bsize = k->bsize, .f_blocks = k->blocks, .f_bfree = k->bfree,
		.f_bavail = k->bfree, .f_files = k->files, .f_ffree = k->ffree,
		.f_namelen = k->namelen, .f_frsize = k->frsize, .f_flags = k->flags,
	};
	return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
}

long sys_statfs(const char *path, struct statfs32 *buf)
{
	struct kstatfs k;
	int err = statfs_path(path, &k);

	return err ? err : put_statfs(&k, buf);
}

long sys_fstatfs(int fd, struct statfs32 *buf)
{
	struct kstatfs k;
	int err = statfs_fd(fd, &k);

	return err ? err : put_statfs(&k, buf);
}

long sys_statfs64(const char *path, u32 sz, struct statfs64 *buf)
{
	struct kstatfs k;
	int err;

	if (sz != sizeof(*buf))
		return -EINVAL;
	err = statfs_path(path, &k);
	return err ? err : put_statfs64(&k, buf);
}

long sys_fstatfs64(int fd, u32 sz, struct statfs64 *buf)
{
	struct kstatfs k;
	int err;

	if (sz != sizeof(*buf))
		return -EINVAL;
	err = statfs_fd(fd, &k);
	return err ? err : put_statfs64(&k, buf);
}
