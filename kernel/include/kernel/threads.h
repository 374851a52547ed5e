/*
 * kernel/threads.h - how many CPUs the kernel is built for (Linux's
 * <linux/threads.h>).
 *
 * NR_CPUS = 32: 2.6.35's i386 Kconfig default once more than 8 CPUs are
 * allowed (X86_BIGSMP), enough for the 2- to 16-core PCs that boot Granule
 * from USB, and a cpumask is then one 32-bit word, the i386 mask
 * sched_getaffinity() copies.  Below 256, so the ticket spinlock's tickets
 * are bytes (<arch/spinlock.h>).
 */
#ifndef KERNEL_THREADS_H
#define KERNEL_THREADS_H

#define NR_CPUS		32

#endif
