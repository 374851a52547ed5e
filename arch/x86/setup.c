/*
 * arch/x86/setup.c - architecture bring-up in the order kmain needs it.
 */
#include <kernel/arch.h>
#include <kernel/bootinfo.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <arch/cpu.h>
#include <arch/fpu.h>
#include <arch/irq.h>
#include <arch/screen.h>
#include <arch/segment.h>
#include <arch/i8042.h>
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

static char screen_desc[128] = "screen: no console (no framebuffer, no text mode)";

/*
 * The screen console, chosen from what the boot loader left:
 *  - a multiboot2 framebuffer tag: RGB -> fbcon (UEFI), EGA text -> vga at
 *    the tag's address (BIOS GRUB with gfxpayload=text);
 *  - no tag (multiboot1, QEMU -kernel): VGA text if the BIOS data area's
 *    video mode (byte 0x449) is a text mode: 2/3 colour at 0xB8000, 7 mono
 *    at 0xB0000; columns from word 0x44A, rows - 1 from byte 0x484.
 */
static void screen_init(void)
{
	const u8 *bda = (const u8 *)__va(0x400);
	unsigned mode = bda[0x49], cols = *(const u16 *)(bda + 0x4a), rows = bda[0x84] + 1u;

	if (boot_info.has_fb && boot_info.fb_type == 1) {
		fbcon_init(screen_desc, sizeof(screen_desc));
	} else if (boot_info.has_fb && boot_info.fb_type == 2) {
		vga_console_init((u32)boot_info.fb_addr, boot_info.fb_width, boot_info.fb_height,
				 screen_desc, sizeof(screen_desc));
	} else if (mode == 2 || mode == 3 || mode == 7) {
		if (cols < 40 || cols > 132 || rows < 25 || rows > 60) {
			cols = 80;	/* not an EGA/VGA BIOS: assume the default */
			rows = 25;
		}
		vga_console_init(mode == 7 ? 0xb0000 : 0xb8000, cols, rows,
				 screen_desc, sizeof(screen_desc));
	}
}

int arch_early_init(u32 magic, u32 info_phys)
{
	int ret;

	boot_unmap_identity();	/* NULL and user addresses fault from here on */
	serial_init();		/* COM1 115200 8N1: printk has somewhere to go */
	gdt_init();		/* flat segments, ring 3 descriptors, TSS */
	idt_init();		/* 256 gates into arch/x86/entry.asm */
	pic_init();		/* 8259 remapped to 0x20..0x2f, all masked */
	ret = multiboot_parse(magic, info_phys);
	screen_init();		/* VGA text or framebuffer console, before the banner */
	return ret;
}

void arch_cpu_init(void)
{
	cpu_probe();
	cpu_print();
	fpu_init();
}

void arch_devices_init(void)
{
	printk("%s\n", screen_desc);	/* which screen console, or why none */
	serial_enable_rx_irq();
	i8042_init();		/* the PS/2 keyboard, if any: the same input path */
}

void arch_idle(void)
{
	safe_halt();
}
