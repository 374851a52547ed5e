/*
 * kernel/mm/pmm.c - physical frame allocator: a bitmap over the frames below
 * LOWMEM_LIMIT plus a struct page (reference count, block order, flags) per
 * frame.  See kernel/pmm.h for the contract.
 *
 * Invariants (checked by tests/host/mm/test_pmm.c):
 *	bit(pfn) == 0  <=>  page[pfn].count == 0 && !(flags & PG_reserved)
 *	nr_free == number of clear bits below max_pfn
 *	nr_free + frames with count > 0 == nr_managed   (exact accounting)
 *
 * Every public entry point runs with interrupts held off, so an interrupt
 * handler may allocate or free too, and at more than one CPU under
 * zone->lock (below, "The public entry points").
 *
 * Storage is static (.bss): the bitmap is PMM_MAX_FRAMES / 8 = 24 KiB and
 * the page array PMM_MAX_FRAMES * 4 = 768 KiB, sized for the 768 MiB lowmem
 * cap so nothing has to be carved out of RAM before the allocator exists.
 */
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/compiler.h>
#include <kernel/smp_copies.h>
#include <kernel/spinlock.h>
#include <arch/irqflags.h>

#define BITS_PER_WORD	32u
#define BITMAP_WORDS	(PMM_MAX_FRAMES / BITS_PER_WORD)
#define LOW_RESERVED	0x100000u	/* first 1 MiB: never allocated */
/*
 * Searches start at a fixed physical address, ALLOC_BASE (16 MiB), above the
 * kernel image, and wrap round to the frames below it only when everything
 * above is taken.  Starting at frame 0 made the cost of every search (the
 * busy words and blocks it skips: the image, the initrd) a function of the
 * image's size, so any new kernel code moved the instruction counts that
 * -icount turns into RESULT figures.  Used when RAM reaches 2 * ALLOC_BASE
 * (half of it above the base); smaller machines search from frame 0.
 */
#define ALLOC_BASE	0x1000000u

static u32 frame_bitmap[BITMAP_WORDS];		/* 1 = in use or not RAM */
static struct page mem_map[PMM_MAX_FRAMES];
static u32 max_pfn;		/* one past the highest usable frame */
static u32 next_word;		/* next-fit hint for alloc_frame() */
static u32 base_pfn;		/* where searches start: ALLOC_BASE or 0 */
static unsigned long nr_free;	/* clear bits below max_pfn */
static unsigned long nr_managed;	/* frames usable at init */

/* 2.6.35's zone, of which Granule has one (its lowmem, contig_page_data's
 * ZONE_NORMAL): only the lock is in it, over everything above. */
struct zone {
	spinlock_t lock;
};
static struct zone contig_zone;

static void __frame_put(phys_addr_t pa);

#ifdef HOST_TEST
u8 *host_phys_base;		/* see kernel/mm.h */
#endif

static inline int test_bit(u32 pfn)
{
	return (frame_bitmap[pfn / BITS_PER_WORD] >> (pfn % BITS_PER_WORD)) & 1;
}

static inline void set_bit(u32 pfn)
{
	frame_bitmap[pfn / BITS_PER_WORD] |= 1u << (pfn % BITS_PER_WORD);
}

static inline void clear_bit(u32 pfn)
{
	frame_bitmap[pfn / BITS_PER_WORD] &= ~(1u << (pfn % BITS_PER_WORD));
}

static __noreturn void bad_frame(const char *what, phys_addr_t pa)
{
	panic("pmm: %s of frame %#x (count %u)", what, (unsigned int)pa,
	      pa < LOWMEM_LIMIT ? mem_map[PFN_DOWN(pa)].count : 0u);
}

