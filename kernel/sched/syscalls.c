/*
 * kernel/sched/syscalls.c - the scheduling system calls Linux 2.6.35 has,
 * as its kernel/sched.c has them: sched_setscheduler, sched_setparam,
 * sched_getscheduler, sched_getparam, sched_get_priority_max/min,
 * sched_rr_get_interval (and 5.1's _time64 form: the same, in a 64-bit
 * timespec), sched_setaffinity and sched_getaffinity.  The later
 * sched_setattr(2) and sched_getattr(2) are Linux 6.12's (setattr.c).
 *
 * The errnos and their order are 2.6.35's: EINVAL for a NULL param, a
 * negative pid or policy, an unknown policy (SCHED_DEADLINE is one: 2.6.35
 * has no such class) or a priority outside 1..99 for FIFO/RR and 0 for the
 * others; EFAULT for a bad pointer (read before the pid is looked up);
 * ESRCH for no such task.  find_process_by_pid() finds a zombie until it is
 * reaped, as Linux's pid hash does.
 *
 * Deliberate difference: every task runs as root with every capability,
 * so 2.6.35's EPERM cases (RLIMIT_RTPRIO, leaving SCHED_IDLE, another
 * user's task, clearing SCHED_RESET_ON_FORK) cannot arise.
 */
#include "sched.h"
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

#define SCHED_RESET_ON_FORK	0x40000000	/* or'ed into the policy */
#define MAX_USER_RT_PRIO	100

struct sched_param_user { int sched_priority; };

/*
 * find_process_by_pid(): 0 is the caller.  A task that exited stays
 * findable until it is reaped (a zombie), as in Linux's pid hash; one
 * released (EXIT_DEAD: nobody will wait for it) is gone.
 */
struct task *find_process_by_pid(int pid)
{
	struct task *t = pid ? find_task_by_pid(pid) : current;

	return t && t->exit_state != EXIT_DEAD ? t : NULL;
}

/*
 * The first step of both __sched_setscheduler()s (2.6.35's below, 6.12's
 * in setattr.c): POLICY < 0 keeps P's policy and its reset-on-fork flag
 * (sched_setparam), else RESET gives the flag.  The policy, or -EINVAL for
 * one with no class here (SCHED_DEADLINE among them).
 */
int sched_policy_arg(struct task *p, int policy, int reset, unsigned int *reset_on_fork)
{
	if (policy < 0) {
		*reset_on_fork = p->sched_reset_on_fork;
		return (int)p->policy;
	}
	*reset_on_fork = !!reset;
	if (policy != SCHED_FIFO && policy != SCHED_RR && policy != SCHED_NORMAL &&
	    policy != SCHED_BATCH && policy != SCHED_IDLE)
		return -EINVAL;
	return policy;
}

/*
 * 2.6.35's __sched_setscheduler() (user = true): POLICY < 0 keeps the
 * policy (sched_setparam), else it may carry SCHED_RESET_ON_FORK.  The
 * change itself (core.c's sched_setscheduler_prio) dequeues and requeues
 * P whatever it changes: an unchanged call moves an rt task to the tail of
 * its list, as 2.6.35.
 */
static int __sched_setscheduler(struct task *p, int policy, int prio)
{
	unsigned int reset_on_fork;
	int ret;

	policy = sched_policy_arg(p, policy < 0 ? -1 : policy & ~SCHED_RESET_ON_FORK,
				  policy >= 0 && (policy & SCHED_RESET_ON_FORK), &reset_on_fork);
	if (policy < 0)
		return -EINVAL;
	if (prio < 0 || prio > MAX_USER_RT_PRIO - 1)
		return -EINVAL;
	if (rt_policy(policy) != (prio != 0))
		return -EINVAL;
	/* capable(CAP_SYS_NICE), asked of every user call: no RLIMIT_RTPRIO
	 * or owner check */
	capable(CAP_SYS_NICE);
	ret = sched_setscheduler_prio(p, policy, prio);
	if (!ret)
		p->sched_reset_on_fork = reset_on_fork;
	return ret;
}

