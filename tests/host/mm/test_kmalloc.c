/*
 * tests/host/mm/test_kmalloc.c - the kernel heap (kernel/mm/kmalloc.c) over
 * the real frame allocator and a host arena.
 *
 * Layout: usable [1M, 16M) minus the reserved [1M, 2M) -> 14 MiB = 3584
 * frames; the exhaustion test re-initialises with a tiny 64-frame pool.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kernel/pmm.h>
#include <kernel/kmalloc.h>
#include <arch/irqflags.h>
#include "mm_test.h"

#define MiB		(1024u * 1024u)
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define ARENA		(16 * MiB)
#define STD_FRAMES	(14 * MiB / PAGE_SIZE)

static void init_pool(u32 usable_bytes)
{
	const struct mem_region usable[] = { { 1 * MiB, usable_bytes } };
	const struct mem_region reserved[] = { { 1 * MiB, 1 * MiB } };

	mm_arena(ARENA);
	pmm_init(usable, 1, reserved, 1);
	kmalloc_init();
}

static int setup(void **state)
{
	init_pool(15 * MiB);
	assert_int_equal(nr_total_frames(), STD_FRAMES);
	return 0;
}

/* Everything given back: no live object, no frame held after a shrink. */
static void assert_balanced(void)
{
	struct kmalloc_stats st;

	kmalloc_shrink();
	kmalloc_get_stats(&st);
	for (int i = 0; i < KMALLOC_NR_CACHES; i++) {
		assert_int_equal(st.cache[i].active_objs, 0);
		assert_int_equal(st.cache[i].slabs, 0);
	}
	assert_int_equal(st.large_allocs, 0);
	assert_int_equal(st.frames, 0);
	assert_int_equal(nr_free_frames(), nr_total_frames());
	assert_false(irqs_disabled());
}

static size_t class_of(size_t size)
{
	size_t c = KMALLOC_MIN_SIZE;

	while (c < size)
		c <<= 1;
	return c;
}

static void test_every_size_class(void **state)
{
	static const size_t sizes[] = {
		0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
		255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 2047, 2048,
	};
	void *p[NELEM(sizes)];
	struct kmalloc_stats st;

	for (size_t i = 0; i < NELEM(sizes); i++) {
		size_t want = sizes[i] ? sizes[i] : 1, cls = class_of(want);

		p[i] = kmalloc(sizes[i]);
		assert_non_null(p[i]);
		assert_int_equal(ksize(p[i]), cls);
		/* Objects are size-aligned (the arena is page-aligned). */
		assert_int_equal(((uintptr_t)p[i] - (uintptr_t)host_phys_base) % cls, 0);
		if (cls <= 512)		/* one-frame slab: never at its start */
			assert_int_not_equal((uintptr_t)p[i] % PAGE_SIZE, 0);
		memset(p[i], (int)i, cls);		/* ASan: whole class usable */
	}
	kmalloc_get_stats(&st);
	for (int c = 0; c < KMALLOC_NR_CACHES; c++) {
		u32 slab = PAGE_SIZE << st.cache[c].order;

		assert_int_equal(st.cache[c].size, KMALLOC_MIN_SIZE << c);
		/* Order rule: the waste of a slab is at most 1/8 of it. */
		assert_true(st.cache[c].objs_per_slab * st.cache[c].size >= slab - slab / 8);
		assert_true(st.cache[c].slabs >= 1);
	}
	for (size_t i = 0; i < NELEM(sizes); i++) {
		size_t cls = class_of(sizes[i] ? sizes[i] : 1);

		for (size_t b = 0; b < cls; b++)
			assert_int_equal(((u8 *)p[i])[b], (u8)i);
		kfree(p[i]);
	}
	kmalloc_get_stats(&st);
	assert_int_equal(st.nr_alloc, NELEM(sizes));
	assert_int_equal(st.nr_free, NELEM(sizes));
	assert_balanced();
}

