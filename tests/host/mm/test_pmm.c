/*
 * tests/host/mm/test_pmm.c - the physical frame allocator (kernel/mm/pmm.c)
 * against a 32 MiB host arena standing for physical 0..32 MiB.
 *
 * Standard layout of most tests: usable [0, 640K) + [1M, 32M), the "kernel
 * image" reserved at [1M, 3M).  Low 1 MiB is always reserved by pmm_init,
 * so the managed frames are [3M, 32M) = 29 MiB / 4 KiB = 7424 frames.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kernel/pmm.h>
#include <arch/irqflags.h>
#include "mm_test.h"

#define MiB		(1024u * 1024u)
#define ARENA		(32 * MiB)
#define STD_FRAMES	((32 - 3) * MiB / PAGE_SIZE)	/* 7424 */

static void std_init(void)
{
	static const struct mem_region usable[] = {
		{ 0, 640 * 1024 }, { 1 * MiB, 31 * MiB },
	};
	static const struct mem_region reserved[] = { { 1 * MiB, 2 * MiB } };

	mm_arena(ARENA);
	pmm_init(usable, 2, reserved, 1);
}

static int setup(void **state)
{
	std_init();
	return 0;
}

static void assert_irqs_on(void)
{
	assert_false(irqs_disabled());
}

static void test_init_accounting(void **state)
{
	assert_int_equal(nr_total_frames(), STD_FRAMES);
	assert_int_equal(nr_free_frames(), STD_FRAMES);
	assert_int_equal(frame_refcount(3 * MiB), 0);
	assert_non_null(phys_to_page(3 * MiB));
	assert_null(phys_to_page(32 * MiB));	/* past max_pfn */
	assert_true(phys_to_page(2 * MiB)->flags & PG_reserved);
}

static void test_init_unaligned_overlapping_regions(void **state)
{
	/* Unsorted, overlapping, unaligned; a reserved range mid-frame. */
	const struct mem_region usable[] = {
		{ 0x300001, 0x4fff },		/* ends 0x305000: frames 0x301..0x304 */
		{ 0x200000, 0x2000 },		/* 0x200, 0x201 */
		{ 0x201000, 0x2000 },		/* overlaps: adds 0x202 */
		{ 0x400000, 0 },		/* empty */
	};
	const struct mem_region reserved[] = { { 0x302800, 0x10 } };	/* kills 0x302 */

	pmm_init(usable, 4, reserved, 1);
	assert_int_equal(nr_total_frames(), 3 + 4 - 1);
	assert_int_equal(nr_free_frames(), 6);
	assert_true(phys_to_page(0x302000)->flags & PG_reserved);
	assert_true(phys_to_page(0x300000)->flags & PG_reserved);	/* partial frame */
	for (int i = 0; i < 6; i++) {
		phys_addr_t pa = alloc_frame();

		assert_true(pa == 0x200000 || pa == 0x201000 || pa == 0x202000 ||
			    pa == 0x301000 || pa == 0x303000 || pa == 0x304000);
	}
	assert_int_equal(alloc_frame(), 0);
}

static void test_init_caps_lowmem_and_low_1m(void **state)
{
	/* 4 GiB "usable": only 1M..768M is managed; nothing touched. */
	const struct mem_region usable[] = { { 0, 0x100000000ull } };
	const struct mem_region above[] = { { 0x40000000ull, 0x10000000ull } };

	pmm_init(usable, 1, NULL, 0);
	assert_int_equal(nr_total_frames(), (LOWMEM_LIMIT - MiB) / PAGE_SIZE);
	assert_int_equal(nr_total_frames(), PMM_MAX_FRAMES - 256);

	pmm_init(above, 1, NULL, 0);		/* all of it above 768 MiB */
	assert_int_equal(nr_total_frames(), 0);
	assert_int_equal(alloc_frame(), 0);

	/* A wrapping region (base + len overflows u64) is ignored. */
	const struct mem_region wrap[] = { { 0xFFFFFFFFFFFFF000ull, 0x2000 } };
	pmm_init(wrap, 1, NULL, 0);
	assert_int_equal(nr_total_frames(), 0);
	std_init();
}

