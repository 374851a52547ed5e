/*
 * kernel/procfs.h - /proc's process and system files (kernel/fs/procfs.c).
 */
#ifndef KERNEL_PROCFS_H
#define KERNEL_PROCFS_H

#include <kernel/types.h>

struct file;
struct fs_node;

/* REST: the path after "proc/"; FOLLOW: /proc/self as its target. */
int procfs_lookup(const char *rest, int follow, struct fs_node *n);
long procfs_readlink(const struct fs_node *n, char *ubuf, int size);
int procfs_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino);
int procfs_open(const struct fs_node *n, u32 flags, struct file **out);

/* The system files' text (pseudo.c's show methods; kernel/fs/procfs_stat.c). */
size_t procfs_uptime_show(char *buf, size_t size);
size_t procfs_loadavg_show(char *buf, size_t size);
size_t procfs_stat_show(char *buf, size_t size);
size_t procfs_meminfo_show(char *buf, size_t size);
size_t procfs_vmstat_show(char *buf, size_t size);
size_t procfs_lockdep_stats_show(char *buf, size_t size);	/* kernel/lockdep_hooks.c */
size_t procfs_mounts_show(char *buf, size_t size);	/* kernel/fs/statfs.c */
size_t arch_cpuinfo_show(char *buf, size_t size);	/* arch/x86/cpuid.c */

#endif
