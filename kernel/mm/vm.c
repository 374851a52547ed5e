/*
 * kernel/mm/vm.c - user address spaces: creation, copy-on-write fork,
 * demand faults, brk, teardown.  See kernel/vm.h for the layout.
 *
 * Invariant (what makes "free frames before == after" hold): every user
 * PTE that is present holds exactly one reference on its frame, and
 * mm_put() of the last user drops all of them and frees the page tables.
 */
#include <kernel/errno.h>
#include <kernel/kmalloc.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/vm.h>
#include <arch/pgtable.h>

#define USER_PDES	(TASK_SIZE >> 22)	/* 768 */

struct mm *mm_create(void)
{
	struct mm *mm = kzalloc(sizeof(*mm));

	if (!mm)
		return NULL;
	mm->pgdir = pgdir_alloc();
	if (!mm->pgdir) {
		kfree(mm);
		return NULL;
	}
	mm->users = 1;
	return mm;
}

void mm_get(struct mm *mm)
{
	mm->users++;
}

/* Drop every user page and page table. */
static void mm_release_pages(struct mm *mm)
{
	for (u32 pde = 0; pde < USER_PDES; pde++) {
		pte_t *pt = pte_lookup(mm->pgdir, pde << 22, 0);
		if (!pt)
			continue;
		for (int i = 0; i < 1024; i++)
			if (pt[i] & PTE_P)
				frame_put(PTE_ADDR(pt[i]));
	}
	pgdir_free(mm->pgdir);
}

void mm_put(struct mm *mm)
{
	if (--mm->users > 0)
		return;
	mm_release_pages(mm);
	kfree(mm);
}

struct mm *mm_dup(struct mm *old)
{
	struct mm *mm = mm_create();

	if (!mm)
		return NULL;
	memcpy(mm->areas, old->areas, sizeof(old->areas));
	memcpy(mm->nosys_seen, old->nosys_seen, sizeof(old->nosys_seen));
	memcpy(mm->cmdline, old->cmdline, sizeof(old->cmdline));
	mm->cmdline_len = old->cmdline_len;
	mm->nr_areas = old->nr_areas;
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	for (u32 pde = 0; pde < USER_PDES; pde++) {
		pte_t *src = pte_lookup(old->pgdir, pde << 22, 0);
		if (!src)
			continue;
		for (u32 i = 0; i < 1024; i++) {
			if (!(src[i] & PTE_P))
				continue;
			u32 va = (pde << 22) | (i << 12);
			pte_t *dst = pte_lookup(mm->pgdir, va, 1);
			if (!dst) {
				mm_put(mm);
				return NULL;
			}
			if (src[i] & (PTE_W | PTE_COW)) {	/* share read-only until written */
				src[i] = (src[i] & ~PTE_W) | PTE_COW;
				flush_tlb_page(old->pgdir, va);
			}
			*dst = src[i];
			frame_get(PTE_ADDR(src[i]));
			mm->nr_pages++;
		}
	}
	return mm;
}

static struct vm_area *find_area(struct mm *mm, u32 addr)
{
	for (int i = 0; i < mm->nr_areas; i++)
		if (addr >= mm->areas[i].start && addr < mm->areas[i].end)
			return &mm->areas[i];
	return NULL;
}

/* Install a new zeroed (or copied) page at VA.  0 or -ENOMEM. */
static int map_new_page(struct mm *mm, u32 va, u32 pteflags, const void *copy)
{
	pte_t *pte = pte_lookup(mm->pgdir, va, 1);
	u32 frame;

	if (!pte)
		return -ENOMEM;
	frame = copy ? alloc_frame() : alloc_zeroed_frame();
	if (!frame)
		return -ENOMEM;
	if (copy)
		memcpy(__va(frame), copy, PAGE_SIZE);
	if (*pte & PTE_P)
		frame_put(PTE_ADDR(*pte));
	else
		mm->nr_pages++;
	*pte = frame | PTE_P | PTE_U | pteflags;
	flush_tlb_page(mm->pgdir, va);
	return 0;
}

