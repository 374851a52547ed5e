/*
 * kernel/proc/exec_elf.c - the program and its ELF interpreter in a new
 * address space: Linux's load_elf_binary and load_elf_interp
 * (fs/binfmt_elf.c, 2.6.35) for what Granule runs.
 *
 * A static program (Granule's own, busybox-static) is mapped where its
 * PT_LOADs say and starts at its entry.  A dynamic one (Debian's rt-tests)
 * names an interpreter in PT_INTERP, /lib/ld-linux.so.2: the program is
 * mapped (a PIE at ELF_ET_DYN_BASE), the interpreter is mapped where mmap
 * would put it (an ET_EXEC one where its own PT_LOADs say), the task starts
 * at the interpreter's entry, and the auxiliary vector tells it where the
 * program is (AT_PHDR, AT_ENTRY) and where it was loaded itself (AT_BASE:
 * 0 for an ET_EXEC interpreter).  ld.so then maps the libraries with mmap2
 * (kernel/mm/mmap.c) and jumps to AT_ENTRY.  As in Linux, the interpreter's
 * own PT_INTERP, if it has one, is not looked at.
 *
 * Each PT_LOAD goes in as Linux's loop puts it (elf_map, then the bss):
 *   - its file pages, [vaddr & PAGE_MASK, vaddr + filesz rounded up), are
 *     what a private mapping of the file would show (mm_elf_map): whole
 *     pages of the file, so two segments that share a page both find their
 *     bytes there; the later one's mapping replaces the page, and its
 *     permissions are the page's, as MAP_FIXED does in Linux;
 *   - the bss, [vaddr + filesz, vaddr + memsz): the rest of the last file
 *     page is zeroed (padzero), the pages beyond are anonymous memory that
 *     appears zeroed at its first touch (set_brk / do_brk), so a large bss
 *     costs nothing at exec.  For the program, a bss before a later segment
 *     is set up when that segment comes (Linux's "elf_brk > elf_bss" step),
 *     the last one after the loop; the heap starts at the page after it.
 *     The interpreter's bss is set up once, after its loop, and moves no
 *     heap.
 * The file pages are copied now, not faulted in later (deliberate: exec
 * touches the program's pages once, where a run would fault on each).
 */
#include <kernel/compiler.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/initrd.h>
#include <kernel/vm.h>
#include "exec.h"

/* One image's load: Linux's elf_bss and elf_brk (the highest vaddr + filesz
 * and vaddr + memsz so far, biased; 0 before the first segment). */
struct elf_loader {
	struct mm *mm;
	const struct initrd_node *file;	/* its bytes: the image */
	const u8 *image;
	u32 size;
	int program;		/* the program (its bss moves the heap), not the interpreter */
	u32 elf_bss, elf_brk;
};

/* set_brk: [elf_bss, elf_brk)'s whole pages anonymous; the heap starts after them. */
static int set_brk(struct elf_loader *l)
{
	u32 start = ALIGN_UP(l->elf_bss, PAGE_SIZE), end = ALIGN_UP(l->elf_brk, PAGE_SIZE);
	int err = mm_brk_area(l->mm, start, end);

	if (!err && l->program)
		l->mm->start_brk = l->mm->brk = end;
	return err;
}

/* Zero from elf_bss to the end of its page, or only up to elf_brk if that
 * comes first and TO_BRK (Linux's padzero; the in-loop clear_user). */
static int padzero(struct elf_loader *l, int to_brk)
{
	u32 end = ALIGN_UP(l->elf_bss, PAGE_SIZE);

	if (to_brk)
		end = min(end, l->elf_brk);
	return mm_padzero(l->mm, l->elf_bss, end - l->elf_bss);
}

