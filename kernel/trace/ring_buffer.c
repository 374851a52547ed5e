/*
 * kernel/trace/ring_buffer.c - the overwrite-mode record ring
 * (<kernel/trace/ring_buffer.h> says the layout and the invariants).
 */
#include "ring_buffer.h"

static u32 hdr_at(const struct ring_buffer *rb, u32 off)
{
	u32 h;

	__builtin_memcpy(&h, rb->mem + off, sizeof(h));
	return h;
}

static void set_hdr(struct ring_buffer *rb, u32 off, u32 h)
{
	__builtin_memcpy(rb->mem + off, &h, sizeof(h));
}

void rb_init(struct ring_buffer *rb, void *mem, u32 size)
{
	rb->mem = mem;
	rb->size = size & ~3u;
	rb->head = rb->tail = rb->used = 0;
	rb->entries = 0;
	rb->written = rb->overrun = 0;
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

	if (need > rb->size / 2)
		return NULL;
	if (rb->size - rb->head < need) {
		u32 pad = rb->size - rb->head;	/* >= 4: both are multiples of 4 */

		make_room(rb, pad);
		set_hdr(rb, rb->head, RB_PAD | pad);
		rb->used += pad;
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
	return rb->mem + off + RB_HDR;
}

void rb_iter_start(const struct ring_buffer *rb, struct rb_iter *it)
{
	it->pos = rb->tail;
	it->left = rb->used;
}

void *rb_iter_next(const struct ring_buffer *rb, struct rb_iter *it, u32 *len)
{
	while (it->left) {
		u32 h = hdr_at(rb, it->pos), n = h & ~RB_PAD, at = it->pos;

		it->pos += n;
		if (it->pos >= rb->size)
			it->pos = 0;
		it->left -= n;
		if (h & RB_PAD)
			continue;
		if (len)
			*len = n - RB_HDR;
		return rb->mem + at + RB_HDR;
	}
	return NULL;
}

void *rb_next_at(const struct ring_buffer *rb, u32 *pos, u32 *len)
{
	for (int i = 0; i < 2; i++) {		/* at most one padding record on the way */
		u32 h = hdr_at(rb, *pos), n = h & ~RB_PAD, at = *pos;

		*pos += n;
		if (*pos >= rb->size)
			*pos = 0;
		if (h & RB_PAD)
			continue;
		*len = n - RB_HDR;
		return rb->mem + at + RB_HDR;
	}
	return NULL;
}
