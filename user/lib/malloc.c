/*
 * user/lib/malloc.c - malloc/free/realloc/calloc over brk.
 *
 * Every block, free or used, starts with an 8-byte header (i386):
 *
 *	+-----------+-----------+---------------------------+
 *	| prev_size | size|USED | payload (16-byte aligned) |
 *	+-----------+-----------+---------------------------+
 *	^ block (address = 8 mod 16)      next block = block + size ^
 *
 * size counts the header and is a multiple of 16 (so every payload stays
 * 16-aligned); prev_size is the size of the block just below (0 for the
 * first block), which lets free() merge with both neighbours in O(1)
 * (boundary tags).  A zero-sized USED "epilogue" header ends the heap.
 * Free blocks are kept on one doubly linked list threaded through their
 * payloads (so the smallest block is 16 bytes); malloc takes the first one
 * that fits (first fit) and splits off the rest when >= 16 bytes remain.
 * The heap grows with sbrk() in steps of at least HEAP_STEP; memory is not
 * given back to the kernel.  Heap corruption detected on free (a pointer
 * that is not a used block) aborts the program with a message.
 *
 * Thread-safe: malloc, free, realloc and malloc_get_stats take one futex
 * lock (ulock_t, user/lib/thread.c) around the unlocked *_nolock versions.
 * Not async-signal-safe: do not call them from signal handlers.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <thread.h>

#define ALIGN		16u
#define HDR		sizeof(struct hdr)	/* 8 on i386 */
#define MIN_BLOCK	16u
#define USED		1u
#define HEAP_STEP	(32u * 1024u)	/* bytes asked of brk at least */

struct hdr {
	size_t prev_size;		/* size of the block below; 0 = none */
	size_t size;			/* whole block incl. header | USED */
};

struct fnode {				/* in the payload of a free block */
	struct fnode *next, *prev;
};

static struct fnode free_list = { &free_list, &free_list };
static struct hdr *heap_first, *epilogue;
static char *heap_end;			/* the break as we last set it */
static ulock_t heap_lock = ULOCK_INIT;	/* guards everything above */

static inline size_t bsize(const struct hdr *b) { return b->size & ~(size_t)(ALIGN - 1); }
static inline int used(const struct hdr *b) { return b->size & USED; }
static inline struct hdr *next_blk(struct hdr *b) { return (struct hdr *)((char *)b + bsize(b)); }
static inline struct hdr *prev_blk(struct hdr *b)
{
	return b->prev_size ? (struct hdr *)((char *)b - b->prev_size) : NULL;
}
static inline struct fnode *node(struct hdr *b) { return (struct fnode *)(b + 1); }
static inline struct hdr *node_blk(struct fnode *n) { return (struct hdr *)n - 1; }

static void list_insert(struct hdr *b)
{
	struct fnode *n = node(b);

	n->next = free_list.next;
	n->prev = &free_list;
	free_list.next->prev = n;
	free_list.next = n;
}

static void list_remove(struct hdr *b)
{
	struct fnode *n = node(b);

	n->prev->next = n->next;
	n->next->prev = n->prev;
}

static __attribute__((noreturn)) void corrupt(const char *what, const void *p)
{
	static const char msg[] = "malloc: heap corruption: ";

	write(2, msg, sizeof(msg) - 1);
	write(2, what, strlen(what));
	write(2, "\n", 1);
	(void)p;
	abort();
}

static void set_size(struct hdr *b, size_t size, size_t flags)
{
	b->size = size | flags;
	next_blk(b)->prev_size = size;
}

/* Mark B free, merge it with free neighbours, put it on the list. */
static void release(struct hdr *b)
{
	struct hdr *n = next_blk(b), *p = prev_blk(b);
	size_t size = bsize(b);

	if (!used(n)) {
		list_remove(n);
		size += bsize(n);
	}
	if (p && !used(p)) {
		list_remove(p);
		size += bsize(p);
		b = p;
	}
	set_size(b, size, 0);
	list_insert(b);
}

static char *align_block(char *p)	/* first address >= p that is 8 mod 16 */
{
	return (char *)((((size_t)p + HDR + ALIGN - 1) & ~(size_t)(ALIGN - 1)) - HDR);
}

