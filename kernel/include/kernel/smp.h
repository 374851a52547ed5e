/*
 * kernel/smp.h - CPU numbering for per-CPU state.
 *
 * Granule runs on one CPU.  State Linux keeps per CPU (the runqueue, the
 * CPU-time statistics of <kernel/kernel_stat.h>, the load average's fold
 * in struct rq) is nonetheless kept in arrays indexed by CPU number and
 * reached through these names, as Linux reaches its per-CPU data, so that
 * more CPUs means raising NR_CPUS and a real smp_processor_id().
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#define NR_CPUS		1

/* The CPU this code runs on (Linux's smp_processor_id()). */
static inline int smp_processor_id(void)
{
	return 0;
}

#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define for_each_online_cpu(cpu)	for_each_possible_cpu(cpu)

#endif
