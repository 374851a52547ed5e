/*
 * tests/host/smp/test_madt.c - madt_parse() (arch/x86/madt.c) on MADTs
 * built byte by byte: QEMU's (one Local APIC entry per CPU, an I/O APIC,
 * interrupt overrides), disabled entries, the address override, x2APIC
 * entries, and bad lengths.  Every buffer is a heap copy of exactly its
 * length, so ASan catches a read past the end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include <arch/mpspec.h>
#include "tables.h"

static struct mp_config cfg;

/* The 44-byte MADT header; its length is set by madt_done(). */
static void madt_start(struct tbuf *t)
{
	memset(t, 0, sizeof(*t));
	putstr(t, "APIC", 4);
	put32(t, 0);			/* length, later */
	put8(t, 3);			/* revision */
	put8(t, 0);			/* checksum */
	putstr(t, "BOCHS ", 6);
	putstr(t, "BXPC    ", 8);
	put32(t, 1);
	put32(t, 0x43505842);
	put32(t, 1);
	put32(t, 0xfee00000);		/* local APIC address */
	put32(t, 1);			/* PCAT_COMPAT */
}

static void lapic(struct tbuf *t, uint8_t acpi_id, uint8_t apic_id, uint32_t flags)
{
	put8(t, 0); put8(t, 8); put8(t, acpi_id); put8(t, apic_id); put32(t, flags);
}

static void ioapic(struct tbuf *t)
{
	put8(t, 1); put8(t, 12); put8(t, 0); put8(t, 0); put32(t, 0xfec00000); put32(t, 0);
}

static void madt_done(struct tbuf *t)
{
	set32(t, 4, t->len);
	fix_checksum(t, 0, t->len, 9);
}

#define parse_copy(t, len)	parse_heap_copy(madt_parse, (t), (len), &cfg)

static void test_qemu_four_cpus(void **state)
{
	struct tbuf t;

	madt_start(&t);
	for (int i = 0; i < 4; i++)
		lapic(&t, (uint8_t)i, (uint8_t)i, 1);
	ioapic(&t);
	put8(&t, 2); put8(&t, 10); put8(&t, 0); put8(&t, 0); put32(&t, 2); put16(&t, 0);	/* override */
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 4);
	assert_int_equal(cfg.lapic_addr, 0xfee00000);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(cfg.cpus[i].apicid, i);
		assert_int_equal(cfg.cpus[i].acpi_id, i);
		assert_true(cfg.cpus[i].enabled);
	}
	assert_int_equal(cfg.x2apic, 0);
}

/* Entries keep table order; a disabled one is listed, not enabled; APIC
 * ids need not be dense or in order. */
static void test_disabled_and_sparse(void **state)
{
	struct tbuf t;

	madt_start(&t);
	lapic(&t, 0, 0, 1);
	lapic(&t, 1, 6, 0);		/* a core the firmware turned off */
	lapic(&t, 2, 4, 1);
	lapic(&t, 3, 2, 3);		/* enabled | online-capable */
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 4);
	assert_int_equal(cfg.cpus[1].apicid, 6);
	assert_false(cfg.cpus[1].enabled);
	assert_int_equal(cfg.cpus[2].apicid, 4);
	assert_true(cfg.cpus[3].enabled);
}

static void test_address_override_and_x2apic(void **state)
{
	struct tbuf t;

	madt_start(&t);
	lapic(&t, 0, 0, 1);
	put8(&t, 5); put8(&t, 12); put16(&t, 0); put32(&t, 0xfed00000); put32(&t, 0);
	put8(&t, 9); put8(&t, 16); put16(&t, 0); put32(&t, 300); put32(&t, 1); put32(&t, 7);
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.lapic_addr, 0xfed00000);
	assert_int_equal(cfg.nr_cpus, 1);
	assert_int_equal(cfg.x2apic, 1);
}

/* A zero-length entry, an entry running past the end, a too-short Local
 * APIC entry: the walk stops or skips, never reads past the table. */
static void test_bad_entries(void **state)
{
	struct tbuf t;

	madt_start(&t);
	lapic(&t, 0, 0, 1);
	put8(&t, 0); put8(&t, 0);	/* length 0: the walk must end here */
	lapic(&t, 1, 1, 1);
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 1);

	madt_start(&t);
	lapic(&t, 0, 0, 1);
	put8(&t, 0); put8(&t, 40); put8(&t, 1); put8(&t, 1);	/* runs past the end */
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 1);

	madt_start(&t);
	put8(&t, 0); put8(&t, 4); put8(&t, 1); put8(&t, 1);	/* a Local APIC entry of 4 bytes */
	lapic(&t, 2, 2, 1);
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 1);
	assert_int_equal(cfg.cpus[0].apicid, 2);
}

/* The table's own length bounds the walk when the buffer is longer, and a
 * buffer shorter than the table bounds it too; every prefix parses or is
 * refused without a read past it. */
static void test_lengths(void **state)
{
	struct tbuf t;

	madt_start(&t);
	lapic(&t, 0, 0, 1);
	lapic(&t, 1, 1, 1);
	madt_done(&t);
	lapic(&t, 2, 2, 1);		/* beyond the table's length field */
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 2);
	for (uint32_t n = 0; n < 44; n++)
		assert_int_equal(parse_copy(&t, n), -1);
	assert_int_equal(parse_copy(&t, 44 + 8 + 7), 0);
	assert_int_equal(cfg.nr_cpus, 1);	/* the second entry is cut */
	memcpy(t.b, "FACP", 4);
	assert_int_equal(parse_copy(&t, t.len), -1);
}

/* More entries than MP_MAX_CPUS: all counted, the first MP_MAX_CPUS kept. */
static void test_many_entries(void **state)
{
	struct tbuf t;

	madt_start(&t);
	for (int i = 0; i < 300; i++)
		lapic(&t, (uint8_t)i, (uint8_t)i, 1);
	madt_done(&t);
	assert_int_equal(parse_copy(&t, t.len), 0);
	assert_int_equal(cfg.nr_cpus, 300);
	assert_int_equal(cfg.cpus[MP_MAX_CPUS - 1].apicid, 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_four_cpus),
		cmocka_unit_test(test_disabled_and_sparse),
		cmocka_unit_test(test_address_override_and_x2apic),
		cmocka_unit_test(test_bad_entries),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_many_entries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
