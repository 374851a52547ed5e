/*
 * kernel/mm/vm.c - user address spaces: creation, copy-on-write fork,
 * demand faults, brk, teardown.  See kernel/vm.h for the layout.
 *
 * Invariant (what makes "free frames before == after" hold): every user
 * PTE that is present holds exactly one reference on its frame, and
 * mm_put() of the last user drops all of them and frees the page tables.
 */
#include <kernel/errno.h>
#include <kernel/initrd.h>
#include <kernel/kmalloc.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/tlbflush.h>
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
	mm->areas = mm->area_inline;
	mm->max_areas = MM_INLINE_AREAS;
	return mm;
}

struct vm_area *mm_new_area(struct mm *mm)
{
	if (mm->nr_areas == mm->max_areas) {
		int max = mm->max_areas * 2;
		struct vm_area *a;

		if (max > MM_MAX_AREAS || !(a = kmalloc(max * sizeof(*a))))
			return NULL;
		memcpy(a, mm->areas, mm->nr_areas * sizeof(*a));
		if (mm->areas != mm->area_inline)
			kfree(mm->areas);
		mm->areas = a;
		mm->max_areas = max;
	}
	struct vm_area *a = &mm->areas[mm->nr_areas++];
	*a = (struct vm_area){ 0 };
	return a;
}

void mm_get(struct mm *mm)
{
	mm->users++;
}

/*
 * Index of the first non-zero PTE of PT at or after I, or 1024.  Empty
 * entries are skipped four at a time (one OR chain instead of four tests):
 * a process has a few dozen pages spread over two or three page tables,
 * and the scan of the 3,000 empty entries around them was most of what a
 * fork and an exit cost (docs/FASTPATHS.md).
 */
static u32 next_pte(const pte_t *pt, u32 i)
{
	for (; i < 1024 && (i & 3); i++)
		if (pt[i])
			return i;
	while (i < 1024 && !(pt[i] | pt[i + 1] | pt[i + 2] | pt[i + 3]))
		i += 4;
	for (; i < 1024; i++)
		if (pt[i])
			return i;
	return 1024;
}

/* VA's PTE, its page table made if need be (the only place user page
 * tables are made: pt_map stays a superset of them); NULL: -ENOMEM. */
static pte_t *mm_pte_alloc(struct mm *mm, u32 va)
{
	pte_t *pte = pte_lookup(mm->pgdir, va, 1);

	if (pte)
		mm->pt_map[(va >> 22) / 32] |= 1u << ((va >> 22) % 32);
	return pte;
}

/* The page table of the first user PDE >= *PDE that has one, *PDE set to its
 * index; NULL and *PDE = USER_PDES after the last.  Reads pt_map's bits. */
static pte_t *mm_next_table(struct mm *mm, u32 *pde)
{
	for (u32 i = *pde; i < USER_PDES; ) {
		u32 bits = mm->pt_map[i / 32] >> (i % 32);
		if (!bits) {
			i = (i | 31) + 1;		/* the next word */
			continue;
		}
		i += (u32)__builtin_ctz(bits);
		pte_t *pt = pte_lookup(mm->pgdir, i << 22, 0);
		if (pt) {
			*pde = i;
			return pt;
		}
		i++;
	}
	*pde = USER_PDES;
	return NULL;
}

u32 mm_nr_ptes(struct mm *mm)
{
	u32 n = 0;

	for (u32 pde = 0; mm_next_table(mm, &pde); pde++)
		n++;
	return n;
}

/* The window is whole page tables (STACK_LIMIT and STACK_TOP are 4 MiB
 * multiples): each is scanned with next_pte, four empty entries a step. */
u32 mm_stack_pages(struct mm *mm)
{
	for (u32 va = STACK_TOP - STACK_LIMIT; va < STACK_TOP; va += 1u << 22) {
		pte_t *pt = pte_lookup(mm->pgdir, va, 0);
		for (u32 i = pt ? next_pte(pt, 0) : 1024; i < 1024; i = next_pte(pt, i + 1))
			if (pt[i] & PTE_P)
				return (STACK_TOP - va) / PAGE_SIZE - i;
	}
	return 0;
}

/* The heap's pages: [start_brk, PAGE_ALIGN(brk)), as do_brk maps it. */
static u32 heap_pages(const struct mm *mm)
{
	return (ALIGN_UP(mm->brk, PAGE_SIZE) - mm->start_brk) >> PAGE_SHIFT;
}

void mm_update_hiwater_vm(struct mm *mm, u32 area_pages)
{
	mm->hiwater_vm = max(mm->hiwater_vm, area_pages + heap_pages(mm) + mm_stack_pages(mm));
}

