/*
 * kernel/machine.h - what portable code may ask of the machine as a whole.
 * Implemented in arch/x86/power.c; host tests provide fakes.
 */
#ifndef KERNEL_MACHINE_H
#define KERNEL_MACHINE_H

#include <kernel/compiler.h>

/*
 * Power off with an exit status for the test harness.  Under QEMU with the
 * isa-debug-exit device the process exits with (status << 1) | 1; elsewhere
 * ACPI S5 (soft off), else halt.  Status 0 = success.
 */
__noreturn void machine_power_off(int status);

/*
 * Reset the machine (reboot(2) RESTART): the keyboard controller's reset
 * line, then the PCI reset register, then a triple fault.  QEMU run with
 * -no-reboot exits instead (with status 0: no power-off status).
 */
__noreturn void machine_restart(void);

/* Stop the CPU for good with interrupts off (real hardware: keep the screen). */
__noreturn void machine_halt(void);

/* Status codes passed to machine_power_off(). */
#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_PANIC	2

#endif