static int map_segment(void *ctx, u32 vaddr, u32 memsz, const void *data, u32 filesz, u32 flags)
{
	struct elf_loader *l = ctx;
	u32 vmflags = (flags & PF_R ? VM_READ : 0) | (flags & PF_W ? VM_WRITE : 0) |
		      (flags & PF_X ? VM_EXEC : 0);
	u32 offset = (u32)((const u8 *)data - l->image);
	int err;

	if (l->program && l->elf_brk > l->elf_bss) {
		/* A segment with a bss came before this one: map it now.  The
		 * zeroing can fail on odd permissions; Linux ignores that too. */
		if ((err = set_brk(l)))
			return err;
		padzero(l, 1);
	}
	if (filesz) {
		u32 start = vaddr & PAGE_MASK;
		err = mm_elf_map(l->mm, start, ALIGN_UP(vaddr + filesz, PAGE_SIZE), l->file,
				 (s64)offset - (vaddr - start), vmflags);
		if (err)
			return err;
	}
	l->elf_bss = max(l->elf_bss, vaddr + filesz);
	l->elf_brk = max(l->elf_brk, vaddr + memsz);
	if (l->program) {		/* load_elf_binary's start_code and end_code */
		l->mm->start_code = min(l->mm->start_code, vaddr);
		if (flags & PF_X)
			l->mm->end_code = max(l->mm->end_code, vaddr + filesz);
	}
	return 0;
}

static const struct elf_load_ops exec_ops = { .map_segment = map_segment };

/* IMAGE's segments at BIAS, then its last bss (Linux's set_brk + padzero for
 * the program; padzero + do_brk for the interpreter).  0 or -errno. */
static int load_segments(const struct initrd_node *file, struct mm *mm, int program, u32 bias,
			 u32 *entry)
{
	struct elf_loader l = { .mm = mm, .file = file, .image = file->data, .size = file->size,
				.program = program };
	int err;

	if (program)
		mm->start_code = ~0u;
	if ((err = elf_load(l.image, l.size, &exec_ops, &l, bias, entry)))
		return err;
	if (program) {
		if ((err = set_brk(&l)))
			return err;
		return l.elf_bss != l.elf_brk ? padzero(&l, 0) : 0;
	}
	if ((err = padzero(&l, 0)))
		return err;
	return set_brk(&l);
}

/* The interpreter PATH: an ET_DYN one where mmap would put it (its bias in
 * *BASE), an ET_EXEC one at its own addresses (*BASE 0); its entry in *START. */
static int load_interp(const char *path, struct mm *mm, u32 *base, u32 *start)
{
	const struct initrd_node *file;
	u32 lo, span, at;
	int err = find_program(path, &file);

	if (err)
		return err;
	const void *image = file->data;
	size_t size = file->size;
	if (elf_check(image, size))
		return -ELIBBAD;		/* not an i386 ELF executable or shared object */
	*base = 0;
	if ((span = elf_span(image, size, &lo))) {
		if (!(at = mm_get_unmapped_area(mm, span)))
			return -ENOMEM;
		*base = at - lo;
	}
	return load_segments(file, mm, 0, *base, start);
}

int load_elf_binary(const struct initrd_node *file, struct mm *mm, struct exec_image *im)
{
	const void *image = file->data;
	size_t size = file->size;
	const char *interp;
	u32 lo, bias = 0;
	int err = elf_check(image, size);

	if (err)
		return err;
	u32 span = elf_span(image, size, &lo);
	if (span > TASK_SIZE - ELF_ET_DYN_BASE)
		return -ENOMEM;			/* a PIE larger than the address space */
	if (span)
		bias = ELF_ET_DYN_BASE - lo;	/* a PIE: lowest page at ELF_ET_DYN_BASE */
	err = load_segments(file, mm, 1, bias, &im->entry);
	if (err)
		return err;
	im->phdr = elf_phdr_vaddr(image, size, &im->phnum);
	if (im->phdr)
		im->phdr += bias;
	im->start = im->entry;
	im->base = 0;
	if (elf_interp(image, size, &interp))
		err = load_interp(interp, mm, &im->base, &im->start);
	return err;
}
