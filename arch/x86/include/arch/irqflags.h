/*
 * arch/irqflags.h - interrupt enable/disable, the only locking a
 * uniprocessor kernel needs.  Host unit tests provide a shim with the same
 * names (tests/host/shim/arch/irqflags.h).
 */
#ifndef ARCH_IRQFLAGS_H
#define ARCH_IRQFLAGS_H

#include <kernel/types.h>

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long f;
	__asm__ __volatile__("pushfl; popl %0" : "=r"(f) : : "memory");
	return f;
}

static inline void local_irq_disable(void) { __asm__ __volatile__("cli" ::: "memory"); }
static inline void local_irq_enable(void)  { __asm__ __volatile__("sti" ::: "memory"); }

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long f = arch_local_save_flags();
	local_irq_disable();
	return f;
}

static inline void arch_local_irq_restore(unsigned long f)
{
	if (f & (1u << 9))	/* EFLAGS.IF */
		local_irq_enable();
}

static inline int irqs_disabled(void)
{
	return !(arch_local_save_flags() & (1u << 9));
}

#define local_irq_save(flags)	 ((flags) = arch_local_irq_save())
#define local_irq_restore(flags) arch_local_irq_restore(flags)

#endif
