/*
 * kernel/mm/mmap.c - mmap2, munmap and mprotect over the areas of an mm.
 *
 * What glibc's start-up, malloc and ld-linux.so.2 need: anonymous private
 * memory (MAP_PRIVATE|MAP_ANONYMOUS; pages appear zeroed on first touch,
 * through mm_fault's demand-zero path), private mappings of the initrd's
 * files (a library's segments: each page a copy of the file's bytes made at
 * its first touch, mm_fault's fault_in; there is no page cache, so nothing
 * is shared between processes but what fork shares; a page wholly past the
 * file's end is SIGBUS, as Linux's filemap_fault) and mprotect of any
 * mapping (glibc makes its RELRO data read-only; a guard page is PROT_NONE),
 * which reaches the pages already there, as Linux's change_protection.
 * Other files have no mmap operation (-ENODEV, as Linux's); MAP_SHARED
 * gives -EINVAL (it would need pages that fork does not copy on write).
 *
 * Areas are kept unsorted in mm->areas (MM_MAX_AREAS of them; -ENOMEM
 * beyond, as Linux at vm.max_map_count).  A range operation first splits
 * the areas that straddle its ends, so every area is then wholly inside
 * or wholly outside the range.  New mappings go top-down below MMAP_TOP,
 * like Linux's legacy-free mmap layout (mm/util.c arch_pick_mmap_layout).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/initrd.h>
#include <kernel/task.h>
#include <kernel/tlbflush.h>
#include <kernel/vm.h>
#include <arch/pgtable.h>

#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#define PROT_SEM	0x8
#define PROT_GROWSDOWN	0x01000000
#define PROT_GROWSUP	0x02000000
#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_TYPE	0x0f
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define MAP_FIXED_NOREPLACE 0x100000

static u32 prot_to_vm(u32 prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE | VM_READ : 0) |
	       (prot & PROT_EXEC ? VM_EXEC | VM_READ : 0);	/* x86: write and exec imply read */
}

int mm_range_used(struct mm *mm, u32 start, u32 end)
{
	for (int i = 0; i < mm->nr_areas; i++)
		if (mm->areas[i].start < end && start < mm->areas[i].end)
			return 1;
	return 0;
}

/* The area containing ADDR strictly inside is cut in two at ADDR. */
static int split_at(struct mm *mm, u32 addr)
{
	for (int i = 0; i < mm->nr_areas; i++) {
		struct vm_area *a = &mm->areas[i];
		if (addr <= a->start || addr >= a->end)
			continue;
		u32 start = a->start;
		struct vm_area *b = mm_new_area(mm);	/* may move the array: A is stale */
		if (!b)
			return -ENOMEM;
		a = &mm->areas[i];
		*b = *a;
		b->start = addr;
		b->pgoff += (addr - start) >> PAGE_SHIFT;	/* the upper part's pages of the file */
		a->end = addr;
		return 0;
	}
	return 0;
}

int mm_split_range(struct mm *mm, u32 start, u32 end)
{
	int err = split_at(mm, start);

	return err ? err : split_at(mm, end);
}

/* Bytes of [start, end) that areas cover (after split_range: exact). */
static u32 covered(struct mm *mm, u32 start, u32 end)
{
	u32 n = 0;

	for (int i = 0; i < mm->nr_areas; i++)
		if (mm->areas[i].start >= start && mm->areas[i].end <= end)
			n += mm->areas[i].end - mm->areas[i].start;
	return n;
}

/* Remove the areas inside [start, end) and their pages.  If any goes,
 * VmPeak keeps the size before (remove_vma_list's update_hiwater_vm): the
 * same walk sums every area once (one moved into a freed slot is met then). */
