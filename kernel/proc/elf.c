/*
 * kernel/proc/elf.c - ELF32 executable validation and loading, decoupled
 * from paging through struct elf_load_ops.  The rules are listed in
 * kernel/elf.h; each check below names the rule it enforces.
 *
 * The image may sit at any alignment (inside a ustar archive, a user
 * buffer ...), so headers are copied out with memcpy, never dereferenced in
 * place.  All bounds arithmetic is u64: a u32 field plus a u32 field cannot
 * wrap it.
 */
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/string.h>

/* Identity: is this an i386 executable or shared object at all?  (-ENOEXEC) */
static int check_ident(const Elf32_Ehdr *eh)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	if (eh->e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_ident[EI_VERSION] != EV_CURRENT ||
	    eh->e_version != EV_CURRENT)
		return -ENOEXEC;
	if ((eh->e_type != ET_EXEC && eh->e_type != ET_DYN) || eh->e_machine != EM_386)
		return -ENOEXEC;
	return 0;
}

/* The program header table lies inside the image.  (-EINVAL) */
static int check_phdr_table(const Elf32_Ehdr *eh, size_t len)
{
	u64 bytes = (u64)eh->e_phnum * eh->e_phentsize;

	if (eh->e_phentsize != sizeof(Elf32_Phdr))
		return -EINVAL;
	if (eh->e_phnum == 0 || bytes > ELF_MAX_PHDR_BYTES)
		return -EINVAL;
	if ((u64)eh->e_phoff + bytes > len)
		return -EINVAL;
	return 0;
}

static void read_phdr(const u8 *image, const Elf32_Ehdr *eh, unsigned int i,
		      Elf32_Phdr *ph)
{
	memcpy(ph, image + eh->e_phoff + (size_t)i * sizeof(*ph), sizeof(*ph));
}

/* One PT_LOAD: sizes, file bounds, alignment, user-space bounds.  (-EINVAL)
 * An ET_DYN's addresses are relative to its load bias, so only its span is
 * bounded (it must fit below TASK_SIZE); an ET_EXEC's are absolute. */
static int check_load(const Elf32_Phdr *ph, size_t len, int dyn)
{
	u64 end = (u64)ph->p_vaddr + ph->p_memsz;

	if (ph->p_filesz > ph->p_memsz)
		return -EINVAL;
	if ((u64)ph->p_offset + ph->p_filesz > len)
		return -EINVAL;
	if (ph->p_align & (ph->p_align - 1))		/* 0 or a power of two */
		return -EINVAL;
	if (ph->p_align > 1 &&
	    (ph->p_vaddr & (ph->p_align - 1)) != (ph->p_offset & (ph->p_align - 1)))
		return -EINVAL;
	if ((!dyn && ph->p_vaddr < ELF_MIN_VADDR) || end > TASK_SIZE)
		return -EINVAL;
	return 0;
}

/* PT_INTERP: a NUL-terminated path of 2..ELF_INTERP_MAX bytes inside the image.  (-EINVAL) */
static int check_interp(const u8 *img, const Elf32_Phdr *ph, size_t len)
{
	if (ph->p_filesz < 2 || ph->p_filesz > ELF_INTERP_MAX || (u64)ph->p_offset + ph->p_filesz > len)
		return -EINVAL;
	if (strnlen((const char *)img + ph->p_offset, ph->p_filesz) != ph->p_filesz - 1)
		return -EINVAL;		/* a NUL before the end, or none at it */
	return 0;
}

int elf_check(const void *image, size_t len)
{
	const u8 *img = image;
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	u64 prev_end = 0;
	unsigned int i, loads = 0, interps = 0;
	int entry_ok = 0, ret;

	if (!image || len < sizeof(eh))
		return -EINVAL;
	memcpy(&eh, img, sizeof(eh));
	ret = check_ident(&eh);
	if (ret)
		return ret;
	ret = check_phdr_table(&eh, len);
	if (ret)
		return ret;

	for (i = 0; i < eh.e_phnum; i++) {
		read_phdr(img, &eh, i, &ph);
		if (ph.p_type == PT_INTERP && (interps++ || (ret = check_interp(img, &ph, len))))
			return interps > 1 ? -EINVAL : ret;
		if (ph.p_type != PT_LOAD)
			continue;
		ret = check_load(&ph, len, eh.e_type == ET_DYN);
		if (ret)
			return ret;
		if (ph.p_memsz == 0)
			continue;
		/* Ascending and disjoint (System V ABI: sorted by p_vaddr). */
		if (ph.p_vaddr < prev_end)
			return -EINVAL;
		prev_end = (u64)ph.p_vaddr + ph.p_memsz;
		loads++;
		if ((ph.p_flags & PF_X) && eh.e_entry >= ph.p_vaddr &&
		    eh.e_entry < prev_end)
			entry_ok = 1;
	}
	if (loads == 0)
		return -ENOEXEC;
	if (!entry_ok)
		return -EINVAL;
	return 0;
}

int elf_load(const void *image, size_t len, const struct elf_load_ops *ops,
	     void *ctx, u32 bias, u32 *entry)
{
	const u8 *img = image;
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	unsigned int i;
	int ret;

	ret = elf_check(image, len);
	if (ret)
		return ret;
	memcpy(&eh, img, sizeof(eh));

	for (i = 0; i < eh.e_phnum; i++) {
		read_phdr(img, &eh, i, &ph);
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		ret = ops->map_segment(ctx, ph.p_vaddr + bias, ph.p_memsz,
				       img + ph.p_offset, ph.p_filesz,
				       ph.p_flags & (PF_R | PF_W | PF_X));
		if (ret)
			return ret;
	}
	*entry = eh.e_entry + bias;
	return 0;
}

int elf_interp(const void *image, size_t len, const char **path)
{
	const u8 *img = image;
	Elf32_Ehdr eh;
	Elf32_Phdr ph;

	memcpy(&eh, img, sizeof(eh));
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		read_phdr(img, &eh, i, &ph);
		if (ph.p_type == PT_INTERP) {
			*path = (const char *)img + ph.p_offset;
			return 1;
		}
	}
	return 0;
}

u32 elf_span(const void *image, size_t len, u32 *lowest)
{
	const u8 *img = image;
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	u32 lo = 0xffffffffu, hi = 0;

	memcpy(&eh, img, sizeof(eh));
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		read_phdr(img, &eh, i, &ph);
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		lo = min(lo, ph.p_vaddr & PAGE_MASK);
		hi = max(hi, ALIGN_UP(ph.p_vaddr + ph.p_memsz, PAGE_SIZE));
	}
	*lowest = lo;
	return eh.e_type == ET_DYN ? hi - lo : 0;
}

u32 elf_phdr_vaddr(const void *image, size_t len, u32 *phnum)
{
	const u8 *img = image;
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	u32 at = 0;

	memcpy(&eh, img, sizeof(eh));
	*phnum = eh.e_phnum;
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		read_phdr(img, &eh, i, &ph);
		if (ph.p_type == PT_PHDR)
			return ph.p_vaddr;
		if (!at && ph.p_type == PT_LOAD && eh.e_phoff >= ph.p_offset &&
		    (u64)eh.e_phoff + (u64)eh.e_phnum * sizeof(ph) <= (u64)ph.p_offset + ph.p_filesz)
			at = ph.p_vaddr + (eh.e_phoff - ph.p_offset);
	}
	return at;
}
