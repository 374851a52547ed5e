/*
 * kernel/mm/mlock.c - mlock, munlock, mlockall and munlockall (Linux
 * 2.6.35's mm/mlock.c): which memory is locked, for /proc/PID/status's VmLck.
 *
 * Nothing here is ever paged out, so a lock moves no page: it marks areas
 * VM_LOCKED, split at the range's ends as mlock_fixup() splits vmas, and
 * /proc counts their pages (Linux's locked_vm, mm_get_counters in vm.c).
 * Differences from Linux, on purpose:
 *   - Linux also faults every page of a locked range in (make_pages_present);
 *     here they still appear at their first touch, so VmRSS may stay below
 *     VmLck.
 *   - The heap and the stack window are not areas: a range that meets one
 *     locks or unlocks it whole, and the heap stays locked as it grows.
 *   - RLIMIT_MEMLOCK (64 KiB, Linux's) binds nobody: everything runs as root
 *     (CAP_IPC_LOCK).
 * As in 2.6.35, a special mapping (the vDSO, VM_DONTEXPAND) is never locked
 * or counted, fork does not pass the areas' locks on (dup_mmap) but keeps
 * MCL_FUTURE (dup_mm copies def_flags), and exec starts with nothing locked.
 */
#include <kernel/errno.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/vm.h>

#define MCL_CURRENT	1
#define MCL_FUTURE	2
#define MCL_ONFAULT	4

/* The end of the area, the heap or the stack window (each a vma on Linux)
 * that holds ADDR, or 0 if none does. */
static u32 mapped_end(struct mm *mm, u32 addr)
{
	u32 heap_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	const struct vm_area *a;

	if (addr >= mm->start_brk && addr < heap_end)
		return heap_end;
	if (addr >= STACK_TOP - STACK_LIMIT && addr < STACK_TOP)
		return STACK_TOP;
	a = find_area(mm, addr);
	return a ? a->end : 0;
}

/* Where 2.6.35's do_mlock walk from START meets a gap: the first unmapped
 * address in [start, end), or END if there is none. */
static u32 first_hole(struct mm *mm, u32 start, u32 end)
{
	u32 next;

	while (start < end && (next = mapped_end(mm, start)))
		start = next;
	return start < end ? start : end;
}

/* Where 2.6.35's mlock stops in [start, end): the end of the lowest
 * PROT_NONE area in it (clipped to END), or 0 if there is none. */
static u32 prot_none_stop(struct mm *mm, u32 start, u32 end)
{
	const struct vm_area *low = NULL;

	for (int i = 0; i < mm->nr_areas; i++) {
		const struct vm_area *a = &mm->areas[i];
		if (!(a->flags & VM_ACCESS) && !(a->flags & VM_DONTEXPAND) &&
		    a->start < end && start < a->end && (!low || a->start < low->start))
			low = a;
	}
	return low ? (low->end < end ? low->end : end) : 0;
}

/* Lock (LOCK 1) or unlock what lies in [start, end): the areas wholly inside
 * it (the caller split them), the heap and the stack window if it meets them. */
static void mlock_fixup(struct mm *mm, u32 start, u32 end, int lock)
{
	for (int i = 0; i < mm->nr_areas; i++) {
		struct vm_area *a = &mm->areas[i];
		if (a->start < start || a->end > end || (a->flags & VM_DONTEXPAND))
			continue;
		a->flags = lock ? a->flags | VM_LOCKED : a->flags & ~VM_LOCKED;
	}
	if (start < ALIGN_UP(mm->brk, PAGE_SIZE) && end > mm->start_brk)
		mm->heap_locked = lock;
	if (end > STACK_TOP - STACK_LIMIT)
		mm->stack_locked = lock;
}

/*
 * do_mlock(): 0; -ENOMEM if the range passes TASK_SIZE, starts unmapped,
 * has a hole (an unmapped page: 2.6.35's vma walk meets a gap), or an area
 * cannot be split.  As 2.6.35's walk, what lies before a hole is locked (or
 * unlocked) by the time the hole is found, and stays so.  Locking a
 * PROT_NONE area is -ENOMEM as in 2.6.35: mlock_fixup marks it VM_LOCKED,
 * then __mlock_vma_pages_range's get_user_pages, without FOLL_FORCE for an
 * area with no access, fails with -EFAULT (__mlock_posix_error_return makes
 * it -ENOMEM) and do_mlock stops there, what lies after it not locked.
 */
static long do_mlock(u32 addr, u32 len, int lock)
{
	struct mm *mm = current->mm;
	u32 start = addr & PAGE_MASK, end, stop;
	int err, ret = 0;

	if (lock)
		capable(CAP_IPC_LOCK);		/* can_do_mlock() */
	if ((u64)addr + len > TASK_SIZE)
		return -ENOMEM;
	if (!len)
		return 0;
	end = ALIGN_UP(addr + len, PAGE_SIZE);
	if (!mm || (stop = first_hole(mm, start, end)) == start)
		return -ENOMEM;
	if (stop < end) {
		end = stop;
		ret = -ENOMEM;
	}
	if (lock && (stop = prot_none_stop(mm, start, end))) {
		end = stop;
		ret = -ENOMEM;
	}
	if ((err = mm_split_range(mm, start, end)))
		return err;
	mlock_fixup(mm, start, end, lock);
	return ret;
}

long sys_mlock(u32 addr, u32 len)
{
	return do_mlock(addr, len, 1);
}

long sys_munlock(u32 addr, u32 len)
{
	return do_mlock(addr, len, 0);
}

/*
 * mlockall(flags): MCL_CURRENT locks everything mapped now, MCL_FUTURE what
 * will be (def_flags); at least one of the two, with MCL_ONFAULT or not
 * (-EINVAL otherwise).  As do_mlockall(), MCL_FUTURE's absence clears
 * def_flags.  cyclictest -m and rt-app call it.
 */
long sys_mlockall(u32 flags)
{
	struct mm *mm = current->mm;

	if (!flags || (flags & ~7u) || flags == MCL_ONFAULT)
		return -EINVAL;
	capable(CAP_IPC_LOCK);			/* can_do_mlock() */
	mm->def_flags = flags & MCL_FUTURE ? VM_LOCKED : 0;
	if (flags & MCL_CURRENT)
		mlock_fixup(mm, 0, TASK_SIZE, 1);
	return 0;
}

/* munlockall(): nothing locked, now or later. */
long sys_munlockall(void)
{
	struct mm *mm = current->mm;

	mm->def_flags = 0;
	mlock_fixup(mm, 0, TASK_SIZE, 0);
	return 0;
}
