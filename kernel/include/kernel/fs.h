/*
 * kernel/fs.h - the file calls Granule has so far (no disk, no open()
 * yet): the console as fds 0..2 (kernel/tty.c), stat and path queries over
 * the initrd's tree (kernel/fs/stat.c, kernel/fs/namei.c).
 */
#ifndef KERNEL_FS_H
#define KERNEL_FS_H

#include <kernel/types.h>

#define AT_FDCWD	(-100)		/* the *at() calls' "current directory" */

struct stat64;
struct statx;
struct iovec32 { u32 base, len; };

static inline int fd_is_console(int fd) { return fd >= 0 && fd <= 2; }

/* kernel/tty.c */
long sys_writev(int fd, const struct iovec32 *uiov, int iovcnt);
long sys_ioctl(int fd, u32 cmd, u32 arg);
long sys_fcntl64(int fd, u32 cmd, u32 arg);

/* kernel/fs/stat.c */
long sys_stat64(const char *path, struct stat64 *u);
long sys_lstat64(const char *path, struct stat64 *u);
long sys_fstat64(int fd, struct stat64 *u);
long sys_fstatat64(int dirfd, const char *path, struct stat64 *u, int flags);
long sys_statx(int dirfd, const char *path, int flags, u32 mask, struct statx *u);

/* kernel/fs/namei.c */
long sys_readlink(const char *path, char *buf, int size);
long sys_readlinkat(int dirfd, const char *path, char *buf, int size);
long sys_getcwd(char *buf, u32 size);
long sys_access(const char *path, int mode);
long sys_faccessat(int dirfd, const char *path, int mode);
long sys_faccessat2(int dirfd, const char *path, int mode, int flags);

#endif
