/*
 * tests/host/shim/arch/percpu.h - host stand-in for arch/percpu.h.
 *
 * The same model as the kernel's: per-CPU variables live in a section
 * (here "host_percpu", a C name, so GNU ld provides __start_/__stop_
 * symbols), __per_cpu_offset[cpu] is the distance to CPU's copy, and the
 * "running CPU" is host_cpu instead of a segment register.  With no copies
 * made every offset is 0, so a test sees one CPU whose per-CPU variables
 * are plain globals (the scheduler's tests, `current`).  A test that wants
 * N CPUs calls host_percpu_setup(N) and sets host_cpu.
 *
 * Weak definitions in this header, as in the irqflags shim: every test
 * binary gets one shared copy without a separate .c file.
 */
#ifndef ARCH_PERCPU_H
#define ARCH_PERCPU_H

#include <stdlib.h>
#include <kernel/threads.h>

#define PER_CPU_BASE_SECTION	"host_percpu"

__attribute__((weak)) unsigned long __per_cpu_offset[NR_CPUS];
__attribute__((weak)) int host_cpu;

#define __my_cpu_offset		(__per_cpu_offset[host_cpu])
#define this_cpu_read(var)	(*(__typeof__(var) *)((unsigned long)&(var) + __my_cpu_offset))
#define this_cpu_write(var, val) \
	(*(__typeof__(var) *)((unsigned long)&(var) + __my_cpu_offset) = (val))
#define this_cpu_add(var, val) \
	(*(__typeof__(var) *)((unsigned long)&(var) + __my_cpu_offset) += (val))
#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define raw_smp_processor_id()	(host_cpu)

extern char __start_host_percpu[] __attribute__((weak));
extern char __stop_host_percpu[] __attribute__((weak));

/* Give CPUs 1..N-1 a copy of the section (CPU 0 keeps the section itself),
 * until host_percpu_teardown().  Copied byte by byte outside ASan: the
 * section holds ASan's poisoned redzones too. */
__attribute__((no_sanitize("address"))) static inline void host_percpu_setup(int n)
{
	size_t size = (size_t)(__stop_host_percpu - __start_host_percpu);

	for (int cpu = 1; cpu < n && cpu < NR_CPUS; cpu++) {
		char *area = malloc(size ? size : 1);
		for (size_t i = 0; i < size; i++)
			area[i] = ((volatile char *)__start_host_percpu)[i];
		__per_cpu_offset[cpu] = (unsigned long)area - (unsigned long)__start_host_percpu;
	}
}

static inline void host_percpu_teardown(void)
{
	for (int cpu = 1; cpu < NR_CPUS; cpu++)
		if (__per_cpu_offset[cpu]) {
			free((void *)((unsigned long)__start_host_percpu + __per_cpu_offset[cpu]));
			__per_cpu_offset[cpu] = 0;
		}
	host_cpu = 0;
}

#endif
