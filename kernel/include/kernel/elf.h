/*
 * kernel/elf.h - the ELF32 (i386) executable format and Granule's loader
 * core.
 *
 * elf_load() knows nothing about paging: it validates an in-memory image
 * completely and only then calls ops->map_segment() once per PT_LOAD, in
 * program-header order.  The caller's map_segment must give
 * [vaddr, vaddr + memsz) FLAGS (PF_R/PF_W/PF_X), FILESZ bytes from DATA at
 * vaddr and zeros after them (the .bss tail).  Segments never overlap, but
 * two consecutive segments may share one page when their boundary is not
 * page-aligned (Granule's user.ld page-aligns them; ld -N, and scripts
 * that pack segments, do not): the page must then hold both segments'
 * bytes, as Linux's load_elf_binary gives it (kernel/proc/exec_elf.c).
 *
 * What is accepted (everything else is refused before any callback):
 *   -ENOEXEC  not an executable this kernel runs: bad magic, not ELFCLASS32,
 *             not little-endian, EI_VERSION/e_version != 1, neither ET_EXEC
 *             nor ET_DYN (a PIE or a shared object such as ld-linux.so.2),
 *             not EM_386, or no PT_LOAD at all;
 *   -EINVAL   a malformed i386 executable: image shorter than the ELF
 *             header, e_phentsize != 32, e_phnum 0 or its table beyond
 *             the image or larger than 64 KiB, a PT_LOAD with
 *             filesz > memsz, file data beyond the image, p_align not 0 or
 *             a power of two, vaddr % align != offset % align, an address
 *             below 4096 in an ET_EXEC (the NULL page stays unmapped;
 *             an ET_DYN's addresses are offsets from its load bias) or reaching
 *             TASK_SIZE (0xC0000000) or wrapping, PT_LOADs not in
 *             ascending vaddr order or overlapping, or an entry point
 *             outside every executable PT_LOAD, or more than one PT_INTERP,
 *             or one that is not a NUL-terminated path of 2..ELF_INTERP_MAX
 *             bytes inside the image.
 * A PT_LOAD with memsz 0 is skipped.  Other segment types (PT_NOTE,
 * PT_GNU_STACK, PT_TLS ...) are ignored.  Arithmetic is done in 64 bits,
 * so no field value can overflow a check.
 */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <kernel/types.h>

/* ---- the format (System V ABI, i386 supplement) ---- */
#define EI_NIDENT	16
#define EI_MAG0		0	/* 0x7f 'E' 'L' 'F' */
#define EI_CLASS	4
#define EI_DATA		5
#define EI_VERSION	6
#define ELFMAG		"\177ELF"
#define SELFMAG		4
#define ELFCLASS32	1
#define ELFDATA2LSB	1
#define EV_CURRENT	1
#define ET_EXEC		2
#define ET_DYN		3
#define EM_386		3

#define PT_NULL		0
#define PT_LOAD		1
#define PT_DYNAMIC	2
#define PT_INTERP	3
#define PT_NOTE		4
#define PT_PHDR		6
#define PT_TLS		7
#define PT_GNU_STACK	0x6474e551

#define PF_X		0x1
#define PF_W		0x2
#define PF_R		0x4

typedef struct {
	u8  e_ident[EI_NIDENT];
	u16 e_type;
	u16 e_machine;
	u32 e_version;
	u32 e_entry;
	u32 e_phoff;
	u32 e_shoff;
	u32 e_flags;
	u16 e_ehsize;
	u16 e_phentsize;
	u16 e_phnum;
	u16 e_shentsize;
	u16 e_shnum;
	u16 e_shstrndx;
} Elf32_Ehdr;			/* 52 bytes */

typedef struct {
	u32 p_type;
	u32 p_offset;
	u32 p_vaddr;
	u32 p_paddr;
	u32 p_filesz;
	u32 p_memsz;
	u32 p_flags;
	u32 p_align;
} Elf32_Phdr;			/* 32 bytes */

_Static_assert(sizeof(Elf32_Ehdr) == 52, "Elf32_Ehdr layout");
_Static_assert(sizeof(Elf32_Phdr) == 32, "Elf32_Phdr layout");

/* ---- the loader ---- */
#define ELF_MIN_VADDR		0x1000u		/* lowest mappable user address */
#define ELF_INTERP_MAX		256u		/* PT_INTERP's bytes, NUL included (PATH_MAX here) */
#define ELF_MAX_PHDR_BYTES	65536u		/* Linux's limit on the phdr table */

struct elf_load_ops {
	/*
	 * Map one PT_LOAD segment (see above).  vaddr/memsz are the segment's
	 * own, not page-rounded; flags = p_flags & (PF_R|PF_W|PF_X).  Return 0,
	 * or a negative errno (-ENOMEM ...) that elf_load() passes back.
	 */
	int (*map_segment)(void *ctx, u32 vaddr, u32 memsz,
			   const void *data, u32 filesz, u32 flags);
};

/*
 * Validate IMAGE (LEN bytes, any alignment) and map its segments through
 * OPS, each at p_vaddr + BIAS (the entry point too).  On success stores
 * the entry point in *ENTRY and returns 0; else
 * -ENOEXEC or -EINVAL (nothing was mapped), or the first error map_segment
 * returned (earlier segments stay mapped: the caller tears the address
 * space down).
 */
int elf_load(const void *image, size_t len, const struct elf_load_ops *ops,
	     void *ctx, u32 bias, u32 *entry);

/*
 * A validated image's PT_INTERP: 1 and *PATH (inside the image, NUL-terminated),
 * or 0 if it has none (a static program).  BIAS above: 0 for an ET_EXEC, where
 * an ET_DYN is placed minus elf_span()'s *LOWEST for one.
 */
int elf_interp(const void *image, size_t len, const char **path);

/* An ET_DYN's page-rounded PT_LOAD span in bytes (0 for an ET_EXEC); *LOWEST
 * gets the lowest page-rounded p_vaddr. */
u32 elf_span(const void *image, size_t len, u32 *lowest);

/*
 * Where a validated image's program headers are once loaded (AT_PHDR):
 * PT_PHDR's p_vaddr, else inside the PT_LOAD whose file bytes hold them
 * (Linux's load_elf_binary: load_addr + e_phoff); 0 if no segment does.
 * *PHNUM gets e_phnum.
 */
u32 elf_phdr_vaddr(const void *image, size_t len, u32 *phnum);

/* AT_HWCAP (arch): the CPU's feature word, CPUID.1 EDX on x86. */
u32 elf_hwcap(void);

/* Only the validation: 0, -ENOEXEC or -EINVAL, as elf_load() would return. */
int elf_check(const void *image, size_t len);

#endif
