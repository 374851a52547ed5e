/*
 * kernel/proc/exec_elf.c - the program and its ELF interpreter in a new
 * address space: Linux's load_elf_binary (fs/binfmt_elf.c) for what
 * Granule runs.
 *
 * A static program (Granule's own, busybox-static) is mapped where its
 * PT_LOADs say and starts at its entry.  A dynamic one (Debian's rt-tests)
 * names an interpreter in PT_INTERP, /lib/ld-linux.so.2: the program is
 * mapped (a PIE at ELF_ET_DYN_BASE), the interpreter is mapped where mmap
 * would put it, the task starts at the interpreter's entry, and the
 * auxiliary vector tells it where the program is (AT_PHDR, AT_ENTRY) and
 * where it was itself loaded (AT_BASE).  ld.so then maps the libraries with
 * mmap2 (kernel/mm/mmap.c) and jumps to AT_ENTRY.
 *
 * Both images are copied into their pages now (mm_map_segment); the heap
 * starts after the program, never after the interpreter (Linux's brk comes
 * from the program's bss end as well).
 */
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/vm.h>
#include "exec.h"

static int map_segment(void *ctx, u32 vaddr, u32 memsz, const void *data, u32 filesz, u32 flags)
{
	return mm_map_segment(ctx, vaddr, memsz, data, filesz, flags);
}

static const struct elf_load_ops exec_ops = { .map_segment = map_segment };

/* The interpreter PATH, mapped top-down as mmap would: its bias in *BASE and
 * its entry in *START.  The heap is left where the program put it. */
static int load_interp(const char *path, struct mm *mm, u32 *base, u32 *start)
{
	const void *image;
	const char *inner;
	size_t size;
	u32 lo, span, at, brk = mm->brk, start_brk = mm->start_brk;
	int err = find_program(path, &image, &size);

	if (err)
		return err;
	if (elf_check(image, size) || elf_interp(image, size, &inner) ||
	    !(span = elf_span(image, size, &lo)))
		return -ELIBBAD;		/* not a shared object, or wants its own interpreter */
	if (!(at = mm_get_unmapped_area(mm, span)))
		return -ENOMEM;
	*base = at - lo;
	err = elf_load(image, size, &exec_ops, mm, *base, start);
	mm->start_brk = start_brk;
	mm->brk = brk;
	return err;
}

int load_elf_binary(const void *image, size_t size, struct mm *mm, struct exec_image *im)
{
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
	err = elf_load(image, size, &exec_ops, mm, bias, &im->entry);
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
