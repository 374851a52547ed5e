/*
 * kernel/percpu.h - per-CPU variables, as Linux's <linux/percpu.h>.
 *
 * DEFINE_PER_CPU(type, name) puts NAME in the section .data..percpu of the
 * image.  That section is only a template: at boot every CPU gets a copy of
 * it (its "per-CPU area", setup_per_cpu_areas()), and __per_cpu_offset[cpu]
 * is the distance from the template to CPU's copy, so
 *
 *	per_cpu(name, cpu)	= *(&name + __per_cpu_offset[cpu])	any CPU's copy
 *	this_cpu_read(name)	  the running CPU's copy, in one instruction
 *	this_cpu_write(name, v)	  ... and a store to it
 *	this_cpu_ptr(&name)	  the running CPU's copy's address
 *
 * How "the running CPU" is found is the architecture's business
 * (<arch/percpu.h>): on i386 a segment register holds a segment whose base
 * is the CPU's offset, so &name through that segment is the CPU's copy
 * (Linux i386 since 2.6.20: %fs, arch/x86/include/asm/percpu.h).  The host
 * unit tests' shim does it with an index.
 *
 * Until the copies exist, the boot CPU works on the template itself (offset
 * 0), as Linux's boot CPU does before setup_per_cpu_areas(); the copies are
 * made from whatever the template holds then.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <kernel/threads.h>
#include <arch/percpu.h>

#define DEFINE_PER_CPU(type, name) \
	__section(PER_CPU_BASE_SECTION) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __section(PER_CPU_BASE_SECTION) __typeof__(type) name

/* Distance from the template to each CPU's area (0 for a CPU without one). */
extern unsigned long __per_cpu_offset[NR_CPUS];
#define per_cpu_offset(cpu)	(__per_cpu_offset[cpu])

/* PTR (the template's address of a per-CPU variable) in CPU's area. */
#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((unsigned long)(ptr) + per_cpu_offset(cpu)))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

/* ... in the running CPU's area (__my_cpu_offset: <arch/percpu.h>). */
#define this_cpu_ptr(ptr) \
	((__typeof__(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define __get_cpu_var(var)	(*this_cpu_ptr(&(var)))

/* Give every possible CPU its area (arch/x86/setup_percpu.c). */
void setup_per_cpu_areas(void);

#endif
