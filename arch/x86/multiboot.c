/*
 * arch/x86/multiboot.c - read the multiboot1 or multiboot2 information
 * block into struct boot_info.
 *
 * Multiboot2 (GRUB): a list of 8-byte-aligned tags (type, size) after an
 * 8-byte header; we read cmdline (1), loader name (2), basic meminfo (4),
 * mmap (6), framebuffer (8) and the ACPI RSDP copies (14, 15).
 * Multiboot1 (QEMU -kernel): flags word, then fixed fields.  QEMU puts the
 * kernel's file name in front of the -append string; GRUB does not (with
 * multiboot2).  We strip a leading word that looks like a path (contains
 * '/' or ends in ".elf") from a multiboot1 command line.
 *
 * The info block lies in low memory, which the boot page tables map at
 * PAGE_OFFSET, so it is read through phys + 0xC0000000.
 */
#include <kernel/bootinfo.h>
#include <kernel/string.h>
#include <kernel/printk.h>

#define MB1_BOOT_MAGIC	0x2BADB002
#define MB2_BOOT_MAGIC	0x36d76289
#define PHYS(p)		((const void *)((u32)(p) + 0xC0000000u))

struct boot_info boot_info;

static void add_region(u64 base, u64 len, u32 type)
{
	if (boot_info.nr_regions >= BOOT_MAX_REGIONS)
		return;
	boot_info.regions[boot_info.nr_regions++] = (struct boot_region){ base, len, type };
}

static void set_cmdline(const char *s, int strip_first)
{
	if (strip_first) {
		const char *end = s;
		int pathlike = 0;
		while (*end && *end != ' ') {
			if (*end == '/')
				pathlike = 1;
			end++;
		}
		if (end - s >= 4 && !strncmp(end - 4, ".elf", 4))
			pathlike = 1;
		if (pathlike)
			s = end;
	}
	while (*s == ' ')
		s++;
	/* Keep what fits; the length and the first byte cut off tell
	 * cmdline_clip() (kmain) whether and where the line was cut. */
	boot_info.cmdline_len = (u32)strlcpy(boot_info.cmdline, s, sizeof(boot_info.cmdline));
	boot_info.cmdline_next = boot_info.cmdline_len >= sizeof(boot_info.cmdline) ?
				 s[sizeof(boot_info.cmdline) - 1] : '\0';
}

struct mb1_info {
	u32 flags, mem_lower, mem_upper, boot_device, cmdline;
	u32 mods_count, mods_addr, syms[4], mmap_length, mmap_addr;
	u32 drives_length, drives_addr, config_table, boot_loader_name;
} __attribute__((packed));

static void parse_mb1(const struct mb1_info *mi)
{
	boot_info.multiboot = 1;
	if (mi->flags & (1u << 0)) {
		boot_info.mem_lower_kb = mi->mem_lower;
		boot_info.mem_upper_kb = mi->mem_upper;
	}
	if (mi->flags & (1u << 2))
		set_cmdline(PHYS(mi->cmdline), 1);
	if ((mi->flags & (1u << 3)) && mi->mods_count) {	/* mod_start, mod_end, string, 0 */
		const u32 *mod = PHYS(mi->mods_addr);
		boot_info.mod_start = mod[0];
		boot_info.mod_end = mod[1];
	}
	if (mi->flags & (1u << 9))
		strlcpy(boot_info.loader, PHYS(mi->boot_loader_name), sizeof(boot_info.loader));
	if (mi->flags & (1u << 6)) {
		u32 off = 0;
		while (off + 4 <= mi->mmap_length) {
			const u8 *e = PHYS(mi->mmap_addr + off);
			u32 size = *(const u32 *)e;
			u64 base, len;
			memcpy(&base, e + 4, 8);
			memcpy(&len, e + 12, 8);
			add_region(base, len, *(const u32 *)(e + 20));
			off += size + 4;
		}
	} else if (mi->flags & (1u << 0)) {
		add_region(0x100000, (u64)mi->mem_upper * 1024, 1);
	}
}

static void parse_mb2(const u8 *p)
{
	u32 total = *(const u32 *)p;
	u32 off = 8;

	boot_info.multiboot = 2;
	while (off + 8 <= total) {
		const u8 *tag = p + off;
		u32 type = *(const u32 *)tag, size = *(const u32 *)(tag + 4);
		if (type == 0 || size < 8)
			break;
		switch (type) {
		case 1:
			set_cmdline((const char *)tag + 8, 0);
			break;
		case 2:
			strlcpy(boot_info.loader, (const char *)tag + 8, sizeof(boot_info.loader));
			break;
		case 3:		/* module: mod_start, mod_end, string; the first one only */
			if (!boot_info.mod_end) {
				boot_info.mod_start = *(const u32 *)(tag + 8);
				boot_info.mod_end = *(const u32 *)(tag + 12);
			}
			break;
		case 4:
			boot_info.mem_lower_kb = *(const u32 *)(tag + 8);
			boot_info.mem_upper_kb = *(const u32 *)(tag + 12);
			break;
		case 6: {
			u32 esz = *(const u32 *)(tag + 8);
			for (u32 e = 16; esz && e + esz <= size; e += esz) {
				u64 base, len;
				memcpy(&base, tag + e, 8);
				memcpy(&len, tag + e + 8, 8);
				add_region(base, len, *(const u32 *)(tag + e + 16));
			}
			break;
		}
		case 8:
			boot_info.has_fb = 1;
			memcpy(&boot_info.fb_addr, tag + 8, 8);
			boot_info.fb_pitch = *(const u32 *)(tag + 16);
			boot_info.fb_width = *(const u32 *)(tag + 20);
			boot_info.fb_height = *(const u32 *)(tag + 24);
			boot_info.fb_bpp = tag[28];
			boot_info.fb_type = tag[29];
			break;
		case 14:
		case 15:
			if (!boot_info.acpi_rsdp_phys)
				boot_info.acpi_rsdp_phys = (u32)(tag + 8) - 0xC0000000u;
			break;
		}
		off += (size + 7) & ~7u;
	}
}

/* Returns 0, or -1 if the magic is unknown (booted by something else). */
int multiboot_parse(u32 magic, u32 info_phys)
{
	strcpy(boot_info.loader, "unknown");
	if (magic == MB2_BOOT_MAGIC)
		parse_mb2(PHYS(info_phys));
	else if (magic == MB1_BOOT_MAGIC)
		parse_mb1(PHYS(info_phys));
	else
		return -1;
	return 0;
}

u64 boot_usable_ram(void)
{
	u64 sum = 0;
	for (int i = 0; i < boot_info.nr_regions; i++)
		if (boot_info.regions[i].type == 1)
			sum += boot_info.regions[i].len;
	return sum;
}
