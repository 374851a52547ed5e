/*
 * kernel/proc/futex_robust.c - the robust list at exit (Linux 2.6.35's
 * exit_robust_list and handle_futex_death in kernel/futex.c) and
 * get_robust_list(2).
 *
 * glibc registers a struct robust_list_head per thread (set_robust_list,
 * creds.c) and links every robust mutex it holds into it:
 *	struct robust_list_head { u32 next; s32 futex_offset; u32 list_op_pending; }
 * each entry is the address of a link word ("next"); the futex word is at
 * entry + futex_offset; bit 0 of a link says the entry is a PI mutex;
 * list_op_pending is the one being taken or dropped when the thread died.
 * At exit every word the dying TID still owns becomes
 *	(word & FUTEX_WAITERS) | FUTEX_OWNER_DIED
 * and, if others wait on a plain futex, one is woken; a PI futex's waiter
 * is handed the lock by exit_pi_state_list (futex_pi.c), which runs next.
 * The walk is bounded (ROBUST_LIST_LIMIT entries: a circular list ends)
 * and a bad pointer ends it quietly: the list is the user's.
 */
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>

#define ROBUST_LIST_LIMIT	2048
#define ROBUST_LIST_HEAD_SIZE	12	/* sizeof(struct robust_list_head), i386 */

/* Mark the word at UADDR dead if CURR owns it; -1 if it cannot be read or written. */
static int handle_futex_death(u32 uaddr, struct task *curr, int pi)
{
	u32 uval, mval;

	if (uaddr & 3)
		return -1;
	if (get_user(uval, (u32 *)uaddr))
		return -1;
	if ((uval & FUTEX_TID_MASK) != (u32)curr->pid)
		return 0;
	mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (put_user(mval, (u32 *)uaddr))
		return -1;
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(curr->mm, uaddr, 1);
	return 0;
}

/* A link word: the entry it points to, and its PI bit. */
static int fetch_robust_entry(u32 *entry, u32 head, int *pi)
{
	u32 uentry;

	if (get_user(uentry, (u32 *)head))
		return -EFAULT;
	*entry = uentry & ~1u;
	*pi = uentry & 1;
	return 0;
}

void exit_robust_list(struct task *curr)
{
	u32 head = curr->robust_list, entry, next_entry, pending;
	unsigned int limit = ROBUST_LIST_LIMIT;
	int pi, next_pi, pip, rc;
	s32 futex_offset;

	if (fetch_robust_entry(&entry, head, &pi))
		return;
	if (get_user(futex_offset, (s32 *)(head + 4)))
		return;
	if (fetch_robust_entry(&pending, head + 8, &pip))
		return;

	while (entry != head) {
		/* fetch the next one first: the word's owner may unlink it */
		rc = fetch_robust_entry(&next_entry, entry, &next_pi);
		if (entry != pending &&
		    handle_futex_death(entry + (u32)futex_offset, curr, pi))
			return;
		if (rc)
			return;
		entry = next_entry;
		pi = next_pi;
		if (!--limit)
			break;
	}
	if (pending)
		handle_futex_death(pending + (u32)futex_offset, curr, pip);
}

/* get_robust_list(pid, head_ptr, len_ptr): 0 is the caller. */
long sys_get_robust_list(int pid, u32 *head_ptr, u32 *len_ptr)
{
	struct task *p = current;

	if (pid) {
		p = find_task_by_pid(pid);
		if (!p || p->exit_state)
			return -ESRCH;
	}
	if (put_user((u32)ROBUST_LIST_HEAD_SIZE, len_ptr))
		return -EFAULT;
	return put_user(p->robust_list, head_ptr) ? -EFAULT : 0;
}
