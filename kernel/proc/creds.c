/*
 * kernel/proc/creds.c - the calls glibc's start-up makes about the calling
 * thread and process that have fixed answers here: who it is (everything
 * runs as root: uid = gid = 0, every capability), its resource limits, where its thread id
 * word and robust-futex list are, its name (prctl), and restartable
 * sequences (not supported: glibc then goes on without them).
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/limits.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>

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

#define RLIM_NLIMITS	16
#define RLIM_INFINITY	(~0ull)
#define RLIMIT_STACK	3
#define RLIMIT_NPROC	6
#define RLIMIT_NOFILE	7
#define RLIMIT_RTPRIO	14	/* Linux: 0/0; root (CAP_SYS_NICE) is not bound */

struct rlimit64 { u64 cur, max; };

/* The limits Granule enforces (the stack window, the task table, the fd
 * table); the others are unlimited. */
static struct rlimit64 limit_of(int resource)
{
	switch (resource) {
	case RLIMIT_STACK:  return (struct rlimit64){ STACK_LIMIT, RLIM_INFINITY };
	case RLIMIT_NPROC:  return (struct rlimit64){ TASK_MAX, TASK_MAX };
	case RLIMIT_NOFILE: return (struct rlimit64){ NR_OPEN, NR_OPEN };
	case RLIMIT_RTPRIO: return (struct rlimit64){ 0, 0 };
	}
	return (struct rlimit64){ RLIM_INFINITY, RLIM_INFINITY };
}

/*
 * prlimit64(pid, resource, new, old): PID 0 or an existing process;
 * RESOURCE 0..15 (-EINVAL); OLD gets the limit.  The limits are fixed: a
 * NEW with cur > max is -EINVAL, one that changes anything -EPERM, one
 * equal to the limit succeeds.
 */
long sys_prlimit64(int pid, int resource, const struct rlimit64 *unew, struct rlimit64 *uold)
{
	struct rlimit64 lim, req;

	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid && !find_task_by_pid(pid))
		return -ESRCH;
	lim = limit_of(resource);
	if (unew) {
		if (copy_from_user(&req, unew, sizeof(req)))
			return -EFAULT;
		if (req.cur > req.max)
			return -EINVAL;
		if (req.cur != lim.cur || req.max != lim.max)
			return -EPERM;
	}
	if (uold && copy_to_user(uold, &lim, sizeof(lim)))
		return -EFAULT;
	return 0;
}

/* ugetrlimit(resource, rlim): 32-bit values, RLIM_INFINITY as ~0. */
long sys_ugetrlimit(int resource, u32 *urlim)
{
	struct rlimit64 lim;
	u32 r[2];

	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	lim = limit_of(resource);
	r[0] = lim.cur > 0xffffffffull ? 0xffffffffu : (u32)lim.cur;
	r[1] = lim.max > 0xffffffffull ? 0xffffffffu : (u32)lim.max;
	return copy_to_user(urlim, r, sizeof(r)) ? -EFAULT : 0;
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
