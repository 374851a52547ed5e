/*
 * kernel/proc/rusage.c - CPU time of processes: wait4's rusage, getrusage.
 *
 * The scheduler counts each task's CPU time in se.sum_exec_runtime (ns).
 * A process's time is that of its live threads plus what the group leader
 * keeps for the rest (Linux keeps both sums in signal_struct, which here
 * dies with the last thread, so the leader - alive or zombie until reaped -
 * holds them):
 *   leader->dead_runtime      threads that exited (do_exit adds theirs; an
 *                             old leader replaced by de_thread adds its own)
 *   leader->children_runtime  children reaped by wait4, each with its own
 *                             children_runtime (Linux's cutime + cstime)
 * Granule does not split user from system time: all of it is reported as
 * ru_utime and ru_stime is 0.  The other rusage fields are 0.
 */
#include <kernel/errno.h>
#include <kernel/math64.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

u64 thread_group_runtime(struct task *t)
{
	struct task *leader = t->group_leader, *th;
	unsigned long flags;
	u64 sum;

	local_irq_save(flags);
	sum = task_sched_runtime(leader) + leader->dead_runtime;
	list_for_each_entry(th, &leader->thread_group, thread_group)
		sum += task_sched_runtime(th);
	local_irq_restore(flags);
	return sum;
}

u64 rusage_reap(struct task *parent, struct task *c)
{
	/* C's threads are all gone: its dead_runtime holds them. */
	u64 ns = task_sched_runtime(c) + c->dead_runtime + c->children_runtime;

	parent->children_runtime += ns;
	return ns;
}

long put_rusage(struct rusage32 *ru, u64 ns)
{
	struct rusage32 r;
	u32 rem;

	memset(&r, 0, sizeof(r));
	r.ru_utime.tv_sec = (s32)div_u64_rem(ns, NSEC_PER_SEC, &rem);
	r.ru_utime.tv_usec = (s32)(rem / 1000);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

/*
 * times(2) (syscall 43): struct tms in clock ticks of USER_HZ = 100 (what
 * sysconf(_SC_CLK_TCK) says), whatever the kernel's HZ: tms_utime = the
 * process's CPU time (all of it user time, as above), tms_stime = 0,
 * tms_cutime = its reaped children's, tms_cstime = 0.  Returns the ticks
 * since boot (Linux counts from INITIAL_JIFFIES, 5 minutes before 0 -
 * only differences are meaningful either way).  BUF may be NULL; -EFAULT
 * for a bad one.
 */
#define USER_HZ		100
#define NSEC_PER_USER_TICK	(NSEC_PER_SEC / USER_HZ)

struct tms32 {
	s32 tms_utime, tms_stime, tms_cutime, tms_cstime;
};

long sys_times(struct tms32 *buf)
{
	if (buf) {
		struct tms32 t = {
			.tms_utime = (s32)div_u64(thread_group_runtime(current), NSEC_PER_USER_TICK),
			.tms_cutime = (s32)div_u64(current->group_leader->children_runtime,
						  NSEC_PER_USER_TICK),
		};
		if (copy_to_user(buf, &t, sizeof(t)))
			return -EFAULT;
	}
	return (long)div_u64(sched_clock(), NSEC_PER_USER_TICK);
}

long sys_getrusage(int who, struct rusage32 *ru)
{
	u64 ns;

	switch (who) {
	case RUSAGE_SELF:
		ns = thread_group_runtime(current);
		break;
	case RUSAGE_CHILDREN:
		ns = current->group_leader->children_runtime;
		break;
	case RUSAGE_THREAD:
		ns = task_sched_runtime(current);
		break;
	default:
		return -EINVAL;
	}
	return put_rusage(ru, ns);
}
