/*
 * kernel/smp.h - several CPUs: which one runs (Linux 2.6.35's
 * <linux/smp.h>).  So far every CPU but the boot CPU stays down.  State
 * Linux keeps per CPU (the runqueue, the CPU-time statistics of
 * <kernel/kernel_stat.h>, the load average's fold in struct rq) is kept
 * per CPU here too, in per-CPU variables (<kernel/percpu.h>) or in arrays
 * indexed by CPU number, and walked with for_each_possible_cpu() and
 * for_each_online_cpu() (<kernel/cpumask.h>).
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/types.h>
#include <kernel/cpumask.h>
#include <kernel/percpu.h>

/* The running CPU (0 is the boot CPU).  Stable in Granule's kernel code:
 * a task never moves while it runs in the kernel (no kernel preemption). */
#define smp_processor_id()	raw_smp_processor_id()

/* CPU 0, the boot CPU, is online, present and possible (first in kmain). */
void boot_cpu_init(void);
/* The boot CPU onto its own per-CPU area (after setup_per_cpu_areas). */
void smp_prepare_boot_cpu(void);

#endif
