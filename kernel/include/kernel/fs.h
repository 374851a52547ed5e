/*
 * kernel/fs.h - Granule's file name space (no disk): the initrd's tree
 * (/bin ...) with /dev, /proc and /sys beside it, and the file calls.
 *
 *	/bin/...		the initrd (kernel/fs/initrd.c), read-only
 *	/dev/console, /dev/tty	the console (kernel/tty.c)
 *	/dev/null
 *	/proc/sys/kernel/NAME	every scheduler knob, read and write (kernel/fs/pseudo.c)
 *	/proc/sched_debug, /proc/version
 *	/proc/PID/..., /proc/self, /proc/{stat,uptime,loadavg,meminfo,schedstat,cpuinfo}
 *				(kernel/fs/procfs.c)
 *	/sys/kernel/debug/sched_features
 *	/sys/kernel/debug/tracing/...	the tracer's files (kernel/trace/tracefs.c)
 *	/tmp/...		a RAM file system (kernel/fs/tmpfs.c)
 *
 * A relative path starts at the current directory (chdir).
 */
#ifndef KERNEL_FS_H
#define KERNEL_FS_H

#include <kernel/types.h>
#include <kernel/initrd.h>

#define AT_FDCWD	(-100)		/* the *at() calls' "current directory" */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_EACCESS		0x200
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000

#define S_IFMT		0170000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_ISDIR_MODE(m)	(((m) & S_IFMT) == S_IFDIR)

struct file;
struct knob;
struct pseudo_file;
struct stat64;
struct statx;
struct iovec32 { u32 base, len; };

/* A file under /dev, /proc or /sys (kernel/fs/pseudo.c's table, the
 * tracer's kernel/trace/tracefs.c): a device with its own open, or a text
 * generated at open by SHOW (SIZE bytes of buffer) and, if STORE, written
 * through it (a write's bytes, trailing blanks dropped: 0 or -errno). */
struct pseudo_file {
	const char *path;
	u32 mode, rdev;
	u32 size;					/* a generated file's buffer */
	size_t (*show)(char *buf, size_t size);		/* generated: the text */
	int (*store)(const char *val);			/* writable: 0 or -errno */
	void (*trunc)(void);				/* opened to write with O_TRUNC */
	struct file *(*open)(u32 flags);		/* a device (NULL: -ENOMEM) */
};

/* What a path names. */
struct fs_node {
	const struct initrd_node *in;	/* an initrd member (NULL: the root, or not initrd) */
	const struct pseudo_file *pf;	/* a /dev, /proc or /sys entry */
	const struct knob *knob;	/* /proc/sys/kernel/NAME */
	struct tmpfs_node *tn;		/* a /tmp file or directory (kernel/fs/tmpfs.c) */
	int proc_entry, proc_pid;	/* /proc/PID/... and /proc/self (kernel/fs/procfs.c) */
	int proc_tid;			/* /proc/PID/task/TID/...; 0: the process's own */
	u32 sd_file;			/* under /proc/sys/kernel/sched_domain/: SD_FILE() */
	char path[INITRD_PATH_MAX];	/* canonical, no leading '/' ("" = the root) */
	u32 mode, ino, rdev;
	u64 size;
};

/* A sched_domain file's CPU, level and field in fs_node.sd_file (0: none). */
#define SD_FILE(cpu, level, field)	(0x80000000u | (u32)(cpu) << 16 | (u32)(level) << 8 | (u32)(field))
#define SD_FILE_CPU(f)			((int)((f) >> 16 & 0xff))
#define SD_FILE_LEVEL(f)		((int)((f) >> 8 & 0xff))
#define SD_FILE_FIELD(f)		((int)((f) & 0xff))

/* A /dev, /proc/sys or /sys entry of pseudo.c (not /proc/PID, /tmp or the initrd). */
static inline int fs_node_pseudo(const struct fs_node *n)
{
	return n->pf || n->knob || n->sd_file;
}

