/*
 * tests/fuzz/pseudo_host.c - what kernel/fs/pseudo.c and kernel/fs/file.c
 * (both unchanged) need from the rest of the kernel on the host, and the
 * calls of pseudo_host.h.
 *
 * User memory is the host's: copy_from_user is a memcpy (copy_to_user is
 * tests/host/sched/fake_arch.c's), kmalloc is malloc with the kernel
 * allocator's largest size.  The generated files the targets never open
 * (cpuinfo, meminfo ...) and the console show nothing.
 */
#include <stdlib.h>
#include <string.h>

#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/kmalloc.h>
#include <kernel/procfs.h>
#include <kernel/smp_copies.h>
#include <kernel/tmpfs.h>
#include <kernel/uaccess.h>
#include "pseudo_host.h"

void *kmalloc(size_t size)
{
	return size > KMALLOC_MAX_SIZE ? NULL : malloc(size ? size : 1);
}

void *kzalloc(size_t size)
{
	return size > KMALLOC_MAX_SIZE ? NULL : calloc(1, size ? size : 1);
}

void kfree(const void *ptr)
{
	free((void *)ptr);
}

int copy_from_user(void *dst, const void *usrc, size_t n)
{
	if (!usrc)
		return -EFAULT;
	memcpy(dst, usrc, n);
	return 0;
}

struct file *console_open(u32 flags) { return NULL; }
void tmpfs_sync_len(struct file *f) { }
size_t arch_cpuinfo_show(char *buf, size_t size) { return 0; }
size_t procfs_uptime_show(char *buf, size_t size) { return 0; }
size_t procfs_loadavg_show(char *buf, size_t size) { return 0; }
size_t procfs_stat_show(char *buf, size_t size) { return 0; }
size_t procfs_meminfo_show(char *buf, size_t size) { return 0; }
size_t procfs_vmstat_show(char *buf, size_t size) { return 0; }
size_t procfs_mounts_show(char *buf, size_t size) { return 0; }
size_t procfs_lockdep_stats_show(char *buf, size_t size) { return 0; }

int procfs_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	return 0;
}

static long open_path(const char *path, u32 flags, struct file **f)
{
	struct fs_node n;

	memset(&n, 0, sizeof(n));
	if (pseudo_lookup(path, &n))
		return -ENOENT;
	if (S_ISDIR_MODE(n.mode))	/* open.c's open_node(): a directory never reaches pseudo_open() */
		return -EISDIR;
	return pseudo_open(&n, flags, f);
}

long pseudo_write(const char *path, u32 flags, const void *data, size_t len)
{
	char *copy = malloc(len ? len : 1);
	struct file *f;
	long r;

	memcpy(copy, data, len);
	r = open_path(path, flags, &f);
	if (r == 0) {
		r = f->ops->write ? f->ops->write(f, copy, (u32)len) : -EINVAL;
		fput(f);
	}
	free(copy);
	return r;
}

long pseudo_read(const char *path, char *buf, size_t size)
{
	struct file *f;
	long n = 0, r;

	if ((r = open_path(path, O_RDONLY, &f)))
		return r;
	while ((r = f->ops->read(f, buf + n, (u32)(size - 1 - (size_t)n))) > 0)
		n += r;
	fput(f);
	buf[n] = '\0';
	return r < 0 ? r : n;
}

int pseudo_write_words(const char *path, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, " \t\n");

		if (len && pseudo_write(path, O_WRONLY, text, len) != (long)len)
			return -1;
		text += len + (text[len] != 0);
	}
	return 0;
}

/* The tracer redirects its write path to the _smp one when more than one
 * CPU is possible (kernel/trace/trace.c through kernel/cpu.c's walk of its
 * pairs; arch/x86/jump_label.c patches the text); a host build has one CPU
 * and no patchable text, so the call never runs, but it must link. */
void smp_copies_redirect(const struct smp_copy *start, const struct smp_copy *end)
{
	(void)start;
	(void)end;
}