/* Get at least NEED more bytes from brk as one free block; 0 or -1. */
static int grow(size_t need)
{
	size_t inc = need + 2 * ALIGN + 2 * HDR;
	char *p, *start, *end;
	struct hdr *b;

	if (inc < need || (intptr_t)inc < 0)
		return -1;
	if (inc < HEAP_STEP)
		inc = HEAP_STEP;
	if (!heap_end)
		heap_end = sbrk(0);
	p = sbrk((intptr_t)inc);
	if (p == (char *)-1)
		return -1;
	end = p + inc;
	if (heap_first && p == heap_end) {
		start = (char *)epilogue;	/* extend: the epilogue becomes the block */
	} else {
		start = align_block(p);
		if (heap_first) {		/* someone else moved brk: bridge the gap */
			set_size(epilogue, (size_t)(start - (char *)epilogue), USED);
			((struct hdr *)start)->prev_size = bsize(epilogue);
		} else {
			heap_first = (struct hdr *)start;
			heap_first->prev_size = 0;
		}
	}
	heap_end = end;
	/* New epilogue: the last 8-mod-16 address leaving room for a header. */
	epilogue = (struct hdr *)(align_block(end - HDR - ALIGN + 1));
	if ((char *)epilogue + HDR > end)
		epilogue = (struct hdr *)((char *)epilogue - ALIGN);
	b = (struct hdr *)start;
	set_size(b, (size_t)((char *)epilogue - start), USED);
	epilogue->size = USED;			/* size 0, never free */
	release(b);
	return 0;
}

static size_t request_size(size_t n)
{
	if (n > (size_t)-1 - 2 * ALIGN)
		return 0;
	n = (n + HDR + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	return n < MIN_BLOCK ? MIN_BLOCK : n;
}

/* Cut B down to SIZE (it is used); the rest, if big enough, is freed. */
static void split(struct hdr *b, size_t size)
{
	size_t total = bsize(b);

	if (total - size < MIN_BLOCK) {
		set_size(b, total, USED);
		return;
	}
	set_size(b, size, USED);
	set_size(next_blk(b), total - size, USED);
	release(next_blk(b));
}

static void *malloc_nolock(size_t n)
{
	size_t need = request_size(n);
	struct fnode *f;
	int tries;

	if (!need) {
		errno = ENOMEM;
		return NULL;
	}
	for (tries = 0; tries < 2; tries++) {
		for (f = free_list.next; f != &free_list; f = f->next) {
			struct hdr *b = node_blk(f);

			if (bsize(b) >= need) {
				list_remove(b);
				split(b, need);
				return b + 1;
			}
		}
		if (grow(need) < 0)
			break;
	}
	errno = ENOMEM;
	return NULL;
}

static struct hdr *checked_block(void *ptr)
{
	struct hdr *b = (struct hdr *)ptr - 1;

	if (!heap_first || (char *)b < (char *)heap_first || b >= epilogue ||
	    ((size_t)ptr & (ALIGN - 1)))
		corrupt("free/realloc of a pointer malloc never returned", ptr);
	if (!used(b))
		corrupt("double free", ptr);
	if (bsize(b) < MIN_BLOCK || next_blk(b) > epilogue ||
	    next_blk(b)->prev_size != bsize(b))
		corrupt("block header overwritten", ptr);
	return b;
}

static void free_nolock(void *ptr)
{
	if (ptr)
		release(checked_block(ptr));
}

void *malloc(size_t n)
{
	void *p;

	ulock_lock(&heap_lock);
	p = malloc_nolock(n);
	ulock_unlock(&heap_lock);
	return p;
}

void free(void *ptr)
{
	ulock_lock(&heap_lock);
	free_nolock(ptr);
	ulock_unlock(&heap_lock);
}

void *calloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(nmemb * size);
	if (p)
		memset(p, 0, nmemb * size);
	return p;
}

static void *realloc_nolock(void *ptr, size_t n)
{
	struct hdr *b, *nx;
	size_t need = request_size(n);
	void *q;

	if (!ptr)
		return malloc_nolock(n);
	if (n == 0) {
		free_nolock(ptr);
		return NULL;
	}
	b = checked_block(ptr);
	if (!need) {
		errno = ENOMEM;
		return NULL;
	}
	if (bsize(b) >= need) {			/* shrink in place */
		split(b, need);
		return ptr;
	}
	nx = next_blk(b);
	if (!used(nx) && bsize(b) + bsize(nx) >= need) {	/* grow into the next */
		list_remove(nx);
		set_size(b, bsize(b) + bsize(nx), USED);
		split(b, need);
		return ptr;
	}
	q = malloc_nolock(n);
	if (!q)
		return NULL;
	memcpy(q, ptr, bsize(b) - HDR);
	free_nolock(ptr);
	return q;
}

void *realloc(void *ptr, size_t n)
{
	void *q;

	ulock_lock(&heap_lock);
	q = realloc_nolock(ptr, n);
	ulock_unlock(&heap_lock);
	return q;
}

void malloc_get_stats(struct malloc_stats *st)
{
	struct hdr *b;

	memset(st, 0, sizeof(*st));
	ulock_lock(&heap_lock);
	for (b = heap_first; b && b != epilogue; b = next_blk(b)) {
		if (used(b)) {
			st->in_use += bsize(b);
			st->blocks_in_use++;
		} else {
			st->free += bsize(b);
			st->blocks_free++;
		}
	}
	if (heap_first)
		st->heap = (size_t)((char *)epilogue - (char *)heap_first);
	ulock_unlock(&heap_lock);
}
