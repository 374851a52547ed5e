/*
 * tests/host/exec/test_elf.c - the ELF32 loader core (kernel/proc/elf.c).
 *
 * A small valid executable is built in memory (two PT_LOADs: R+X text with
 * the headers, RW data with a .bss tail), then dozens of single-field
 * corruptions of it must each be refused with the documented error and
 * without a single map_segment call.  Every image is handed over in a heap
 * buffer of exactly its length, so ASan catches any read past the end.
 * Finally the real user programs from build/user are loaded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/compiler.h>

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- the reference image ---- */
#define TEXT_VADDR	0x08048000u
#define TEXT_SIZE	0x200u		/* headers + "code" */
#define DATA_VADDR	0x08049200u	/* = offset 0x200 mod 0x1000 */
#define DATA_OFF	0x200u
#define DATA_FILESZ	0x10u
#define DATA_MEMSZ	0x100u
#define IMG_LEN		(DATA_OFF + DATA_FILESZ)
#define ENTRY		(TEXT_VADDR + 0x80u)

struct image {
	u8 b[IMG_LEN];
	Elf32_Ehdr *eh;
	Elf32_Phdr *ph;		/* ph[0] text, ph[1] data */
};

static void build_image(struct image *im)
{
	Elf32_Ehdr eh = {
		.e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_EXEC, .e_machine = EM_386, .e_version = EV_CURRENT,
		.e_entry = ENTRY, .e_phoff = sizeof(Elf32_Ehdr),
		.e_ehsize = sizeof(Elf32_Ehdr), .e_phentsize = sizeof(Elf32_Phdr),
		.e_phnum = 2,
	};
	Elf32_Phdr ph[2] = {
		{ .p_type = PT_LOAD, .p_offset = 0, .p_vaddr = TEXT_VADDR,
		  .p_paddr = TEXT_VADDR, .p_filesz = TEXT_SIZE, .p_memsz = TEXT_SIZE,
		  .p_flags = PF_R | PF_X, .p_align = 0x1000 },
		{ .p_type = PT_LOAD, .p_offset = DATA_OFF, .p_vaddr = DATA_VADDR,
		  .p_paddr = DATA_VADDR, .p_filesz = DATA_FILESZ, .p_memsz = DATA_MEMSZ,
		  .p_flags = PF_R | PF_W, .p_align = 0x1000 },
	};

	memset(im->b, 0, sizeof(im->b));
	for (unsigned int i = 0x80; i < TEXT_SIZE; i++)
		im->b[i] = 0x90;			/* "code": nops */
	for (unsigned int i = 0; i < DATA_FILESZ; i++)
		im->b[DATA_OFF + i] = (u8)(0xD0 + i);	/* "data" */
	memcpy(im->b, &eh, sizeof(eh));
	memcpy(im->b + sizeof(eh), ph, sizeof(ph));
	im->eh = (Elf32_Ehdr *)im->b;
	im->ph = (Elf32_Phdr *)(im->b + sizeof(eh));
}

/* ---- a recording elf_load_ops ---- */
struct call {
	u32 vaddr, memsz, filesz, flags;
	const u8 *data;
};

struct recorder {
	struct call calls[16];
	int n;
	int fail_at;		/* 1-based call number that fails, 0 = none */
	int fail_err;
	const u8 *img;		/* bounds of the image for the invariant checks */
	size_t len;
};

static int rec_map(void *ctx, u32 vaddr, u32 memsz, const void *data,
		   u32 filesz, u32 flags)
{
	struct recorder *r = ctx;
	const u8 *d = data;

	/* What every caller may rely on, whatever the image. */
	assert_true(vaddr >= ELF_MIN_VADDR);
	assert_true((u64)vaddr + memsz <= TASK_SIZE);
	assert_true(filesz <= memsz && memsz > 0);
	assert_true(d >= r->img && (u64)(d - r->img) + filesz <= r->len);
	assert_int_equal(flags & ~(u32)(PF_R | PF_W | PF_X), 0);

	if (r->n < (int)NELEM(r->calls))
		r->calls[r->n] = (struct call){ vaddr, memsz, filesz, flags, d };
	r->n++;
	if (r->fail_at && r->n == r->fail_at)
		return r->fail_err;
	return 0;
}

