/*
 * tests/host/mm/mm_test.h - helpers shared by the pmm and kmalloc tests.
 *
 * The "physical memory" is a page-aligned host arena: physical address P is
 * host_phys_base + P (kernel/mm.h under HOST_TEST).  panic() is faked: it
 * records the message and longjmps to *mm_panic_jmp when a test expects a
 * panic (EXPECT_PANIC), otherwise it fails the running test.
 */
#ifndef TESTS_HOST_MM_TEST_H
#define TESTS_HOST_MM_TEST_H

#include <setjmp.h>
#include <kernel/types.h>

extern jmp_buf *mm_panic_jmp;
extern char mm_panic_msg[256];
extern int mm_panic_calls;

/* Run STMT; assert it panicked with a message containing WHAT. */
#define EXPECT_PANIC(stmt, what) do { \
	jmp_buf __jb; \
	int __before = mm_panic_calls; \
	mm_panic_jmp = &__jb; \
	if (setjmp(__jb) == 0) { \
		stmt; \
		mm_panic_jmp = NULL; \
		fail_msg("no panic from: %s", #stmt); \
	} \
	mm_panic_jmp = NULL; \
	assert_int_equal(mm_panic_calls, __before + 1); \
	assert_non_null(strstr(mm_panic_msg, (what))); \
} while (0)

/* Allocate (once) an arena of SIZE bytes and point host_phys_base at it. */
u8 *mm_arena(size_t size);

/* Deterministic PRNG (xorshift32) for the random sequences. */
u32 mm_rand(void);
void mm_srand(u32 seed);

#endif