static void unmap_areas(struct mm *mm, u32 start, u32 end)
{
	u32 pages = 0, removed = 0;

	for (int i = 0; i < mm->nr_areas; ) {
		struct vm_area *a = &mm->areas[i];
		pages += (a->end - a->start) >> PAGE_SHIFT;
		if (a->start >= start && a->end <= end) {
			removed = 1;
			*a = mm->areas[--mm->nr_areas];
		} else {
			i++;
		}
	}
	if (removed)
		mm_update_hiwater_vm(mm, pages);
	mm_unmap_pages(mm, start, end);
}

/* A new area [start, end) over nothing; NULL: -ENOMEM.  A file's mapping is
 * VM_FILE; after mlockall(MCL_FUTURE) it is VM_LOCKED (Linux's def_flags). */
static struct vm_area *new_area(struct mm *mm, u32 start, u32 end, u32 vmflags, const u8 *file,
				u32 size, u32 pgoff)
{
	struct vm_area *a = mm_new_area(mm);

	if (file)
		vmflags |= VM_FILE;
	if (a)
		*a = (struct vm_area){ .start = start, .end = end, .flags = vmflags | mm->def_flags,
				       .file = file, .pgoff = pgoff, .file_size = size };
	return a;
}

struct vm_area *mm_map_fixed(struct mm *mm, u32 start, u32 end, u32 vmflags, const u8 *file,
			     u32 size, u32 pgoff)
{
	if (mm_split_range(mm, start, end))
		return NULL;
	unmap_areas(mm, start, end);
	return new_area(mm, start, end, vmflags, file, size, pgoff);
}

static int mmap_file(int fd, u32 prot, const struct initrd_node **file);

/* Highest free [addr, addr + len) below MMAP_TOP and above the heap; 0 if none. */
u32 mm_get_unmapped_area(struct mm *mm, u32 len)
{
	u32 floor = ALIGN_UP(mm->brk, PAGE_SIZE) + STACK_GAP;
	u32 top = MMAP_TOP;

	while (top >= floor + len) {
		u32 start = top - len, lowest = top;
		for (int i = 0; i < mm->nr_areas; i++)
			if (mm->areas[i].start < top && start < mm->areas[i].end)
				lowest = min(lowest, mm->areas[i].start);
		if (lowest == top)
			return start;
		top = lowest;		/* below the lowest area in the way */
	}
	return 0;
}

/*
 * mmap2(addr, len, prot, flags, fd, pgoff): the new mapping's address, or
 * -EINVAL (len 0, bad flags or prot, MAP_FIXED at an unaligned or kernel
 * address, MAP_SHARED), -EBADF/-ENODEV (an fd), -EOVERFLOW (pgoff plus the
 * length in pages wraps, Linux's do_mmap_pgoff check: an offset in pages
 * reaches 16 TiB, so any other offset maps, and its pages past the file's
 * end are SIGBUS), -EEXIST (MAP_FIXED_NOREPLACE over a mapping), -ENOMEM
 * (no room, or too many areas).  ADDR without MAP_FIXED is only a hint,
 * and ignored.
 */
long sys_mmap2(u32 addr, u32 len, u32 prot, u32 flags, int fd, u32 pgoff)
{
	struct mm *mm = current->mm;
	u32 type = flags & MAP_TYPE, fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	int err;

	if (!mm || !len || (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM)))
		return -EINVAL;
	if (type != MAP_PRIVATE && type != MAP_SHARED)
		return -EINVAL;
	const struct initrd_node *file = NULL;
	if (!(flags & MAP_ANONYMOUS) && (err = mmap_file(fd, prot, &file)))
		return err;
	const u8 *bytes = file ? file->data : NULL;
	u32 size = file ? file->size : 0;
	struct vm_area *a;
	if (type == MAP_SHARED)
		return -EINVAL;
	if (len > TASK_SIZE)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	if (fixed) {
		if (addr & ~PAGE_MASK)
			return -EINVAL;
		if (addr < PAGE_SIZE || addr > TASK_SIZE - len)
			return -ENOMEM;
		if ((flags & MAP_FIXED_NOREPLACE) && mm_range_used(mm, addr, addr + len))
			return -EEXIST;
		if (!(a = mm_map_fixed(mm, addr, addr + len, prot_to_vm(prot), bytes, size, pgoff)))
			return -ENOMEM;
	} else if (!(addr = mm_get_unmapped_area(mm, len)) ||
		   !(a = new_area(mm, addr, addr + len, prot_to_vm(prot), bytes, size, pgoff))) {
		return -ENOMEM;
	}
	a->vm_file = file;
	return addr;
}

