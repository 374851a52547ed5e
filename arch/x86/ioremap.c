/*
 * arch/x86/ioremap.c - uncached mappings of device memory (local APIC ...).
 *
 * Device pages are mapped in the top 4 MiB of the address space
 * (0xFFC00000..0xFFFFFFFF, page-directory entry 1023) through one static page
 * table, so this works before the frame allocator exists.  Each call takes
 * the next free pages; mappings are never removed.  Every address space
 * shares kernel page-directory entries 768..1023, this one included.
 */
#include <kernel/printk.h>
#include <arch/cpu.h>
#include <arch/timer.h>

#define FIXMAP_BASE	0xFFC00000u
#define PTE_P		0x001
#define PTE_W		0x002
#define PTE_PWT		0x008
#define PTE_PCD		0x010

extern const u32 boot_pgdir_phys;
static u32 fixmap_pt[1024] __attribute__((aligned(4096)));
static unsigned fixmap_next;	/* next free slot in fixmap_pt */

void *ioremap(u32 phys, u32 size)
{
	u32 *pgdir = (u32 *)(boot_pgdir_phys + 0xC0000000u);
	u32 first = phys & ~0xfffu, last = (phys + size - 1) & ~0xfffu;
	u32 n = ((last - first) >> 12) + 1;

	if (fixmap_next + n > 1024)
		panic("ioremap: fixmap area exhausted");
	if (!(pgdir[1023] & PTE_P))
		pgdir[1023] = ((u32)fixmap_pt - 0xC0000000u) | PTE_P | PTE_W;
	u32 va = FIXMAP_BASE + (fixmap_next << 12);
	for (u32 i = 0; i < n; i++) {
		fixmap_pt[fixmap_next + i] = (first + (i << 12)) | PTE_P | PTE_W | PTE_PCD | PTE_PWT;
		invlpg(va + (i << 12));
	}
	fixmap_next += n;
	return (void *)(va + (phys & 0xfff));
}
