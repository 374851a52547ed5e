/*
 * tests/fuzz/fuzz_elf.c - libFuzzer target: the ELF loader core
 * (kernel/proc/elf.c, unchanged) on arbitrary bytes.
 *
 * Besides ASan/UBSan's own checks, the loader's contract (kernel/elf.h)
 * is asserted: every segment handed to map_segment lies inside the image
 * (data + filesz) and inside user space ([ELF_MIN_VADDR, TASK_SIZE)),
 * filesz <= memsz, the entry point is set only on success, and
 * elf_check() agrees with elf_load() about validity.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/elf.h>

#define TASK_SIZE	0xC0000000ull

struct bounds {
	const uint8_t *image;
	size_t len;
	int segments;
};

static int check_map(void *ctx, u32 vaddr, u32 memsz, const void *data, u32 filesz, u32 flags)
{
	struct bounds *b = ctx;
	const uint8_t *d = data;

	if (filesz > memsz || vaddr < ELF_MIN_VADDR || (uint64_t)vaddr + memsz > TASK_SIZE)
		abort();
	if (filesz && (d < b->image || d + filesz > b->image + b->len))
		abort();
	if (flags & ~7u)
		abort();
	b->segments++;
	return 0;
}

static const struct elf_load_ops ops = { .map_segment = check_map };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly SIZE bytes: ASan sees any read past the end. */
	uint8_t *img = malloc(size ? size : 1);
	struct bounds b = { img, size, 0 };
	u32 entry = 0xdeadbeef;
	int ret, chk;

	memcpy(img, data, size);
	chk = elf_check(img, size);
	/* As exec places it: a PIE's lowest page at 4 MiB, when it fits below TASK_SIZE. */
	u32 lowest = 0, span = chk ? 0 : elf_span(img, size, &lowest), bias = 0;
	if (span && span <= TASK_SIZE - 0x00400000u)
		bias = 0x00400000u - lowest;
	else if (span)
		chk = 1;	/* exec refuses it (-ENOMEM): only the check ran */
	const char *interp;
	if (!chk && elf_interp(img, size, &interp) && strlen(interp) >= ELF_INTERP_MAX)
		abort();
	ret = chk == 1 ? 1 : elf_load(img, size, &ops, &b, bias, &entry);
	if (chk != 1 && (ret == 0) != (chk == 0))
		abort();
	if (ret == 0 && entry == 0xdeadbeef)
		abort();
	free(img);
	return 0;
}
