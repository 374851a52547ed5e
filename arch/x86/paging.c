/*
 * arch/x86/paging.c - the kernel's page directory and per-process ones.
 *
 * paging_init() replaces the 64 MiB boot mapping with the final one:
 *   0xC0000000 + [0, lowmem_end)  all RAM below 768 MiB, read/write, global;
 *                                 4 MiB PSE pages where CPUID has PSE,
 *                                 4 KiB page tables otherwise
 *   KSTACK_AREA .. KSTACK_AREA_END  page tables only (kernel/proc/task.c fills them)
 *   0xFE000000 .. 0xFFFFFFFF      the ioremap fixmap (PDEs 1016..1023)
 * User directories copy PDEs 768..1023, so all of this is shared.
 */
#include <kernel/printk.h>
#include <kernel/pmm.h>
#include <kernel/string.h>
#include <arch/cpu.h>
#include <arch/ioremap.h>
#include <arch/pgtable.h>
#include <arch/tlbflush.h>

#define KERNEL_PDE	(PAGE_OFFSET >> 22)	/* 768 */

u32 kernel_pgdir;

static u32 *pgdir_va(u32 pgdir) { return (u32 *)__va(pgdir); }

static u32 alloc_table(void)
{
	u32 pa = alloc_zeroed_frame();
	if (!pa)
		panic("paging: out of memory for kernel page tables");
	return pa;
}

void paging_init(u32 lowmem_end)
{
	u32 *pd;
	int pse = cpu_has(X86_FEATURE_PSE);
	u32 global = cpu_has(X86_FEATURE_PGE) ? PTE_G : 0;

	kernel_pgdir = alloc_table();
	pd = pgdir_va(kernel_pgdir);
	if (pse)
		write_cr4(read_cr4() | (1u << 4));		/* CR4.PSE */
	if (global)
		write_cr4(read_cr4() | (1u << 7));		/* CR4.PGE */

	for (u32 pa = 0; pa < lowmem_end; pa += 0x400000) {
		u32 pde = KERNEL_PDE + (pa >> 22);
		if (pse) {
			pd[pde] = pa | PTE_P | PTE_W | PTE_PS | global;
		} else {
			u32 pt = alloc_table();
			u32 *t = (u32 *)__va(pt);
			for (u32 i = 0; i < 1024 && pa + (i << 12) < lowmem_end; i++)
				t[i] = (pa + (i << 12)) | PTE_P | PTE_W | global;
			pd[pde] = pt | PTE_P | PTE_W;
		}
	}
	for (u32 va = KSTACK_AREA; va < KSTACK_AREA_END; va += 0x400000)
		pd[va >> 22] = alloc_table() | PTE_P | PTE_W;
	fixmap_install(pd);		/* the ioremap area (APIC, ACPI, framebuffer) */
	load_pgdir(kernel_pgdir);
	printk("paging: kernel maps %u MiB of lowmem with %s pages%s\n", lowmem_end >> 20,
	       pse ? "4 MiB" : "4 KiB", global ? ", global" : "");
}

/* The user half zeroed, the kernel half copied: each byte written once. */
u32 pgdir_alloc(void)
{
	u32 pgdir = alloc_frame();
	if (!pgdir)
		return 0;
	memset(pgdir_va(pgdir), 0, KERNEL_PDE * sizeof(u32));
	memcpy(pgdir_va(pgdir) + KERNEL_PDE, pgdir_va(kernel_pgdir) + KERNEL_PDE,
	       (1024 - KERNEL_PDE) * sizeof(u32));
	return pgdir;
}

pte_t *pgdir_next_table(u32 pgdir, u32 *pde, u32 end)
{
	const u32 *pd = pgdir_va(pgdir);
	u32 i = *pde;

	for (;;) {
		/* Four empty PDEs at once: 8 instructions instead of 24. */
		while (!(i & 3) && i + 4 <= end && !(pd[i] | pd[i + 1] | pd[i + 2] | pd[i + 3]))
			i += 4;
		if (i >= end)
			break;
		if ((pd[i] & (PTE_P | PTE_PS)) == PTE_P) {
			*pde = i;
			return (pte_t *)__va(PTE_ADDR(pd[i]));
		}
		i++;
	}
	*pde = end;
	return NULL;
}

void pgdir_free(u32 pgdir, const u32 *pt_map)
{
	u32 *pd = pgdir_va(pgdir);

	if (!pt_map) {
		for (u32 i = 0; pgdir_next_table(pgdir, &i, KERNEL_PDE); i++)
			free_frame(PTE_ADDR(pd[i]));
	} else {
		for (u32 w = 0; w < KERNEL_PDE / 32; w++)
			for (u32 bits = pt_map[w]; bits; bits &= bits - 1) {
				u32 i = w * 32 + (u32)__builtin_ctz(bits);
				if ((pd[i] & (PTE_P | PTE_PS)) == PTE_P)
					free_frame(PTE_ADDR(pd[i]));
			}
	}
	free_frame(pgdir);
}

pte_t *pte_lookup(u32 pgdir, u32 va, int alloc)
{
	u32 *pd = pgdir_va(pgdir);
	u32 pde = va >> 22;

	if (!(pd[pde] & PTE_P)) {
		if (!alloc)
			return NULL;
		u32 pt = alloc_zeroed_frame();
		if (!pt)
			return NULL;
		/* user bit on the PDE; each PTE decides for its own page */
		pd[pde] = pt | PTE_P | PTE_W | (va < PAGE_OFFSET ? PTE_U : 0);
	}
	if (pd[pde] & PTE_PS)
		return NULL;	/* kernel large page: no PTE */
	return (pte_t *)__va(PTE_ADDR(pd[pde])) + ((va >> 12) & 1023);
}