/* vm_stat_account()'s sums over the areas, with the heap (anonymous data)
 * and the stack. */
void mm_get_counters(struct mm *mm, struct mm_counters *c)
{
	u32 heap = heap_pages(mm);

	*c = (struct mm_counters){ .stack_vm = mm_stack_pages(mm), .nr_ptes = mm_nr_ptes(mm) };
	c->total_vm = heap + c->stack_vm;
	c->locked_vm = (mm->heap_locked ? heap : 0) + (mm->stack_locked ? c->stack_vm : 0);
	for (int i = 0; i < mm->nr_areas; i++) {
		const struct vm_area *a = &mm->areas[i];
		u32 pages = (a->end - a->start) >> PAGE_SHIFT;
		c->total_vm += pages;
		if (a->flags & VM_FILE) {
			c->shared_vm += pages;
			if ((a->flags & (VM_EXEC | VM_WRITE)) == VM_EXEC)
				c->exec_vm += pages;
		}
		if (a->flags & VM_LOCKED)
			c->locked_vm += pages;
	}
}

/* Drop every user page and page table. */
static void mm_release_pages(struct mm *mm)
{
	pte_t *pt;

	for (u32 pde = 0; (pt = mm_next_table(mm, &pde)); pde++)
		for (u32 i = next_pte(pt, 0); i < 1024; i = next_pte(pt, i + 1))
			if (pt[i] & PTE_P)
				frame_put(PTE_ADDR(pt[i]));
	pgdir_free(mm->pgdir, mm->pt_map);
}

void mm_put(struct mm *mm)
{
	if (--mm->users > 0)
		return;
	/* exit_mmap's flush: every CPU that still holds MM lazily leaves it
	 * (<arch/mmu_context.h>), so no CPU has the directory loaded when
	 * it is freed and none keeps a pointer to MM */
	flush_tlb_mm(mm);
	mm_release_pages(mm);
	if (mm->areas != mm->area_inline)
		kfree(mm->areas);
	kfree(mm);
}

struct mm *mm_dup(struct mm *old)
{
	struct mm *mm = mm_create();

	if (!mm)
		return NULL;
	if (old->max_areas > MM_INLINE_AREAS) {
		if (!(mm->areas = kmalloc(old->max_areas * sizeof(*mm->areas)))) {
			mm->areas = mm->area_inline;
			mm_put(mm);
			return NULL;
		}
		mm->max_areas = old->max_areas;
	}
	memcpy(mm->areas, old->areas, old->nr_areas * sizeof(*old->areas));
	memcpy(mm->nosys_seen, old->nosys_seen, sizeof(old->nosys_seen));
	memcpy(mm->cmdline, old->cmdline, sizeof(old->cmdline));
	mm->cmdline_len = old->cmdline_len;
	mm->nr_areas = old->nr_areas;
	for (int i = 0; i < mm->nr_areas; i++)
		mm->areas[i].flags &= ~VM_LOCKED;	/* dup_mmap: locks are not inherited */
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	mm->start_code = old->start_code;
	mm->end_code = old->end_code;
	mm->vdso = old->vdso;
	mm->start_stack = old->start_stack;
	mm->def_flags = old->def_flags;		/* 2.6.35's dup_mm copies it (MCL_FUTURE) */
	/*
	 * Only the page tables the parent has, and in them only the present
	 * pages; the child's page table is made when its first page is found
	 * (Linux's copy_page_range() skips empty ranges the same way).
	 */
	pte_t *src;
	int cow = 0;
	for (u32 pde = 0; (src = mm_next_table(old, &pde)); pde++) {
		pte_t *dst = NULL;

		for (u32 i = next_pte(src, 0); i < 1024; i = next_pte(src, i + 1)) {
			if (!(src[i] & PTE_P))
				continue;
			if (!dst && !(dst = mm_pte_alloc(mm, pde << 22))) {
				if (cow)
					flush_tlb_mm(old);
				mm_put(mm);
				return NULL;
			}
			if (src[i] & (PTE_W | PTE_COW)) {	/* share read-only until written */
				cow |= src[i] & PTE_W;
				src[i] = (src[i] & ~PTE_W) | PTE_COW;
			}
			dst[i] = src[i];
			frame_get(PTE_ADDR(src[i]));
			mm->nr_pages++;
		}
	}
	/* dup_mmap's flush_tlb_mm(oldmm): the parent's other threads, on
	 * other CPUs, must not keep writing through the old translations */
	if (cow)
		flush_tlb_mm(old);
	return mm;
}

