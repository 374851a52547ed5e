/*
 * arch/irq_regs.h - the registers an interrupt interrupted (Linux's
 * asm/irq_regs.h: get_irq_regs, set_irq_regs).
 *
 * The timer interrupt's handlers record their trap frame before the tick
 * runs, so that the tick, called a few functions deeper (through
 * hrtimer_interrupt in highres mode), can ask whether it interrupted user
 * mode: update_process_times(user_mode(get_irq_regs())).  A per-CPU
 * variable, as Linux's.  Linux sets it in every interrupt and restores the
 * previous value on the way out, for nested interrupts; here handlers
 * never nest and only the tick reads it, so the two timer handlers set it
 * and nothing restores it.
 */
#ifndef ARCH_IRQ_REGS_H
#define ARCH_IRQ_REGS_H

#include <kernel/percpu.h>
#include <arch/segment.h>

DECLARE_PER_CPU(struct trap_frame *, irq_regs);

static inline struct trap_frame *get_irq_regs(void)
{
	return this_cpu_read(irq_regs);
}

static inline void set_irq_regs(struct trap_frame *regs)
{
	this_cpu_write(irq_regs, regs);
}

#endif
