/*
 * kernel/sched/setattr.c - sched_setattr(2) and sched_getattr(2), as Linux
 * 6.12's kernel/sched/syscalls.c (sched_copy_attr, sys_sched_setattr,
 * __sched_setscheduler's checks, get_params, sys_sched_getattr,
 * sched_attr_copy_to_user).  These two calls came with Linux 3.14: 2.6.35
 * has nothing to follow, so they follow 6.12 under every preset, while the
 * older calls they share the core with (kernel/sched/syscalls.c) follow
 * 2.6.35.  What is 6.12's here and nowhere else: the struct and its sizes,
 * the SCHED_FLAG_* flags (KEEP_POLICY, KEEP_PARAMS, UTIL_CLAMP: -EOPNOTSUPP),
 * nice and the custom EEVDF slice set in the same call, and 6.12's
 * short-cut: a call that changes neither policy, priority, nice nor slice
 * only records SCHED_FLAG_RESET_ON_FORK (the sched_setscheduler(2) family
 * requeues the task even then, as 2.6.35).  The short-cut matters to EEVDF:
 * a requeue of the running task renews its RUN_TO_PARITY protection.
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
 * SCHED_FIFO and SCHED_RR take sched_priority 1..99 (the rt class, rt.c).
 *
 * Deliberate differences: SCHED_DEADLINE is a valid Linux policy but
 * Granule has no deadline class: -EINVAL.  Every
 * task runs as root with every capability, so Linux's -EPERM cases (an
 * unprivileged caller lowering nice, leaving SCHED_IDLE, or touching
 * another user's task) cannot arise.  No utilization clamping (Linux
 * without CONFIG_UCLAMP_TASK): SCHED_FLAG_UTIL_CLAMP_* -> -EOPNOTSUPP.
 */
#include "eevdf.h"
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>

#define PAGE_SIZE_BYTES		4096U

#define SCHED_ATTR_SIZE_VER0	48U	/* the first published struct */
#define SCHED_ATTR_SIZE_VER1	56U	/* + sched_util_min, sched_util_max */

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

/* get_params(): an rt task's priority, or a fair task's nice and slice
 * (CFS: no per-task slice). */
static void get_params(struct task *p, struct sched_attr *attr)
{
	if (rt_policy((int)p->policy)) {
		attr->sched_priority = p->rt_priority;
		return;
	}
	attr->sched_nice = (s32)task_nice(p);
	attr->sched_runtime = sched_eevdf_running ? p->se.slice : 0;
}

/* 6.12's __sched_setscheduler(): its checks, then the change. */
static long __sched_setscheduler(struct task *p, const struct sched_attr *attr)
{
	int policy = (int)attr->sched_policy;
	unsigned int reset_on_fork;
	int ret;

	policy = sched_policy_arg(p, policy, attr->sched_flags & SCHED_FLAG_RESET_ON_FORK,
				  &reset_on_fork);
	if (policy < 0)				/* DEADLINE: no class */
		return -EINVAL;
	if (attr->sched_flags & ~(u64)(SCHED_FLAG_ALL | SCHED_FLAG_SUGOV))
		return -EINVAL;
	if (attr->sched_priority > MAX_RT_PRIO_LINUX - 1)
		return -EINVAL;
	if (rt_policy(policy) != (attr->sched_priority != 0))
		return -EINVAL;
	if (attr->sched_flags & SCHED_FLAG_SUGOV)	/* from user space */
		return -EINVAL;
	if (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP)	/* !CONFIG_UCLAMP_TASK */
		return -EOPNOTSUPP;
	if (p == sched_idle_task())
		return -EINVAL;

	/* RLIMIT_RTPRIO (0 by default) binds only without CAP_SYS_NICE:
	 * every Granule task is root with it, so no -EPERM here.  The
	 * privilege is asked for where user_check_sched_setscheduler() needs
	 * it: a new rt policy or a higher rt priority, a lower nice. */
	if ((rt_policy(policy) && ((unsigned int)policy != p->policy ||
				   attr->sched_priority > p->rt_priority)) ||
	    (fair_policy(policy) && attr->sched_nice < task_nice(p)))
		capable(CAP_SYS_NICE);
	if ((unsigned int)policy != p->policy ||
	    attr->sched_priority != p->rt_priority) {
		ret = sched_setscheduler_prio(p, policy, (int)attr->sched_priority);
		if (ret)
			return ret;
	}
	if (fair_policy(policy)) {	/* __setscheduler_params(): fair only */
		if (attr->sched_nice != task_nice(p))
			set_user_nice(p, attr->sched_nice);
		if (sched_eevdf_running)
			eevdf_change_slice(p, attr->sched_runtime);
	}
	p->sched_reset_on_fork = reset_on_fork;
	return 0;
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