/* Clamp [base, base+len) to [0, LOWMEM_LIMIT) as whole frames; 0 if empty. */
static int region_frames(const struct mem_region *r, int round_out,
			 u32 *first, u32 *end)
{
	u64 lo = r->base, hi = r->base + r->len;

	if (r->len == 0 || hi < lo)		/* empty or wraps 2^64 */
		return 0;
	if (lo >= LOWMEM_LIMIT)
		return 0;
	if (hi > LOWMEM_LIMIT)
		hi = LOWMEM_LIMIT;
	if (round_out) {			/* reserved: every touched frame */
		*first = (u32)(lo >> PAGE_SHIFT);
		*end = (u32)((hi + PAGE_SIZE - 1) >> PAGE_SHIFT);
	} else {				/* usable: whole frames only */
		*first = (u32)((lo + PAGE_SIZE - 1) >> PAGE_SHIFT);
		*end = (u32)(hi >> PAGE_SHIFT);
	}
	return *first < *end;
}

/* Named "&zone->lock" for the validator, as 2.6.35's free_area_init_core() has it. */
static void zone_lock_init(struct zone *zone)
{
	spin_lock_init(&zone->lock);
}

void pmm_init(const struct mem_region *usable, unsigned int nr_usable,
	      const struct mem_region *reserved, unsigned int nr_reserved)
{
	const struct mem_region low = { 0, LOW_RESERVED };
	unsigned int i;
	u32 pfn, first, end;

	/* Everything starts "in use, reserved"; usable regions clear it. */
	for (i = 0; i < BITMAP_WORDS; i++)
		frame_bitmap[i] = ~0u;
	for (pfn = 0; pfn < PMM_MAX_FRAMES; pfn++)
		mem_map[pfn] = (struct page){ .flags = PG_reserved };
	max_pfn = 0;

	for (i = 0; i < nr_usable; i++) {
		if (!region_frames(&usable[i], 0, &first, &end))
			continue;
		for (pfn = first; pfn < end; pfn++) {
			clear_bit(pfn);
			mem_map[pfn].flags = 0;
		}
		if (end > max_pfn)
			max_pfn = end;
	}

	for (i = 0; i <= nr_reserved; i++) {
		const struct mem_region *r = i < nr_reserved ? &reserved[i] : &low;

		if (!region_frames(r, 1, &first, &end))
			continue;
		for (pfn = first; pfn < end; pfn++) {
			set_bit(pfn);
			mem_map[pfn].flags = PG_reserved;
		}
	}

	nr_free = 0;
	for (pfn = 0; pfn < max_pfn; pfn++)
		nr_free += !test_bit(pfn);
	nr_managed = nr_free;
	zone_lock_init(&contig_zone);
	base_pfn = max_pfn >= 2 * (ALLOC_BASE >> PAGE_SHIFT) ? ALLOC_BASE >> PAGE_SHIFT : 0;
	next_word = base_pfn / BITS_PER_WORD;
}

/* Search order of word W: its distance above the base word, wrapping. */
static inline u32 word_rank(u32 w)
{
	u32 b = base_pfn / BITS_PER_WORD;

	return w >= b ? w - b : w + (PMM_MAX_FRAMES / BITS_PER_WORD) - b;
}

/* Mark [pfn, pfn + n) allocated with count 1. */
static __always_inline void take_frames(u32 pfn, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		set_bit(pfn + i);
		mem_map[pfn + i] = (struct page){ .count = 1 };
	}
	nr_free -= n;
}

static void release_frame(u32 pfn)
{
	mem_map[pfn] = (struct page){ 0 };
	clear_bit(pfn);
	nr_free++;
	if (word_rank(pfn / BITS_PER_WORD) < word_rank(next_word))
		next_word = pfn / BITS_PER_WORD;
}

static phys_addr_t __alloc_frame(void)
{
	u32 words = (max_pfn + BITS_PER_WORD - 1) / BITS_PER_WORD;
	u32 n, w, pfn;

	if (nr_free == 0)
		return 0;
	/* Next fit: start at the first word (in search order) that may hold a free bit. */
	for (n = 0; n < words; n++) {
		w = next_word + n;
		if (w >= words)
			w -= words;
		if (frame_bitmap[w] == ~0u)
			continue;
		pfn = w * BITS_PER_WORD + (u32)__builtin_ctz(~frame_bitmap[w]);
		if (pfn >= max_pfn)
			continue;
		next_word = w;
		take_frames(pfn, 1);
		return PFN_PHYS(pfn);
	}
	return 0;	/* unreachable while nr_free is exact */
}

