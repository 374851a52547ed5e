/*
 * kernel/sched/policy.h - what the POSIX scheduling calls
 * (policy_syscalls.c) share with sched_setattr's syscalls.c.
 */
#ifndef KERNEL_SCHED_POLICY_H
#define KERNEL_SCHED_POLICY_H

#include <kernel/types.h>

struct task;

#define SCHED_SETPARAM_POLICY	(-1)		/* sched_setparam: keep the policy */
#define SCHED_RESET_ON_FORK	0x40000000	/* or'ed into sched_setscheduler's policy */

/* Linux's find_process_by_pid(): pid 0 is the caller; NULL if none (or exited). */
struct task *sched_find_process(int pid);

/* Linux's _sched_setscheduler(): POLICY (SCHED_RESET_ON_FORK may be or'ed in,
 * SCHED_SETPARAM_POLICY keeps it) and PRIO through __sched_setscheduler()'s
 * checks; the task's nice and slice are kept.  0 or -EINVAL. */
long sched_set_policy(struct task *p, int policy, s32 prio);

long sys_sched_setscheduler(int pid, int policy, const s32 *param);
long sys_sched_setparam(int pid, const s32 *param);
long sys_sched_getscheduler(int pid);
long sys_sched_getparam(int pid, s32 *param);
long sys_sched_get_priority_max(int policy);
long sys_sched_get_priority_min(int policy);

#endif
