/*
 * arch/hardirq.h - interrupts each CPU took that have no IRQ line (Linux's
 * irq_cpustat_t, asm/hardirq.h): the local APIC timer, spurious vectors
 * and the IPIs, the LOC, SPU, RES, CAL and TLB rows of Linux's
 * /proc/interrupts.  A per-CPU variable: each CPU counts its own, one
 * "incl %fs:irq_stat+..." each; /proc/stat's intr total sums them
 * (arch_irq_stat_cpu(), arch/x86/traps.c).
 */
#ifndef ARCH_HARDIRQ_H
#define ARCH_HARDIRQ_H

#include <kernel/percpu.h>

struct irq_cpustat {
	unsigned int apic_timer_irqs;	/* local APIC timer (LOC) */
	unsigned int irq_spurious_count; /* vectors nobody handles (SPU) */
	unsigned int irq_resched_count;	/* reschedule IPIs (RES) */
	unsigned int irq_call_count;	/* call-function IPIs, single and many (CAL) */
	unsigned int irq_tlb_count;	/* TLB shootdowns taken from another CPU (TLB) */
};
DECLARE_PER_CPU(struct irq_cpustat, irq_stat);
#define inc_irq_stat(member)	this_cpu_inc(irq_stat.member)

#endif
