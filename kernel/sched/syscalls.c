/*
 * kernel/sched/syscalls.c - sched_setattr(2) and sched_getattr(2), as Linux
 * 6.12's kernel/sched/syscalls.c (sched_copy_attr, sys_sched_setattr,
 * __sched_setscheduler's checks, get_params, sys_sched_getattr,
 * sched_attr_copy_to_user) for the fair policies Granule has.
 *
 * struct sched_attr is Linux's UAPI layout (include/uapi/linux/sched/
 * types.h), 56 bytes (SCHED_ATTR_SIZE_VER1).  A caller's size may differ:
 *  - setattr: size 0 means 48 (VER0); below 48 or above a page -> E2BIG
 *    and the kernel's size (56) is written back into attr->size; a larger
 *    size is accepted when the bytes past 56 are zero, else E2BIG (with
 *    the write-back), as copy_struct_from_user;
 *  - getattr: usize must be 48..PAGE_SIZE (else EINVAL); min(usize, 56)
 *    bytes are written and attr->size says how many.
 *
 * sched_runtime of a fair policy is the task's custom EEVDF slice
 * (0.1..100 ms, clamped; 0: the base slice), inherited at fork unless
 * SCHED_FLAG_RESET_ON_FORK; sched_getattr reports the slice in use.  The
 * CFS class (2.6.35) has no per-task slice: it validates sched_runtime,
 * ignores it, and sched_getattr reports 0 there.
 *
 * Deliberate differences: SCHED_FIFO, SCHED_RR and SCHED_DEADLINE are
 * valid Linux policies but Granule has no such classes: -EINVAL.  Every
 * task runs as root with every capability, so Linux's -EPERM cases (an
 * unprivileged caller lowering nice, leaving SCHED_IDLE, or touching
 * another user's task) cannot arise.  No utilization clamping (Linux
 * without CONFIG_UCLAMP_TASK): SCHED_FLAG_UTIL_CLAMP_* -> -EOPNOTSUPP.
 */
#include "eevdf.h"
#include "policy.h"
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>

#define PAGE_SIZE_BYTES		4096U

#define SCHED_ATTR_SIZE_VER0	48U	/* the first published struct */
#define SCHED_ATTR_SIZE_VER1	56U	/* + sched_util_min, sched_util_max */

#define SCHED_FIFO		1
#define SCHED_RR		2
#define SCHED_DEADLINE		6
#define SETPARAM_POLICY		(-1)	/* keep the policy */

#define SCHED_FLAG_RESET_ON_FORK	0x01
#define SCHED_FLAG_RECLAIM		0x02
#define SCHED_FLAG_DL_OVERRUN		0x04
#define SCHED_FLAG_KEEP_POLICY		0x08
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX	0x40
#define SCHED_FLAG_UTIL_CLAMP	(SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX)
#define SCHED_FLAG_ALL		0x7f
#define SCHED_FLAG_SUGOV	0x10000000	/* kernel-internal: refused */

#define MAX_RT_PRIO_LINUX	100

struct sched_attr {
	u32 size;
	u32 sched_policy;
	u64 sched_flags;
	s32 sched_nice;
	u32 sched_priority;		/* SCHED_FIFO, SCHED_RR */
	u64 sched_runtime;		/* fair: the custom slice, ns */
	u64 sched_deadline;		/* SCHED_DEADLINE */
	u64 sched_period;
	u32 sched_util_min;		/* utilization clamps (not kept here) */
	u32 sched_util_max;
} __attribute__((packed));
_Static_assert(sizeof(struct sched_attr) == SCHED_ATTR_SIZE_VER1, "sched_attr");

