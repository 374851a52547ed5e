/*
 * kernel/proc/rusage.c - what processes used: getrusage, times, wait4's
 * rusage (Linux 2.6.35's kernel/sys.c k_getrusage, kernel/exit.c
 * wait_task_zombie and __exit_signal, kernel/sched.c thread_group_times).
 *
 * Each thread counts its own: CPU time (se.sum_exec_runtime, exact, and the
 * tick's utime/stime samples: kernel/sched/cputime.c), context switches
 * (nvcsw: it slept; nivcsw: it was preempted or yielded) and page faults
 * (min_flt; maj_flt stays 0: no fault here waits for I/O).  A process is
 * its live threads plus what the group leader keeps (Linux keeps it in
 * signal_struct, which here dies with the last thread, so the leader -
 * alive or zombie until reaped - holds it):
 *   leader->dead_runtime   exited threads' sum_exec_runtime (sum_sched_runtime)
 *   leader->sig_acct       exited threads' ticks and counts; reaped children's
 *                          (cutime, cstime, cnvcsw ...), each with its own
 *                          reaped children (wait4 adds them up)
 * Reported times are thread_group_times(): the exact runtime split in the
 * ratio of the ticks.  Interrupts off while the sums are read: the tick
 * and the scheduler add to them.
 */
#include <kernel/errno.h>
#include <kernel/kernel_stat.h>
#include <kernel/math64.h>
#include <kernel/proc.h>
#include <kernel/smp_lock.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>

/* CPU ns of T's whole process: live threads and exited ones. */
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

static void acct_add_thread(struct thread_group_acct *a, const struct task *th)
{
	a->threads++;
	a->utime += th->utime;
	a->stime += th->stime;
	a->nvcsw += th->nvcsw;
	a->nivcsw += th->nivcsw;
	a->min_flt += th->min_flt;
	a->maj_flt += th->maj_flt;
}

/* The process's counts: live threads plus the exited ones (2.6.35's
 * thread_group_cputime and k_getrusage's thread loop). */
void thread_group_acct(struct task *t, struct thread_group_acct *a)
{
	struct task *leader = t->group_leader, *th;
	const struct signal_acct *sig = &leader->sig_acct;
	unsigned long flags;

	local_irq_save(flags);
	*a = (struct thread_group_acct){
		.utime = sig->utime, .stime = sig->stime, .nvcsw = sig->nvcsw,
		.nivcsw = sig->nivcsw, .min_flt = sig->min_flt, .maj_flt = sig->maj_flt,
	};
	acct_add_thread(a, leader);
	list_for_each_entry(th, &leader->thread_group, thread_group)
		acct_add_thread(a, th);
	local_irq_restore(flags);
}

/* The process's user and system time, ns (2.6.35's thread_group_times). */
void thread_group_times(struct task *t, u64 *ut, u64 *st)
{
	struct signal_acct *sig = &t->group_leader->sig_acct;
	struct thread_group_acct a;

	thread_group_acct(t, &a);
	cputime_adjust(thread_group_runtime(t), a.utime, a.stime, &sig->prev_utime,
		       &sig->prev_stime, ut, st);
}

/* The largest RSS MM has had, pages (Linux's get_mm_hiwater_rss). */
static u32 mm_hiwater_rss(const struct mm *mm)
{
	return max(mm->hiwater_rss, mm->nr_pages);
}

/* T leaves MM (exit, or exec's new image): its process remembers MM's
 * peak (2.6.35's setmax_mm_hiwater_rss(&sig->maxrss, mm)). */
void rusage_mm_gone(struct task *t, const struct mm *mm)
{
	struct signal_acct *sig = &t->group_leader->sig_acct;

	sig->maxrss = max(sig->maxrss, mm_hiwater_rss(mm));
}

/* Thread T of LEADER's process exits: its counts stay with the process
 * (2.6.35's __exit_signal).  Interrupts off. */
