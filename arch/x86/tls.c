/*
 * arch/x86/tls.c - set_thread_area / get_thread_area, CLONE_SETTLS, and
 * installing the running task's TLS descriptors in the GDT.
 *
 * Each task has thread.tls_array[GDT_ENTRY_TLS_ENTRIES] (arch/thread.h);
 * element i is GDT entry GDT_ENTRY_TLS_MIN + i while the task runs.  User
 * %fs/%gs themselves live in the trap frame (entry.asm saves and restores
 * all four data segment registers on every kernel entry/exit), so the
 * selector survives syscalls, interrupts and switches; the descriptor it
 * names is reloaded from the GDT by the "pop gs" on the way out.  A
 * selector naming an emptied or bogus entry faults right there; as in
 * Linux 2.6.35 (RESTORE_REGS / POP_GS fixups), traps.c then nulls that
 * one selector and returns again: the task silently finds %fs or %gs
 * null, no signal, and never a kernel oops.
 *
 * Which user_desc is accepted (arch/x86/tls_desc.c) is stricter than
 * 2.6.35, deliberately: Linux 3.19's TLS hardening.
 */
#include <kernel/errno.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <arch/desc.h>
#include <arch/process.h>
#include <arch/segment.h>
#include <arch/tls.h>

void tls_flush_current(void)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		current->thread.tls_array[i] = (struct desc_struct){ 0, 0 };
	load_TLS(current);
}

/* Linux get_free_idx: the first empty TLS entry of T, or -ESRCH. */
static int get_free_idx(const struct task *t)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		if (tls_desc_is_empty(&t->thread.tls_array[i]))
			return GDT_ENTRY_TLS_MIN + i;
	return -ESRCH;
}

/*
 * Linux do_set_thread_area.  CAN_ALLOCATE: entry_number -1 picks a free
 * entry and writes its number back to the caller (set_thread_area only;
 * clone's CLONE_SETTLS must name one).
 */
static int do_set_thread_area(struct task *p, struct user_desc *u_info, int can_allocate)
{
	struct user_desc info;
	struct desc_struct desc;
	u32 idx;
	int err;

	if (copy_from_user(&info, u_info, sizeof(info)))
		return -EFAULT;
	if (tls_desc_from_user(&info, &desc))
		return -EINVAL;
	idx = info.entry_number;
	if (idx == (u32)-1 && can_allocate) {
		err = get_free_idx(p);
		if (err < 0)
			return err;
		idx = (u32)err;
		if (put_user(idx, &u_info->entry_number))
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	p->thread.tls_array[idx - GDT_ENTRY_TLS_MIN] = desc;
	if (p == current) {
		struct trap_frame *tf = task_pt_regs(p);
		u32 sel = (idx << 3) | 3;

		load_TLS(p);
		/* A cleared entry still in %fs/%gs becomes the null selector,
		 * the outcome Linux's segment-reload fixup gives. */
		if (tls_desc_is_empty(&desc)) {
			if ((tf->gs & 0xffff) == sel)
				tf->gs = 0;
			if ((tf->fs & 0xffff) == sel)
				tf->fs = 0;
		}
	}
	return 0;
}

long sys_set_thread_area(struct user_desc *u_info)
{
	return do_set_thread_area(current, u_info, 1);
}

/* Linux do_get_thread_area: entry_number selects; any entry, even empty. */
long sys_get_thread_area(struct user_desc *u_info)
{
	struct user_desc info;
	u32 idx;

	if (get_user(idx, &u_info->entry_number))
		return -EFAULT;
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	tls_desc_to_user(&current->thread.tls_array[idx - GDT_ENTRY_TLS_MIN], idx, &info);
	if (copy_to_user(u_info, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

int tls_clone_settls(struct task *child, u32 uinfo)
{
	return do_set_thread_area(child, (struct user_desc *)uinfo, 0);
}