static void test_large_allocations(void **state)
{
	static const struct { size_t size; unsigned int frames; } cases[] = {
		{ 2049, 1 }, { 4096, 1 }, { 4097, 2 }, { 8192, 2 }, { 8193, 4 },
		{ 100000, 32 }, { 1 * MiB, 256 }, { KMALLOC_MAX_SIZE, 1024 },
	};

	for (size_t i = 0; i < NELEM(cases); i++) {
		unsigned long before = nr_free_frames();
		u8 *p = kmalloc(cases[i].size);
		struct kmalloc_stats st;

		assert_non_null(p);
		assert_int_equal((uintptr_t)(p - host_phys_base) % PAGE_SIZE, 0);
		assert_int_equal(ksize(p), cases[i].frames * PAGE_SIZE);
		assert_int_equal(before - nr_free_frames(), cases[i].frames);
		kmalloc_get_stats(&st);
		assert_int_equal(st.large_allocs, 1);
		assert_int_equal(st.large_frames, cases[i].frames);
		memset(p, 0xA5, cases[i].size);
		p[cases[i].size - 1] = 1;
		kfree(p);
		assert_int_equal(nr_free_frames(), before);
	}
	assert_null(kmalloc(KMALLOC_MAX_SIZE + 1));
	assert_null(kmalloc(SIZE_MAX));
	assert_null(kzalloc(SIZE_MAX));
	assert_balanced();
}

struct live {
	u8 *p;
	size_t size;
	u32 tag;
};

static void fill(const struct live *l)
{
	for (size_t i = 0; i < l->size; i++)
		l->p[i] = (u8)(l->tag + i * 31);
}

static void check(const struct live *l)
{
	for (size_t i = 0; i < l->size; i++)
		if (l->p[i] != (u8)(l->tag + i * 31))
			fail_msg("object %p (size %zu) corrupted at byte %zu",
				 (void *)l->p, l->size, i);
}

