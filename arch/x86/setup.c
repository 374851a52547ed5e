/*
 * arch/x86/setup.c - architecture bring-up in the order kmain needs it.
 */
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <arch/cpu.h>
#include <arch/irq.h>
#include <arch/segment.h>
#include <arch/serial.h>

int multiboot_parse(u32 magic, u32 info_phys);
extern const u32 boot_pgdir_phys;

/*
 * boot/multiboot.asm mapped the first 64 MiB twice; only the identity half
 * kept the instruction after "mov cr0" valid.  Remove it so that address 0
 * (NULL) and all of user space fault from now on.
 */
static void boot_unmap_identity(void)
{
	u32 *pgdir = (u32 *)(boot_pgdir_phys + 0xC0000000u);

	for (int i = 0; i < 768; i++)
		pgdir[i] = 0;
	write_cr3(read_cr3());	/* flush the TLB */
}

int arch_early_init(u32 magic, u32 info_phys)
{
	boot_unmap_identity();	/* NULL and user addresses fault from here on */
	serial_init();		/* COM1 115200 8N1: printk has somewhere to go */
	gdt_init();		/* flat segments, ring 3 descriptors, TSS */
	idt_init();		/* 256 gates into arch/x86/entry.asm */
	pic_init();		/* 8259 remapped to 0x20..0x2f, all masked */
	return multiboot_parse(magic, info_phys);
}

void arch_cpu_init(void)
{
	cpu_probe();
	cpu_print();
}

void arch_devices_init(void)
{
	serial_enable_rx_irq();
}

void arch_idle(void)
{
	safe_halt();
}
