/*
 * kernel/proc/exec.c - execve of programs embedded in the kernel image.
 *
 * The programs of user/ are static ELF32 files in a ustar archive linked
 * into the kernel (arch/x86/initrd.asm).  execve(path):
 *   1. copies path, argv and envp into the kernel (-EFAULT, -E2BIG,
 *      -ENAMETOOLONG) while the old image still exists;
 *   2. finds the file ("/bin/ls", "/ls" and "ls" all name "ls") (-ENOENT);
 *   3. builds a new address space with elf_load() (-ENOEXEC for a bad ELF,
 *      -ENOMEM) - on any error so far the caller's image is untouched;
 *   4. commits: switches to the new mm, drops the old one, resets signal
 *      handlers, names the task, lays out the i386 SysV initial stack
 *      (argc, argv[], NULL, envp[], NULL, auxv, strings) and points the
 *      user frame at the ELF entry.
 */
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/kmalloc.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/ustar.h>
#include <kernel/vm.h>
#include <arch/process.h>

#define ARG_MAX		(32 * 1024)	/* bytes of argv + envp strings */
#define ARGV_MAX	256		/* entries in argv (and in envp) */
#define PATH_MAX	256
#define AT_NULL		0
#define AT_PAGESZ	6
#define AT_ENTRY	9

extern const u8 initrd_start[], initrd_end[];

/* The strings of argv and envp, packed, with their counts. */
struct exec_args {
	char *buf;		/* ARG_MAX bytes */
	u32 used;
	int argc, envc;
};

static int add_arg(struct exec_args *a, const char *s, int from_user)
{
	long n;

	if (from_user) {
		n = strncpy_from_user(a->buf + a->used, s, ARG_MAX - a->used);
		if (n == -ENAMETOOLONG)
			return -E2BIG;
		if (n < 0)
			return (int)n;
	} else {
		n = strlen(s);
		if (n >= (long)(ARG_MAX - a->used))
			return -E2BIG;
		memcpy(a->buf + a->used, s, n + 1);
	}
	a->used += n + 1;
	return 0;
}

/* Copy a NULL-terminated vector of strings (user or kernel). */
static int copy_strings(struct exec_args *a, char *const *vec, int from_user, int *count)
{
	for (int i = 0; vec; i++) {
		char *s;
		if (i >= ARGV_MAX)
			return -E2BIG;
		if (from_user) {
			if (get_user(s, &vec[i]))
				return -EFAULT;
		} else {
			s = vec[i];
		}
		if (!s)
			break;
		int err = add_arg(a, s, from_user);
		if (err)
			return err;
		(*count)++;
	}
	return 0;
}

static int find_program(const char *path, const void **image, size_t *size)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!*base)
		return -ENOENT;
	if (ustar_find(initrd_start, initrd_end - initrd_start, base, image, size) < 0)
		return -ENOENT;
	return 0;
}

static int map_segment(void *ctx, u32 vaddr, u32 memsz, const void *data, u32 filesz, u32 flags)
{
	return mm_map_segment(ctx, vaddr, memsz, data, filesz, flags);
}

static const struct elf_load_ops exec_ops = { .map_segment = map_segment };

/* Lay out the initial stack in the (current, new) address space:
 *   sp -> argc, argv[0..argc-1], NULL, envp[0..envc-1], NULL,
 *         AT_PAGESZ, 4096, AT_ENTRY, entry, AT_NULL, 0, ... strings */
static int setup_stack(struct exec_args *a, u32 entry, u32 *sp_out)
{
	u32 nwords = 1 + a->argc + 1 + a->envc + 1 + 6;
	u32 strings = (STACK_TOP - ALIGN_UP(a->used, 16));
	u32 sp = (strings - nwords * 4) & ~15u;
	u32 *out = (u32 *)sp;
	const char *k = a->buf;
	u32 u = strings;
	int err = copy_to_user((void *)strings, a->buf, a->used);

	err |= put_user((u32)a->argc, out++);
	if (a->argc == 0)
		err |= put_user(0u, out++);	/* empty argv */
	for (int i = 0; i < a->argc + a->envc; i++) {
		err |= put_user(u, out++);
		u32 len = strlen(k) + 1;
		k += len;
		u += len;
		if (i == a->argc - 1)
			err |= put_user(0u, out++);	/* end of argv */
	}
	const u32 tail[] = { 0, AT_PAGESZ, PAGE_SIZE, AT_ENTRY, entry, AT_NULL, 0 };
	err |= copy_to_user(out, tail, sizeof(tail));	/* end of envp, auxv */
	*sp_out = sp;
	return err ? -EFAULT : 0;
}

static long exec_common(const char *path, char *const *argv, char *const *envp, int from_user)
{
	struct exec_args a = { 0 };
	char kpath[PATH_MAX];
	const void *image;
	size_t size;
	u32 entry, sp;
	struct mm *mm, *old;
	long err;

	if (from_user) {
		err = strncpy_from_user(kpath, path, sizeof(kpath));
		if (err < 0)
			return err;
	} else {
		strlcpy(kpath, path, sizeof(kpath));
	}
	a.buf = kmalloc(ARG_MAX);
	if (!a.buf)
		return -ENOMEM;
	err = copy_strings(&a, argv, from_user, &a.argc);
	if (!err)
		err = copy_strings(&a, envp, from_user, &a.envc);
	if (!err)
		err = find_program(kpath, &image, &size);
	if (err)
		goto out;
	mm = mm_create();
	if (!mm) {
		err = -ENOMEM;
		goto out;
	}
	err = elf_load(image, size, &exec_ops, mm, &entry);
	if (err) {
		mm_put(mm);
		goto out;
	}

	/* Point of no return: the old image goes away. */
	old = current->mm;
	current->mm = mm;
	arch_set_pgdir(current, mm->pgdir);
	if (old)
		mm_put(old);
	flush_signal_handlers(current);
	const char *base = strrchr(kpath, '/');
	strlcpy(current->comm, base ? base + 1 : kpath, sizeof(current->comm));
	if (setup_stack(&a, entry, &sp)) {
		kfree(a.buf);
		do_exit(SIGSEGV);	/* no memory for the stack: like Linux, kill it */
	}
	arch_exec_regs(task_pt_regs(current), entry, sp);
	err = 0;
out:
	kfree(a.buf);
	return err;
}

long sys_execve(const char *path, char *const *argv, char *const *envp)
{
	return exec_common(path, argv, envp, 1);
}

long kernel_execve(const char *path, char *const *argv, char *const *envp)
{
	return exec_common(path, argv, envp, 0);
}