static void test_exhaustion_returns_zero(void **state)
{
	static phys_addr_t got[STD_FRAMES];
	u8 *arena = host_phys_base;

	for (unsigned int i = 0; i < STD_FRAMES; i++) {
		got[i] = alloc_frame();
		assert_int_not_equal(got[i], 0);
		assert_int_equal(got[i] % PAGE_SIZE, 0);
		assert_true(got[i] >= 3 * MiB && got[i] < 32 * MiB);
		assert_int_equal(frame_refcount(got[i]), 1);
		/* Stamp the whole frame: overlap would be caught below. */
		memset(arena + got[i], (int)(i & 0xff), PAGE_SIZE);
		*(u32 *)(arena + got[i]) = i;
		assert_int_equal(nr_free_frames(), STD_FRAMES - i - 1);
	}
	assert_irqs_on();
	assert_int_equal(alloc_frame(), 0);
	assert_int_equal(alloc_frame(), 0);		/* still 0, no panic */
	assert_int_equal(alloc_zeroed_frame(), 0);
	assert_int_equal(alloc_pages(0), 0);
	assert_int_equal(alloc_pages(3), 0);
	assert_int_equal(nr_free_frames(), 0);

	for (unsigned int i = 0; i < STD_FRAMES; i++) {
		assert_int_equal(*(u32 *)(arena + got[i]), i);
		assert_int_equal(arena[got[i] + PAGE_SIZE - 1], i & 0xff);
	}
	/* Free one in the middle: it is the next one handed out. */
	free_frame(got[1234]);
	assert_int_equal(nr_free_frames(), 1);
	assert_int_equal(alloc_frame(), got[1234]);
	for (unsigned int i = 0; i < STD_FRAMES; i++)
		free_frame(got[i]);
	assert_int_equal(nr_free_frames(), STD_FRAMES);
	assert_irqs_on();
}

/* Random alloc/free with a shadow list: nr_free is exact at every step. */
static void test_random_sequences_exact_counts(void **state)
{
	static phys_addr_t live[STD_FRAMES];
	static u8 owned[ARENA / PAGE_SIZE];
	unsigned int nlive = 0;

	for (u32 seed = 1; seed <= 4; seed++) {
		mm_srand(seed * 7919);
		for (int step = 0; step < 30000; step++) {
			u32 r = mm_rand();
			/* Bias towards allocation in the first half, freeing after. */
			int alloc = (r % 100) < (step < 15000 ? 65u : 35u);

			if (alloc) {
				phys_addr_t pa = alloc_frame();

				if (nlive == STD_FRAMES) {
					assert_int_equal(pa, 0);
					continue;
				}
				assert_int_not_equal(pa, 0);
				assert_int_equal(owned[pa / PAGE_SIZE], 0);
				owned[pa / PAGE_SIZE] = 1;
				live[nlive++] = pa;
			} else if (nlive) {
				unsigned int k = mm_rand() % nlive;

				owned[live[k] / PAGE_SIZE] = 0;
				free_frame(live[k]);
				live[k] = live[--nlive];
			}
			assert_int_equal(nr_free_frames(), STD_FRAMES - nlive);
		}
		while (nlive) {
			owned[live[nlive - 1] / PAGE_SIZE] = 0;
			free_frame(live[--nlive]);
		}
		assert_int_equal(nr_free_frames(), STD_FRAMES);
	}
}