static long do_sched_setscheduler(int pid, int policy, const struct sched_param_user *param)
{
	struct sched_param_user lparam;
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	if (copy_from_user(&lparam, param, sizeof(lparam)))
		return -EFAULT;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	return __sched_setscheduler(p, policy, lparam.sched_priority);
}

long sys_sched_setscheduler(int pid, int policy, const void *param)
{
	if (policy < 0)			/* negative values for policy are not valid */
		return -EINVAL;
	return do_sched_setscheduler(pid, policy, param);
}

long sys_sched_setparam(int pid, const void *param)
{
	return do_sched_setscheduler(pid, -1, param);
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

/* rt_priority, whatever the policy (0 for the fair ones). */
long sys_sched_getparam(int pid, void *param)
{
	struct sched_param_user lp;
	struct task *p;

	if (!param || pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	lp.sched_priority = (int)p->rt_priority;
	return copy_to_user(param, &lp, sizeof(lp)) ? -EFAULT : 0;
}

/* 99 for FIFO/RR, 0 for NORMAL/BATCH/IDLE, -EINVAL for anything else. */
long sys_sched_get_priority_max(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return MAX_USER_RT_PRIO - 1;
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
	case SCHED_NORMAL:
	case SCHED_BATCH:
	case SCHED_IDLE:
		return 0;
	}
	return -EINVAL;
}

/*
 * The class P runs in says (get_rr_interval, in ticks; jiffies_to_timespec):
 * rt gives SCHED_RR the RR slice and anything else 0 (so a SCHED_OTHER task
 * boosted into rt by PI gets 0), the fair class its slice if any fair task
 * is queued, idle 0.  TIME64: struct __kernel_timespec (s64, s64), else the
 * old one (s32, s32).
 */
static long rr_get_interval(int pid, void *interval, int time64)
{
	struct rq *rq = this_rq();
	unsigned long flags;
	struct task *p;
	u64 ns;

	if (pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	local_irq_save(flags);
	ns = (u64)p->sched_class->get_rr_interval(rq, p) * (1000000000ULL / HZ);
	local_irq_restore(flags);
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
 * sched_getaffinity(2) and sched_setaffinity(2), as 2.6.35's.  The mask is
 * Linux i386's cpumask: cpumask_size() = 4 bytes (NR_CPUS 32, one
 * unsigned long).
 *   getaffinity: LEN * 8 must cover nr_cpu_ids and LEN must be a multiple
 *   of sizeof(long), else -EINVAL; -ESRCH; the task's mask and the online
 *   CPUs' (cpumask_and), min(LEN, 4) bytes of it (-EFAULT), and that count.
 *   setaffinity: get_user_cpu_mask() reads min(LEN, 4) bytes into a
 *   cleared mask (-EFAULT), then -ESRCH for no such task; the mask is
 *   limited to the possible CPUs (cpuset_cpus_allowed() without cpusets)
 *   and set_cpus_allowed_ptr() says -EINVAL if no CPU of it is online (an
 *   empty mask too) or the task is a bound kernel thread (migration/N).
 */
#define CPUMASK_SIZE	4U

long sys_sched_getaffinity(int pid, unsigned int len, u32 *user_mask)
{
	struct cpumask mask;
	unsigned int retlen;
	struct task *p;

	if (len * 8 < nr_cpu_ids || (len & (sizeof(u32) - 1)))
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	cpumask_and(&mask, &p->cpus_allowed, cpu_online_mask);
	retlen = min(len, CPUMASK_SIZE);
	if (copy_to_user(user_mask, &mask.bits, retlen))
		return -EFAULT;
	return retlen;
}

long sys_sched_setaffinity(int pid, unsigned int len, const u32 *user_mask)
{
	struct cpumask mask = { 0 };
	struct task *p;

	if (len && copy_from_user(&mask.bits, user_mask, min(len, CPUMASK_SIZE)))
		return -EFAULT;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	cpumask_and(&mask, &mask, cpu_possible_mask);
	return set_cpus_allowed_ptr(p, &mask);
}
