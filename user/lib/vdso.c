/*
 * user/lib/vdso.c - find the kernel's vDSO as glibc does (elf/dl-vdso.h):
 * the auxiliary vector's AT_SYSINFO_EHDR is the address of an ELF shared
 * object; its dynamic symbol table names __vdso_clock_gettime (version
 * LINUX_2.6).  clock_gettime() (time.c) calls it when found, and the
 * system call otherwise (vdso=0, or an object without the symbol).
 */
#include <string.h>
#include <time.h>
#include "ulib.h"

#define AT_NULL		0
#define AT_SYSINFO_EHDR	33
#define PT_LOAD		1
#define PT_DYNAMIC	2
#define DT_NULL		0
#define DT_HASH		4
#define DT_STRTAB	5
#define DT_SYMTAB	6
#define DT_VERSYM	0x6ffffff0
#define DT_VERDEF	0x6ffffffc

typedef unsigned int u32;
typedef unsigned short u16;

struct elf_ehdr { unsigned char ident[16]; u16 type, machine; u32 version, entry, phoff, shoff, flags;
		  u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx; };
struct elf_phdr { u32 type, offset, vaddr, paddr, filesz, memsz, flags, align; };
struct elf_dyn { int tag; u32 val; };
struct elf_sym { u32 name, value, size; unsigned char info, other; u16 shndx; };
struct elf_verdef { u16 version, flags, ndx, cnt; u32 hash, aux, next; };
struct elf_verdaux { u32 name, next; };

int (*__vdso_clock_gettime_fn)(int, struct timespec *);

/* The version name of symbol I, or NULL (no versioning). */
static const char *sym_version(const u16 *versym, const char *verdef, const char *strtab, u32 i)
{
	u16 ndx = versym[i] & 0x7fff;

	for (const struct elf_verdef *d = (const void *)verdef; d; ) {
		if (d->ndx == ndx) {
			const struct elf_verdaux *aux = (const void *)((const char *)d + d->aux);
			return strtab + aux->name;
		}
		if (!d->next)
			break;
		d = (const void *)((const char *)d + d->next);
	}
	return NULL;
}

/* NAME@@VERSION's address in the object at EHDR, or NULL. */
static void *vdso_sym(const struct elf_ehdr *eh, const char *name, const char *version)
{
	const char *base = (const char *)eh;
	const struct elf_phdr *ph = (const void *)(base + eh->phoff);
	const struct elf_dyn *dyn = NULL;
	const u32 *hash = NULL;
	const struct elf_sym *symtab = NULL;
	const char *strtab = NULL, *verdef = NULL;
	const u16 *versym = NULL;
	long bias = 0;
	int have_load = 0;

	if (memcmp(eh->ident, "\177ELF", 4) || eh->ident[4] != 1)	/* ELFCLASS32 */
		return NULL;
	for (int i = 0; i < eh->phnum; i++) {
		if (ph[i].type == PT_LOAD && !have_load) {
			bias = (long)base - (long)ph[i].vaddr;
			have_load = 1;
		} else if (ph[i].type == PT_DYNAMIC) {
			dyn = (const void *)(base + ph[i].offset);
		}
	}
	if (!have_load || !dyn)
		return NULL;
	for (; dyn->tag != DT_NULL; dyn++) {
		const char *p = (const char *)(bias + (long)dyn->val);
		switch (dyn->tag) {
		case DT_HASH: hash = (const void *)p; break;
		case DT_SYMTAB: symtab = (const void *)p; break;
		case DT_STRTAB: strtab = p; break;
		case DT_VERSYM: versym = (const void *)p; break;
		case DT_VERDEF: verdef = p; break;
		}
	}
	if (!hash || !symtab || !strtab)
		return NULL;
	for (u32 i = 1; i < hash[1]; i++) {		/* hash[1]: nchain = symbols */
		const struct elf_sym *s = &symtab[i];
		if (s->shndx == 0 || strcmp(strtab + s->name, name))
			continue;
		if (versym && verdef) {
			const char *v = sym_version(versym, verdef, strtab, i);
			if (!v || strcmp(v, version))
				continue;
		}
		return (void *)(bias + (long)s->value);
	}
	return NULL;
}

static const struct elf_ehdr *vdso_ehdr;

/* NAME of VERSION in the vDSO, or NULL; for the tests too. */
void *__libc_vdso_vsym(const char *name, const char *version)
{
	return vdso_ehdr ? vdso_sym(vdso_ehdr, name, version) : NULL;
}

/* NAME (version LINUX_2.6, the clocks') in the vDSO, or NULL. */
void *__libc_vdso_sym(const char *name)
{
	return __libc_vdso_vsym(name, "LINUX_2.6");
}

/* Called by __libc_start with envp: the auxv follows envp's NULL. */
void __libc_vdso_init(char **envp)
{
	u32 *auxv;

	while (*envp)
		envp++;
	for (auxv = (u32 *)(envp + 1); auxv[0] != AT_NULL; auxv += 2)
		if (auxv[0] == AT_SYSINFO_EHDR && auxv[1])
			vdso_ehdr = (const void *)auxv[1];
	__vdso_clock_gettime_fn = __libc_vdso_sym("__vdso_clock_gettime");
}