static void test_refcounts(void **state)
{
	unsigned long saves0 = host_irq_saves;
	phys_addr_t pa = alloc_frame();
	unsigned long free0 = nr_free_frames();

	assert_true(host_irq_saves > saves0);	/* ran with interrupts held off */

	assert_int_equal(frame_refcount(pa), 1);
	frame_get(pa);
	frame_get(pa);
	assert_int_equal(frame_refcount(pa), 3);
	frame_put(pa);
	assert_int_equal(frame_refcount(pa), 2);
	free_frame(pa);				/* == frame_put */
	assert_int_equal(frame_refcount(pa), 1);
	assert_int_equal(nr_free_frames(), free0);	/* still held */
	frame_put(pa);
	assert_int_equal(frame_refcount(pa), 0);
	assert_int_equal(nr_free_frames(), free0 + 1);
	assert_irqs_on();

	/* Count up to the u16 limit, then one more is a bug. */
	pa = alloc_frame();
	for (unsigned int i = 1; i < 0xFFFF; i++)
		frame_get(pa);
	assert_int_equal(frame_refcount(pa), 0xFFFF);
	EXPECT_PANIC(frame_get(pa), "count overflow");
	for (unsigned int i = 0; i < 0xFFFF; i++)
		frame_put(pa);
	assert_int_equal(frame_refcount(pa), 0);
	assert_int_equal(nr_free_frames(), STD_FRAMES);
}

static void test_misuse_panics(void **state)
{
	phys_addr_t pa = alloc_frame(), blk;

	free_frame(pa);
	EXPECT_PANIC(free_frame(pa), "frame_put");		/* double free */
	EXPECT_PANIC(frame_get(pa), "frame_get");		/* get of a free frame */
	EXPECT_PANIC(free_frame(2 * MiB), "frame_put");	/* reserved (kernel) */
	EXPECT_PANIC(free_frame(0), "frame_put");		/* low 1 MiB */
	EXPECT_PANIC(free_frame(40 * MiB), "frame_put");	/* not RAM */
	pa = alloc_frame();
	EXPECT_PANIC(free_frame(pa + 8), "frame_put");		/* not frame-aligned */
	free_frame(pa);

	blk = alloc_pages(2);
	EXPECT_PANIC(free_pages(blk, 1), "free_pages");		/* wrong order */
	EXPECT_PANIC(free_pages(blk + PAGE_SIZE, 2), "free_pages");	/* not head */
	EXPECT_PANIC(frame_put(blk), "multi-frame");
	free_pages(blk, 2);
	EXPECT_PANIC(free_pages(blk, 2), "free_pages");		/* double free */
	assert_int_equal(nr_free_frames(), STD_FRAMES);
}

static void test_alloc_pages_contiguous_aligned(void **state)
{
	phys_addr_t blocks[MAX_ORDER];
	unsigned long used = 0;

	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		u32 n = 1u << order;

		blocks[order] = alloc_pages(order);
		assert_int_not_equal(blocks[order], 0);
		assert_int_equal(blocks[order] % (PAGE_SIZE * n), 0);
		used += n;
		assert_int_equal(nr_free_frames(), STD_FRAMES - used);
		for (u32 i = 0; i < n; i++)
			assert_int_equal(frame_refcount(blocks[order] + i * PAGE_SIZE), 1);
		if (order) {
			assert_true(phys_to_page(blocks[order])->flags & PG_head);
			assert_true(phys_to_page(blocks[order] + PAGE_SIZE)->flags & PG_tail);
		}
		memset(host_phys_base + blocks[order], 0x5a, PAGE_SIZE * n);
	}
	/* Disjoint: each block is inside the arena and none overlap. */
	for (unsigned int a = 0; a < MAX_ORDER; a++)
		for (unsigned int b = a + 1; b < MAX_ORDER; b++) {
			u64 a0 = blocks[a], a1 = a0 + (PAGE_SIZE << a);
			u64 b0 = blocks[b], b1 = b0 + (PAGE_SIZE << b);

			assert_true(a1 <= b0 || b1 <= a0);
		}
	assert_int_equal(alloc_pages(MAX_ORDER), 0);
	assert_int_equal(alloc_pages(100), 0);
	for (unsigned int order = 0; order < MAX_ORDER; order++)
		free_pages(blocks[order], order);
	assert_int_equal(nr_free_frames(), STD_FRAMES);
	assert_irqs_on();
}

