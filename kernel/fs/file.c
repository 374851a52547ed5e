/*
 * kernel/fs/file.c - open files, fd tables, and the calls that work on any
 * fd: read, write, writev, close, lseek/_llseek, dup, dup2, dup3, fcntl64.  See
 * kernel/file.h.  A file's operations do the work; this file only finds
 * the file and checks the access mode, as Linux's fs/read_write.c does;
 * writev and fcntl64 too.
 */
#include <kernel/errno.h>
#include <kernel/clone.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/kmalloc.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

struct file *file_alloc(const struct file_ops *ops, u32 flags)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->refs = 1;
	f->ops = ops;
	f->flags = flags;
	return f;
}

void fput(struct file *f)
{
	if (--f->refs > 0)
		return;
	if (f->ops && f->ops->release)
		f->ops->release(f);
	kfree(f->buf);
	kfree(f);
}

struct file *fget(int fd)
{
	struct files *fs = current->files;

	if (!fs || fd < 0 || fd >= fs->max_fds)
		return NULL;
	return fs->fd[fd];
}

static void set_cloexec(struct files *fs, int fd, int on)
{
	if (on)
		fs->cloexec[fd / 32] |= 1u << (fd % 32);
	else
		fs->cloexec[fd / 32] &= ~(1u << (fd % 32));
}

static int get_cloexec(struct files *fs, int fd)
{
	return (fs->cloexec[fd / 32] >> (fd % 32)) & 1;
}

/*
 * Linux's expand_fdtable: make the table hold fd NR, doubling it (one
 * kmalloc for the pointers and the close-on-exec bits) up to NR_OPEN
 * (Granule's sysctl_nr_open).  0, -EMFILE (past NR_OPEN), -ENOMEM.  A
 * process that keeps to 64 fds never gets here: fork copies only the table
 * it has.
 */
static int expand_fdtable(struct files *fs, int nr)
{
	int max = fs->max_fds;

	if (nr < max)
		return 0;
	if (nr >= NR_OPEN)
		return -EMFILE;
	while (max <= nr)
		max *= 2;
	struct file **fd = kzalloc(max * sizeof(*fd) + max / 8);
	if (!fd)
		return -ENOMEM;
	u32 *bits = (u32 *)(fd + max);
	memcpy(fd, fs->fd, fs->max_fds * sizeof(*fd));
	memcpy(bits, fs->cloexec, fs->max_fds / 8);
	if (fs->fd != fs->fd_inline)
		kfree(fs->fd);
	fs->fd = fd;
	fs->cloexec = bits;
	fs->max_fds = max;
	return 0;
}

/* Linux's expand_files: -EMFILE if fd NR is at or past the process's
 * RLIMIT_NOFILE (checked first, as 2.6.35 does, so a lowered limit binds a
 * table that is already larger), else expand_fdtable. */
static int expand_files(struct files *fs, int nr)
{
	if ((u32)nr >= task_rlimit(current, RLIMIT_NOFILE))
		return -EMFILE;
	return expand_fdtable(fs, nr);
}

struct file *fget_ref(int fd)
{
	struct file *f = fget(fd);

	if (f)
		f->refs++;
	return f;
}

static int fd_install_from(struct file *f, int from, int cloexec)
{
	struct files *fs = current->files;

	if (!fs)
		return -EBADF;
	for (int fd = from; fd < NR_OPEN; fd++) {
		int err = expand_files(fs, fd);
		if (err)
			return err;
		if (!fs->fd[fd]) {
			fs->fd[fd] = f;
			set_cloexec(fs, fd, cloexec);
			return fd;
		}
	}
	return -EMFILE;
}

int fd_install(struct file *f, int cloexec)
{
	return fd_install_from(f, 0, cloexec);
}

static struct files *files_alloc(void)
{
	struct files *fs = kzalloc(sizeof(*fs));

	if (fs) {
		fs->refs = 1;
		fs->max_fds = NR_OPEN_DEFAULT;
		fs->fd = fs->fd_inline;
		fs->cloexec = fs->cloexec_inline;
	}
	return fs;
}

int copy_files(struct task *p, u32 clone_flags)
{
	struct files *old = current->files, *fs;

	if (!old)
		return 0;
	if (clone_flags & CLONE_FILES) {
		old->refs++;
		p->files = old;
		return 0;
	}
	if (!(fs = files_alloc()))
		return -ENOMEM;
	if (expand_fdtable(fs, old->max_fds - 1)) {
		kfree(fs);
		return -ENOMEM;
	}
	for (int fd = 0; fd < old->max_fds; fd++)
		if ((fs->fd[fd] = old->fd[fd]))
			fs->fd[fd]->refs++;
	memcpy(fs->cloexec, old->cloexec, old->max_fds / 8);
	memcpy(fs->cwd, old->cwd, sizeof(fs->cwd));
	p->files = fs;
	return 0;
}

static void files_put(struct files *fs)
{
	if (--fs->refs > 0)
		return;
	for (int fd = 0; fd < fs->max_fds; fd++)
		if (fs->fd[fd])
			fput(fs->fd[fd]);
	if (fs->fd != fs->fd_inline)
		kfree(fs->fd);
	kfree(fs);
}

