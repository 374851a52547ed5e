/*
 * kernel/topology.h - where each CPU sits, as the architecture found it
 * (Linux's <asm/topology.h> names).  CPUs with the same package id share a
 * package (its cache: the MC level of the sched domains), and with the
 * same core id too are hardware threads of one core (SIBLING).  Valid for
 * a CPU once it is online; kernel/sched/topology.c's sched_init_smp()
 * reads them after smp_init().  x86: arch/x86/topology.c.
 */
#ifndef KERNEL_TOPOLOGY_H
#define KERNEL_TOPOLOGY_H

unsigned int topology_physical_package_id(unsigned int cpu);
unsigned int topology_core_id(unsigned int cpu);

/* Build the sched domains of the online CPUs (kernel/sched/topology.c). */
void sched_init_smp(void);

#endif