/* kernel/fs/namei.c: resolve PATH (kernel memory).  0 or -errno. */
int fs_lookup(const char *path, int follow, struct fs_node *n);
/* DIRFD + user PATH as the *at() calls take them (AT_FDCWD or a directory fd). */
int fs_lookup_at(int dirfd, const char *upath, int follow, struct fs_node *n);
/* Entry INDEX of directory DIR: 1 with NAME, D_TYPE, INO; 0 past the end. */
int fs_dir_entry(const char *dir, int index, char *name, size_t size, u8 *d_type, u32 *ino);

/* kernel/fs/pseudo.c */
int pseudo_lookup(const char *path, struct fs_node *n);	/* 0 or -ENOENT */
int pseudo_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino);
int pseudo_open(const struct fs_node *n, u32 flags, struct file **out);
/* kernel/fs/sysctl_sd.c: /proc/sys/kernel/sched_domain/ (sysctl_sd_dir_entry: -1 if not under it) */
int sysctl_sd_lookup(const char *path, struct fs_node *n);
int sysctl_sd_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino);
long snapshot_read(struct file *f, char *ubuf, u32 count);	/* from f->buf */

/* kernel/fs/file.c */
long sys_read(int fd, char *ubuf, u32 count);
long sys_write(int fd, const char *ubuf, u32 count);
long sys_pread64(int fd, char *ubuf, u32 count, u64 pos);
/* F's initrd file, when it is one (its bytes live in the kernel image for good,
 * so a private mapping can copy them at fault time): 0, or -ENODEV (Linux: a
 * file without an mmap operation). */
int file_mmap_node(struct file *f, const struct initrd_node **node);
long sys_close(int fd);
long sys_lseek(int fd, s32 off, int whence);
long sys_llseek(int fd, u32 hi, u32 lo, long long *uresult, int whence);
long sys_dup(int oldfd);
long sys_dup2(int oldfd, int newfd);
long sys_dup3(int oldfd, int newfd, u32 flags);
long sys_fcntl64(int fd, u32 cmd, u32 arg);
long sys_writev(int fd, const struct iovec32 *uiov, int iovcnt);

/* kernel/fs/open.c */
long sys_open(const char *path, u32 flags, u32 mode);
long sys_openat(int dirfd, const char *path, u32 flags, u32 mode);
long sys_getdents64(int fd, void *udirp, u32 count);

/* kernel/tty.c */
long sys_ioctl(int fd, u32 cmd, u32 arg);
int file_is_tty(const struct file *f);

/* kernel/fs/stat.c */
long sys_stat64(const char *path, struct stat64 *u);
long sys_lstat64(const char *path, struct stat64 *u);
long sys_fstat64(int fd, struct stat64 *u);
long sys_fstatat64(int dirfd, const char *path, struct stat64 *u, int flags);
struct statfs32;
struct statfs64;
/* kernel/fs/statfs.c */
long sys_statfs(const char *path, struct statfs32 *buf);
/* st_dev's minor for a canonical path, an open file: one per mount (rootfs 1) */
u32 fs_dev_minor(const char *path);
u32 fs_file_dev_minor(const struct file *f);
long sys_fstatfs(int fd, struct statfs32 *buf);
long sys_statfs64(const char *path, u32 sz, struct statfs64 *buf);
long sys_fstatfs64(int fd, u32 sz, struct statfs64 *buf);
long sys_statx(int dirfd, const char *path, int flags, u32 mask, struct statx *u);

/* kernel/fs/namei.c */
long sys_readlink(const char *path, char *buf, int size);
long sys_readlinkat(int dirfd, const char *path, char *buf, int size);
long sys_getcwd(char *buf, u32 size);
long sys_chdir(const char *path);
long sys_fchdir(int fd);
long sys_sendfile64(int out_fd, int in_fd, void *offset, u32 count);
long sys_access(const char *path, int mode);
long sys_faccessat(int dirfd, const char *path, int mode);
long sys_faccessat2(int dirfd, const char *path, int mode, int flags);

#endif
