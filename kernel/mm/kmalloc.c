/*
 * kernel/mm/kmalloc.c - the kernel heap: power-of-two slab caches for
 * 16..2048 bytes, whole frames above that.  See kernel/kmalloc.h.
 *
 * A slab is a naturally aligned block of 2^order frames:
 *
 *	+-------------+---------+-------+-------+-----+-------+
 *	| struct slab | (waste) | obj 0 | obj 1 | ... | obj n-1 |
 *	+-------------+---------+-------+-------+-----+-------+
 *	^ block start                                block end ^
 *
 * Objects are packed against the END of the block, so their offset
 * (2^order * 4096 - n * size) is a multiple of size: every object is
 * size-aligned.  n = (block - sizeof(struct slab)) / size.  The order of
 * each class is the smallest one wasting at most 1/8 of the block:
 *	16..512 -> order 0 (one frame), 1024 -> order 1, 2048 -> order 2.
 * Every frame of a slab carries PG_slab and the order in its struct page,
 * so kfree(p) finds the header at ALIGN_DOWN(__pa(p), 4096 << order).
 *
 * Free objects are chained through their first word (freelist); a bitmap
 * in the header records which objects are handed out, which turns a double
 * free or a pointer into the middle of an object into a clean panic.
 *
 * A cache keeps its slabs on two lists, partial (some objects free) and
 * full, plus at most one completely empty spare so that an alloc/free
 * ping-pong does not hit the frame allocator every time; other empty
 * slabs go straight back to the pmm.
 *
 * Locking (docs/ARCHITECTURE.md, "Locking").  At one CPU interrupts off
 * are the whole of it.  At more, each cache's list_lock covers its lists,
 * its spare and its slabs' freelists and maps (2.6.35's SLAB has one per
 * cache and node, l3->list_lock, behind per-CPU arrays of free objects
 * that take most calls without it: Granule has no per-CPU arrays, so every
 * call takes it), and large_lock covers the large blocks' counts.  Both
 * are irq-safe: kmalloc may be called with interrupts off or from an
 * interrupt.  Under them zone->lock (slab_create(), slab_destroy(),
 * large_alloc()); the event counts are atomic at more than one CPU.  As in
 * kernel/mm/pmm.c, each entry point is compiled twice (SMP a constant) and
 * the uniprocessor copy is redirected to the _smp one (SMP_COPIES,
 * <kernel/smp_copies.h>).
 */
#include <kernel/kmalloc.h>
#include <kernel/pmm.h>
#include <kernel/list.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/compiler.h>
#include <kernel/smp_copies.h>
#include <kernel/spinlock.h>
#include <arch/irqflags.h>

#define SLAB_MAGIC	0x51AB51ABu
#define SLAB_MAP_WORDS	8	/* 256 bits >= objects in a 16-byte slab */

struct kmem_cache;

struct slab {
	struct list_head list;		/* on cache->partial or cache->full */
	struct kmem_cache *cache;
	void *freelist;			/* first free object, NULL if full */
	u16 inuse;			/* objects handed out */
	u16 total;			/* objects in this slab */
	u32 magic;			/* SLAB_MAGIC while the slab lives */
	u32 map[SLAB_MAP_WORDS];	/* bit i set = object i handed out */
};

struct kmem_cache {
	u32 size;			/* object size (a power of two) */
	u32 order;			/* slab = 2^order frames */
	struct list_head partial, full;
	struct slab *spare;		/* one empty slab kept in reserve */
	u32 nr_slabs;			/* incl. the spare */
	u32 active;			/* objects handed out */
};

#define SLAB_BYTES(c)	(PAGE_SIZE << (c)->order)
#define SLAB_OBJS(c)	((SLAB_BYTES(c) - (u32)sizeof(struct slab)) / (c)->size)