static int fair_policy(int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

/* find_process_by_pid(): 0 is the caller; a task that exited is gone. */
static struct task *find_process_by_pid(int pid)
{
	struct task *t = pid ? find_task_by_pid(pid) : current;

	return t && !t->exit_state ? t : NULL;
}

/*
 * Read the caller's struct of SIZE bytes into ATTR (zero-filled first):
 * copy_struct_from_user() - bytes past ours must be zero.
 */
static int sched_copy_attr(const struct sched_attr *uattr, struct sched_attr *attr)
{
	u32 size;

	memset(attr, 0, sizeof(*attr));
	if (get_user(size, &uattr->size))
		return -EFAULT;

	if (!size)			/* ABI compatibility quirk */
		size = SCHED_ATTR_SIZE_VER0;
	if (size < SCHED_ATTR_SIZE_VER0 || size > PAGE_SIZE_BYTES)
		goto err_size;

	if (size > sizeof(*attr)) {	/* a newer struct: the rest must be 0 */
		const u8 *tail = (const u8 *)uattr + sizeof(*attr);
		u8 buf[64];

		for (u32 off = 0; off < size - sizeof(*attr); off += sizeof(buf)) {
			u32 n = min((u32)sizeof(buf), size - (u32)sizeof(*attr) - off);

			if (copy_from_user(buf, tail + off, n))
				return -EFAULT;
			for (u32 i = 0; i < n; i++)
				if (buf[i])
					goto err_size;
		}
	}
	if (copy_from_user(attr, uattr, min(size, (u32)sizeof(*attr))))
		return -EFAULT;

	if ((attr->sched_flags & SCHED_FLAG_UTIL_CLAMP) && size < SCHED_ATTR_SIZE_VER1)
		return -EINVAL;

	/* lenient, like setpriority() */
	attr->sched_nice = clamp(attr->sched_nice, -20, 19);
	return 0;

err_size:
	put_user((u32)sizeof(*attr), (u32 *)&uattr->size);
	return -E2BIG;
}

/* get_params(): a fair task's nice and slice (CFS: no per-task slice). */
static void get_params(struct task *p, struct sched_attr *attr)
{
	attr->sched_nice = (s32)task_nice(p);
	attr->sched_runtime = sched_eevdf_running ? p->se.slice : 0;
}

/* __sched_setscheduler()'s checks, then the change. */
static long __sched_setscheduler(struct task *p, const struct sched_attr *attr)
{
	int policy = (int)attr->sched_policy;
	unsigned int reset_on_fork;
	int ret;

	if (policy < 0) {
		reset_on_fork = p->sched_reset_on_fork;
		policy = (int)p->policy;
	} else {
		reset_on_fork = !!(attr->sched_flags & SCHED_FLAG_RESET_ON_FORK);
		if (!fair_policy(policy))	/* FIFO, RR, DEADLINE: no such class */
			return -EINVAL;
	}
	if (attr->sched_flags & ~(u64)(SCHED_FLAG_ALL | SCHED_FLAG_SUGOV))
		return -EINVAL;
	if (attr->sched_priority > MAX_RT_PRIO_LINUX - 1)
		return -EINVAL;
	if (attr->sched_priority != 0)		/* rt_policy() != (prio != 0) */
		return -EINVAL;
	if (attr->sched_flags & SCHED_FLAG_SUGOV)	/* from user space */
		return -EINVAL;
	if (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP)	/* !CONFIG_UCLAMP_TASK */
		return -EOPNOTSUPP;
	if (p == sched_idle_task())
		return -EINVAL;

	if ((unsigned int)policy != p->policy) {
		ret = sched_setscheduler(p, policy);
		if (ret)
			return ret;
	}
	if (attr->sched_nice != task_nice(p))
		set_user_nice(p, attr->sched_nice);
	if (sched_eevdf_running)
		eevdf_change_slice(p, attr->sched_runtime);
	p->sched_reset_on_fork = reset_on_fork;
	return 0;
}

struct task *sched_find_process(int pid)
{
	return find_process_by_pid(pid);
}

long sched_set_policy(struct task *p, int policy, s32 prio)
{
	struct sched_attr attr = { .size = sizeof(attr) };

	get_params(p, &attr);
	if (prio < 0)
		return -EINVAL;
	attr.sched_priority = (u32)prio;
	attr.sched_policy = (u32)SETPARAM_POLICY;
	if (policy != SCHED_SETPARAM_POLICY) {
		if (policy & SCHED_RESET_ON_FORK)
			attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
		attr.sched_policy = (u32)(policy & ~SCHED_RESET_ON_FORK);
	} else if (p->sched_reset_on_fork) {
		attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	}
	return __sched_setscheduler(p, &attr);
}

long sys_sched_setattr(int pid, struct sched_attr *uattr, unsigned int flags)
{
	struct sched_attr attr;
	struct task *p;
	long ret;

	if (!uattr || pid < 0 || flags)
		return -EINVAL;

	ret = sched_copy_attr(uattr, &attr);
	if (ret)
		return ret;

	if ((int)attr.sched_policy < 0)
		return -EINVAL;
	if (attr.sched_flags & SCHED_FLAG_KEEP_POLICY)
		attr.sched_policy = (u32)SETPARAM_POLICY;

	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;

	if (attr.sched_flags & SCHED_FLAG_KEEP_PARAMS)
		get_params(p, &attr);

	return __sched_setscheduler(p, &attr);
}

long sys_sched_getattr(int pid, struct sched_attr *uattr, unsigned int usize,
		       unsigned int flags)
{
	struct sched_attr kattr;
	struct task *p;

	if (!uattr || pid < 0 || usize > PAGE_SIZE_BYTES ||
	    usize < SCHED_ATTR_SIZE_VER0 || flags)
		return -EINVAL;

	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;

	memset(&kattr, 0, sizeof(kattr));
	kattr.sched_policy = p->policy;
	if (p->sched_reset_on_fork)
		kattr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	get_params(p, &kattr);
	kattr.sched_flags &= SCHED_FLAG_ALL;

	/* sched_attr_copy_to_user(): as much as the caller has room for */
	if (!access_ok((u32)(unsigned long)uattr, usize))
		return -EFAULT;
	kattr.size = min(usize, (u32)sizeof(kattr));
	if (copy_to_user(uattr, &kattr, kattr.size))
		return -EFAULT;
	return 0;
}

/*
 * sched_getaffinity(2) and sched_setaffinity(2) (Linux 6.12) on Granule's
 * one CPU.  The mask is Linux i386's cpumask: cpumask_size() = 4 bytes
 * (NR_CPUS <= 32, one unsigned long); only CPU 0 exists.
 *   getaffinity: LEN * 8 must cover nr_cpu_ids (1) and LEN must be a
 *   multiple of sizeof(long), else -EINVAL; writes min(LEN, 4) bytes (CPU
 *   0's bit) and returns that count; -ESRCH, -EFAULT.
 *   setaffinity: a LEN below 4 reads nothing (an empty mask), above 4
 *   reads 4 bytes (get_user_cpu_mask); -EFAULT for an unreadable mask,
 *   -ESRCH for no such process, -EINVAL unless the mask includes CPU 0
 *   (__set_cpus_allowed_ptr: no active CPU in it).  Nothing else to do:
 *   every task may run on CPU 0, its only CPU.
 */
#define CPUMASK_SIZE	4U

long sys_sched_getaffinity(int pid, unsigned int len, u32 *user_mask)
{
	u32 mask = 1;		/* CPU 0 */
	unsigned int retlen;

	if (len * 8 < 1 || (len & (sizeof(u32) - 1)))
		return -EINVAL;
	if (!find_process_by_pid(pid))
		return -ESRCH;
	retlen = min(len, CPUMASK_SIZE);
	if (copy_to_user(user_mask, &mask, retlen))
		return -EFAULT;
	return retlen;
}

long sys_sched_setaffinity(int pid, unsigned int len, const u32 *user_mask)
{
	u32 mask = 0;

	if (len >= CPUMASK_SIZE && copy_from_user(&mask, user_mask, CPUMASK_SIZE))
		return -EFAULT;
	if (!find_process_by_pid(pid))
		return -ESRCH;
	if (!(mask & 1))
		return -EINVAL;
	return 0;
}
