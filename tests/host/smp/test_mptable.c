/*
 * tests/host/smp/test_mptable.c - the Intel MP table parsers
 * (arch/x86/mptable.c): the floating pointer's checks and the scan for it,
 * SeaBIOS's configuration table (processors, a bus, an I/O APIC,
 * interrupt entries), the boot-processor and enabled flags, the default
 * configurations, and bad headers and entries.  Buffers are heap copies
 * of exactly their length (ASan).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include <arch/mpspec.h>
#include "tables.h"

static struct mp_config cfg;

static void mpf(struct tbuf *t, uint32_t physptr, uint8_t spec, uint8_t deflt)
{
	uint32_t at = t->len;

	putstr(t, "_MP_", 4);
	put32(t, physptr);
	put8(t, 1);		/* length: 1 paragraph */
	put8(t, spec);
	put8(t, 0);		/* checksum */
	put8(t, deflt);
	put8(t, 0); put8(t, 0); put8(t, 0); put8(t, 0);
	fix_checksum(t, at, 16, at + 10);
}

static void mpc_start(struct tbuf *t)
{
	memset(t, 0, sizeof(*t));
	putstr(t, "PCMP", 4);
	put16(t, 0);		/* length, later */
	put8(t, 4);		/* spec 1.4 */
	put8(t, 0);		/* checksum */
	putstr(t, "BOCHSCPU", 8);
	putstr(t, "0.1", 12);
	put32(t, 0); put16(t, 0); put16(t, 0);	/* OEM table, size, entry count */
	put32(t, 0xfee00000);
	put32(t, 0);
}

static void proc(struct tbuf *t, uint8_t apicid, uint8_t flags)
{
	put8(t, 0); put8(t, apicid); put8(t, 0x14); put8(t, flags);
	put32(t, 0x663); put32(t, 0x0781abfd); put32(t, 0); put32(t, 0);
}

static void entry8(struct tbuf *t, uint8_t type)
{
	put8(t, type);
	for (int i = 0; i < 7; i++)
		put8(t, 0);
}

static void mpc_done(struct tbuf *t)
{
	set16(t, 4, (uint16_t)t->len);
	fix_checksum(t, 0, t->len, 7);
}

#define parse_copy(t, len)	parse_heap_copy(mpc_parse, (t), (len), &cfg)

static void test_floating_pointer(void **state)
{
	struct tbuf t = { .len = 0 };

	mpf(&t, 0xf5430, 4, 0);
	assert_true(mpf_valid(t.b));
	t.b[9] = 2;				/* spec 1.2: not one Linux takes */
	fix_checksum(&t, 0, 16, 10);
	assert_false(mpf_valid(t.b));
	t.len = 0;
	mpf(&t, 0xf5430, 1, 0);
	t.b[8] = 2;				/* length 2 paragraphs */
	fix_checksum(&t, 0, 16, 10);
	assert_false(mpf_valid(t.b));
	t.len = 0;
	mpf(&t, 0xf5430, 4, 0);
	t.b[5] ^= 1;				/* checksum broken */
	assert_false(mpf_valid(t.b));
}

/* The scan finds a pointer only on a 16-byte boundary, the first valid one. */
static void test_scan(void **state)
{
	struct tbuf t = { .len = 0 };
	uint8_t *copy;

	memset(t.b, 0, sizeof(t.b));
	t.len = 0x208;
	mpf(&t, 0x1234, 4, 0);			/* at 0x208: not aligned */
	t.len = 0x300;
	memcpy(t.b + t.len, "_MP_", 4);		/* a bad one first */
	t.len += 16;
	mpf(&t, 0xf5430, 4, 0);			/* at 0x310 */
	copy = heap_copy(t.b, 1024);
	assert_int_equal(mpf_scan(copy, 1024), 0x310);
	assert_int_equal(mpf_scan(copy, 0x31f), -1);	/* cut before its last byte */
	assert_int_equal(mpf_scan(copy, 0x300), -1);
	free(copy);
}

/* SeaBIOS at -smp 4,sockets=4: four processors, CPU 0 the boot one, then a
 * bus, an I/O APIC and interrupt entries. */
static void test_seabios_table(void **state)
{
	struct tbuf t;

	mpc_start(&t);
	proc(&t, 0, 3);
	proc(&t, 1, 1);
	proc(&t, 2, 1);
	proc(&t, 3, 0);				/* listed but not enabled */
	entry8(&t, 1);
	entry8(&t, 2);
	for (int i = 0; i < 5; i++)
		entry8(&t, 3);
	entry8(&t, 4);
	mpc_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.spec, 4);
	assert_int_equal(cfg.lapic_addr, 0xfee00000);
	assert_string_equal(cfg.oem, "BOCHSCPU");
	assert_string_equal(cfg.product, "0.1");
	assert_int_equal(cfg.nr_cpus, 4);
	assert_true(cfg.cpus[0].bsp && cfg.cpus[0].enabled);
	assert_false(cfg.cpus[1].bsp);
	assert_int_equal(cfg.cpus[2].apicid, 2);
	assert_int_equal(cfg.cpus[2].version, 0x14);
	assert_false(cfg.cpus[3].enabled);
}

static void test_bad_headers(void **state)
{
	struct tbuf t;

	mpc_start(&t);
	proc(&t, 0, 3);
	mpc_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(parse_copy(&t, t.len - 1), -1);	/* length beyond the buffer */
	for (uint32_t n = 0; n < 44; n++)
		assert_int_equal(parse_copy(&t, n), -1);
	t.b[20] ^= 0x20;					/* checksum */
	assert_int_equal(parse_copy(&t, t.len), -1);
	t.b[20] ^= 0x20;
	t.b[6] = 2;						/* version 1.2 */
	fix_checksum(&t, 0, t.len, 7);
	assert_int_equal(parse_copy(&t, t.len), -1);
	t.b[6] = 4;
	set32(&t, 36, 0);					/* no local APIC address */
	fix_checksum(&t, 0, t.len, 7);
	assert_int_equal(parse_copy(&t, t.len), -1);
}

/* An unknown entry type, or a processor entry cut by the table's end, ends
 * the walk ("wrong mptable"): what came before is kept. */
static void test_bad_entries(void **state)
{
	struct tbuf t;

	mpc_start(&t);
	proc(&t, 0, 3);
	entry8(&t, 9);
	proc(&t, 1, 1);
	mpc_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 1);

	mpc_start(&t);
	proc(&t, 0, 3);
	proc(&t, 1, 1);
	t.len -= 4;					/* the second one cut short */
	mpc_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 1);
}

/* Default configuration 5 (ISA + PCI, integrated APICs) and 1 (82489DX). */
static void test_default_configs(void **state)
{
	mp_default_config(5, &cfg);
	assert_int_equal(cfg.nr_cpus, 2);
	assert_int_equal(cfg.cpus[1].apicid, 1);
	assert_int_equal(cfg.cpus[1].version, 0x10);
	assert_true(cfg.cpus[0].bsp);
	mp_default_config(1, &cfg);
	assert_int_equal(cfg.cpus[0].version, 0x01);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_floating_pointer),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_seabios_table),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_bad_entries),
		cmocka_unit_test(test_default_configs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
