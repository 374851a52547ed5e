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
 * SCHED_FIFO and SCHED_RR take sched_priority 1..99 (the rt class, rt.c);
 * the sched_setscheduler(2) family below builds a sched_attr and comes
 * here, as Linux 6.12's do_sched_setscheduler().
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
		if (!fair_policy(policy) && !rt_policy(policy))	/* DEADLINE: no class */
			return -EINVAL;
	}
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
	 * every Granule task is root with it, so no -EPERM here. */
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

/*
 * The sched_setscheduler(2) family (Linux 6.12's kernel/sched/syscalls.c),
 * on top of __sched_setscheduler() above.  struct sched_param is one int
 * (sched_priority).  POLICY may carry SCHED_RESET_ON_FORK.
 */
#define SCHED_RESET_ON_FORK	0x40000000

struct sched_param_user { int sched_priority; };

/* do_sched_setscheduler(): a sched_attr from (policy, param), the caller's
 * nice kept; POLICY SETPARAM_POLICY keeps the policy (sched_setparam). */
static long do_sched_setscheduler(int pid, int policy,
				  const struct sched_param_user *param)
{
	struct sched_param_user lparam;
	struct sched_attr attr;
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	if (copy_from_user(&lparam, param, sizeof(lparam)))
		return -EFAULT;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;

	memset(&attr, 0, sizeof(attr));
	attr.sched_priority = (u32)lparam.sched_priority;
	attr.sched_nice = (s32)task_nice(p);
	attr.sched_runtime = sched_eevdf_running ? p->se.slice : 0;
	if (policy >= 0 && (policy & SCHED_RESET_ON_FORK)) {
		attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
		policy &= ~SCHED_RESET_ON_FORK;
	}
	attr.sched_policy = (u32)policy;
	if (lparam.sched_priority < 0)		/* > MAX_RT_PRIO-1 as unsigned */
		return -EINVAL;
	return __sched_setscheduler(p, &attr);
}

long sys_sched_setscheduler(int pid, int policy, const void *param)
{
	if (policy < 0)
		return -EINVAL;
	return do_sched_setscheduler(pid, policy, param);
}

long sys_sched_setparam(int pid, const void *param)
{
	return do_sched_setscheduler(pid, SETPARAM_POLICY, param);
}

/* The policy, with SCHED_RESET_ON_FORK or'ed in if set. */
long sys_sched_getscheduler(int pid)
{
	struct task *p;

	if (pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	return (long)(p->policy | (p->sched_reset_on_fork ? SCHED_RESET_ON_FORK : 0));
}

long sys_sched_getparam(int pid, void *param)
{
	struct sched_param_user lp = { 0 };
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (rt_policy((int)p->policy))
		lp.sched_priority = (int)p->rt_priority;
	if (copy_to_user(param, &lp, sizeof(lp)))
		return -EFAULT;
	return 0;
}

/* 99 for FIFO/RR, 0 for the others Linux knows, -EINVAL otherwise. */
long sys_sched_get_priority_max(int policy)
{
	if (rt_policy(policy))
		return MAX_RT_PRIO_LINUX - 1;
	if (fair_policy(policy) || policy == SCHED_DEADLINE)
		return 0;
	return -EINVAL;
}

long sys_sched_get_priority_min(int policy)
{
	if (rt_policy(policy))
		return 1;
	if (fair_policy(policy) || policy == SCHED_DEADLINE)
		return 0;
	return -EINVAL;
}

/*
 * The task's round-robin interval in ns: SCHED_RR the RR slice (100 ms,
 * in ticks), SCHED_FIFO 0, a fair task its sched_slice() rounded to ticks
 * as get_rr_interval_fair() (EEVDF: its slice), the idle task 0.
 */
static u64 rr_interval_ns(struct task *p)
{
	u64 tick = 1000000000ULL / HZ, ns;

	if (rt_policy((int)p->policy))
		return p->policy == SCHED_RR ? sched_rr_timeslice() * tick : 0;
	if (p == sched_idle_task())
		return 0;
	if (sched_eevdf_running)
		ns = p->se.slice;
	else if (runqueue.cfs.load.weight)
		ns = sched_slice(&runqueue.cfs, &p->se);
	else
		return 0;
	return ns / tick * tick;		/* NS_TO_JIFFIES, back to ns */
}

/* TIME64: struct __kernel_timespec (s64, s64), else old (s32, s32). */
static long rr_get_interval(int pid, void *interval, int time64)
{
	struct task *p;
	u64 ns;

	if (pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	ns = rr_interval_ns(p);
	if (time64) {
		s64 ts[2] = { (s64)(ns / 1000000000ULL), (s64)(ns % 1000000000ULL) };

		return copy_to_user(interval, ts, sizeof(ts)) ? -EFAULT : 0;
	}
	s32 ts32[2] = { (s32)(ns / 1000000000ULL), (s32)(ns % 1000000000ULL) };

	return copy_to_user(interval, ts32, sizeof(ts32)) ? -EFAULT : 0;
}

long sys_sched_rr_get_interval(int pid, void *interval)
{
	return rr_get_interval(pid, interval, 0);
}

long sys_sched_rr_get_interval_time64(int pid, void *interval)
{
	return rr_get_interval(pid, interval, 1);
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