/* First naturally aligned free run of N frames in [from, to), or to. */
static u32 first_fit(u32 from, u32 to, u32 n)
{
	u32 pfn, i;

	for (pfn = ALIGN_UP(from, n); pfn + n <= to; ) {
		for (i = 0; i < n; i++)
			if (test_bit(pfn + i))
				break;
		if (i == n)
			return pfn;
		pfn = ALIGN_UP(pfn + i + 1, n);	/* skip past the busy bit */
	}
	return to;
}

static __always_inline phys_addr_t __alloc_pages(unsigned int order)
{
	u32 n, pfn, i;

	if (order >= MAX_ORDER)
		return 0;
	if (order == 0)
		return __alloc_frame();
	n = 1u << order;
	if (nr_free < n)
		return 0;
	/* From the base up; then, only when that fails, all of RAM. */
	pfn = first_fit(base_pfn, max_pfn, n);
	if (pfn == max_pfn && base_pfn)
		pfn = first_fit(0, max_pfn, n);
	if (pfn == max_pfn)
		return 0;
	take_frames(pfn, n);
	mem_map[pfn].flags = PG_head;
	mem_map[pfn].order = (u8)order;
	for (i = 1; i < n; i++) {
		mem_map[pfn + i].flags = PG_tail;
		mem_map[pfn + i].order = (u8)order;
	}
	return PFN_PHYS(pfn);
}

static __always_inline void __free_pages(phys_addr_t pa, unsigned int order)
{
	u32 pfn = PFN_DOWN(pa), n, i;

	if (order == 0) {
		__frame_put(pa);
		return;
	}
	n = 1u << order;
	if (order >= MAX_ORDER || (pa & ~PAGE_MASK) || pfn + n > max_pfn ||
	    (pfn & (n - 1)) || !(mem_map[pfn].flags & PG_head) ||
	    mem_map[pfn].order != order)
		bad_frame("free_pages (bad block or order)", pa);
	for (i = 0; i < n; i++) {
		if (mem_map[pfn + i].count != 1)
			bad_frame("free_pages (shared or free frame)", PFN_PHYS(pfn + i));
	}
	for (i = 0; i < n; i++)
		release_frame(pfn + i);
}

/* The struct page of an allocated frame, or a panic. */
static struct page *live_page(phys_addr_t pa, const char *what)
{
	u32 pfn = PFN_DOWN(pa);

	if ((pa & ~PAGE_MASK) || pfn >= max_pfn)
		bad_frame(what, pa);
	if (mem_map[pfn].count == 0)
		bad_frame(what, pa);	/* free, or reserved (count 0 too) */
	return &mem_map[pfn];
}

static void __frame_get(phys_addr_t pa)
{
	struct page *p = live_page(pa, "frame_get");

	if (p->count == 0xFFFF)
		bad_frame("frame_get (count overflow)", pa);
	p->count++;
}

static void __frame_put(phys_addr_t pa)
{
	struct page *p = live_page(pa, "frame_put");

	if (p->count == 1 && (p->flags & (PG_head | PG_tail)))
		bad_frame("frame_put of a multi-frame block (use free_pages)", pa);
	if (--p->count == 0)
		release_frame(PFN_DOWN(pa));
}