struct vm_area *find_area(struct mm *mm, u32 addr)
{
	for (int i = 0; i < mm->nr_areas; i++)
		if (addr >= mm->areas[i].start && addr < mm->areas[i].end)
			return &mm->areas[i];
	return NULL;
}

/* The PTE bits of a page of an area with VM_* FLAGS: user-accessible with
 * any access (x86: read implied), writable with VM_WRITE. */
static u32 vm_pteflags(u32 flags)
{
	return (flags & (VM_READ | VM_WRITE | VM_EXEC) ? PTE_U : 0) | (flags & VM_WRITE ? PTE_W : 0);
}

/* Install a new zeroed (or copied) page at VA, PTE_P | PTEFLAGS.  0 or -ENOMEM. */
static int map_new_page(struct mm *mm, u32 va, u32 pteflags, const void *copy)
{
	pte_t *pte = mm_pte_alloc(mm, va);
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
	*pte = frame | PTE_P | pteflags;
	flush_tlb_page(mm, va);
	return 0;
}

/* The frame mapped at VA (present), in the kernel's view. */
static u8 *page_at(struct mm *mm, u32 va)
{
	return __va(PTE_ADDR(*pte_lookup(mm->pgdir, va, 0)));
}

int mm_elf_map(struct mm *mm, u32 start, u32 end, const struct initrd_node *f, s64 off, u32 vmflags)
{
	const u8 *file = f->data;
	u32 size = f->size;
	struct vm_area *a = mm_map_fixed(mm, start, end, vmflags | VM_FILE, NULL, 0, 0);

	if (!a)
		return -ENOMEM;
	a->vm_file = f;				/* named in /proc/PID/maps; its pages are */
	a->pgoff = off < 0 ? 0 : (u32)(off >> PAGE_SHIFT);	/* all present, no fault reads them */
	for (u32 va = start; va < end; va += PAGE_SIZE) {
		/* The file's bytes [lo, hi) fall on this page, at lo - at. */
		s64 at = off + (va - start), lo = at < 0 ? 0 : at, hi = min(at + PAGE_SIZE, (s64)size);
		/* A page wholly from the file is copied, not zeroed first. */
		int whole = lo == at && hi == at + PAGE_SIZE;
		int err = map_new_page(mm, va, vm_pteflags(vmflags), whole ? file + at : NULL);
		if (err)
			return err;
		if (lo < hi && !whole)
			memcpy(page_at(mm, va) + (lo - at), file + lo, (size_t)(hi - lo));
	}
	return 0;
}

int mm_brk_area(struct mm *mm, u32 start, u32 end)
{
	if (start >= end)
		return 0;
	return mm_map_fixed(mm, start, end, VM_READ | VM_WRITE, NULL, 0, 0) ? 0 : -ENOMEM;
}

int mm_padzero(struct mm *mm, u32 addr, u32 len)
{
	if (!len)
		return 0;
	if (mm_fault(mm, addr, 1))
		return -EFAULT;
	memset(page_at(mm, addr & PAGE_MASK) + (addr & ~PAGE_MASK), 0, len);
	return 0;
}

int mm_install_special(struct mm *mm, u32 start, const phys_addr_t *frames, u32 n, u32 vmflags)
{
	u32 end = start + n * PAGE_SIZE;

	if (mm_range_used(mm, start, end))
		return -EEXIST;
	if (mm->nr_areas >= mm->max_areas && mm->max_areas >= MM_MAX_AREAS)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		pte_t *pte = mm_pte_alloc(mm, start + i * PAGE_SIZE);
		if (!pte) {
			mm_unmap_pages(mm, start, start + i * PAGE_SIZE);
			return -ENOMEM;
		}
		frame_get(frames[i]);
		*pte = frames[i] | PTE_P | PTE_U;	/* never writable: COW on mprotect */
		mm->nr_pages++;
	}
	struct vm_area *a = mm_new_area(mm);
	if (!a) {
		mm_unmap_pages(mm, start, end);
		return -ENOMEM;
	}
	*a = (struct vm_area){ .start = start, .end = end, .flags = vmflags | VM_DONTEXPAND };
	return 0;
}

/*
 * A first touch at VA: a zeroed page, or for a file mapping a copy of the
 * file's page there, its part past the file's end zeroed (the .bss part of
 * a library's last page); a page wholly past the end is -EIO, SIGBUS, as
 * Linux's filemap_fault (pgoff >= the file's size in pages).  The offset is
 * 64-bit: pgoff counts pages, so it never wraps to the file's first bytes.
 */
