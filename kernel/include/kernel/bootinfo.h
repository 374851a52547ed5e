/*
 * kernel/bootinfo.h - what the boot loader told us, in one portable struct
 * (filled by arch/x86/multiboot.c from a multiboot1 or multiboot2 info block).
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include <kernel/types.h>

#define BOOT_CMDLINE_MAX	1024
#define BOOT_MAX_REGIONS	32

struct boot_region {
	u64 base, len;
	u32 type;		/* 1 = usable RAM (multiboot/E820 numbering) */
};

struct boot_info {
	int multiboot;				/* 1 or 2 */
	char cmdline[BOOT_CMDLINE_MAX];		/* kernel file name already stripped */
	u32 cmdline_len;			/* the whole line's length (may not fit) */
	char cmdline_next;			/* if cut: the first byte that did not fit */
	char loader[64];			/* boot loader name, or "unknown" */
	int nr_regions;
	struct boot_region regions[BOOT_MAX_REGIONS];
	u32 mem_lower_kb, mem_upper_kb;		/* multiboot basic memory info */
	int has_fb;				/* a framebuffer tag was present */
	u64 fb_addr;
	u32 fb_pitch, fb_width, fb_height;
	u8 fb_bpp, fb_type;			/* 0 indexed, 1 RGB, 2 EGA text */
	u64 acpi_rsdp_phys;			/* 0 if not given */
	u32 mod_start, mod_end;			/* the first boot module (physical, [start, end));
						 * 0, 0: none (kernel/fs/initrd.c) */
};

extern struct boot_info boot_info;

/* Total usable RAM in bytes from the memory map. */
u64 boot_usable_ram(void);

#endif
