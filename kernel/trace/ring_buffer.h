/*
 * kernel/trace/ring_buffer.h - the trace ring buffer: variable-length
 * records in one byte array, overwrite mode (Linux's ring buffer with
 * "overwrite" on, the ftrace default: a full buffer drops its oldest
 * events and counts them as overruns).
 *
 * Layout: each record is a 4-byte header (its total length in bytes, a
 * multiple of 4, header included) followed by the payload.  The array may
 * be made of up to RB_MAX_CHUNKS separate blocks of 'chunk' bytes each (as
 * Linux's ring buffer is a list of pages): offsets run over
 * [0, size = nchunks * chunk), and offset o lives in block o / chunk.  A
 * record never crosses a block: when one does not fit before the end of
 * the block, the rest of it becomes one padding record (RB_PAD set in the
 * header) and writing continues at the next block (offset 0 after the
 * last).  Live data is the circular range [tail, head), 'used' bytes long;
 * tail always points at a record header.
 *
 * Counters (ftrace's "entries-in-buffer/entries-written"):
 *	entries  records in the buffer now
 *	written  records ever written = entries + overrun
 *	overrun  records dropped to make room (the oldest first)
 *
 * Not locked: the caller holds interrupts off (one CPU).  Pure C, so the
 * host tests exercise it directly (tests/host/trace/).
 */
#ifndef KERNEL_TRACE_RING_BUFFER_H
#define KERNEL_TRACE_RING_BUFFER_H

#include <kernel/types.h>

#define RB_PAD		0x80000000u	/* header flag: padding, not a record */
#define RB_HDR		4u		/* header bytes */
#define RB_MAX_CHUNKS	16		/* blocks of one buffer */

struct ring_buffer {
	u8 *mem;			/* the first block */
	u8 *chunks[RB_MAX_CHUNKS];
	u32 nchunks, chunk;		/* blocks, bytes in each (a multiple of 4) */
	u32 size;			/* nchunks * chunk bytes */
	u32 head, tail, used;		/* offsets and live bytes */
	u32 entries;
	u64 written, overrun;
};

/* Use MEM (SIZE bytes, rounded down to a multiple of 4) as an empty buffer. */
void rb_init(struct ring_buffer *rb, void *mem, u32 size);
/* Use N (1..RB_MAX_CHUNKS) blocks of CHUNK bytes each as one empty buffer. */
void rb_init_chunks(struct ring_buffer *rb, void *const *chunks, u32 n, u32 chunk);
/*
 * Room for a LEN-byte payload, dropping the oldest records as needed.
 * Returns the payload (4-byte aligned, not zeroed), or NULL if LEN is more
 * than half a block (such a record would leave no history at all).
 */
void *rb_reserve(struct ring_buffer *rb, u32 len);

/* Iteration, oldest first: *POS = rb->tail to start; NULL at the end. */
struct rb_iter {
	u32 pos, left;			/* offset, live bytes still to walk */
};
void rb_iter_start(const struct ring_buffer *rb, struct rb_iter *it);
/* The next record's payload and its length (LEN may be NULL). */
void *rb_iter_next(const struct ring_buffer *rb, struct rb_iter *it, u32 *len);
/*
 * The record at *POS (a record or padding header of the live range, not
 * head): its payload and length, *POS moved past it (padding is skipped).
 * For a reader that keeps its place between calls while the writer goes
 * on; the caller knows the record is still live (trace.c counts them).
 */
void *rb_next_at(const struct ring_buffer *rb, u32 *pos, u32 *len);

#endif