static void test_alloc_pages_fragmentation(void **state)
{
	static phys_addr_t got[STD_FRAMES];
	unsigned int i;

	for (i = 0; i < STD_FRAMES; i++)
		got[i] = alloc_frame();
	for (i = 0; i < STD_FRAMES; i += 2)	/* free every other frame */
		free_frame(got[i]);
	assert_int_equal(nr_free_frames(), STD_FRAMES / 2);
	assert_int_equal(alloc_pages(1), 0);	/* plenty free, none adjacent */
	free_frame(got[1]);			/* got[0..2] now a free run of 3 */
	phys_addr_t pa = alloc_pages(1);
	assert_int_not_equal(pa, 0);
	assert_int_equal(pa % (2 * PAGE_SIZE), 0);
	assert_true(pa >= got[0] && pa + 2 * PAGE_SIZE <= got[2] + PAGE_SIZE);
	free_pages(pa, 1);
	for (i = 3; i < STD_FRAMES; i += 2)
		free_frame(got[i]);
	assert_int_equal(nr_free_frames(), STD_FRAMES);
	/* Everything free again: the largest order fits. */
	pa = alloc_pages(MAX_ORDER - 1);
	assert_int_not_equal(pa, 0);
	free_pages(pa, MAX_ORDER - 1);
}

static void test_zeroed_frame(void **state)
{
	phys_addr_t pa = alloc_frame();

	memset(host_phys_base + pa, 0xEE, PAGE_SIZE);
	free_frame(pa);
	pa = alloc_zeroed_frame();
	for (unsigned int i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(host_phys_base[pa + i], 0);
	free_frame(pa);
}

/*
 * Searches start at ALLOC_BASE (16 MiB) when RAM reaches 32 MiB, so what a
 * caller gets does not depend on where the kernel image ends; they wrap to
 * the frames below only when everything above is taken.  Below 32 MiB of
 * RAM they start at frame 0 (the first free frame past the image).
 */
static void test_search_starts_at_fixed_base(void **state)
{
	const struct mem_region small[] = { { 1 * MiB, 15 * MiB } };
	const struct mem_region reserved[] = { { 1 * MiB, 2 * MiB } };
	phys_addr_t pa, blk;
	unsigned long above = (32 - 16) * MiB / PAGE_SIZE, n;

	assert_int_equal(alloc_frame(), 16 * MiB);
	assert_int_equal(alloc_pages(2), 16 * MiB + 4 * PAGE_SIZE);	/* aligned past it */
	free_pages(16 * MiB + 4 * PAGE_SIZE, 2);
	free_frame(16 * MiB);

	/* Take every frame above the base: the next ones come from below. */
	for (n = 0; n < above; n++)
		assert_true(alloc_frame() >= 16 * MiB);
	pa = alloc_frame();
	assert_int_equal(pa, 3 * MiB);
	blk = alloc_pages(1);
	assert_int_equal(blk, 3 * MiB + 2 * PAGE_SIZE);
	/* A frame freed above the base is again the first choice. */
	free_frame(20 * MiB);
	assert_int_equal(alloc_frame(), 20 * MiB);
	assert_int_equal(nr_free_frames(), STD_FRAMES - above - 1 - 2);

	/* 16 MiB of RAM: no fixed base, first fit past the image. */
	pmm_init(small, 1, reserved, 1);
	assert_int_equal(alloc_frame(), 3 * MiB);
	assert_int_equal(alloc_pages(1), 3 * MiB + 2 * PAGE_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_accounting, setup),
		cmocka_unit_test_setup(test_init_unaligned_overlapping_regions, setup),
		cmocka_unit_test_setup(test_init_caps_lowmem_and_low_1m, setup),
		cmocka_unit_test_setup(test_exhaustion_returns_zero, setup),
		cmocka_unit_test_setup(test_random_sequences_exact_counts, setup),
		cmocka_unit_test_setup(test_refcounts, setup),
		cmocka_unit_test_setup(test_misuse_panics, setup),
		cmocka_unit_test_setup(test_alloc_pages_contiguous_aligned, setup),
		cmocka_unit_test_setup(test_alloc_pages_fragmentation, setup),
		cmocka_unit_test_setup(test_zeroed_frame, setup),
		cmocka_unit_test_setup(test_search_starts_at_fixed_base, setup),
	};

	return cmocka_run_group_tests_name("mm_pmm", tests, NULL, NULL);
}