void rusage_thread_exit(struct task *leader, struct task *t)
{
	struct signal_acct *sig = &leader->sig_acct;

	leader->dead_runtime += task_sched_runtime(t);
	sig->utime += t->utime;
	sig->stime += t->stime;
	sig->nvcsw += t->nvcsw;
	sig->nivcsw += t->nivcsw;
	sig->min_flt += t->min_flt;
	sig->maj_flt += t->maj_flt;
}

/* exec's de_thread: ME becomes the leader in OLD's place and takes over
 * what OLD kept for the process, OLD's own counts included. */
void rusage_take_leadership(struct task *me, struct task *old)
{
	struct signal_acct *sig = &me->sig_acct;
	const struct signal_acct *o = &old->sig_acct;

	me->dead_runtime += old->dead_runtime + old->se.sum_exec_runtime;
	*sig = (struct signal_acct){
		.utime = sig->utime + o->utime + old->utime,
		.stime = sig->stime + o->stime + old->stime,
		.nvcsw = sig->nvcsw + o->nvcsw + old->nvcsw,
		.nivcsw = sig->nivcsw + o->nivcsw + old->nivcsw,
		.min_flt = sig->min_flt + o->min_flt + old->min_flt,
		.maj_flt = sig->maj_flt + o->maj_flt + old->maj_flt,
		.prev_utime = o->prev_utime, .prev_stime = o->prev_stime,
		.cutime = o->cutime, .cstime = o->cstime, .cnvcsw = o->cnvcsw,
		.cnivcsw = o->cnivcsw, .cmin_flt = o->cmin_flt, .cmaj_flt = o->cmaj_flt,
		.maxrss = max(sig->maxrss, o->maxrss), .cmaxrss = o->cmaxrss,
	};
}

static void ns_to_timeval(u64 ns, s32 *sec, s32 *usec)
{
	u32 rem;

	*sec = (s32)div_u64_rem(ns, NSEC_PER_SEC, &rem);
	*usec = (s32)(rem / 1000);
}

/*
 * P's usage (2.6.35's k_getrusage): RUSAGE_SELF its process, RUSAGE_THREAD
 * the thread P alone, RUSAGE_CHILDREN its reaped children (and theirs),
 * RUSAGE_BOTH the last two added (wait4's).  ru_maxrss in KiB.
 */
void k_getrusage(struct task *p, int who, struct rusage32 *r)
{
	const struct signal_acct *sig = &p->group_leader->sig_acct;
	u64 utime = 0, stime = 0, ut, st;
	u32 maxrss = 0;

	memset(r, 0, sizeof(*r));
	if (who == RUSAGE_THREAD) {
		task_times(p, &utime, &stime);
		r->ru_nvcsw = (s32)p->nvcsw;
		r->ru_nivcsw = (s32)p->nivcsw;
		r->ru_minflt = (s32)p->min_flt;
		r->ru_majflt = (s32)p->maj_flt;
		maxrss = sig->maxrss;
	} else {
		if (who != RUSAGE_SELF) {		/* RUSAGE_CHILDREN, RUSAGE_BOTH */
			utime = sig->cutime;
			stime = sig->cstime;
			r->ru_nvcsw = (s32)sig->cnvcsw;
			r->ru_nivcsw = (s32)sig->cnivcsw;
			r->ru_minflt = (s32)sig->cmin_flt;
			r->ru_majflt = (s32)sig->cmaj_flt;
			maxrss = sig->cmaxrss;
		}
		if (who != RUSAGE_CHILDREN) {		/* RUSAGE_SELF, RUSAGE_BOTH */
			struct thread_group_acct a;

			thread_group_times(p, &ut, &st);
			thread_group_acct(p, &a);
			utime += ut;
			stime += st;
			r->ru_nvcsw += (s32)a.nvcsw;
			r->ru_nivcsw += (s32)a.nivcsw;
			r->ru_minflt += (s32)a.min_flt;
			r->ru_majflt += (s32)a.maj_flt;
			maxrss = max(maxrss, sig->maxrss);
		}
	}
	ns_to_timeval(utime, &r->ru_utime.tv_sec, &r->ru_utime.tv_usec);
	ns_to_timeval(stime, &r->ru_stime.tv_sec, &r->ru_stime.tv_usec);
	if (who != RUSAGE_CHILDREN && p->mm)
		maxrss = max(maxrss, mm_hiwater_rss(p->mm));
	r->ru_maxrss = (s32)(maxrss * (PAGE_SIZE / 1024));
}

