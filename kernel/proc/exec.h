/*
 * kernel/proc/exec.h - what execve's two halves share: exec.c (arguments,
 * de_thread, the initial stack) and exec_elf.c (the program and its ELF
 * interpreter in the new address space).  Private to kernel/proc.
 */
#ifndef KERNEL_PROC_EXEC_H
#define KERNEL_PROC_EXEC_H

#include <kernel/types.h>

struct mm;
struct initrd_node;

/* Where a position-independent program goes when it has an interpreter: Linux's
 * ELF_ET_DYN_BASE for 32-bit tasks (4 MiB, arch/x86/include/asm/elf.h since 4.13),
 * without address-space randomisation. */
#define ELF_ET_DYN_BASE	0x00400000u

/* What the auxiliary vector tells the program about its image. */
struct exec_image {
	u32 entry;			/* AT_ENTRY: the program's entry point */
	u32 start;			/* where the task starts: the interpreter's entry, or entry */
	u32 base;			/* AT_BASE: the interpreter's load address; 0: none */
	u32 phdr, phnum;		/* AT_PHDR (0: not in a loaded segment), AT_PHNUM */
	const char *execfn;		/* the path given to execve (AT_EXECFN) */
	u32 vdso;			/* AT_SYSINFO_EHDR; 0: none mapped, no entry */
	u32 sysinfo;			/* AT_SYSINFO: __kernel_vsyscall */
};

/* The initrd file PATH names, to run (exec.c): 0, -ENOENT ... -EACCES. */
int find_program(const char *path, const struct initrd_node **file);

/*
 * Load FILE (an initrd file's bytes) into the empty MM: its PT_LOADs (an ET_DYN at
 * ELF_ET_DYN_BASE), then its PT_INTERP's program (ld-linux.so.2) where mmap
 * would put it (an ET_EXEC one at its own addresses); fills *IM but execfn,
 * vdso and sysinfo.  0, or -ENOEXEC, -EINVAL (a bad program), -ENOENT/-EACCES
 * (no interpreter there), -ELIBBAD (an interpreter that is no valid i386 ELF
 * executable or shared object), -EFAULT (a bss whose page cannot be written,
 * Linux's padzero), -ENOMEM.
 */
int load_elf_binary(const struct initrd_node *file, struct mm *mm, struct exec_image *im);

#endif