static const struct elf_load_ops rec_ops = { .map_segment = rec_map };

/* elf_load on an exact-size heap copy; also checks elf_check agrees. */
static int load_copy(const void *src, size_t len, struct recorder *r, u32 *entry)
{
	u8 *copy = malloc(len ? len : 1);
	int ret, chk;

	assert_non_null(copy);
	memcpy(copy, src, len);
	memset(r, 0, sizeof(*r));
	r->img = copy;
	r->len = len;
	ret = elf_load(copy, len, &rec_ops, r, 0, entry);
	chk = elf_check(copy, len);
	if (ret == 0 || ret == -ENOEXEC || ret == -EINVAL)
		assert_int_equal(chk, ret);
	free(copy);
	return ret;
}

static void test_valid_image(void **state)
{
	struct image im;
	struct recorder r;
	u32 entry = 0;

	build_image(&im);
	assert_int_equal(load_copy(im.b, IMG_LEN, &r, &entry), 0);
	assert_int_equal(entry, ENTRY);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.calls[0].vaddr, TEXT_VADDR);
	assert_int_equal(r.calls[0].memsz, TEXT_SIZE);
	assert_int_equal(r.calls[0].filesz, TEXT_SIZE);
	assert_int_equal(r.calls[0].flags, PF_R | PF_X);
	assert_int_equal(r.calls[1].vaddr, DATA_VADDR);
	assert_int_equal(r.calls[1].memsz, DATA_MEMSZ);
	assert_int_equal(r.calls[1].filesz, DATA_FILESZ);
	assert_int_equal(r.calls[1].flags, PF_R | PF_W);
	assert_int_equal(r.calls[1].data - r.img, DATA_OFF);
}

