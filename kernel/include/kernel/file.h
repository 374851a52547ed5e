/*
 * kernel/file.h - open files and the per-process table of file descriptors.
 *
 * A struct file is one open: its operations, offset and flags; dup() and
 * fork share it (refs), as in Linux.  A struct files is the fd table
 * (Linux's files_struct): CLONE_FILES threads share it, fork copies it,
 * exec closes the O_CLOEXEC fds.  The first exec of a task that has none
 * (init, started by the kernel) gets the console as fd 0 (O_RDONLY) and
 * fds 1 and 2 (O_WRONLY): Linux opens /dev/console O_RDWR for all three;
 * Granule keeps the directions apart, as before there were files.
 */
#ifndef KERNEL_FILE_H
#define KERNEL_FILE_H

#include <kernel/initrd.h>	/* INITRD_PATH_MAX */
#include <kernel/types.h>

#define NR_OPEN		1024		/* fds per process (RLIMIT_NOFILE, Linux's default soft limit) */
#define NR_OPEN_DEFAULT	64		/* fds in struct files itself (Linux's BITS_PER_LONG * 2) */

#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_EXCL		00000200
#define O_NOCTTY	00000400
#define O_TRUNC		00001000
#define O_APPEND	00002000
#define O_NONBLOCK	00004000
#define O_LARGEFILE	00100000
#define O_DIRECTORY	00200000
#define O_NOFOLLOW	00400000
#define O_CLOEXEC	02000000
#define O_PATH		010000000

struct file;
struct task;
struct poll_table;

struct file_ops {
	/* read/write at *pos (user buffer); bytes or -errno */
	long (*read)(struct file *f, char *ubuf, u32 count);
	long (*write)(struct file *f, const char *ubuf, u32 count);
	void (*release)(struct file *f);		/* last reference gone */
	/* POLL* events ready now; registers on wait queues via poll_wait()
	 * (kernel/poll.h).  NULL: always DEFAULT_POLLMASK. */
	unsigned (*poll)(struct file *f, struct poll_table *pt);
};

struct file {
	int refs;
	const struct file_ops *ops;
	u32 flags;			/* O_* as opened (access mode, O_APPEND ...) */
	u64 pos;
	u32 mode;			/* S_IF* | permissions, for fstat */
	u32 ino, rdev;			/* fstat: inode number, device (major << 8 | minor) */
	const void *node;		/* what was opened (struct initrd_node, pseudo entry) */
	char *buf;			/* a snapshot of a generated file (kmalloc'd), or NULL */
	u32 len;			/* its length */
	int dir_index;			/* getdents64: next entry */
	char path[INITRD_PATH_MAX];	/* a directory's path ("" = root), for getdents64 and
					 * the *at() calls: as long as any path the lookup makes */
};

struct files {
	int refs;			/* tasks sharing the table (CLONE_FILES) */
	int max_fds;			/* NR_OPEN_DEFAULT, doubled on demand up to NR_OPEN */
	struct file **fd;		/* fd_inline, or a kmalloc'd table (expand_files) */
	u32 *cloexec;			/* bit n: fd n closes at exec (after the table) */
	struct file *fd_inline[NR_OPEN_DEFAULT];
	u32 cloexec_inline[NR_OPEN_DEFAULT / 32];
	char cwd[64];			/* current directory, canonical, no leading '/'
					 * ("" = the root); Linux keeps it in fs_struct */
};

struct file *file_alloc(const struct file_ops *ops, u32 flags);
void fput(struct file *f);
struct file *fget(int fd);		/* the caller's file for FD (no new reference), or NULL */
/* The same with a reference of the caller's own (Linux's fget), dropped with fput():
 * a call that may sleep holds one, so that another thread's close() of the fd
 * only frees the number, never the file under the sleeper. */
struct file *fget_ref(int fd);
int fd_install(struct file *f, int cloexec);	/* lowest free fd, or -EMFILE */

/* fork/clone, exit, exec. */
int copy_files(struct task *p, u32 clone_flags);	/* 0 or -ENOMEM */
void exit_files(struct task *t);
int exec_files(void);				/* close O_CLOEXEC fds; console 0-2 for init */

/* The console as a file (kernel/tty.c). */
struct file *console_open(u32 flags);

#endif
