/*
 * arch/barrier.h - memory barriers between CPUs (Linux 2.6.35's
 * asm/system.h, the x86 part).
 *
 * x86 keeps stores in order and loads in order (TSO): the only reordering
 * another CPU can see is a later load passing an earlier store.  So
 * smp_wmb() and smp_rmb() only stop the compiler, and smp_mb() is a real
 * fence, which on an i686 without SSE2 GCC emits as Linux does, a locked
 * add to the stack ("lock; addl $0,0(%esp)"; mfence needs SSE2).
 * Deliberate difference: 2.6.35 with X86_PPRO_FENCE (Pentium Pro errata)
 * made smp_rmb() a fence too; Granule targets later CPUs.
 * Plain builtins, no i386 assembly: the host tests include this header as
 * it is (tests/host/shim/arch/barrier.h).
 */
#ifndef ARCH_BARRIER_H
#define ARCH_BARRIER_H

#include <kernel/compiler.h>

#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()

/* The pause hint of a spin-wait loop (Linux's cpu_relax(): "rep; nop"). */
static inline void cpu_relax(void)
{
	__asm__ __volatile__("rep; nop" ::: "memory");
}

#endif
