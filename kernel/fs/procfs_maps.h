/*
 * kernel/fs/procfs_maps.h - /proc/PID/maps (procfs_maps.c), for procfs.c.
 */
#ifndef KERNEL_FS_PROCFS_MAPS_H
#define KERNEL_FS_PROCFS_MAPS_H

#include <kernel/types.h>

struct task;

/* Bytes enough for T's maps file, its terminating NUL included. */
size_t proc_maps_size(const struct task *t);
/* T's maps file into BUF (at most SIZE bytes); its length. */
size_t proc_maps_show(struct task *t, char *buf, size_t size);

#endif