void exit_files(struct task *t)
{
	struct files *fs = t->files;

	if (fs) {
		t->files = NULL;
		files_put(fs);
	}
}

int exec_files(void)
{
	struct files *fs = current->files;

	if (!fs) {			/* init: the console on 0 (read), 1, 2 (write) */
		if (!(fs = files_alloc()))
			return -ENOMEM;
		for (int fd = 0; fd < 3; fd++)
			if (!(fs->fd[fd] = console_open(fd ? O_WRONLY : O_RDONLY))) {
				files_put(fs);
				return -ENOMEM;
			}
		current->files = fs;
		return 0;
	}
	for (int fd = 0; fd < fs->max_fds; fd++)
		if (get_cloexec(fs, fd)) {
			fput(fs->fd[fd]);
			fs->fd[fd] = NULL;
			set_cloexec(fs, fd, 0);
		}
	return 0;
}

long sys_close(int fd)
{
	struct files *fs = current->files;
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	fs->fd[fd] = NULL;
	set_cloexec(fs, fd, 0);
	fput(f);
	return 0;
}

/*
 * read and write may sleep (a pipe, the terminal), and a thread sharing the
 * fd table may close the fd meanwhile: the call holds its own reference
 * (fget_ref), so the file - and what it keeps open, a pipe's reader - lives
 * until the call returns, as Linux's fdget in a shared table.
 */
long sys_read(int fd, char *ubuf, u32 count)
{
	struct file *f = fget_ref(fd);
	long ret;

	if (!f)
		return -EBADF;
	if ((f->flags & O_ACCMODE) == O_WRONLY || !f->ops->read)
		ret = S_ISDIR_MODE(f->mode) ? -EISDIR : -EBADF;
	else if (!access_ok((u32)ubuf, count))
		ret = -EFAULT;
	else
		ret = f->ops->read(f, ubuf, count);
	fput(f);
	return ret;
}

/*
 * pread64(fd, buf, count, pos): read at POS without moving the file offset
 * (ld-linux.so.2 reads a library's notes this way).  -ESPIPE for a pipe or a
 * character device (Linux: no FMODE_PREAD), -EINVAL for a negative POS.
 */
long sys_pread64(int fd, char *ubuf, u32 count, u64 pos)
{
	struct file *f = fget_ref(fd);
	long ret;

	if (!f)
		return -EBADF;
	u32 type = f->mode & S_IFMT;
	if (type == S_IFIFO || type == 0020000)
		ret = -ESPIPE;
	else if ((s64)pos < 0)
		ret = -EINVAL;
	else if ((f->flags & O_ACCMODE) == O_WRONLY || !f->ops->read)
		ret = S_ISDIR_MODE(f->mode) ? -EISDIR : -EBADF;
	else if (!access_ok((u32)ubuf, count))
		ret = -EFAULT;
	else {
		u64 saved = f->pos;	/* one CPU, no preemption in the kernel: nobody sees it */
		f->pos = pos;
		ret = f->ops->read(f, ubuf, count);
		f->pos = saved;
	}
	fput(f);
	return ret;
}

long sys_write(int fd, const char *ubuf, u32 count)
{
	struct file *f = fget_ref(fd);
	long ret;

	if (!f)
		return -EBADF;
	if ((f->flags & O_ACCMODE) == O_RDONLY || !f->ops->write)
		ret = -EBADF;
	else if (!access_ok((u32)ubuf, count))
		ret = -EFAULT;
	else
		ret = f->ops->write(f, ubuf, count);
	fput(f);
	return ret;
}

/* The new offset, or -EINVAL (bad WHENCE, negative result), -ESPIPE (a
 * pipe, whatever WHENCE: Linux's no_llseek); a character device (the
 * console, /dev/null) answers 0 as Linux's do. */
static long long do_lseek(struct file *f, long long off, int whence)
{
	long long base;

	if ((f->mode & S_IFMT) == S_IFIFO)
		return -ESPIPE;
	tmpfs_sync_len(f);
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = (long long)f->pos; break;
	case SEEK_END: base = f->len; break;
	default: return -EINVAL;
	}
	if ((f->mode & 0170000) == 0020000)
		return 0;		/* character devices: no_llseek-like 0 */
	if (base + off < 0)
		return -EINVAL;
	f->pos = (u64)(base + off);
	if (S_ISDIR_MODE(f->mode) && f->pos == 0)
		f->dir_index = 0;	/* rewinddir */
	return (long long)f->pos;
}

long sys_lseek(int fd, s32 off, int whence)
{
	struct file *f = fget(fd);
	long long r;

	if (!f)
		return -EBADF;
	r = do_lseek(f, off, whence);
	if (r > 0x7fffffffll)
		return -EOVERFLOW;
	return (long)r;
}

long sys_llseek(int fd, u32 hi, u32 lo, long long *uresult, int whence)
{
	struct file *f = fget(fd);
	long long r;

	if (!f)
		return -EBADF;
	r = do_lseek(f, (long long)(((u64)hi << 32) | lo), whence);
	if (r < 0)
		return (long)r;
	return copy_to_user(uresult, &r, sizeof(r)) ? -EFAULT : 0;
}

