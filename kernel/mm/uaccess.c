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
#include <kernel/smp_copies.h>
#include <kernel/smp_lock.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
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

/*
 * A lock-free system call's copy (kernel/syscall.c) of N bytes within one
 * present user page at UADDR, to it (WRITE) or from it, through the
 * kernel's own mapping of the frame, with interrupts off: another thread of
 * the process that unmaps the page meanwhile (under the giant lock) frees
 * the frame only for its shootdown to wait for this CPU, which takes the
 * IPI after the copy; and the kernel takes no page fault on a user address
 * (it has no exception table to answer one with -EFAULT, as 2.6.35's
 * lock-free copies do).  The user PTE's accessed and dirty bits are not set:
 * nothing reads them.  1 if it copied; 0: take the giant lock and the slow way.
 */
static __attribute__((always_inline)) inline int copy_user_unlocked(void *kbuf, u32 uaddr,
								    size_t n, int write)
{
	u32 need = PTE_P | PTE_U | (write ? PTE_W : 0);
	struct mm *mm = current->mm;
	unsigned long flags;
	int done = 0;

	if (!n || ((uaddr ^ (uaddr + n - 1)) & PAGE_MASK) || !access_ok(uaddr, n) || !mm)
		return 0;
	local_irq_save(flags);
	pte_t pte = pte_peek(mm->pgdir, uaddr);
	if ((pte & need) == need && PTE_ADDR(pte) < LOWMEM_LIMIT) {
		char *k = (char *)__va(PTE_ADDR(pte)) + (uaddr & ~PAGE_MASK);
		if (write)
			memcpy(k, kbuf, n);
		else
			memcpy(kbuf, k, n);
		done = 1;
	}
	local_irq_restore(flags);
	return done;
}

/*
 * The copy both ways.  At more than one CPU (SMP, a constant: two copies,
 * <kernel/smp_copies.h>) a caller that does not hold the giant lock (a
 * lock-free system call) copies one present page without it
 * (copy_user_unlocked()) and takes it for anything else, for the copy alone:
 * the page tables it walks and the faults it takes are the mm's, which
 * another thread of the process may change meanwhile (munmap, a COW fault).
 */
static __attribute__((always_inline)) inline int copy_user_body(void *dst, const void *src,
								size_t n, u32 uaddr, int write,
								const int smp)
{
	int took = smp && !this_cpu_read(kernel_flag_held);
	int err = 0;

	if (took) {
		if (copy_user_unlocked(write ? (void *)src : dst, uaddr, n, write))
			return 0;
		__lock_kernel();
	}
	if (!user_page_ready(uaddr, n, write) && fault_in_range(uaddr, n, write))
		err = -EFAULT;
	else
		memcpy(dst, src, n);
	if (took)
		__unlock_kernel();
	return err;
}

static __attribute__((always_inline)) inline int copy_from_user_body(void *dst, const void *src,
								     size_t n, const int smp)
{
	return copy_user_body(dst, src, n, (u32)src, 0, smp);
}

static __attribute__((always_inline)) inline int copy_to_user_body(void *dst, const void *src,
								   size_t n, const int smp)
{
	return copy_user_body(dst, src, n, (u32)dst, 1, smp);
}

SMP_COPIES(int, copy_from_user, (void *dst, const void *src, size_t n), dst, src, n)
SMP_COPIES(int, copy_to_user, (void *dst, const void *src, size_t n), dst, src, n)

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