/*
 * wait4 reaps C (a zombie leader whose threads are all gone) for PARENT
 * (2.6.35's wait_task_zombie): C's usage with its children's goes into R
 * (RUSAGE_BOTH) and into PARENT's children sums.  Interrupts off.
 */
void rusage_reap(struct task *parent, struct task *c, struct rusage32 *r)
{
	struct signal_acct *psig = &parent->group_leader->sig_acct;
	const struct signal_acct *sig = &c->sig_acct;
	struct thread_group_acct a;
	u64 ut, st;

	thread_group_times(c, &ut, &st);
	thread_group_acct(c, &a);
	psig->cutime += ut + sig->cutime;
	psig->cstime += st + sig->cstime;
	psig->cmin_flt += a.min_flt + sig->cmin_flt;
	psig->cmaj_flt += a.maj_flt + sig->cmaj_flt;
	psig->cnvcsw += a.nvcsw + sig->cnvcsw;
	psig->cnivcsw += a.nivcsw + sig->cnivcsw;
	psig->cmaxrss = max(psig->cmaxrss, max(sig->maxrss, sig->cmaxrss));
	k_getrusage(c, RUSAGE_BOTH, r);
	/* At more than one CPU C may still be finishing its last switch on its
	 * CPU, its runtime still growing (it lets the giant lock go before that
	 * switch): R's times are then those of the same reading as the sums. */
	if (static_branch_on(&smp_key)) {
		ns_to_timeval(ut + sig->cutime, &r->ru_utime.tv_sec, &r->ru_utime.tv_usec);
		ns_to_timeval(st + sig->cstime, &r->ru_stime.tv_sec, &r->ru_stime.tv_usec);
	}
}

/*
 * times(2) (syscall 43): struct tms in clock ticks of USER_HZ = 100 (what
 * sysconf(_SC_CLK_TCK) says), whatever the kernel's HZ: the process's
 * user and system time (thread_group_times) and its reaped children's.
 * Returns the ticks since boot (Linux counts from INITIAL_JIFFIES, 5
 * minutes before 0 - only differences are meaningful either way).  BUF may
 * be NULL; -EFAULT for a bad one.
 */
#define NSEC_PER_USER_TICK	(NSEC_PER_SEC / USER_HZ)

struct tms32 {
	s32 tms_utime, tms_stime, tms_cutime, tms_cstime;
};

static s32 clock_t_of(u64 ns)
{
	return (s32)div_u64(ns, NSEC_PER_USER_TICK);
}

long sys_times(struct tms32 *buf)
{
	if (buf) {
		const struct signal_acct *sig = &current->group_leader->sig_acct;
		u64 ut, st;

		thread_group_times(current, &ut, &st);
		struct tms32 t = {
			.tms_utime = clock_t_of(ut), .tms_stime = clock_t_of(st),
			.tms_cutime = clock_t_of(sig->cutime), .tms_cstime = clock_t_of(sig->cstime),
		};
		if (copy_to_user(buf, &t, sizeof(t)))
			return -EFAULT;
	}
	return (long)div_u64(sched_clock(), NSEC_PER_USER_TICK);
}

long sys_getrusage(int who, struct rusage32 *ru)
{
	struct rusage32 r;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	k_getrusage(current, who, &r);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}
