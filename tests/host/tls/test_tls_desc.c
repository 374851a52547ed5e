/*
 * tests/host/tls/test_tls_desc.c - tls_desc_from_user / tls_desc_to_user
 * (arch/x86/tls_desc.c): the descriptor bits of glibc's usual TLS
 * user_desc, every field's position, the empty patterns, what
 * tls_desc_okay refuses, and the round trip user_desc -> desc -> user_desc.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/errno.h>
#include <arch/tls.h>

_Static_assert(sizeof(struct user_desc) == 16, "struct user_desc is 16 bytes (Linux ABI)");
_Static_assert(sizeof(struct desc_struct) == 8, "a descriptor is 8 bytes");

/* glibc's TLS_INIT_TP: flat 4 GiB 32-bit writable data, limit in pages. */
static struct user_desc flat(u32 base)
{
	struct user_desc u;

	memset(&u, 0, sizeof(u));
	u.entry_number = (u32)-1;
	u.base_addr = base;
	u.limit = 0xfffff;
	u.seg_32bit = 1;
	u.limit_in_pages = 1;
	return u;
}

static void test_flat_data_segment(void **state)
{
	struct user_desc u = flat(0x12345678);
	struct desc_struct d = { 1, 1 };

	assert_int_equal(tls_desc_from_user(&u, &d), 0);
	/* limit 0xffff | base[15:0] */
	assert_int_equal(d.a, 0x5678ffffu);
	/* base 0x12 << 24 | G D | limit 0xf | P DPL3 S type 3 (rw, accessed) | base 0x34 */
	assert_int_equal(d.b, 0x12cff334u);
	assert_false(tls_desc_is_empty(&d));
}

static void test_each_field(void **state)
{
	struct user_desc u = flat(0);
	struct desc_struct d;

	u.limit = 0x12345;		/* limit is 20 bits: the rest is dropped */
	u.limit_in_pages = 0;
	u.seg_32bit = 1;
	u.read_exec_only = 1;		/* read-only: type bit 1 clear */
	u.contents = 1;			/* expand-down: type bit 2 */
	u.useable = 1;			/* AVL */
	assert_int_equal(tls_desc_from_user(&u, &d), 0);
	assert_int_equal(d.a, 0x00002345u);
	assert_int_equal(d.b, 0x0051f500u);	/* D AVL limit 1 | P DPL3 S type 5 */
}

static void test_empty_patterns_clear(void **state)
{
	struct user_desc e, z;
	struct desc_struct d = { 0xdead, 0xbeef };

	memset(&e, 0, sizeof(e));	/* LDT_empty */
	e.entry_number = 7;
	e.read_exec_only = 1;
	e.seg_not_present = 1;
	assert_true(tls_user_desc_empty(&e));
	assert_int_equal(tls_desc_from_user(&e, &d), 0);
	assert_true(tls_desc_is_empty(&d));

	memset(&z, 0, sizeof(z));	/* LDT_zero */
	z.entry_number = 6;
	d.a = d.b = 1;
	assert_true(tls_user_desc_empty(&z));
	assert_int_equal(tls_desc_from_user(&z, &d), 0);
	assert_true(tls_desc_is_empty(&d));

	e.useable = 1;			/* no longer the empty pattern ... */
	assert_false(tls_user_desc_empty(&e));
	assert_int_equal(tls_desc_from_user(&e, &d), -EINVAL);	/* ... and not present */
}

static void test_refused(void **state)
{
	struct desc_struct d = { 0x11, 0x22 };
	struct user_desc u;

	for (u32 c = 2; c <= 3; c++) {	/* code, conforming code */
		u = flat(0x1000);
		u.contents = c;
		assert_int_equal(tls_desc_from_user(&u, &d), -EINVAL);
	}
	u = flat(0x1000);
	u.seg_32bit = 0;		/* 16-bit: would need espfix */
	assert_int_equal(tls_desc_from_user(&u, &d), -EINVAL);
	u = flat(0x1000);
	u.seg_not_present = 1;
	assert_int_equal(tls_desc_from_user(&u, &d), -EINVAL);
	u = flat(0);			/* base 0, otherwise zero but 32-bit: a segment */
	u.limit = 0;
	u.limit_in_pages = 0;
	assert_int_equal(tls_desc_from_user(&u, &d), 0);
	assert_false(tls_desc_is_empty(&d));
	d.a = 0x11;
	d.b = 0x22;
	u.seg_32bit = 0;		/* now LDT_zero */
	assert_int_equal(tls_desc_from_user(&u, &d), 0);
	assert_true(tls_desc_is_empty(&d));
	/* a refused user_desc leaves OUT alone */
	d.a = 0x11;
	d.b = 0x22;
	u = flat(0x1000);
	u.contents = 3;
	tls_desc_from_user(&u, &d);
	assert_int_equal(d.a, 0x11);
	assert_int_equal(d.b, 0x22);
}

static void round_trip(struct user_desc u, u32 idx)
{
	struct desc_struct d;
	struct user_desc back;

	u.entry_number = idx;
	assert_int_equal(tls_desc_from_user(&u, &d), 0);
	memset(&back, 0xff, sizeof(back));
	tls_desc_to_user(&d, idx, &back);
	assert_memory_equal(&back, &u, sizeof(u));	/* the unused bits are 0 too */
}

static void test_round_trip(void **state)
{
	static const u32 bases[] = { 0, 1, 0xffff, 0x10000, 0x00ff0000, 0xff000000, 0xdeadbeef, 0xffffffff };
	struct user_desc u;

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		for (u32 bits = 0; bits < 32; bits++) {
			memset(&u, 0, sizeof(u));
			u.base_addr = bases[i];
			u.limit = (bases[i] * 7) & 0xfffff;
			u.seg_32bit = 1;
			u.contents = bits & 1;
			u.read_exec_only = (bits >> 1) & 1;
			u.limit_in_pages = (bits >> 2) & 1;
			u.useable = (bits >> 3) & 1;
			round_trip(u, 6 + (bits % 3));
		}
}

static void test_empty_reads_back_empty(void **state)
{
	struct desc_struct d = { 0, 0 };
	struct user_desc u, want;

	memset(&u, 0xff, sizeof(u));
	tls_desc_to_user(&d, 8, &u);
	memset(&want, 0, sizeof(want));
	want.entry_number = 8;
	want.read_exec_only = 1;
	want.seg_not_present = 1;
	assert_memory_equal(&u, &want, sizeof(u));
	assert_true(tls_user_desc_empty(&u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_data_segment),
		cmocka_unit_test(test_each_field),
		cmocka_unit_test(test_empty_patterns_clear),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_empty_reads_back_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
