/*
 * kernel/arch.h - the boot-time calls kmain makes into the architecture.
 * (Run-time interfaces are elsewhere: arch/thread.h, arch/irqflags.h,
 * kernel/time.h, kernel/machine.h.)
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <kernel/types.h>

/* Console, descriptor tables, interrupt controller, boot information.
 * Returns 0, or -1 if the boot magic was not multiboot1/2. */
int arch_early_init(u32 magic, u32 info_phys);

/* Identify the CPU and print what we found. */
void arch_cpu_init(void);

/* Devices that need the IDT and interrupts: UART receive interrupt. */
void arch_devices_init(void);

/* Read the real-time clock into boot_realtime_ns (kernel/hrtimer.h). */
void rtc_init(void);

/* Enable interrupts and halt until the next one, atomically (sti; hlt). */
void arch_idle(void);

#endif
