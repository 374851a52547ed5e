/*
 * kernel/mm/uaccess.c - checked copies between kernel and user memory.
 *
 * Every user pointer a syscall receives goes through here.  A range is
 * accepted only if it lies below TASK_SIZE without wrapping and every page
 * of it is (or can be made, by a demand/COW fault) present with the access
 * needed; otherwise the call gets -EFAULT and nothing is copied past the
 * first bad page.  Pages are made present before the copy, so the kernel
 * itself never takes a page fault on a user address.
 */
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/pgtable.h>

/* Like Linux: an empty range may end exactly at TASK_SIZE (exec copies a
 * zero-length string area to STACK_TOP when argv and envp are empty). */
int access_ok(u32 addr, u32 len)
{
	return addr <= TASK_SIZE && len <= TASK_SIZE - addr;
}

/* Make user page VA present for the access; 0 or -EFAULT. */
static int fault_in(u32 va, int write)
{
	struct mm *mm = current->mm;
	pte_t *pte;

	if (!mm)
		return -EFAULT;
	pte = pte_lookup(mm->pgdir, va, 0);
	if (pte && (*pte & PTE_P) && (*pte & PTE_U) && (!write || (*pte & PTE_W)))
		return 0;
	return mm_fault(mm, va, write) ? -EFAULT : 0;
}

static int fault_in_range(u32 addr, u32 len, int write)
{
	if (!access_ok(addr, len))
		return -EFAULT;
	if (!len)
		return 0;
	for (u32 va = addr & PAGE_MASK; va < addr + len && va >= (addr & PAGE_MASK); va += PAGE_SIZE)
		if (fault_in(va, write))
			return -EFAULT;
	return 0;
}

int fault_in_user(const void *uaddr, size_t len, int write)
{
	return fault_in_range((u32)uaddr, len, write);
}

int copy_from_user(void *dst, const void *src, size_t n)
{
	if (fault_in_range((u32)src, n, 0))
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

int copy_to_user(void *dst, const void *src, size_t n)
{
	if (fault_in_range((u32)dst, n, 1))
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

long strncpy_from_user(char *dst, const char *src, long max)
{
	for (long i = 0; i < max; i++) {
		u32 a = (u32)src + i;
		if ((i == 0 || (a & ~PAGE_MASK) == 0) && (a >= TASK_SIZE || fault_in(a & PAGE_MASK, 0)))
			return -EFAULT;
		dst[i] = src[i];
		if (!dst[i])
			return i;
	}
	return -ENAMETOOLONG;
}
