/*
 * kernel/proc/creds.c - the calls glibc's start-up makes about the calling
 * thread and process that have fixed answers here: who it is (everything
 * runs as root: uid = gid = 0, every capability), where its thread id
 * word and robust-futex list are, its name (prctl), and restartable
 * sequences (not supported: glibc then goes on without them).
 */
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>

int capable(int cap)
{
	current->flags |= PF_SUPERPRIV;
	return 1;
}

/* getuid, geteuid, getgid, getegid (16- and 32-bit ids): root. */
long sys_getuid(void) { return 0; }

/* getresuid/getresgid(r, e, s): three zeros, -EFAULT for a bad pointer. */
long sys_getresuid(u32 *r, u32 *e, u32 *s)
{
	return put_user(0u, r) || put_user(0u, e) || put_user(0u, s) ? -EFAULT : 0;
}

/* getgroups(size, list): no supplementary groups; -EINVAL for size < 0. */
long sys_getgroups(int size, u32 *list)
{
	return size < 0 ? -EINVAL : 0;
}

/* set_tid_address(tidptr): the CLONE_CHILD_CLEARTID word; returns the tid. */
long sys_set_tid_address(u32 tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}

/* set_robust_list(head, len): len must be sizeof(struct robust_list_head). */
long sys_set_robust_list(u32 head, u32 len)
{
	if (len != 12)
		return -EINVAL;
	current->robust_list = head;
	return 0;
}

/* rseq(2): not supported (glibc 2.35+ registers one and copes with ENOSYS). */
long sys_rseq(u32 rseq, u32 len, int flags, u32 sig)
{
	return -ENOSYS;
}

#define PR_SET_NAME	15
#define PR_GET_NAME	16

/* prctl(option, ...): PR_SET_NAME / PR_GET_NAME (the thread's comm, 16
 * bytes with the NUL, as Linux); any other option is -EINVAL. */
long sys_prctl(int option, u32 arg2)
{
	char name[TASK_COMM_LEN];
	long n;

	switch (option) {
	case PR_SET_NAME:
		/* At most 15 bytes are read, as Linux's (sizeof(comm) - 1): a
		 * 15-byte name without its NUL that ends a page is a name, not
		 * -EFAULT (reading a 16th byte made it one). */
		n = strncpy_from_user(name, (const char *)arg2, sizeof(name) - 1);
		if (n == -EFAULT)
			return -EFAULT;
		name[sizeof(name) - 1] = '\0';	/* longer names are cut, not refused */
		strlcpy(current->comm, name, sizeof(current->comm));
		return 0;
	case PR_GET_NAME:
		return copy_to_user((void *)arg2, current->comm, sizeof(current->comm)) ? -EFAULT : 0;
	}
	return -EINVAL;
}
