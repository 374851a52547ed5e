/*
 * kernel/sched/policy_syscalls.c - the POSIX scheduling calls, as Linux
 * 6.12's kernel/sched/syscalls.c has them (do_sched_setscheduler,
 * sys_sched_getscheduler, sys_sched_getparam, sys_sched_get_priority_max
 * and _min), over the same __sched_setscheduler() checks sched_setattr uses
 * (syscalls.c).  glibc programs call them at start: Debian's cyclictest
 * reads its policy and priority before it measures anything.
 *
 * struct sched_param is one int, sched_priority: 0 for the fair policies
 * (SCHED_OTHER 0, SCHED_BATCH 3, SCHED_IDLE 5), 1..99 for SCHED_FIFO (1)
 * and SCHED_RR (2).  The priority range calls answer Linux's values for
 * every Linux policy, and -EINVAL for an unknown one.
 *
 * Deliberate difference (as sched_setattr's): Granule has no real-time
 * class, so setting SCHED_FIFO or SCHED_RR is -EINVAL, as it would be for a
 * policy the kernel does not know; nor SCHED_DEADLINE (6).
 */
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>
#include "policy.h"

#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_DEADLINE	6
#define MAX_USER_RT_PRIO	100

static long do_sched_setscheduler(int pid, int policy, const s32 *param)
{
	s32 prio;
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	if (get_user(prio, param))
		return -EFAULT;
	p = sched_find_process(pid);
	if (!p)
		return -ESRCH;
	return sched_set_policy(p, policy, prio);
}

long sys_sched_setscheduler(int pid, int policy, const s32 *param)
{
	if (policy < 0)
		return -EINVAL;
	return do_sched_setscheduler(pid, policy, param);
}

long sys_sched_setparam(int pid, const s32 *param)
{
	return do_sched_setscheduler(pid, SCHED_SETPARAM_POLICY, param);
}

long sys_sched_getscheduler(int pid)
{
	struct task *p;

	if (pid < 0)
		return -EINVAL;
	p = sched_find_process(pid);
	if (!p)
		return -ESRCH;
	return (long)(p->policy | (p->sched_reset_on_fork ? SCHED_RESET_ON_FORK : 0));
}

long sys_sched_getparam(int pid, s32 *param)
{
	s32 prio = 0;		/* the fair policies' only priority */

	if (!param || pid < 0)
		return -EINVAL;
	if (!sched_find_process(pid))
		return -ESRCH;
	return put_user(prio, param) ? -EFAULT : 0;
}

long sys_sched_get_priority_max(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return MAX_USER_RT_PRIO - 1;
	case SCHED_DEADLINE:
	case SCHED_NORMAL:
	case SCHED_BATCH:
	case SCHED_IDLE:
		return 0;
	}
	return -EINVAL;
}

long sys_sched_get_priority_min(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return 1;
	case SCHED_DEADLINE:
	case SCHED_NORMAL:
	case SCHED_BATCH:
	case SCHED_IDLE:
		return 0;
	}
	return -EINVAL;
}
