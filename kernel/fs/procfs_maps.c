/*
 * kernel/fs/procfs_maps.c - /proc/PID/maps: a process's mappings, one line
 * each, in address order, as 2.6.35's show_map_vma() (fs/proc/task_mmu.c)
 * prints them:
 *
 *	start-end perms offset major:minor inode   name
 *	08048000-080f4000 r-xp 00000000 00:01 47         /bin/busybox
 *
 * perms are r, w, x and p (every mapping here is private: no MAP_SHARED);
 * offset is the file's byte offset of the first page (0 when anonymous);
 * the name starts at column 49 (25 + 6 * sizeof(void *)), and an anonymous
 * area without a name ends after the inode's trailing space, as Linux's.
 *
 * Names: a file's path, [vdso], and for anonymous memory 2.6.35's rule:
 * [heap] for the line that spans start_brk to brk, [stack] for the one
 * holding start_stack.  The heap and the stack are not areas here
 * (kernel/vm.h), so their pieces are made from mm->brk and from the lowest
 * page present in the stack window; and areas are never merged when made, so
 * anonymous pieces are merged here as vma_merge() would have merged them:
 * adjacent, with the same protection, never the vDSO.  So a program's bss and
 * its heap are one [heap] line, as on Linux (docs/ROBUSTNESS.md).
 */
#include <kernel/fs.h>
#include <kernel/initrd.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/vm.h>
#include "procfs_maps.h"

#define NAME_COLUMN	(25 + 6 * (int)sizeof(void *))	/* pad_len_spaces() */
#define LINE_MAX_LEN	(NAME_COLUMN + INITRD_PATH_MAX + 2)

/* One line's worth: an area, the heap or the stack, or several of them merged. */
struct map_line {
	u32 start, end, flags, pgoff;
	const struct initrd_node *file;
	int special;			/* the vDSO: VM_DONTEXPAND, never merged */
};

/* The name 2.6.35's show_map_vma() gives an anonymous line of MM, or NULL. */
static const char *anon_name(const struct mm *mm, const struct map_line *l)
{
	if (l->special)
		return "[vdso]";
	if (l->start <= mm->start_brk && l->end >= mm->brk)
		return "[heap]";
	if (l->start <= mm->start_stack && l->end >= mm->start_stack)
		return "[stack]";
	return NULL;
}

static size_t show_line(const struct mm *mm, const struct map_line *l, char *buf, size_t size)
{
	const char *name = l->file ? NULL : anon_name(mm, l);
	u32 dev_minor = l->file ? fs_dev_minor(l->file->name) : 0;
	int len = snprintf(buf, size, "%08x-%08x %c%c%cp %08llx 00:%02x %u ", l->start, l->end,
			   l->flags & VM_READ ? 'r' : '-', l->flags & VM_WRITE ? 'w' : '-',
			   l->flags & VM_EXEC ? 'x' : '-',
			   l->file ? (unsigned long long)l->pgoff << PAGE_SHIFT : 0ull, dev_minor,
			   l->file ? l->file->ino : 0);

	if ((size_t)len >= size)
		return size;
	if (!l->file && !name)
		return (size_t)len + (size_t)snprintf(buf + len, size - len, "\n");
	/* pad_len_spaces(): LEN counts the space after the inode, as "%n" did */
	int pad = NAME_COLUMN - len > 1 ? NAME_COLUMN - len : 1;
	len += snprintf(buf + len, size - len, "%*c", pad, ' ');
	if ((size_t)len >= size)
		return size;
	if (l->file)
		return (size_t)len + (size_t)snprintf(buf + len, size - len, "/%s\n", l->file->name);
	return (size_t)len + (size_t)snprintf(buf + len, size - len, "%s\n", name);
}

/* The line of MM's lowest mapping that starts at or above FROM; 0 if none. */
static int next_line(struct mm *mm, u32 from, struct map_line *out)
{
	u32 heap_end = ALIGN_UP(mm->brk, PAGE_SIZE), stack_pages = mm_stack_pages(mm);
	int found = 0;

	for (int i = 0; i < mm->nr_areas; i++) {
		const struct vm_area *a = &mm->areas[i];
		if (a->start < from || (found && a->start >= out->start))
			continue;
		*out = (struct map_line){ a->start, a->end, a->flags & VM_ACCESS, a->pgoff, a->vm_file,
					  !!(a->flags & VM_DONTEXPAND) };
		found = 1;
	}
	if (heap_end > mm->start_brk && mm->start_brk >= from &&
	    (!found || mm->start_brk < out->start)) {
		*out = (struct map_line){ mm->start_brk, heap_end, VM_READ | VM_WRITE, 0, NULL, 0 };
		found = 1;
	}
	u32 stack = STACK_TOP - stack_pages * PAGE_SIZE;
	if (stack_pages && stack >= from && (!found || stack < out->start)) {
		*out = (struct map_line){ stack, STACK_TOP, VM_READ | VM_WRITE, 0, NULL, 0 };
		found = 1;
	}
	return found;
}

size_t proc_maps_size(const struct task *t)
{
	return t->mm ? (size_t)(t->mm->nr_areas + 2) * LINE_MAX_LEN + 1 : 1;
}

/* 1 if vma_merge() would have made L and NEXT one area: both anonymous,
 * adjacent, with the same protection.  File areas stay apart: Linux merges
 * those only when their vm_flags match to VM_ACCOUNT, which Granule does not
 * track (an ELF's RELRO page made read-only keeps it, its rodata never had it). */
static int mergeable(const struct map_line *l, const struct map_line *next)
{
	return next->start == l->end && next->flags == l->flags && !l->file && !next->file &&
	       !l->special && !next->special;
}

size_t proc_maps_show(struct task *t, char *buf, size_t size)
{
	struct map_line l = { 0 }, next;
	size_t len = 0;
	int more;

	if (!t->mm)
		return 0;		/* a kernel thread: an empty file, as Linux's */
	more = next_line(t->mm, 0, &next);
	while (more && len < size) {
		l = next;
		while ((more = next_line(t->mm, l.end, &next)) && mergeable(&l, &next))
			l.end = next.end;
		len += show_line(t->mm, &l, buf + len, size - len);
	}
	return len < size ? len : size;
}
