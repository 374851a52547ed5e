/*
 * kernel/tmpfs.h - /tmp, the RAM file system (kernel/fs/tmpfs.c), and the
 * calls that change the name space (kernel/fs/dir.c).
 */
#ifndef KERNEL_TMPFS_H
#define KERNEL_TMPFS_H

#include <kernel/types.h>

#define TMPFS_NAME_MAX	255		/* a name's bytes (Linux NAME_MAX) */
#define TMPFS_MAX_NODES	256		/* files and directories under /tmp */
#define TMPFS_MAX_BYTES	(1u << 20)	/* file data held, bytes */
#define TMPFS_INO	0x20000		/* /tmp's inode number; its entries count up */
#define TMPFS_UMASK	022		/* every process's umask (Linux's default; no umask call) */

struct file;
struct fs_node;

int tmpfs_path(const char *path);		/* canonical PATH is /tmp or under it */
int tmpfs_lookup(const char *path, struct fs_node *n);
int tmpfs_create(const char *path, u32 mode, struct fs_node *n);
int tmpfs_remove(const struct fs_node *n, int dir);
int tmpfs_rename(const struct fs_node *from, const char *to_path);
int tmpfs_dir_entry(const char *dir, int index, char *name, size_t size, u8 *d_type, u32 *ino);
int tmpfs_open(const struct fs_node *n, u32 flags, struct file **out);
void tmpfs_sync_len(struct file *f);
int tmpfs_truncate(struct file *f, u64 size);
/* File times (CLOCK_REALTIME ns): a node's, an open file's (0: not /tmp),
 * set one (0: now); and the usage statfs reports. */
u64 tmpfs_mtime(const struct fs_node *n);
u64 tmpfs_file_mtime(const struct file *f);
void tmpfs_set_mtime(const struct fs_node *n, u64 ns);
void tmpfs_usage(u32 *bytes, u32 *nodes);

/* kernel/fs/dir.c */
long sys_unlinkat(int dirfd, const char *path, int flags);
long sys_unlink(const char *path);
long sys_rmdir(const char *path);
long sys_mkdirat(int dirfd, const char *path, u32 mode);
long sys_mkdir(const char *path, u32 mode);
long sys_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);
long sys_rename(const char *oldpath, const char *newpath);
long sys_ftruncate64(int fd, u32 lo, u32 hi);
long sys_ftruncate(int fd, u32 length);
long sys_utimensat(int dirfd, const char *path, const s32 *times, int flags);

#endif
