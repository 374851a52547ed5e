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

/* Is any byte of [start, end) in an area, the heap or the stack window? */
static int covered_any(struct mm *mm, u32 start, u32 end)
{
	return mm_range_used(mm, start, end) ||
	       (start < ALIGN_UP(mm->brk, PAGE_SIZE) && end > mm->start_brk) ||
	       (end > STACK_TOP - STACK_LIMIT);
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

/* do_mlock(): 0; -ENOMEM if the range passes TASK_SIZE or nothing is mapped
 * in it, or an area cannot be split. */
static long do_mlock(u32 addr, u32 len, int lock)
{
	struct mm *mm = current->mm;
	u32 start = addr & PAGE_MASK, end;
	int err;

	if (lock)
		capable(CAP_IPC_LOCK);		/* can_do_mlock() */
	if ((u64)addr + len > TASK_SIZE)
		return -ENOMEM;
	if (!len)
		return 0;
	end = ALIGN_UP(addr + len, PAGE_SIZE);
	if (!mm || !covered_any(mm, start, end))
		return -ENOMEM;
	if ((err = mm_split_range(mm, start, end)))
		return err;
	mlock_fixup(mm, start, end, lock);
	return 0;
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
