/*
 * kernel/trace/ring_buffer.c - the overwrite-mode record ring
 * (<kernel/trace/ring_buffer.h> says the layout and the invariants).
 */
#include "ring_buffer.h"

/* The byte at offset OFF: block OFF / chunk, OFF % chunk into it. */
static u8 *at(const struct ring_buffer *rb, u32 off)
{
	if (rb->nchunks == 1)
		return rb->mem + off;
	return rb->chunks[off / rb->chunk] + off % rb->chunk;
}

static u32 hdr_at(const struct ring_buffer *rb, u32 off)
{
	u32 h;

	__builtin_memcpy(&h, at(rb, off), sizeof(h));
	return h;
}

static void set_hdr(struct ring_buffer *rb, u32 off, u32 h)
{
	__builtin_memcpy(at(rb, off), &h, sizeof(h));
}

void rb_init_chunks(struct ring_buffer *rb, void *const *chunks, u32 n, u32 chunk)
{
	if (n > RB_MAX_CHUNKS)
		n = RB_MAX_CHUNKS;
	for (u32 i = 0; i < n; i++)
		rb->chunks[i] = chunks[i];
	rb->mem = chunks[0];
	rb->nchunks = n;
	rb->chunk = chunk & ~3u;
	rb->size = rb->chunk * n;
	rb->head = rb->tail = rb->used = 0;
	rb->entries = 0;
	rb->written = rb->overrun = 0;
}

void rb_init(struct ring_buffer *rb, void *mem, u32 size)
{
	rb_init_chunks(rb, &mem, 1, size);
}

/* Drop the record (or padding) at the tail. */
static void drop_oldest(struct ring_buffer *rb)
{
	u32 h = hdr_at(rb, rb->tail), len = h & ~RB_PAD;

	if (!(h & RB_PAD)) {
		rb->entries--;
		rb->overrun++;
	}
	rb->tail += len;
	if (rb->tail >= rb->size)
		rb->tail = 0;
	rb->used -= len;
}

/* Make sure N bytes from head are free, dropping from the tail. */
static void make_room(struct ring_buffer *rb, u32 n)
{
	while (rb->size - rb->used < n)
		drop_oldest(rb);
}

void *rb_reserve(struct ring_buffer *rb, u32 len)
{
	u32 need = RB_HDR + ((len + 3) & ~3u), off;

	if (need > rb->chunk / 2)
		return NULL;
	if (rb->chunk - rb->head % rb->chunk < need) {
		u32 pad = rb->chunk - rb->head % rb->chunk;	/* >= 4: multiples of 4 */

		make_room(rb, pad);
		set_hdr(rb, rb->head, RB_PAD | pad);
		rb->used += pad;
		rb->head += pad;
		if (rb->head >= rb->size)
			rb->head = 0;
	}
	make_room(rb, need);
	off = rb->head;
	set_hdr(rb, off, need);
	rb->head += need;
	if (rb->head >= rb->size)
		rb->head = 0;
	rb->used += need;
	rb->entries++;
	rb->written++;
	return at(rb, off) + RB_HDR;
}

void rb_iter_start(const struct ring_buffer *rb, struct rb_iter *it)
{
	it->pos = rb->tail;
	it->left = rb->used;
}

void *rb_iter_next(const struct ring_buffer *rb, struct rb_iter *it, u32 *len)
{
	while (it->left) {
		u32 h = hdr_at(rb, it->pos), n = h & ~RB_PAD, here = it->pos;

		it->pos += n;
		if (it->pos >= rb->size)
			it->pos = 0;
		it->left -= n;
		if (h & RB_PAD)
			continue;
		if (len)
			*len = n - RB_HDR;
		return at(rb, here) + RB_HDR;
	}
	return NULL;
}

void *rb_next_at(const struct ring_buffer *rb, u32 *pos, u32 *len)
{
	for (int i = 0; i < 2; i++) {		/* at most one padding record on the way */
		u32 h = hdr_at(rb, *pos), n = h & ~RB_PAD, here = *pos;

		*pos += n;
		if (*pos >= rb->size)
			*pos = 0;
		if (h & RB_PAD)
			continue;
		*len = n - RB_HDR;
		return at(rb, here) + RB_HDR;
	}
	return NULL;
}
