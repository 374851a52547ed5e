/*
 * kernel/pmm.h - the physical frame allocator.
 *
 * Manages 4 KiB frames of RAM below LOWMEM_LIMIT (768 MiB, see mm.h).  One
 * bit per frame says "in use" (bitmap, searched a 32-bit word at a time),
 * and one struct page per frame carries the reference count used for
 * copy-on-write plus what kmalloc needs to find its way back from a pointer.
 *
 * Reference counts: alloc_frame() returns a frame with count 1; each
 * additional mapping of it (a fork()ed copy-on-write page) takes frame_get();
 * every unmapping drops frame_put(); the frame goes back to the pool when the
 * count reaches 0.  free_frame() is the same as frame_put().
 *
 * Misuse (freeing a free frame, a frame the allocator does not own, or a
 * count overflowing 65535) is a kernel bug and panics with the address.
 * Running out of memory is not a bug: the allocators return 0 and the caller
 * fails its request with -ENOMEM.
 *
 * Interrupt-safe: each call holds interrupts off (local_irq_save) while it
 * touches the bitmap, so interrupt handlers may allocate and free too; and
 * SMP-safe: at more than one CPU each also holds zone->lock, so a CPU
 * without the giant lock may call them.
 */
#ifndef KERNEL_PMM_H
#define KERNEL_PMM_H

#include <kernel/types.h>
#include <kernel/mm.h>

/* A physical address range [base, base + len), as in the multiboot map. */
struct mem_region {
	u64 base, len;
};

/* Per-frame state (4 bytes a frame: 768 KiB for 768 MiB of RAM). */
struct page {
	u16 count;	/* references; 0 = free (or never usable) */
	u8 order;	/* PG_head/PG_slab: log2 of the block's frame count */
	u8 flags;	/* PG_* */
};

#define PG_reserved	0x01	/* not RAM, or reserved at init: never allocated */
#define PG_head		0x02	/* first frame of an alloc_pages(order > 0) block */
#define PG_tail		0x04	/* another frame of such a block */
#define PG_slab		0x08	/* owned by a kmalloc slab (kmalloc.c sets it) */
#define PG_large	0x10	/* head of a kmalloc() > 2048 allocation (kmalloc.c) */

#define MAX_ORDER	11	/* alloc_pages(order) accepts order < MAX_ORDER (4 MiB) */
#define PMM_MAX_FRAMES	(LOWMEM_LIMIT >> PAGE_SHIFT)	/* 196608 */

/*
 * Set up the allocator from the firmware's usable regions and the ranges
 * that must never be handed out (kernel image incl. its embedded initrd and
 * .bss, the multiboot info, ...).  The first 1 MiB is always reserved (real
 * mode IVT, BIOS data, VGA hole, option ROMs); this also keeps physical 0
 * out of the pool, so 0 can mean "no frame".  Regions may overlap, be
 * unsorted or unaligned: a frame is usable only if it lies wholly inside a
 * usable region, wholly below LOWMEM_LIMIT, and touches no reserved range.
 * May be called again (host tests do) to start over.
 */
void pmm_init(const struct mem_region *usable, unsigned int nr_usable,
	      const struct mem_region *reserved, unsigned int nr_reserved);

/* One frame, reference count 1, contents undefined; 0 when none is free. */
phys_addr_t alloc_frame(void);
/* The same, filled with zeroes (page tables, fresh user pages). */
phys_addr_t alloc_zeroed_frame(void);
/* Drop a reference (== frame_put). */
void free_frame(phys_addr_t pa);

/* Reference counting for shared (copy-on-write) frames. */
void frame_get(phys_addr_t pa);
void frame_put(phys_addr_t pa);
unsigned int frame_refcount(phys_addr_t pa);	/* 0 if free or not RAM */

/*
 * 2^order physically contiguous frames, aligned to 2^order frames (first
 * fit over the bitmap), each with count 1; 0 when no such run is free or
 * order >= MAX_ORDER.  Free with free_pages() and the same order.
 */
phys_addr_t alloc_pages(unsigned int order);
void free_pages(phys_addr_t pa, unsigned int order);

/* Frames free now / frames the allocator manages (usable at init). */
unsigned long nr_free_frames(void);
unsigned long nr_total_frames(void);

/* The struct page of a managed frame, or NULL if pa is outside the map. */
struct page *phys_to_page(phys_addr_t pa);

#endif
