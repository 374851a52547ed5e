/*
 * kernel/mm/madvise.c - madvise(2), as Linux 2.6.35's mm/madvise.c.
 *
 * glibc calls it when a thread ends: MADV_DONTNEED over the unused part of
 * the thread's stack (nptl's advise_stack_range), so that a cached stack
 * gives its pages back; malloc_trim does the same over free heap pages.
 *
 * The checks, in Linux's order: an advice Linux 2.6.35 does not know
 * (madvise_behavior_valid; MADV_MERGEABLE/UNMERGEABLE are KSM's and
 * MADV_HWPOISON memory-failure's, neither configured here) or an unaligned
 * START is -EINVAL, as is a LEN that wraps when rounded up to pages or
 * past the end of the address space; LEN 0 is 0.  Then each mapped piece of the range
 * gets the advice, and a hole anywhere in it makes the answer -ENOMEM
 * once the mapped pieces are done (Linux's unmapped_error).  Mapped here
 * means an area, the heap [start_brk, brk) or the stack window, each an
 * anonymous vma on Linux.
 *
 * What each advice does to a mapped piece (madvise_vma):
 *   MADV_DONTNEED    the pages go (zap_page_range): the next touch of an
 *                    anonymous page finds zeroes, of a private file page
 *                    the file's bytes again.  Linux refuses a VM_LOCKED
 *                    vma with -EINVAL; nothing is locked here (mlock and
 *                    mlockall only check their arguments, mmap.c).
 *   MADV_WILLNEED    a file mapping: 0 (there is no page cache to read
 *                    ahead into); anonymous memory: -EBADF, as 2.6.35's
 *                    madvise_willneed (no swap readahead before 3.7).
 *   MADV_REMOVE      anonymous: -EINVAL (no file); a private file mapping:
 *                    -EACCES (it needs VM_SHARED|VM_WRITE, and MAP_SHARED
 *                    does not exist here).
 *   MADV_NORMAL, _RANDOM, _SEQUENTIAL   0: they only steer readahead.
 *   MADV_DONTFORK, _DOFORK   -EINVAL: fork here copies every area
 *                    (VM_DONTCOPY is not kept); a deliberate difference,
 *                    docs/ROBUSTNESS.md.
 */
#include <kernel/errno.h>
#include <kernel/task.h>
#include <kernel/vm.h>
#include <arch/pgtable.h>

#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_WILLNEED	3
#define MADV_DONTNEED	4
#define MADV_REMOVE	9
#define MADV_DONTFORK	10
#define MADV_DOFORK	11

static int madvise_behavior_valid(int behavior)
{
	switch (behavior) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
	case MADV_DONTNEED: case MADV_REMOVE: case MADV_DONTFORK: case MADV_DOFORK:
		return 1;
	}
	return 0;
}

/* The advice over [start, end), all of it in one mapping; FILE: is it a file's. */
static long madvise_vma(struct mm *mm, u32 start, u32 end, int file, int behavior)
{
	switch (behavior) {
	case MADV_DONTNEED:
		mm_unmap_pages(mm, start, end);
		return 0;
	case MADV_WILLNEED:
		return file ? 0 : -EBADF;
	case MADV_REMOVE:
		return file ? -EACCES : -EINVAL;
	case MADV_DONTFORK:
	case MADV_DOFORK:
		return -EINVAL;
	}
	return 0;
}

/* [s, e) clipped to [start, end): its length, 0 if they do not meet. */
static u32 clip(u32 s, u32 e, u32 start, u32 end, u32 *cs, u32 *ce)
{
	*cs = s > start ? s : start;
	*ce = e < end ? e : end;
	return *cs < *ce ? *ce - *cs : 0;
}

long sys_madvise(u32 start, u32 len_in, int behavior)
{
	struct mm *mm = current->mm;
	u32 len = ALIGN_UP(len_in, PAGE_SIZE), end = start + len, done = 0, s, e;
	long err;

	if (!madvise_behavior_valid(behavior) || (start & ~PAGE_MASK) || (len_in && !len) || end < start)
		return -EINVAL;
	if (!mm || end == start)
		return 0;
	for (int i = 0; i < mm->nr_areas; i++) {
		const struct vm_area *a = &mm->areas[i];
		if (!clip(a->start, a->end, start, end, &s, &e))
			continue;
		if ((err = madvise_vma(mm, s, e, a->file != NULL, behavior)))
			return err;
		done += e - s;
	}
	const u32 anon[2][2] = {
		{ mm->start_brk, ALIGN_UP(mm->brk, PAGE_SIZE) },	/* the heap */
		{ STACK_TOP - STACK_LIMIT, STACK_TOP },			/* the stack window */
	};
	for (int i = 0; i < 2; i++) {
		if (!clip(anon[i][0], anon[i][1], start, end, &s, &e))
			continue;
		if ((err = madvise_vma(mm, s, e, 0, behavior)))
			return err;
		done += e - s;
	}
	return done == len ? 0 : -ENOMEM;
}