/* dup3(old, new, flags): FLAGS only O_CLOEXEC; OLD == NEW is -EINVAL. */
long sys_dup3(int oldfd, int newfd, u32 flags)
{
	struct files *fs = current->files;
	struct file *f = fget(oldfd);

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (!f)
		return -EBADF;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd < 0 || (u32)newfd >= task_rlimit(current, RLIMIT_NOFILE))
		return -EBADF;
	int err = expand_files(fs, newfd);
	if (err)
		return err == -EMFILE ? -EBADF : err;
	f->refs++;
	if (fs->fd[newfd])
		fput(fs->fd[newfd]);
	fs->fd[newfd] = f;
	set_cloexec(fs, newfd, flags & O_CLOEXEC);
	return newfd;
}

long sys_dup2(int oldfd, int newfd)
{
	if (oldfd == newfd)
		return fget(oldfd) ? newfd : -EBADF;
	return sys_dup3(oldfd, newfd, 0);
}

long sys_dup(int oldfd)
{
	struct file *f = fget(oldfd);
	int fd;

	if (!f)
		return -EBADF;
	f->refs++;
	if ((fd = fd_install(f, 0)) < 0)
		fput(f);
	return fd;
}

/* F_DUPFD(_CLOEXEC) for fcntl64: the lowest free fd >= FROM. */
static long file_dupfd(int oldfd, int from, int cloexec)
{
	struct file *f = fget(oldfd);
	int fd;

	if (!f)
		return -EBADF;
	if (from < 0 || (u32)from >= task_rlimit(current, RLIMIT_NOFILE))
		return -EINVAL;
	f->refs++;
	if ((fd = fd_install_from(f, from, cloexec)) < 0)
		fput(f);
	return fd;
}

/* fcntl's F_GETFD / F_SETFD: the close-on-exec bit (FD_CLOEXEC = 1). */
static long file_cloexec(int fd, int set, int value)
{
	struct files *fs = current->files;

	if (!fget(fd))
		return -EBADF;
	if (!set)
		return get_cloexec(fs, fd);
	set_cloexec(fs, fd, value & 1);
	return 0;
}

#define UIO_MAXIOV	1024
#define MAX_RW_COUNT	0x7ffff000u

/* writev(fd, iov, iovcnt): the buffers in order, as one write each; the
 * bytes written, or -EINVAL (iovcnt outside 0..1024, a length above
 * SSIZE_MAX), -EFAULT (a bad iov array or, before anything was written,
 * a bad buffer), -EBADF. */
long sys_writev(int fd, const struct iovec32 *uiov, int iovcnt)
{
	struct iovec32 iov[16];
	u32 total = 0;
	long done = 0;

	if (iovcnt < 0 || iovcnt > UIO_MAXIOV)
		return -EINVAL;
	if (!fget(fd))
		return -EBADF;
	for (int i = 0; i < iovcnt; i += 16) {	/* validate every length first */
		int n = min(iovcnt - i, 16);
		if (copy_from_user(iov, uiov + i, n * sizeof(iov[0])))
			return -EFAULT;
		for (int j = 0; j < n; j++) {
			if (iov[j].len > 0x7fffffffu)
				return -EINVAL;
			total += min(iov[j].len, MAX_RW_COUNT - total);
		}
	}
	for (int i = 0; i < iovcnt && total; i++) {
		struct iovec32 v;
		if (copy_from_user(&v, uiov + i, sizeof(v)))
			return done ? done : -EFAULT;
		u32 len = min(v.len, total);
		long r = len ? sys_write(fd, (const char *)v.base, len) : 0;
		if (r < 0)
			return done ? done : r;
		done += r;
		total -= r;
		if ((u32)r < len)
			break;
	}
	return done;
}

/* sendfile(out, in, offset, count): not supported - -EINVAL, Linux's
 * answer for files it cannot splice, after which C libraries and busybox
 * copy with read and write. */
long sys_sendfile64(int out_fd, int in_fd, void *offset, u32 count)
{
	if (!fget(out_fd) || !fget(in_fd))
		return -EBADF;
	return -EINVAL;
}

#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC	1030
#define SETFL_MASK	(O_APPEND | O_NONBLOCK)

/* fcntl64(fd, cmd, arg): F_DUPFD(_CLOEXEC), F_GETFD/F_SETFD (the
 * close-on-exec bit), F_GETFL, F_SETFL (O_APPEND and O_NONBLOCK; the
 * others are ignored, as Linux does); any other command is -EINVAL. */
long sys_fcntl64(int fd, u32 cmd, u32 arg)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return file_dupfd(fd, (int)arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return file_cloexec(fd, 0, 0);
	case F_SETFD:
		return file_cloexec(fd, 1, (int)arg);
	case F_GETFL:
		return f->flags;
	case F_SETFL:
		f->flags = (f->flags & ~SETFL_MASK) | (arg & SETFL_MASK);
		return 0;
	}
	return -EINVAL;
}