int mm_map_segment(struct mm *mm, u32 vaddr, u32 memsz, const void *data, u32 filesz, u32 flags)
{
	u32 start = vaddr & PAGE_MASK, end = ALIGN_UP(vaddr + memsz, PAGE_SIZE);
	u32 vmflags = (flags & 4 ? VM_READ : 0) | (flags & 2 ? VM_WRITE : 0) | (flags & 1 ? VM_EXEC : 0);

	if (mm->nr_areas >= MM_MAX_AREAS)
		return -ENOMEM;
	mm->areas[mm->nr_areas++] = (struct vm_area){ start, end, vmflags };
	for (u32 va = start; va < end; va += PAGE_SIZE) {
		int err = map_new_page(mm, va, vmflags & VM_WRITE ? PTE_W : 0, NULL);
		if (err)
			return err;
		/* The page's bytes from the file: [vaddr, vaddr+filesz) clipped to it. */
		u32 lo = max(va, vaddr), hi = min(va + PAGE_SIZE, vaddr + filesz);
		if (lo < hi) {
			u8 *page = __va(PTE_ADDR(*pte_lookup(mm->pgdir, va, 0)));
			memcpy(page + (lo - va), (const u8 *)data + (lo - vaddr), hi - lo);
		}
	}
	if (end > mm->start_brk)
		mm->start_brk = mm->brk = end;
	return 0;
}

/* Which access the address allows: VM_* flags, or 0 if unmapped. */
static u32 addr_flags(struct mm *mm, u32 addr)
{
	struct vm_area *a = find_area(mm, addr);

	if (a)
		return a->flags;
	if (addr >= mm->start_brk && addr < ALIGN_UP(mm->brk, PAGE_SIZE))
		return VM_READ | VM_WRITE;
	if (addr >= STACK_TOP - STACK_LIMIT && addr < STACK_TOP)
		return VM_READ | VM_WRITE;
	return 0;
}

int mm_fault(struct mm *mm, u32 addr, int write)
{
	u32 va = addr & PAGE_MASK, fl;
	pte_t *pte;

	if (!mm || addr >= TASK_SIZE)
		return -EFAULT;
	fl = addr_flags(mm, addr);
	if (!fl || (write && !(fl & VM_WRITE)))
		return -EFAULT;
	pte = pte_lookup(mm->pgdir, va, 1);
	if (!pte)
		return -ENOMEM;
	if (!(*pte & PTE_P))
		return map_new_page(mm, va, fl & VM_WRITE ? PTE_W : 0, NULL);
	if (write && !(*pte & PTE_W)) {
		u32 frame = PTE_ADDR(*pte);
		if (!(*pte & PTE_COW))
			return -EFAULT;
		if (frame_refcount(frame) == 1) {	/* last sharer: just take it */
			*pte = (*pte | PTE_W) & ~PTE_COW;
			flush_tlb_page(mm->pgdir, va);
			return 0;
		}
		return map_new_page(mm, va, PTE_W, __va(frame));
	}
	return 0;	/* already there (another thread faulted it in) */
}

/* Unmap user pages in [start, end). */
void mm_unmap_pages(struct mm *mm, u32 start, u32 end)
{
	for (u32 va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = pte_lookup(mm->pgdir, va, 0);
		if (pte && (*pte & PTE_P)) {
			frame_put(PTE_ADDR(*pte));
			*pte = 0;
			mm->nr_pages--;
			flush_tlb_page(mm->pgdir, va);
		}
	}
}

/*
 * brk(addr): Linux semantics - returns the new break on success and the
 * old one on failure (below start_brk, too close to the stack window, or
 * into a mapping).
 */
long sys_brk(u32 brk)
{
	struct mm *mm = current->mm;

	if (!mm)
		return -ENOMEM;
	if (brk < mm->start_brk || brk > STACK_TOP - STACK_LIMIT - STACK_GAP)
		return mm->brk;
	if (brk > mm->brk && mm_range_used(mm, ALIGN_UP(mm->brk, PAGE_SIZE), ALIGN_UP(brk, PAGE_SIZE)))
		return mm->brk;		/* the heap would run into an mmap */
	if (brk < mm->brk)
		mm_unmap_pages(mm, ALIGN_UP(brk, PAGE_SIZE), ALIGN_UP(mm->brk, PAGE_SIZE));
	mm->brk = brk;
	return brk;
}