/*
 * The public entry points: the same with interrupts held off and, from the
 * moment a second CPU may run (smp_init()), zone->lock held.
 *
 * 2.6.35 takes zone->lock with interrupts off around the buddy lists
 * (rmqueue_bulk(), free_pcppages_bulk(), __rmqueue() under
 * spin_lock_irqsave()); Granule has one zone and no per-CPU page lists, so
 * every call takes it.  Irq-safe because frames are allocated and freed
 * with interrupts off (the reaper in the idle loop frees a dead task's
 * stack and page tables, a cross call may allocate: ktest=smp does) and
 * this file's contract lets an interrupt handler do it.  Without the giant
 * lock (an AP's cross call, the idle loop) it is the only exclusion.
 * Order: inside a kmalloc cache's list_lock (slab_create(), slab_destroy())
 * and large_lock (a large block's frames); nothing is taken under it but
 * logbuf_lock, by a panic's printk.
 *
 * Each entry point is compiled twice from one body, NAME_body(..., smp),
 * SMP a constant that picks LOCKED()'s locking: the uniprocessor copy,
 * the symbol every caller calls, has no lock site at all, and at more
 * than one possible CPU it jumps to the _smp copy (SMP_COPIES,
 * <kernel/smp_copies.h>): a -smp 1 boot runs the instructions it ran
 * before (docs/FASTPATHS.md).
 */

#define LOCKED(smp, call) ({ unsigned long __f; __typeof__(call) __r;		\
	if (smp)								\
		spin_lock_irqsave(&contig_zone.lock, __f);			\
	else									\
		local_irq_save(__f);						\
	__r = (call);								\
	if (smp)								\
		spin_unlock_irqrestore(&contig_zone.lock, __f);			\
	else									\
		local_irq_restore(__f);						\
	__r; })
/* A void call as an int one, for LOCKED(). */
#define VOIDCALL(call)	({ call; 0; })

static __always_inline phys_addr_t alloc_frame_body(int smp)
{
	return LOCKED(smp, __alloc_frame());
}
SMP_COPIES(phys_addr_t, alloc_frame, (void))

static __always_inline phys_addr_t alloc_pages_body(unsigned int order, int smp)
{
	return LOCKED(smp, __alloc_pages(order));
}
SMP_COPIES(phys_addr_t, alloc_pages, (unsigned int order), order)

static __always_inline void free_pages_body(phys_addr_t pa, unsigned int order, int smp)
{
	LOCKED(smp, VOIDCALL(__free_pages(pa, order)));
}
SMP_COPIES_VOID(free_pages, (phys_addr_t pa, unsigned int order), pa, order)

static __always_inline void frame_get_body(phys_addr_t pa, int smp)
{
	LOCKED(smp, VOIDCALL(__frame_get(pa)));
}
SMP_COPIES_VOID(frame_get, (phys_addr_t pa), pa)

static __always_inline void frame_put_body(phys_addr_t pa, int smp)
{
	LOCKED(smp, VOIDCALL(__frame_put(pa)));
}
SMP_COPIES_VOID(frame_put, (phys_addr_t pa), pa)

/* free_frame() is frame_put(): its own copies, so both are redirected */
#define free_frame_body frame_put_body
SMP_COPIES_VOID(free_frame, (phys_addr_t pa), pa)

/* The frame is zeroed outside the lock: it is the caller's already. */
static __always_inline phys_addr_t alloc_zeroed_frame_body(int smp)
{
	phys_addr_t pa = LOCKED(smp, __alloc_frame());

	if (pa)
		__builtin_memset(__va(pa), 0, PAGE_SIZE);
	return pa;
}
SMP_COPIES(phys_addr_t, alloc_zeroed_frame, (void))

unsigned int frame_refcount(phys_addr_t pa)
{
	u32 pfn = PFN_DOWN(pa);

	return pfn < max_pfn ? mem_map[pfn].count : 0;
}

struct page *phys_to_page(phys_addr_t pa)
{
	u32 pfn = PFN_DOWN(pa);

	return pfn < max_pfn ? &mem_map[pfn] : NULL;
}

unsigned long nr_free_frames(void)
{
	return nr_free;
}

__host_test_only unsigned long nr_total_frames(void)
{
	return nr_managed;
}