static void test_valid_image_unaligned_buffer(void **state)
{
	struct image im;
	struct recorder r = { 0 };
	u8 *buf = malloc(IMG_LEN + 1);
	u32 entry = 0;

	build_image(&im);
	memcpy(buf + 1, im.b, IMG_LEN);		/* odd address: no aligned loads */
	r.img = buf + 1;
	r.len = IMG_LEN;
	assert_int_equal(elf_load(buf + 1, IMG_LEN, &rec_ops, &r, 0, &entry), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(entry, ENTRY);
	free(buf);
}

/* A position-independent copy of the reference image: ET_DYN, addresses
 * relative to 0, loaded at BIAS as exec places a PIE (ELF_ET_DYN_BASE). */
static void test_dyn_image_at_a_bias(void **state)
{
	struct image im;
	struct recorder r = { 0 };
	const u32 bias = 0x00400000u;
	u32 entry = 0, lowest = 1;

	build_image(&im);
	im.eh->e_type = ET_DYN;
	im.eh->e_entry -= TEXT_VADDR;
	im.ph[0].p_vaddr -= TEXT_VADDR;
	im.ph[1].p_vaddr -= TEXT_VADDR;
	assert_int_equal(elf_check(im.b, IMG_LEN), 0);
	assert_int_equal(elf_span(im.b, IMG_LEN, &lowest), 0x2000u);	/* two pages */
	assert_int_equal(lowest, 0);
	r.img = im.b;
	r.len = IMG_LEN;
	assert_int_equal(elf_load(im.b, IMG_LEN, &rec_ops, &r, bias, &entry), 0);
	assert_int_equal(entry, bias + 0x80u);
	assert_int_equal(r.calls[0].vaddr, bias);
	assert_int_equal(r.calls[1].vaddr, bias + (DATA_VADDR - TEXT_VADDR));
	build_image(&im);	/* an ET_EXEC has no span: it is not moved */
	assert_int_equal(elf_span(im.b, IMG_LEN, &lowest), 0);
}

/* PT_INTERP: the path comes back; a second one, or one without its NUL, is -EINVAL. */
static void test_interp(void **state)
{
	static const char path[] = "/lib/ld-linux.so.2";
	struct image im;
	const char *got = NULL;
	Elf32_Phdr interp = { .p_type = PT_INTERP, .p_offset = 0x100, .p_filesz = sizeof(path) };

	build_image(&im);
	assert_int_equal(elf_interp(im.b, IMG_LEN, &got), 0);	/* static: none */
	memcpy(im.b + 0x100, path, sizeof(path));
	im.eh->e_phnum = 3;				/* a third header, over the nops */
	memcpy(&im.ph[2], &interp, sizeof(interp));
	assert_int_equal(elf_check(im.b, IMG_LEN), 0);
	assert_int_equal(elf_interp(im.b, IMG_LEN, &got), 1);
	assert_string_equal(got, path);
	im.ph[2].p_filesz = sizeof(path) - 1;		/* no NUL at its end */
	assert_int_equal(elf_check(im.b, IMG_LEN), -EINVAL);
	im.ph[2].p_filesz = sizeof(path) + 4;		/* a NUL before its end */
	assert_int_equal(elf_check(im.b, IMG_LEN), -EINVAL);
	im.ph[2].p_filesz = sizeof(path);
	im.eh->e_phnum = 4;				/* two of them */
	memcpy(&im.ph[3], &interp, sizeof(interp));
	assert_int_equal(elf_check(im.b, IMG_LEN), -EINVAL);
}

/* ---- malformed variants: one mutation each ---- */
typedef void (*mutate_fn)(struct image *im);

#define MUT(name, body) static void name(struct image *im) { body; }
MUT(m_magic0, im->b[0] = 0x7e)
MUT(m_magic1, im->b[1] = 'e')
MUT(m_magic2, im->b[2] = 'l')
MUT(m_magic3, im->b[3] = 'f')
MUT(m_class64, im->b[EI_CLASS] = 2)
MUT(m_class0, im->b[EI_CLASS] = 0)
MUT(m_bigendian, im->b[EI_DATA] = 2)
MUT(m_identver, im->b[EI_VERSION] = 0)
MUT(m_version, im->eh->e_version = 2)
MUT(m_type_rel, im->eh->e_type = 1)
MUT(m_type_core, im->eh->e_type = 4)
MUT(m_machine_x86_64, im->eh->e_machine = 62)
MUT(m_machine_none, im->eh->e_machine = 0)
MUT(m_interp, im->ph[1].p_type = PT_INTERP)
MUT(m_no_load, im->ph[0].p_type = PT_NOTE; im->ph[1].p_type = PT_GNU_STACK)
MUT(m_phentsize0, im->eh->e_phentsize = 0)
MUT(m_phentsize31, im->eh->e_phentsize = 31)
MUT(m_phentsize56, im->eh->e_phentsize = 56)
MUT(m_phentsize_huge, im->eh->e_phentsize = 0xFFFF; im->eh->e_phnum = 0xFFFF)
MUT(m_phnum0, im->eh->e_phnum = 0)
MUT(m_phnum_huge, im->eh->e_phnum = 0xFFFF)		/* 2 MiB table > 64 KiB */
MUT(m_phnum_past_eof, im->eh->e_phnum = (IMG_LEN - 52) / 32 + 1)
MUT(m_phoff_eof, im->eh->e_phoff = IMG_LEN)
MUT(m_phoff_edge, im->eh->e_phoff = IMG_LEN - 2 * 32 + 1)	/* table 1 byte over */
MUT(m_phoff_wrap, im->eh->e_phoff = 0xFFFFFFF0u)		/* phoff + 64 wraps u32 */
MUT(m_filesz_gt_memsz, im->ph[1].p_filesz = DATA_MEMSZ + 1)
MUT(m_offset_past_eof, im->ph[1].p_offset = IMG_LEN + 0x1000; im->ph[1].p_vaddr += 0x1000)
MUT(m_filesz_past_eof, im->ph[1].p_filesz = DATA_FILESZ + 1)
MUT(m_offset_wrap, im->ph[1].p_offset = 0xFFFFFF00u; im->ph[1].p_vaddr = 0x0804AF00u;
    im->ph[1].p_filesz = im->ph[1].p_memsz = 0x200)	/* offset + filesz wraps u32 */
MUT(m_kernel_vaddr, im->ph[1].p_vaddr = 0xC0000200u)
MUT(m_end_in_kernel, im->ph[1].p_vaddr = 0xBFFFF200u; im->ph[1].p_memsz = 0xE01)
MUT(m_vaddr_wrap, im->ph[1].p_vaddr = 0xFFFFF200u; im->ph[1].p_memsz = 0x2000)
MUT(m_memsz_huge, im->ph[1].p_memsz = 0xFFFFFFFFu)
MUT(m_null_page, im->ph[0].p_vaddr = 0; im->eh->e_entry = 0x80)
MUT(m_below_min, im->ph[0].p_vaddr = 0x800; im->ph[0].p_align = 0; im->eh->e_entry = 0x880)
MUT(m_align3, im->ph[1].p_align = 3)
MUT(m_align_odd, im->ph[1].p_align = 0x1001)
MUT(m_align_mismatch, im->ph[1].p_vaddr = 0x08049300u)
MUT(m_overlap, im->ph[1].p_vaddr = TEXT_VADDR + 0x100; im->ph[1].p_align = 0)
MUT(m_descending, im->ph[1].p_vaddr = TEXT_VADDR - 0x1000 + DATA_OFF)
MUT(m_entry_outside, im->eh->e_entry = 0x0804A000u)
MUT(m_entry_in_data, im->eh->e_entry = DATA_VADDR + 4)
MUT(m_entry_at_end, im->eh->e_entry = TEXT_VADDR + TEXT_SIZE)
MUT(m_entry_zero, im->eh->e_entry = 0)
MUT(m_text_not_exec, im->ph[0].p_flags = PF_R)

static const struct {
	const char *name;
	mutate_fn fn;
	int err;
} variants[] = {
#define V(f, e) { #f, f, e }
	V(m_magic0, -ENOEXEC), V(m_magic1, -ENOEXEC), V(m_magic2, -ENOEXEC),
	V(m_magic3, -ENOEXEC), V(m_class64, -ENOEXEC), V(m_class0, -ENOEXEC),
	V(m_bigendian, -ENOEXEC), V(m_identver, -ENOEXEC), V(m_version, -ENOEXEC),
	V(m_type_rel, -ENOEXEC), V(m_type_core, -ENOEXEC),
	V(m_machine_x86_64, -ENOEXEC), V(m_machine_none, -ENOEXEC),
	V(m_interp, -EINVAL), V(m_no_load, -ENOEXEC),	/* the data is no NUL-terminated path */
	V(m_phentsize0, -EINVAL), V(m_phentsize31, -EINVAL), V(m_phentsize56, -EINVAL),
	V(m_phentsize_huge, -EINVAL), V(m_phnum0, -EINVAL), V(m_phnum_huge, -EINVAL),
	V(m_phnum_past_eof, -EINVAL), V(m_phoff_eof, -EINVAL), V(m_phoff_edge, -EINVAL),
	V(m_phoff_wrap, -EINVAL), V(m_filesz_gt_memsz, -EINVAL),
	V(m_offset_past_eof, -EINVAL), V(m_filesz_past_eof, -EINVAL),
	V(m_offset_wrap, -EINVAL), V(m_kernel_vaddr, -EINVAL), V(m_end_in_kernel, -EINVAL),
	V(m_vaddr_wrap, -EINVAL), V(m_memsz_huge, -EINVAL), V(m_null_page, -EINVAL),
	V(m_below_min, -EINVAL), V(m_align3, -EINVAL), V(m_align_odd, -EINVAL),
	V(m_align_mismatch, -EINVAL), V(m_overlap, -EINVAL), V(m_descending, -EINVAL),
	V(m_entry_outside, -EINVAL), V(m_entry_in_data, -EINVAL),
	V(m_entry_at_end, -EINVAL), V(m_entry_zero, -EINVAL),
	V(m_text_not_exec, -EINVAL),
#undef V
};

static void test_malformed_variants(void **state)
{
	for (size_t i = 0; i < NELEM(variants); i++) {
		struct image im;
		struct recorder r;
		u32 entry = 0xDEADBEEF;
		int ret;

		build_image(&im);
		variants[i].fn(&im);
		ret = load_copy(im.b, IMG_LEN, &r, &entry);
		if (ret != variants[i].err)
			fail_msg("%s: got %d, want %d", variants[i].name, ret, variants[i].err);
		if (r.n != 0)
			fail_msg("%s: map_segment called %d times", variants[i].name, r.n);
		assert_int_equal(entry, 0xDEADBEEF);	/* untouched on failure */
	}
}

static void test_short_images(void **state)
{
	struct image im;
	struct recorder r;
	u32 entry;

	build_image(&im);
	assert_int_equal(elf_load(NULL, 100, &rec_ops, &r, 0, &entry), -EINVAL);
	/* Every truncation of the file is refused: header, table, or data. */
	for (size_t len = 0; len < IMG_LEN; len++) {
		int ret = load_copy(im.b, len, &r, &entry);

		if (ret != -EINVAL)
			fail_msg("truncated to %zu: got %d", len, ret);
		assert_int_equal(r.n, 0);
	}
}

static void test_accepted_edge_cases(void **state)
{
	struct image im;
	struct recorder r;
	u32 entry;

	/* A segment ending exactly at TASK_SIZE is fine. */
	build_image(&im);
	im.ph[1].p_vaddr = TASK_SIZE - DATA_MEMSZ;
	im.ph[1].p_align = 0;
	assert_int_equal(load_copy(im.b, IMG_LEN, &r, &entry), 0);
	assert_int_equal(r.calls[1].vaddr + r.calls[1].memsz, TASK_SIZE);

	/* memsz 0 PT_LOAD: skipped; PT_NOTE / PT_GNU_STACK: ignored. */
	build_image(&im);
	im.ph[1].p_filesz = 0;
	im.ph[1].p_memsz = 0;
	assert_int_equal(load_copy(im.b, IMG_LEN, &r, &entry), 0);
	assert_int_equal(r.n, 1);
	build_image(&im);
	im.ph[1].p_type = PT_GNU_STACK;
	im.ph[1].p_flags = PF_R | PF_W;
	assert_int_equal(load_copy(im.b, IMG_LEN, &r, &entry), 0);
	assert_int_equal(r.n, 1);

	/* Segments sharing a page (not page-aligned boundary) are allowed. */
	build_image(&im);
	im.ph[1].p_vaddr = TEXT_VADDR + TEXT_SIZE;
	im.ph[1].p_align = 4;
	assert_int_equal(load_copy(im.b, IMG_LEN, &r, &entry), 0);
	assert_int_equal(r.n, 2);

	/* p_align 0 and 1 both mean "no constraint"; flags beyond RWX are masked. */
	build_image(&im);
	im.ph[0].p_align = 1;
	im.ph[0].p_flags |= 0x00F00000;
	assert_int_equal(load_copy(im.b, IMG_LEN, &r, &entry), 0);
	assert_int_equal(r.calls[0].flags, PF_R | PF_X);
}

static void test_ops_error_propagates(void **state)
{
	struct image im;
	struct recorder r = { 0 };
	u32 entry = 0xDEADBEEF;

	build_image(&im);
	r.img = im.b;
	r.len = IMG_LEN;
	r.fail_at = 2;
	r.fail_err = -ENOMEM;
	assert_int_equal(elf_load(im.b, IMG_LEN, &rec_ops, &r, 0, &entry), -ENOMEM);
	assert_int_equal(r.n, 2);		/* stopped at the failing call */
	assert_int_equal(entry, 0xDEADBEEF);
	r.n = 0;
	r.fail_at = 1;
	r.fail_err = -EFAULT;
	assert_int_equal(elf_load(im.b, IMG_LEN, &rec_ops, &r, 0, &entry), -EFAULT);
	assert_int_equal(r.n, 1);
}

/* Random byte corruption: never a crash, and a success obeys the rules. */
static void test_fuzz_mutations(void **state)
{
	u32 x = 0x12345678;
	int accepted = 0;

	for (int iter = 0; iter < 20000; iter++) {
		struct image im;
		struct recorder r;
		u32 entry;
		int nmut, ret;

		build_image(&im);
		nmut = 1 + (int)(x % 4);
		for (int k = 0; k < nmut; k++) {
			x ^= x << 13; x ^= x >> 17; x ^= x << 5;
			/* Mostly the headers, where the checks live. */
			u32 pos = (x >> 8) % (x & 1 ? 52 + 64 : IMG_LEN);
			im.b[pos] = (u8)(x >> 24);
		}
		x ^= x << 13; x ^= x >> 17; x ^= x << 5;
		ret = load_copy(im.b, IMG_LEN - (x % 3 == 0 ? x % 64 : 0), &r, &entry);
		assert_true(ret == 0 || ret == -ENOEXEC || ret == -EINVAL);
		accepted += ret == 0;
	}
	assert_true(accepted > 0);	/* harmless mutations (code bytes) load */
}

/* ---- the real programs built by user/rules.mk ---- */
static void load_file(const char *path, u32 *entry, struct recorder *r, u8 **img, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		fail_msg("cannot open %s (build it with make user)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*img = malloc((size_t)n);
	assert_int_equal(fread(*img, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	memset(r, 0, sizeof(*r));
	r->img = *img;
	r->len = *len;
	assert_int_equal(elf_load(*img, *len, &rec_ops, r, 0, entry), 0);
}

static void test_real_user_programs(void **state)
{
	static const char *progs[] = { "hello", "init", "ulibtest" };

	for (size_t i = 0; i < NELEM(progs); i++) {
		char path[512];
		struct recorder r;
		u32 entry;
		u8 *img;
		size_t len;

		snprintf(path, sizeof(path), "%s/%s.elf", USER_ELF_DIR, progs[i]);
		load_file(path, &entry, &r, &img, &len);
		/* user.ld: RX at 0x08048000 (headers included), then RW, page-disjoint. */
		assert_int_equal(r.n, 2);
		assert_int_equal(r.calls[0].vaddr, 0x08048000u);
		assert_int_equal(r.calls[0].flags, PF_R | PF_X);
		assert_int_equal(r.calls[0].data, img);
		assert_int_equal(r.calls[1].flags, PF_R | PF_W);
		assert_int_equal(r.calls[1].vaddr % PAGE_SIZE, 0);
		assert_true(r.calls[1].vaddr >=
			    ALIGN_UP(r.calls[0].vaddr + r.calls[0].memsz, PAGE_SIZE));
		assert_true(entry >= r.calls[0].vaddr &&
			    entry < r.calls[0].vaddr + r.calls[0].memsz);
		assert_true(r.calls[1].memsz >= r.calls[1].filesz);
		free(img);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_image),
		cmocka_unit_test(test_valid_image_unaligned_buffer),
		cmocka_unit_test(test_dyn_image_at_a_bias),
		cmocka_unit_test(test_interp),
		cmocka_unit_test(test_malformed_variants),
		cmocka_unit_test(test_short_images),
		cmocka_unit_test(test_accepted_edge_cases),
		cmocka_unit_test(test_ops_error_propagates),
		cmocka_unit_test(test_fuzz_mutations),
		cmocka_unit_test(test_real_user_programs),
	};

	return cmocka_run_group_tests_name("exec_elf", tests, NULL, NULL);
}
