/*
 * kernel/kmalloc.h - the kernel heap.
 *
 * Requests of 1..2048 bytes come from eight power-of-two size classes
 * (16, 32, ... 2048), each a cache of slabs: a slab is 2^order frames
 * holding a header and objects of one size, size-aligned.  Larger requests
 * get whole frames, 2^order contiguous ones (alloc_pages), page-aligned.
 * kfree() finds its way back through the frame's struct page (PG_slab or
 * PG_large), so no size has to be passed.
 *
 * Failure: NULL when memory is exhausted, never a panic.  kfree(NULL) does
 * nothing.  kfree() of a pointer kmalloc did not return, or a double free,
 * panics with the address (a kernel bug).  kmalloc(0) returns a valid
 * 16-byte object (unlike Linux's ZERO_SIZE_PTR) so callers need no special
 * case.  Memory is not zeroed except by kzalloc().
 *
 * Safe to call with interrupts on or off (it saves and restores them).
 */
#ifndef KERNEL_KMALLOC_H
#define KERNEL_KMALLOC_H

#include <kernel/types.h>

#define KMALLOC_MIN_SIZE	16	/* smallest class; also the alignment floor */
#define KMALLOC_MAX_CACHE_SIZE	2048	/* largest slab class */
#define KMALLOC_NR_CACHES	8	/* 16 32 64 128 256 512 1024 2048 */
#define KMALLOC_MAX_SIZE	(4096u << 10)	/* 4 MiB: alloc_pages(MAX_ORDER - 1) */

/*
 * Forget every cache (their slabs are NOT returned: call before anything is
 * allocated, i.e. right after pmm_init(); host tests call it after each
 * pmm_init()).  kmalloc() calls it itself the first time if nobody did.
 */
void kmalloc_init(void);

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(const void *ptr);

/* Bytes usable at ptr (the class size, or the whole block); 0 for NULL. */
size_t ksize(const void *ptr);

/* Give back the one empty slab each cache keeps in reserve. */
void kmalloc_shrink(void);

struct kmalloc_cache_stats {
	u32 size;		/* object size, bytes */
	u32 order;		/* slab = 2^order frames */
	u32 objs_per_slab;
	u32 slabs;		/* slabs held (partial + full + the spare) */
	u32 active_objs;	/* objects handed out */
};

struct kmalloc_stats {
	struct kmalloc_cache_stats cache[KMALLOC_NR_CACHES];
	u32 large_allocs;	/* live allocations > KMALLOC_MAX_CACHE_SIZE */
	u32 large_frames;	/* frames they hold */
	u32 frames;		/* every frame kmalloc holds now */
	u64 nr_alloc, nr_free;	/* successful kmalloc / non-NULL kfree calls */
	u32 nr_fail;		/* kmalloc calls that returned NULL */
};

void kmalloc_get_stats(struct kmalloc_stats *st);

#endif
