/*
 * arch/pgtable.h - i686 two-level page tables (no PAE), as seen by the
 * portable memory code (kernel/mm/vm.c).
 *
 * A page directory has 1024 PDEs of 4 MiB each; entries 768..1023 (the top
 * 1 GiB, PAGE_OFFSET and up) are the kernel's and identical in every
 * address space: they are copied into each new directory and never change
 * after paging_init() (lowmem, the kernel-stack area and the fixmap all have
 * their page tables allocated up front).
 */
#ifndef ARCH_PGTABLE_H
#define ARCH_PGTABLE_H

#include <kernel/mm.h>
#include <kernel/types.h>

typedef u32 pte_t;

#define PTE_P		0x001	/* present */
#define PTE_W		0x002	/* writable */
#define PTE_U		0x004	/* user accessible */
#define PTE_PWT		0x008
#define PTE_PCD		0x010
#define PTE_A		0x020	/* accessed */
#define PTE_D		0x040	/* dirty */
#define PTE_PS		0x080	/* 4 MiB page (in a PDE, with CR4.PSE) */
#define PTE_G		0x100	/* global */
#define PTE_COW		0x200	/* software bit: copy-on-write page */
#define PTE_ADDR(e)	((e) & 0xfffff000u)

#define KSTACK_AREA	0xF0000000u	/* guarded kernel stacks, see kernel/proc/task.c */
#define KSTACK_AREA_END	0xF1000000u	/* 16 MiB: 1024 slots of 16 KiB */

/* Build the kernel's own page directory and switch to it. */
void paging_init(u32 lowmem_end);

/* Physical address of the kernel-only page directory (idle, kthreads). */
extern u32 kernel_pgdir;

/* A new page directory with the kernel half copied; 0 if out of memory. */
u32 pgdir_alloc(void);
/* Free the page tables of the user half and the directory itself (not the
 * frames they map: the caller drops those first).  PT_MAP: bit i set for
 * every user PDE i that may have a table (NULL: look at all 768). */
void pgdir_free(u32 pgdir, const u32 *pt_map);

/*
 * The PTE for VA in PGDIR (a kernel pointer), or NULL when its page table
 * does not exist and ALLOC is 0 (or allocation failed).
 */
pte_t *pte_lookup(u32 pgdir, u32 va, int alloc);

/*
 * VA's PTE in PGDIR as it is now, or 0 if VA has no page table (or lies in
 * a 4 MiB page): pte_lookup's read-only walk, inline for the user copies'
 * check of one page (kernel/mm/uaccess.c).
 */
static inline pte_t pte_peek(u32 pgdir, u32 va)
{
	u32 pde = ((const u32 *)__va(pgdir))[va >> 22];

	if ((pde & (PTE_P | PTE_PS)) != PTE_P)
		return 0;
	return ((const pte_t *)__va(PTE_ADDR(pde)))[(va >> 12) & 1023];
}

/*
 * The page table of the first PDE in [*PDE, END) that has one (a kernel
 * pointer), with *PDE set to its index; NULL (and *PDE = END) if none.
 * Walks a directory four PDEs at a time past empty ones, so a fork or an
 * exit pays for the page tables a process has, not for all 768 user PDEs.
 */
pte_t *pgdir_next_table(u32 pgdir, u32 *pde, u32 end);


#endif
