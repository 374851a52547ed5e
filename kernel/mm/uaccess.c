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

/*
 * The common case, decided without a call: [addr, addr+len) is not empty,
 * lies in one page of user space, and that page is present, user and (for
 * a write) writable now - a page fault_in() would pass as it is.  Anything
 * else (an empty or page-crossing range, a missing, read-only or COW page,
 * a bad address) takes fault_in_range(), which decides as before.
 */
static inline int user_page_ready(u32 addr, u32 len, int write)
{
	u32 need = PTE_P | PTE_U | (write ? PTE_W : 0);
	struct mm *mm = current->mm;

	if (!len || ((addr ^ (addr + len - 1)) & PAGE_MASK) || !access_ok(addr, len) || !mm)
		return 0;
	return (pte_peek(mm->pgdir, addr) & need) == need;
}

int copy_from_user(void *dst, const void *src, size_t n)
{
	if (!user_page_ready((u32)src, n, 0) && fault_in_range((u32)src, n, 0))
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

int copy_to_user(void *dst, const void *src, size_t n)
{
	if (!user_page_ready((u32)dst, n, 1) && fault_in_range((u32)dst, n, 1))
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
