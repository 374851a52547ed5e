/*
 * tests/host/shim/arch/irqflags.h - host stand-in for arch/irqflags.h.
 *
 * There are no interrupts in a host unit test, so "disabling" them only
 * flips a flag, which tests can read:
 *	host_irqs_off		1 while inside local_irq_save/disable
 *	host_irq_saves		number of local_irq_save() calls
 * Both are weak definitions in this header, so every test binary gets one
 * shared copy without a separate .c file.
 */
#ifndef ARCH_IRQFLAGS_H
#define ARCH_IRQFLAGS_H

#include <kernel/types.h>

__attribute__((weak)) unsigned long host_irqs_off;
__attribute__((weak)) unsigned long host_irq_saves;

static inline unsigned long arch_local_save_flags(void)
{
	return host_irqs_off;
}

static inline void local_irq_disable(void) { host_irqs_off = 1; }
static inline void local_irq_enable(void)  { host_irqs_off = 0; }

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long f = host_irqs_off;

	host_irqs_off = 1;
	host_irq_saves++;
	return f;
}

static inline void arch_local_irq_restore(unsigned long f)
{
	host_irqs_off = f;
}

static inline int irqs_disabled(void)
{
	return host_irqs_off != 0;
}

#define local_irq_save(flags)	 ((flags) = arch_local_irq_save())
#define local_irq_restore(flags) arch_local_irq_restore(flags)

#endif