static int fault_in(struct mm *mm, u32 va, u32 fl)
{
	struct vm_area *a = find_area(mm, va);
	u32 pteflags = vm_pteflags(fl);

	if (!a || !a->file)
		return map_new_page(mm, va, pteflags, NULL);
	u64 off = ((u64)a->pgoff << PAGE_SHIFT) + (va - a->start);
	if (off >= a->file_size)
		return -EIO;
	u32 n = (u32)min(a->file_size - off, (u64)PAGE_SIZE);
	if (n == PAGE_SIZE)
		return map_new_page(mm, va, pteflags, a->file + off);
	int err = map_new_page(mm, va, pteflags, NULL);
	if (!err)
		memcpy(page_at(mm, va), a->file + off, n);
	return err;
}

/* Which access the address allows: VM_* flags, or 0 if unmapped. */
static u32 addr_flags(struct mm *mm, u32 addr)
{
	struct vm_area *a = find_area(mm, addr);

	if (a)
		return a->flags & VM_ACCESS;
	if (addr >= mm->start_brk && addr < ALIGN_UP(mm->brk, PAGE_SIZE))
		return VM_READ | VM_WRITE;
	if (addr >= STACK_TOP - STACK_LIMIT && addr < STACK_TOP)
		return VM_READ | VM_WRITE;
	return 0;
}

static int handle_mm_fault(struct mm *mm, u32 addr, int write)
{
	u32 va = addr & PAGE_MASK, fl;
	pte_t *pte;

	if (!mm || addr >= TASK_SIZE)
		return -EFAULT;
	fl = addr_flags(mm, addr);
	if (!fl || (write && !(fl & VM_WRITE)))
		return -EFAULT;
	pte = mm_pte_alloc(mm, va);
	if (!pte)
		return -ENOMEM;
	if (!(*pte & PTE_P))
		return fault_in(mm, va, fl);
	if (write && !(*pte & PTE_W)) {
		u32 frame = PTE_ADDR(*pte);
		if (!(*pte & PTE_COW))
			return -EFAULT;
		if (frame_refcount(frame) == 1) {	/* last sharer: just take it */
			*pte = (*pte | PTE_W) & ~PTE_COW;
			flush_tlb_page(mm, va);
			return 0;
		}
		return map_new_page(mm, va, PTE_U | PTE_W, __va(frame));
	}
	if (!(*pte & PTE_U)) {		/* never left so by mprotect: no fault loop all the same */
		*pte |= PTE_U;
		flush_tlb_page(mm, va);
	}
	return 0;	/* already there (another thread faulted it in) */
}

/*
 * A fault handled is counted to the task that took it, as 2.6.35's
 * do_page_fault (or get_user_pages, for the kernel's own accesses to user
 * memory) does: a major fault if it waited for I/O (VM_FAULT_MAJOR), a
 * minor one otherwise.  Every page here comes from memory - zeroed, copied
 * or the initrd's bytes - so every fault is minor.
 */
static DEFINE_PER_CPU(u64, pgfault);	/* faults handled, per CPU (Linux's PGFAULT event) */

int mm_fault(struct mm *mm, u32 addr, int write)
{
	int err = handle_mm_fault(mm, addr, write);

	if (!err) {
		current->min_flt++;
		this_cpu_inc(pgfault);
	}
	return err;
}

u64 vm_events_pgfault(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(pgfault, cpu);
	return sum;
}

/* Unmap user pages in [start, end). */
void mm_unmap_pages(struct mm *mm, u32 start, u32 end)
{
	if (mm->hiwater_rss < mm->nr_pages)	/* update_hiwater_rss(): RSS is about to drop */
		mm->hiwater_rss = mm->nr_pages;
	int unmapped = 0;

	for (u32 va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = pte_lookup(mm->pgdir, va, 0);
		if (pte && (*pte & PTE_P)) {
			frame_put(PTE_ADDR(*pte));
			*pte = 0;
			mm->nr_pages--;
			unmapped = 1;
		}
	}
	/* One shootdown for the range, after the loop (zap_page_range's
	 * tlb_finish_mmu).  The frames went back first, which 2.6.35 does
	 * after the flush: harmless here, since nothing is allocated before
	 * the flush and a free frame holds nothing (pmm's bitmap). */
	if (unmapped)
		flush_tlb_range(mm, start, end);
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
	if (ALIGN_UP(brk, PAGE_SIZE) < ALIGN_UP(mm->brk, PAGE_SIZE)) {	/* do_munmap's */
		struct mm_counters c;
		mm_get_counters(mm, &c);
		mm->hiwater_vm = max(mm->hiwater_vm, c.total_vm);
	}
	if (brk < mm->brk)
		mm_unmap_pages(mm, ALIGN_UP(brk, PAGE_SIZE), ALIGN_UP(mm->brk, PAGE_SIZE));
	mm->brk = brk;
	return brk;
}
