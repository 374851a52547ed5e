/*
 * tests/host/smp/tables.h - build firmware tables as the firmware would
 * (little-endian fields, the checksum byte set so every byte sums to 0)
 * for the MADT and MP-table parsers' tests.
 */
#ifndef TESTS_HOST_SMP_TABLES_H
#define TESTS_HOST_SMP_TABLES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arch/mpspec.h>

struct tbuf {
	uint8_t b[4096];
	uint32_t len;
};

static inline void put8(struct tbuf *t, uint8_t v)	{ t->b[t->len++] = v; }
static inline void put16(struct tbuf *t, uint16_t v)	{ put8(t, v & 0xff); put8(t, v >> 8); }
static inline void put32(struct tbuf *t, uint32_t v)	{ put16(t, v & 0xffff); put16(t, v >> 16); }
static inline void putstr(struct tbuf *t, const char *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		put8(t, *s ? (uint8_t)*s++ : ' ');
}
static inline void set16(struct tbuf *t, uint32_t off, uint16_t v)
{
	t->b[off] = v & 0xff;
	t->b[off + 1] = v >> 8;
}
static inline void set32(struct tbuf *t, uint32_t off, uint32_t v)
{
	set16(t, off, v & 0xffff);
	set16(t, off + 2, v >> 16);
}
/* Make bytes [from, from + n) sum to 0 by fixing byte AT. */
static inline void fix_checksum(struct tbuf *t, uint32_t from, uint32_t n, uint32_t at)
{
	uint8_t s = 0;

	t->b[at] = 0;
	for (uint32_t i = from; i < from + n; i++)
		s += t->b[i];
	t->b[at] = (uint8_t)-s;
}

/* A heap copy of exactly LEN bytes (ASan catches a read past it). */
static inline uint8_t *heap_copy(const uint8_t *b, uint32_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	memcpy(copy, b, len);
	return copy;
}

/* PARSE on a heap copy of exactly the first LEN bytes of T. */
static inline int parse_heap_copy(int (*parse)(const u8 *, u32, struct mp_config *),
				  const struct tbuf *t, uint32_t len, struct mp_config *cfg)
{
	uint8_t *copy = heap_copy(t->b, len);
	int r = parse(copy, len, cfg);

	free(copy);
	return r;
}

#endif