#define CACHE(sz, ord) { .size = (sz), .order = (ord) }
static struct kmem_cache caches[KMALLOC_NR_CACHES] = {
	CACHE(16, 0), CACHE(32, 0), CACHE(64, 0), CACHE(128, 0),
	CACHE(256, 0), CACHE(512, 0), CACHE(1024, 1), CACHE(2048, 2),
};

/*
 * Cache I's list_lock (2.6.35's l3->list_lock): its lists, spare, counts
 * and its slabs' freelists and maps; size and order never change.  Beside
 * the caches, not in them, so that the uniprocessor copy's code, which
 * indexes caches[], is the one it was (docs/FASTPATHS.md).
 */
static spinlock_t cache_list_lock[KMALLOC_NR_CACHES];
#define list_lock(c)	(&cache_list_lock[(c) - caches])

static int caches_ready;
static u32 large_allocs, large_frames;	/* under large_lock */
static DEFINE_SPINLOCK(large_lock);
static u64 nr_alloc, nr_free;		/* atomic at more than one CPU */
static u32 nr_fail;

/* An event count: atomic when SMP (each cache has its own lock). */
#define STAT_ADD(smp, x, n)	do { if (smp) __atomic_fetch_add(&(x), (n), __ATOMIC_RELAXED); \
				     else (x) += (n); } while (0)
/* Lock L if SMP (interrupts are off: the caller saved them). */
#define SMP_LOCK(smp, l)	do { if (smp) spin_lock(l); } while (0)
#define SMP_UNLOCK(smp, l)	do { if (smp) spin_unlock(l); } while (0)

_Static_assert((PAGE_SIZE - sizeof(struct slab)) / 16 <= SLAB_MAP_WORDS * 32,
	       "slab bitmap too small for the 16-byte class");

void kmalloc_init(void)
{
	unsigned int i;

	for (i = 0; i < KMALLOC_NR_CACHES; i++) {
		spin_lock_init(&cache_list_lock[i]);	/* one class for all eight */
		INIT_LIST_HEAD(&caches[i].partial);
		INIT_LIST_HEAD(&caches[i].full);
		caches[i].spare = NULL;
		caches[i].nr_slabs = 0;
		caches[i].active = 0;
	}
	large_allocs = large_frames = nr_fail = 0;
	nr_alloc = nr_free = 0;
	caches_ready = 1;
}

/* The cache serving SIZE bytes (1..2048). */
static __always_inline struct kmem_cache *size_to_cache(size_t size)
{
	unsigned int i = 0;

	while (caches[i].size < size)
		i++;
	return &caches[i];
}

static inline u8 *slab_first_obj(struct slab *s)
{
	struct kmem_cache *c = s->cache;

	return (u8 *)s + SLAB_BYTES(c) - s->total * c->size;
}

static __always_inline struct slab *slab_create(struct kmem_cache *c)
{
	phys_addr_t pa = alloc_pages(c->order);
	struct slab *s;
	u32 i, n;
	u8 *obj;

	if (!pa)
		return NULL;
	for (i = 0; i < (1u << c->order); i++)
		phys_to_page(pa + i * PAGE_SIZE)->flags |= PG_slab;

	s = __va(pa);
	memset(s, 0, sizeof(*s));
	INIT_LIST_HEAD(&s->list);
	s->cache = c;
	s->magic = SLAB_MAGIC;
	s->total = (u16)SLAB_OBJS(c);
	n = s->total;
	obj = slab_first_obj(s);
	for (i = 0; i < n; i++)		/* chain objects low to high */
		*(void **)(obj + i * c->size) = i + 1 < n ? obj + (i + 1) * c->size : NULL;
	s->freelist = obj;
	c->nr_slabs++;
	return s;
}

static void slab_destroy(struct slab *s)
{
	struct kmem_cache *c = s->cache;
	phys_addr_t pa = __pa(s);
	u32 i;

	s->magic = 0;
	for (i = 0; i < (1u << c->order); i++)
		phys_to_page(pa + i * PAGE_SIZE)->flags &= (u8)~PG_slab;
	free_pages(pa, c->order);
	c->nr_slabs--;
}

