/*
 * kernel/proc/rlimit.c - resource limits: init's, and getrlimit /
 * setrlimit through ugetrlimit and prlimit64 (Linux 2.6.35's kernel/sys.c
 * and fork_init, with 2.6.36's prlimit64).
 *
 * Each process has its table (the group leader's task->rlim, Linux's
 * signal->rlim): fork copies it, threads share it, exec keeps it.  What
 * the table says is what is enforced; a limit Granule enforces by other
 * means keeps its value fixed (a change is -EPERM):
 *   RLIMIT_STACK       8 MiB: the stack window (STACK_LIMIT), fixed
 *   RLIMIT_NPROC       TASK_MAX: the task table (Linux: max_threads / 2,
 *                      1024 at 128 MiB; fork's -EAGAIN here is Linux's
 *                      max_threads check, root passes RLIMIT_NPROC's), fixed
 *   RLIMIT_NOFILE      NR_OPEN (INR_OPEN); expand_files, dup2, F_DUPFD and
 *                      poll check it; settable up to NR_OPEN, Granule's
 *                      sysctl_nr_open (Linux's is 1048576): above, -EPERM
 *   RLIMIT_SIGPENDING  RLIMIT_NPROC's value, as fork_init copies it;
 *                      __sigqueue_alloc checks it (kernel/signal.c); settable
 *   RLIMIT_RSS         RLIM_INFINITY; advisory in Linux too; settable
 * Linux's values that bind root nowhere or have nothing here to bind, fixed:
 *   RLIMIT_CORE 0 (no core files: a dumping signal only terminates),
 *   RLIMIT_MEMLOCK 64 KiB (CAP_IPC_LOCK), RLIMIT_MSGQUEUE 819200 bytes (no
 *   message queues), RLIMIT_NICE and RLIMIT_RTPRIO 0 (CAP_SYS_NICE).
 * The others are RLIM_INFINITY, bind nothing, and are fixed.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/limits.h>
#include <kernel/proc.h>
#include <kernel/resource.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>

#define RLIM64_INFINITY	(~0ull)
#define MLOCK_LIMIT	(64 * 1024)	/* bytes (2.6.35: a page, at least 64 KiB) */
#define MQ_BYTES_MAX	819200		/* bytes of POSIX message queues (ipc/mqueue.c) */

/* The limits setrlimit may change: those the table alone decides. */
#define RLIMIT_SETTABLE	((1u << RLIMIT_SIGPENDING) | (1u << RLIMIT_RSS) | (1u << RLIMIT_NOFILE))

struct rlimit64 { u64 cur, max; };

/* init_task's INIT_RLIMITS with fork_init's RLIMIT_NPROC and SIGPENDING. */
void rlimit_init(struct rlimit *rlim)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		rlim[i] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	rlim[RLIMIT_STACK] = (struct rlimit){ STACK_LIMIT, RLIM_INFINITY };	/* _STK_LIM */
	rlim[RLIMIT_CORE] = (struct rlimit){ 0, RLIM_INFINITY };
	rlim[RLIMIT_NPROC] = (struct rlimit){ TASK_MAX, TASK_MAX };
	rlim[RLIMIT_NOFILE] = (struct rlimit){ NR_OPEN, NR_OPEN };		/* INR_OPEN */
	rlim[RLIMIT_MEMLOCK] = (struct rlimit){ MLOCK_LIMIT, MLOCK_LIMIT };
	rlim[RLIMIT_SIGPENDING] = rlim[RLIMIT_NPROC];
	rlim[RLIMIT_MSGQUEUE] = (struct rlimit){ MQ_BYTES_MAX, MQ_BYTES_MAX };
	rlim[RLIMIT_NICE] = (struct rlimit){ 0, 0 };
	rlim[RLIMIT_RTPRIO] = (struct rlimit){ 0, 0 };
}

/* rlim_to_rlim64 / rlim64_to_rlim: infinity is ~0 at either width. */
static u64 rlim_to_rlim64(u32 v)
{
	return v == RLIM_INFINITY ? RLIM64_INFINITY : v;
}

static u32 rlim64_to_rlim(u64 v)
{
	return v >= RLIM_INFINITY ? RLIM_INFINITY : (u32)v;
}

/*
 * do_prlimit(): store *NEW (if given) as TSK's process's limit RESOURCE
 * after putting the old one in *OLD (if given).  -EINVAL for cur > max;
 * raising the hard limit needs CAP_SYS_RESOURCE (root has it); a fixed
 * limit (see above) may only be "set" to its own value, else -EPERM.
 */
static long do_prlimit(struct task *tsk, int resource, struct rlimit *new, struct rlimit *old)
{
	struct rlimit *rlim = &tsk->group_leader->rlim[resource];

	if (new) {
		if (new->rlim_cur > new->rlim_max)
			return -EINVAL;
		if (!(RLIMIT_SETTABLE & (1u << resource)) &&
		    (new->rlim_cur != rlim->rlim_cur || new->rlim_max != rlim->rlim_max))
			return -EPERM;
		if (new->rlim_max > rlim->rlim_max && !capable(CAP_SYS_RESOURCE))
			return -EPERM;
		if (resource == RLIMIT_NOFILE && new->rlim_max > NR_OPEN)
			return -EPERM;			/* past sysctl_nr_open */
	}
	if (old)
		*old = *rlim;
	if (new)
		*rlim = *new;
	return 0;
}

/*
 * prlimit64(pid, resource, new, old): PID 0 (the caller) or an existing
 * process; RESOURCE 0..15 (-EINVAL); NEW, if given, is set, OLD gets the
 * limit before.  64-bit values, ~0 for RLIM_INFINITY.
 */
long sys_prlimit64(int pid, int resource, const struct rlimit64 *unew, struct rlimit64 *uold)
{
	struct rlimit64 new64, old64;
	struct rlimit new, old;
	struct task *tsk = current;
	long err;

	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid && !(tsk = find_task_by_pid(pid)))
		return -ESRCH;
	if (unew) {
		if (copy_from_user(&new64, unew, sizeof(new64)))
			return -EFAULT;
		new = (struct rlimit){ rlim64_to_rlim(new64.cur), rlim64_to_rlim(new64.max) };
	}
	if ((err = do_prlimit(tsk, resource, unew ? &new : NULL, &old)))
		return err;
	old64 = (struct rlimit64){ rlim_to_rlim64(old.rlim_cur), rlim_to_rlim64(old.rlim_max) };
	if (uold && copy_to_user(uold, &old64, sizeof(old64)))
		return -EFAULT;
	return 0;
}

/* ugetrlimit(resource, rlim): the caller's limit, 32-bit values. */
long sys_ugetrlimit(int resource, u32 *urlim)
{
	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	return copy_to_user(urlim, &current->group_leader->rlim[resource], sizeof(struct rlimit)) ? -EFAULT : 0;
}
