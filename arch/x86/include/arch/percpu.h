/*
 * arch/percpu.h - the running CPU's per-CPU area through %fs (Linux i386's
 * asm/percpu.h since 2.6.20).
 *
 * Every CPU's GDT has a data segment __KERNEL_PERCPU whose base is that
 * CPU's __per_cpu_offset (arch/x86/gdt.c); the kernel loads it into %fs on
 * every entry (arch/x86/entry.asm) and the user's %fs comes back on exit.
 * So "%fs:name" is the running CPU's copy of NAME: this_cpu_read(name) is
 * one "movl %fs:name, %reg", exactly the instruction a plain global costs,
 * and no CPU number is needed to find it.
 *
 * The access is written with GCC's named address space __seg_fs (GCC 6
 * and later): an ordinary load or store through %fs, which the compiler
 * optimises as it would a global's (one read of `current` serves a whole
 * expression; a value is read again after a store or a call).  Linux
 * 2.6.35 wrote each access as inline assembly (percpu_from_op); x86 Linux
 * took the address-space form in 6.8 ("x86/percpu: Use compiler segment
 * prefix qualifier").  Granule's asm attempt cost one more load in
 * sys_getppid, so it follows 6.8 here.  A read-modify-write
 * (this_cpu_inc) is one instruction, so an interrupt never splits it.
 */
#ifndef ARCH_PERCPU_H
#define ARCH_PERCPU_H

#define PER_CPU_BASE_SECTION	".data..percpu"

/* VAR (the template's address) as the running CPU's copy. */
#define __percpu_fs(var)	(*(__typeof__(var) __seg_fs *)(unsigned long)&(var))

#define this_cpu_read(var)		(__percpu_fs(var))
#define this_cpu_write(var, val)	((void)(__percpu_fs(var) = (val)))
#define this_cpu_add(var, val)		((void)(__percpu_fs(var) += (val)))
#define this_cpu_inc(var)		this_cpu_add(var, 1)

/* This CPU's offset (Linux's this_cpu_off, a per-CPU variable itself). */
extern unsigned long this_cpu_off;
#define __my_cpu_offset			this_cpu_read(this_cpu_off)

/* The running CPU's number (Linux's cpu_number, set with the areas). */
extern int cpu_number;
#define raw_smp_processor_id()		this_cpu_read(cpu_number)

#endif