static int cmp_live(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

/* Random sizes (mostly small, some large), random frees, content checked. */
static void test_random_stress(void **state)
{
	enum { MAXLIVE = 2000, STEPS = 40000 };
	static struct live live[MAXLIVE];
	unsigned int n = 0;

	mm_srand(12345);
	for (int step = 0; step < STEPS; step++) {
		u32 r = mm_rand();

		if (n < MAXLIVE && (n == 0 || r % 100 < 55)) {
			struct live *l = &live[n];
			u32 k = mm_rand() % 100;

			l->size = k < 90 ? 1 + mm_rand() % 2048 :
				  k < 99 ? 2049 + mm_rand() % 20000 :
					   1 + mm_rand() % (256 * 1024);
			l->p = kmalloc(l->size);
			assert_non_null(l->p);
			assert_true(ksize(l->p) >= l->size);
			l->tag = mm_rand();
			fill(l);
			n++;
		} else {
			unsigned int k = mm_rand() % n;

			check(&live[k]);
			kfree(live[k].p);
			live[k] = live[--n];
		}
		if (step % 5000 == 4999) {
			/* No overlap: sorted by address, each ends before the next. */
			qsort(live, n, sizeof(live[0]), cmp_live);
			for (unsigned int i = 0; i + 1 < n; i++)
				assert_true(live[i].p + ksize(live[i].p) <= live[i + 1].p);
			for (unsigned int i = 0; i < n; i++)
				check(&live[i]);
		}
	}
	while (n) {
		check(&live[n - 1]);
		kfree(live[--n].p);
	}
	assert_balanced();
}

static void test_exhaustion_returns_null(void **state)
{
	enum { FRAMES = 64 };
	static void *objs[FRAMES * 64];
	void *big[FRAMES + 1];
	struct kmalloc_stats st;
	unsigned int n = 0, nb = 0;

	init_pool(1 * MiB + FRAMES * PAGE_SIZE);
	assert_int_equal(nr_total_frames(), FRAMES);

	while ((objs[n] = kmalloc(64)) != NULL) {
		memset(objs[n], 0x11, 64);
		n++;
		assert_true(n < NELEM(objs));
	}
	kmalloc_get_stats(&st);
	/* Every frame became a 64-byte slab, each full. */
	assert_int_equal(nr_free_frames(), 0);
	assert_int_equal(n, FRAMES * st.cache[2].objs_per_slab);
	assert_int_equal(st.nr_fail, 1);
	assert_null(kmalloc(16));		/* another class: no frame for a slab */
	assert_null(kmalloc(4096));
	assert_null(kzalloc(3000));
	assert_false(irqs_disabled());

	while (n)
		kfree(objs[--n]);
	assert_balanced();

	/* Large blocks until none fits, then fragmentation refuses order 1. */
	while ((big[nb] = kmalloc(PAGE_SIZE)) != NULL)
		nb++;
	assert_int_equal(nb, FRAMES);
	for (unsigned int i = 0; i < nb; i += 2)
		kfree(big[i]);
	assert_int_equal(nr_free_frames(), FRAMES / 2);
	assert_null(kmalloc(2 * PAGE_SIZE));
	assert_non_null(big[0] = kmalloc(PAGE_SIZE));
	kfree(big[0]);
	for (unsigned int i = 1; i < nb; i += 2)
		kfree(big[i]);
	assert_balanced();
}

static void test_kzalloc_zeroes(void **state)
{
	for (size_t size = 16; size <= 16384; size *= 2) {
		u8 *p = kmalloc(size);

		memset(p, 0xFF, size);
		kfree(p);
		p = kzalloc(size);
		for (size_t i = 0; i < size; i++)
			assert_int_equal(p[i], 0);
		kfree(p);
	}
	assert_balanced();
}

static void test_spare_slab_and_shrink(void **state)
{
	unsigned long free0 = nr_free_frames();
	struct kmalloc_stats st;

	/* Ping-pong keeps one spare slab: no frame traffic after the first. */
	for (int i = 0; i < 1000; i++) {
		void *p = kmalloc(32);

		assert_int_equal(nr_free_frames(), free0 - 1);
		kfree(p);
		assert_int_equal(nr_free_frames(), free0 - 1);
	}
	kmalloc_get_stats(&st);
	assert_int_equal(st.cache[1].slabs, 1);
	assert_int_equal(st.frames, 1);
	kmalloc_shrink();
	assert_int_equal(nr_free_frames(), free0);

	/* Filling two slabs then freeing: one is kept, the other returned. */
	kmalloc_get_stats(&st);
	u32 per = st.cache[7].objs_per_slab;	/* 2048-byte class, order 2 */
	void *objs[64];

	assert_true(2 * per <= NELEM(objs));
	for (u32 i = 0; i < 2 * per; i++)
		objs[i] = kmalloc(2048);
	assert_int_equal(nr_free_frames(), free0 - 2 * 4);
	for (u32 i = 0; i < 2 * per; i++)
		kfree(objs[i]);
	assert_int_equal(nr_free_frames(), free0 - 4);
	assert_balanced();
}

static void test_kfree_misuse(void **state)
{
	u8 *p = kmalloc(100), *q = kmalloc(5000);
	phys_addr_t frame = alloc_frame();

	kfree(NULL);				/* fine */
	assert_int_equal(ksize(NULL), 0);
	EXPECT_PANIC(kfree(p + 8), "middle of an object");
	EXPECT_PANIC(kfree(q + 16), "not a kmalloc pointer");
	EXPECT_PANIC(kfree(host_phys_base + frame), "not a kmalloc pointer");
	EXPECT_PANIC(kfree(host_phys_base + 2 * MiB - PAGE_SIZE), "not an allocated frame");
	kfree(p);
	EXPECT_PANIC(kfree(p), "double free");
	kfree(q);
	EXPECT_PANIC(kfree(q), "not an allocated frame");
	free_frame(frame);
	assert_balanced();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_every_size_class, setup),
		cmocka_unit_test_setup(test_large_allocations, setup),
		cmocka_unit_test_setup(test_random_stress, setup),
		cmocka_unit_test_setup(test_exhaustion_returns_null, setup),
		cmocka_unit_test_setup(test_kzalloc_zeroes, setup),
		cmocka_unit_test_setup(test_spare_slab_and_shrink, setup),
		cmocka_unit_test_setup(test_kfree_misuse, setup),
	};

	return cmocka_run_group_tests_name("mm_kmalloc", tests, NULL, NULL);
}
