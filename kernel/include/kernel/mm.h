/*
 * kernel/mm.h - page-size constants and the physical <-> kernel-virtual
 * conversion every memory-management file uses.
 *
 * Layout (Linux's i386 3G/1G split, no PAE, no highmem):
 *
 *	0x00000000 .. 0xBFFFFFFF   user space (TASK_SIZE = PAGE_OFFSET)
 *	0xC0000000 .. 0xEFFFFFFF   "lowmem": physical 0 .. LOWMEM_LIMIT-1 mapped
 *	                           linearly, virtual = physical + PAGE_OFFSET
 *	0xF0000000 .. 0xFFFFFFFF   left for the kernel's own fixed mappings
 *
 * The kernel maps physical 0 .. min(RAM, LOWMEM_LIMIT) and nothing else, so
 * only frames below LOWMEM_LIMIT (768 MiB) are ever handed out: every frame
 * the allocator returns is reachable through __va() without a temporary
 * mapping.  RAM above 768 MiB is simply not used.
 *
 * Host unit tests (HOST_TEST) have no such mapping: "physical" address P is
 * the byte at host_phys_base + P of a test arena the test allocates, so the
 * same pmm/kmalloc code runs unchanged under ASan.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <kernel/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1u << PAGE_SHIFT)		/* 4096 bytes */
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#define PAGE_OFFSET	0xC0000000u	/* kernel virtual = physical + PAGE_OFFSET */
#define TASK_SIZE	PAGE_OFFSET	/* user space is [0, TASK_SIZE) */
#define LOWMEM_LIMIT	0x30000000u	/* 768 MiB: highest physical address + 1 mapped */

#define PFN_DOWN(pa)	((u32)(pa) >> PAGE_SHIFT)		/* frame containing pa */
#define PFN_UP(pa)	(((u32)(pa) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_PHYS(pfn)	((phys_addr_t)(pfn) << PAGE_SHIFT)

#ifdef HOST_TEST
/* The test arena standing for physical address 0 (defined in kernel/mm/pmm.c). */
extern u8 *host_phys_base;
#define __va(pa)	((void *)(host_phys_base + (phys_addr_t)(pa)))
#define __pa(va)	((phys_addr_t)((const u8 *)(va) - host_phys_base))
#else
#define __va(pa)	((void *)((u32)(pa) + PAGE_OFFSET))
#define __pa(va)	((phys_addr_t)((u32)(va) - PAGE_OFFSET))
#endif

#endif
