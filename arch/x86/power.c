/*
 * arch/x86/power.c - leaving the machine.
 *
 * machine_power_off(status) tries, in order:
 *  1. QEMU's isa-debug-exit device at port 0xf4 (QEMU exits with
 *     (status << 1) | 1, so the test harness reads our status; without
 *     the device the write goes nowhere);
 *  2. ACPI S5: acpi_power_off() writes SLP_TYPx << 10 | SLP_EN (1 << 13)
 *     to the FADT's PM1a/PM1b control ports, SLP_TYPx from the DSDT's
 *     \_S5 package (arch/x86/acpi.c, acpi_s5.c);
 *  3. only if ACPI gave nothing to try (-ENODEV) and CPUID says we run
 *     under a hypervisor (ECX bit 31; on real hardware those ports may be
 *     anything): the PM1a control ports QEMU's firmware uses (0x604 with
 *     SeaBIOS/PIIX4 and ICH9, 0xb004 on older Bochs), SLP_TYP 0 | SLP_EN;
 *  4. a halt with a message (real hardware keeps the screen readable).
 */
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/machine.h>
#include <arch/acpi.h>
#include <arch/cpu.h>
#include <arch/irqflags.h>

#define DEBUG_EXIT_PORT	0xf4

__noreturn void machine_halt(void)
{
	local_irq_disable();
	for (;;)
		hlt();
}

/*
 * machine_restart: as Linux's native_machine_emergency_restart with
 * reboot=k,p,t: pulse the reset line through the 8042 keyboard
 * controller (command 0xfe, once its input buffer is empty), then the
 * PCI reset control register 0xcf9 (hard reset: 0x02, then 0x06), then a
 * triple fault (an empty IDT and an exception).
 */
__noreturn void machine_restart(void)
{
	static const struct { u16 limit; u32 base; } __attribute__((packed)) no_idt = { 0, 0 };

	local_irq_disable();
	for (int i = 0; i < 10; i++) {
		for (int t = 0; t < 0x10000 && (inb(0x64) & 0x02); t++)
			io_delay();
		outb(0x64, 0xfe);
		for (int t = 0; t < 1000; t++)
			io_delay();
	}
	outb(0xcf9, 0x02);
	io_delay();
	outb(0xcf9, 0x06);
	for (int t = 0; t < 1000; t++)
		io_delay();
	__asm__ __volatile__("lidt %0; int3" :: "m"(no_idt));
	machine_halt();
}

__noreturn void machine_power_off(int status)
{
	local_irq_disable();
	printk("Powering off (status %d)\n", status);
	outl(DEBUG_EXIT_PORT, (u32)status);
	if (acpi_power_off() == -ENODEV && (boot_cpu.ecx & X86_FEATURE_HYPERVISOR)) {
		outw(0x604, 0x2000);
		outw(0xb004, 0x2000);
	}
	printk("System halted.\n");
	machine_halt();
}
