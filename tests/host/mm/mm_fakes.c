/*
 * tests/host/mm/mm_fakes.c - the kernel services pmm.c and kmalloc.c need
 * on the host: panic() (recording, longjmp-able), an arena, a PRNG.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <arch/irqflags.h>
#include "mm_test.h"

jmp_buf *mm_panic_jmp;
char mm_panic_msg[256];
int mm_panic_calls;

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mm_panic_msg, sizeof(mm_panic_msg), fmt, ap);
	va_end(ap);
	mm_panic_calls++;
	local_irq_enable();	/* a real panic never returns; reset */
	if (mm_panic_jmp)
		longjmp(*mm_panic_jmp, 1);
	fail_msg("unexpected panic: %s", mm_panic_msg);
	abort();
}

int printk(const char *fmt, ...)
{
	return 0;
}

u8 *mm_arena(size_t size)
{
	static u8 *arena;
	static size_t arena_size;

	if (arena_size < size) {
		free(arena);
		arena = aligned_alloc(PAGE_SIZE, size);
		assert_non_null(arena);
		arena_size = size;
	}
	host_phys_base = arena;
	return arena;
}

static u32 rng_state = 2463534242u;

void mm_srand(u32 seed)
{
	rng_state = seed ? seed : 2463534242u;
}

u32 mm_rand(void)
{
	u32 x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}
