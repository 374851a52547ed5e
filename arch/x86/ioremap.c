/*
 * arch/x86/ioremap.c - uncached mappings of device memory (local APIC,
 * ACPI tables, the framebuffer).
 *
 * Device pages are mapped in the top 32 MiB of the address space through
 * eight static page tables, so this works before the frame allocator exists:
 *
 *   0xFFC00000..0xFFFFFFFF  PDE 1023       small mappings (APIC, ACPI tables)
 *   0xFE000000..0xFFBFFFFF  PDEs 1016-1022 large mappings (more than
 *                                          BIG_PAGES pages: a framebuffer of
 *                                          up to 28 MiB), or small ones once
 *                                          PDE 1023 is full
 *
 * Each call takes the next free pages; mappings are never removed.
 * All eight page tables are hooked into a directory at once
 * (fixmap_install): the boot directory at the first ioremap, the kernel
 * directory by paging_init().  Every address space copies the kernel's
 * PDEs 768..1023, so a mapping made at any time is visible everywhere.
 */
#include <kernel/printk.h>
#include <kernel/mm.h>
#include <arch/cpu.h>
#include <arch/pgtable.h>
#include <arch/timer.h>

#define FIXMAP_BASE	0xFE000000u	/* PDE 1016 */
#define FIXMAP_TABLES	8		/* PDEs 1016..1023 */
#define FIXMAP_PDE0	(FIXMAP_BASE >> 22)
#define SMALL_TABLE	(FIXMAP_TABLES - 1)	/* PDE 1023 */
#define BIG_SLOTS	(SMALL_TABLE * 1024)	/* pages below PDE 1023 */
#define BIG_PAGES	64		/* larger mappings go below PDE 1023 */

extern const u32 boot_pgdir_phys;
static u32 fixmap_pt[FIXMAP_TABLES][1024] __attribute__((aligned(4096)));
static unsigned small_next;	/* next free slot in fixmap_pt[SMALL_TABLE] */
static unsigned big_next;	/* next free slot in fixmap_pt[0..6] (flat index) */

static u32 *boot_pgdir(void) { return (u32 *)(boot_pgdir_phys + PAGE_OFFSET); }

static u32 table_pde(unsigned t)
{
	return ((u32)fixmap_pt[t] - PAGE_OFFSET) | PTE_P | PTE_W;
}

void fixmap_install(u32 *pgdir)
{
	for (unsigned t = 0; t < FIXMAP_TABLES; t++)
		pgdir[FIXMAP_PDE0 + t] = table_pde(t);
}

static void set_ptes(unsigned slot, u32 first, u32 n)
{
	u32 *pte = &fixmap_pt[0][0] + slot;
	u32 va = FIXMAP_BASE + (slot << 12);

	for (u32 i = 0; i < n; i++) {
		pte[i] = (first + (i << 12)) | PTE_P | PTE_W | PTE_PCD | PTE_PWT;
		invlpg(va + (i << 12));
	}
}

/* Returns NULL when the fixmap has no N free pages left. */
void *ioremap_nopanic(u32 phys, u32 size)
{
	u32 first = phys & ~0xfffu, last = (phys + size - 1) & ~0xfffu;
	u32 n = ((last - first) >> 12) + 1;
	unsigned slot;

	if (size == 0)
		return NULL;
	if (!kernel_pgdir && !(boot_pgdir()[FIXMAP_PDE0] & PTE_P))
		fixmap_install(boot_pgdir());	/* before paging_init(): the boot directory */
	if (n <= BIG_PAGES && small_next + n <= 1024) {
		slot = SMALL_TABLE * 1024 + small_next;
		small_next += n;
	} else if (big_next + n <= BIG_SLOTS) {
		slot = big_next;
		big_next += n;
	} else {
		return NULL;
	}
	set_ptes(slot, first, n);
	return (void *)(FIXMAP_BASE + (slot << 12) + (phys & 0xfff));
}

void *ioremap(u32 phys, u32 size)
{
	void *va = ioremap_nopanic(phys, size);

	if (!va)
		panic("ioremap: fixmap area exhausted (0x%08x, %u bytes)", phys, size);
	return va;
}

/* Largest large mapping ioremap can still make, in bytes. */
u32 ioremap_room(void)
{
	return (BIG_SLOTS - big_next) << 12;
}