/* The initrd file behind FD, for a private mapping: -EBADF (no such fd),
 * -EACCES (not open for reading), -ENODEV (a file that cannot be mapped). */
static int mmap_file(int fd, u32 prot, const struct initrd_node **file)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EACCES;
	return file_mmap_node(f, file);
}

/* munmap(addr, len): 0; -EINVAL for len 0, an unaligned or kernel range. */
long sys_munmap(u32 addr, u32 len)
{
	struct mm *mm = current->mm;
	int err;

	if (!mm || (addr & ~PAGE_MASK) || !len || len > TASK_SIZE || addr > TASK_SIZE - len)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if ((err = mm_split_range(mm, addr, addr + len)))
		return err;
	unmap_areas(mm, addr, addr + len);
	return 0;
}

/*
 * Linux's change_protection() for the pages of [start, end) that are
 * present: each follows VM at once (the area's flags alone would only
 * stop the pages still to come).  No access (PROT_NONE): the page stays,
 * its frame and contents kept, but PTE_U goes, so ring 3 faults on it and
 * the user copies refuse it (Linux's _PAGE_PROTNONE, a present PTE the
 * hardware refuses).  Not writable: PTE_W goes.  A page not writable now in
 * an area that may be written gets PTE_COW, so that its first write goes
 * through mm_fault (which takes the frame if it is the only user, copies
 * it if fork shares it): the private mapping's do_wp_page.  If any PTE
 * changed, one flush_tlb_range() after the loop, as 2.6.35's.
 */
static void change_protection(struct mm *mm, u32 start, u32 end, u32 vm)
{
	int changed = 0;

	for (u32 va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = pte_lookup(mm->pgdir, va, 0), old;
		if (!pte || !((old = *pte) & PTE_P))
			continue;
		pte_t new = vm ? old | PTE_U : old & ~PTE_U;
		if (!(vm & VM_WRITE) && (new & PTE_W))
			new = (new & ~PTE_W) | PTE_COW;
		else if ((vm & VM_WRITE) && !(new & PTE_W))
			new |= PTE_COW;
		if (new != old) {
			*pte = new;
			changed = 1;
		}
	}
	if (changed)
		flush_tlb_range(mm, start, end);
}

/*
 * mprotect(addr, len, prot): 0; -EINVAL (unaligned, bad prot), -ENOMEM
 * (part of the range is not mapped: the heap and the stack window are not
 * areas here, so they count as unmapped).  The areas take the new flags and
 * their present pages follow them (change_protection).
 */
long sys_mprotect(u32 addr, u32 len, u32 prot)
{
	struct mm *mm = current->mm;
	u32 end, vm = prot_to_vm(prot);
	int err;

	if (!mm || (addr & ~PAGE_MASK) ||
	    (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM | PROT_GROWSDOWN | PROT_GROWSUP)))
		return -EINVAL;
	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;
	if (!len)
		return 0;
	if (len > TASK_SIZE || addr > TASK_SIZE - ALIGN_UP(len, PAGE_SIZE))
		return -ENOMEM;
	end = addr + ALIGN_UP(len, PAGE_SIZE);
	if ((err = mm_split_range(mm, addr, end)))
		return err;
	if (covered(mm, addr, end) != end - addr)
		return -ENOMEM;
	for (int i = 0; i < mm->nr_areas; i++)
		if (mm->areas[i].start >= addr && mm->areas[i].end <= end)
			mm->areas[i].flags = (mm->areas[i].flags & ~VM_ACCESS) | vm;
	change_protection(mm, addr, end, vm);
	return 0;
}