static __always_inline void *cache_alloc(struct kmem_cache *c)
{
	struct slab *s;
	void *obj;
	u32 idx;

	if (!list_empty(&c->partial)) {
		s = list_first_entry(&c->partial, struct slab, list);
	} else {
		s = c->spare ? c->spare : slab_create(c);
		if (!s)
			return NULL;
		c->spare = NULL;
		list_add(&s->list, &c->partial);
	}

	obj = s->freelist;
	s->freelist = *(void **)obj;
	idx = (u32)((u8 *)obj - slab_first_obj(s)) / c->size;
	s->map[idx / 32] |= 1u << (idx % 32);
	s->inuse++;
	c->active++;
	if (s->inuse == s->total) {
		list_del(&s->list);
		list_add(&s->list, &c->full);
	}
	return obj;
}

static __always_inline void *large_alloc(size_t size)
{
	unsigned int order = 0;
	phys_addr_t pa;

	while ((PAGE_SIZE << order) < size)
		order++;
	pa = alloc_pages(order);
	if (!pa)
		return NULL;
	phys_to_page(pa)->flags |= PG_large;
	large_allocs++;
	large_frames += 1u << order;
	return __va(pa);
}

static __always_inline void *kmalloc_body(size_t size, int smp)
{
	unsigned long flags;
	struct kmem_cache *c;
	void *p;

	if (size > KMALLOC_MAX_SIZE) {
		STAT_ADD(smp, nr_fail, 1);
		return NULL;
	}
	local_irq_save(flags);
	if (unlikely(!caches_ready))
		kmalloc_init();
	if (size <= KMALLOC_MAX_CACHE_SIZE) {
		c = size_to_cache(size ? size : 1);
		SMP_LOCK(smp, list_lock(c));
		p = cache_alloc(c);
		SMP_UNLOCK(smp, list_lock(c));
	} else {
		SMP_LOCK(smp, &large_lock);
		p = large_alloc(size);
		SMP_UNLOCK(smp, &large_lock);
	}
	if (p)
		STAT_ADD(smp, nr_alloc, 1);
	else
		STAT_ADD(smp, nr_fail, 1);
	local_irq_restore(flags);
	return p;
}

SMP_COPIES(void *, kmalloc, (size_t size), size)

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

static __noreturn void bad_kfree(const char *why, const void *ptr)
{
	panic("kfree: %s: %p", why, ptr);
}

/* The slab holding PTR (a PG_slab frame), checked. */
static __always_inline struct slab *ptr_to_slab(const void *ptr, const struct page *pg)
{
	phys_addr_t base = ALIGN_DOWN(__pa(ptr), (phys_addr_t)PAGE_SIZE << pg->order);
	struct slab *s = __va(base);

	if (s->magic != SLAB_MAGIC)
		bad_kfree("slab header corrupted", ptr);
	return s;
}

/* Object index of PTR in S, or a panic if PTR is not an object's start. */
static __always_inline u32 slab_obj_index(struct slab *s, const void *ptr)
{
	const u8 *first = slab_first_obj(s);
	u32 off, idx;

	if ((const u8 *)ptr < first)
		bad_kfree("pointer into a slab header", ptr);
	off = (u32)((const u8 *)ptr - first);
	idx = off / s->cache->size;
	if (off % s->cache->size || idx >= s->total)
		bad_kfree("pointer into the middle of an object", ptr);
	return idx;
}

static __always_inline void cache_free(struct slab *s, void *ptr)
{
	struct kmem_cache *c = s->cache;
	u32 idx = slab_obj_index(s, ptr);

	if (!(s->map[idx / 32] & (1u << (idx % 32))))
		bad_kfree("double free", ptr);
	s->map[idx / 32] &= ~(1u << (idx % 32));
	*(void **)ptr = s->freelist;
	s->freelist = ptr;
	if (s->inuse == s->total) {		/* full -> partial */
		list_del(&s->list);
		list_add(&s->list, &c->partial);
	}
	s->inuse--;
	c->active--;
	if (s->inuse == 0) {			/* empty: keep one spare */
		list_del(&s->list);
		if (!c->spare)
			c->spare = s;
		else
			slab_destroy(s);
	}
}

static __always_inline void kfree_body(const void *ptr, int smp)
{
	unsigned long flags;
	struct page *pg;
	struct slab *sl;
	phys_addr_t pa;

	if (!ptr)
		return;
	pa = __pa(ptr);
	pg = phys_to_page(pa);
	if (!pg || pg->count == 0)
		bad_kfree("not an allocated frame", ptr);

	local_irq_save(flags);
	if (pg->flags & PG_slab) {
		sl = ptr_to_slab(ptr, pg);
		SMP_LOCK(smp, list_lock(sl->cache));
		cache_free(sl, (void *)ptr);
		SMP_UNLOCK(smp, list_lock(sl->cache));
	} else if ((pg->flags & PG_large) && !(pa & ~PAGE_MASK)) {
		pg->flags &= (u8)~PG_large;
		SMP_LOCK(smp, &large_lock);
		large_allocs--;
		large_frames -= 1u << pg->order;
		SMP_UNLOCK(smp, &large_lock);
		free_pages(pa, pg->order);
	} else {
		bad_kfree("not a kmalloc pointer", ptr);
	}
	STAT_ADD(smp, nr_free, 1);
	local_irq_restore(flags);
}

SMP_COPIES_VOID(kfree, (const void *ptr), ptr)

__host_test_only size_t ksize(const void *ptr)
{
	struct page *pg;

	if (!ptr)
		return 0;
	pg = phys_to_page(__pa(ptr));
	if (!pg)
		return 0;
	if (pg->flags & PG_slab)
		return ptr_to_slab(ptr, pg)->cache->size;
	if (pg->flags & PG_large)
		return (size_t)PAGE_SIZE << pg->order;
	return 0;
}

static __always_inline void kmalloc_shrink_body(int smp)
{
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	for (i = 0; i < KMALLOC_NR_CACHES; i++) {
		SMP_LOCK(smp, &cache_list_lock[i]);
		if (caches[i].spare) {
			slab_destroy(caches[i].spare);
			caches[i].spare = NULL;
		}
		SMP_UNLOCK(smp, &cache_list_lock[i]);
	}
	local_irq_restore(flags);
}

SMP_COPIES_VOID(kmalloc_shrink, (void))

static __always_inline void kmalloc_get_stats_body(struct kmalloc_stats *st, int smp)
{
	unsigned long flags;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	local_irq_save(flags);
	for (i = 0; i < KMALLOC_NR_CACHES; i++) {
		struct kmem_cache *c = &caches[i];

		SMP_LOCK(smp, list_lock(c));
		st->cache[i].size = c->size;
		st->cache[i].order = c->order;
		st->cache[i].objs_per_slab = SLAB_OBJS(c);
		st->cache[i].slabs = c->nr_slabs;
		st->cache[i].active_objs = c->active;
		st->frames += c->nr_slabs << c->order;
		SMP_UNLOCK(smp, list_lock(c));
	}
	SMP_LOCK(smp, &large_lock);
	st->large_allocs = large_allocs;
	st->large_frames = large_frames;
	SMP_UNLOCK(smp, &large_lock);
	st->frames += st->large_frames;
	st->nr_alloc = smp ? __atomic_load_n(&nr_alloc, __ATOMIC_RELAXED) : nr_alloc;
	st->nr_free = smp ? __atomic_load_n(&nr_free, __ATOMIC_RELAXED) : nr_free;
	st->nr_fail = nr_fail;
	local_irq_restore(flags);
}

SMP_COPIES_VOID(kmalloc_get_stats, (struct kmalloc_stats *st), st)

