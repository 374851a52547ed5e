/*
 * kernel/proc/fork.c - fork, clone and kernel threads.
 *
 * The scheduling half of task creation is Linux's: sched_fork() places the
 * child (task_fork_fair: START_DEBIT, child_runs_first ...) and
 * wake_up_new_task() queues it and checks preemption with WF_FORK - the
 * path the 2010 SIGEV_THREAD latency debate is about.
 *
 * The order is Linux 2.6.35's copy_process() + do_fork(): sched_fork()
 * comes right after the task is allocated, BEFORE the mm, the signal state
 * and the registers are copied; wake_up_new_task() comes last.  The
 * parent's run time across the copy is therefore charged to it after the
 * child was placed (the child starts at the parent's vruntime of before
 * the copy).  tests/host/sched/test_fork.c pins this.  A failure unwinds
 * through the bad_fork_* labels in the reverse order of the set-up.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/smp_lock.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
#include <arch/process.h>

u32 total_forks;

long do_fork(u32 clone_flags, u32 newsp, u32 parent_tidptr, u32 tls, u32 child_tidptr,
	     struct trap_frame *tf)
{
	struct task *p;
	int err;
	unsigned long flags;

	if ((clone_flags & CLONE_THREAD) && !(clone_flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((clone_flags & CLONE_SIGHAND) && !(clone_flags & CLONE_VM))
		return -EINVAL;
	/* An exit signal must be a signal (1..64, or 0 for none): Linux's
	 * clone3 check (valid_signal).  2.6.35 took any byte and dropped a
	 * bad one at exit; here it would index past the handler table. */
	if ((clone_flags & CSIGNAL) > _NSIG)
		return -EINVAL;
	p = alloc_task(&err);
	if (!p)
		return err;
	memcpy(p->comm, current->comm, sizeof(p->comm));
	p->sig_blocked = current->sig_blocked;

	/* Scheduler set-up and placement (task_fork_fair), before the copy. */
	sched_fork(p);

	local_irq_save(flags);
	if (clone_flags & CLONE_THREAD) {
		p->tgid = current->tgid;
		p->group_leader = current->group_leader;
		p->parent = current->parent;
		p->exit_signal = -1;
		list_add_tail(&p->thread_group, &current->group_leader->thread_group);
	} else {
		p->parent = current->group_leader;
		p->exit_signal = clone_flags & CSIGNAL;
		p->pgrp = current->group_leader->pgrp;
		p->session = current->group_leader->session;
		p->ctty = current->group_leader->ctty;
		memcpy(p->rlim, current->group_leader->rlim, sizeof(p->rlim));	/* copy_signal */
		list_add_tail(&p->sibling, &p->parent->children);
	}
	init_waitqueue_head(&p->wait_chldexit);
	local_irq_restore(flags);

	if (clone_flags & CLONE_VM) {
		p->mm = current->mm;
		mm_get(p->mm);
	} else {
		p->mm = mm_dup(current->mm);
		err = -ENOMEM;
		if (!p->mm)
			goto bad_fork_cleanup_links;
	}
	arch_set_pgdir(p, p->mm->pgdir);
	err = -ENOMEM;
	if (copy_files(p, clone_flags))
		goto bad_fork_cleanup_mm;
	if (clone_flags & CLONE_SIGHAND) {
		p->sig = current->sig;
		p->sig->count++;
	} else if (!(p->sig = signal_state_alloc(current->sig))) {
		goto bad_fork_cleanup_files;
	}
	/* The child's registers and TLS descriptors (a copy of ours, one of them
	 * replaced by CLONE_SETTLS), before any side effect in user memory. */
	arch_fork_child(p, tf, newsp);
	if (clone_flags & CLONE_SETTLS) {
		err = arch_fork_settls(p, tls);
		if (err)
			goto bad_fork_cleanup_signal;
	}
	if (clone_flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = child_tidptr;
	err = -EFAULT;
	if ((clone_flags & CLONE_PARENT_SETTID) && put_user(p->pid, (int *)parent_tidptr))
		goto bad_fork_cleanup_signal;
	if (clone_flags & CLONE_CHILD_SETTID)
		p->set_child_tid = child_tidptr;	/* the child writes it: fork_child_tail */

	total_forks++;		/* copy_process() succeeded */
	if (clone_flags & CLONE_VFORK)
		return vfork_wait(p);
	wake_up_new_task(p);	/* enqueue + check_preempt_curr(WF_FORK) */
	return p->pid;

bad_fork_cleanup_signal:
	signal_state_put(p->sig);
bad_fork_cleanup_files:
	exit_files(p);
bad_fork_cleanup_mm:
	mm_put(p->mm);
bad_fork_cleanup_links:
	local_irq_save(flags);
	list_del(&p->sibling);
	list_del(&p->thread_group);
	local_irq_restore(flags);
	free_task(p);		/* never queued: sched_fork() needs no undo */
	return err;
}

/*
 * A forked child's first kernel code (ret_from_fork, interrupts still off),
 * in its own address space: as Linux's schedule_tail(), the child writes
 * its tid to the CLONE_CHILD_SETTID address itself, so the word lands in
 * the child's copy of memory - glibc's fork() reads its tid from there -
 * or, with CLONE_VM, in the shared one.  A bad address is ignored, as in
 * Linux: the clone has already succeeded.
 *
 * The write may fault (the page is copy-on-write after fork), and with
 * more than one CPU the fault's flush_tlb_page() sends a shootdown IPI and
 * waits for it: that needs interrupts on, or two CPUs each waiting for the
 * other with interrupts off never finish.  So, as in 2.6.35, whose
 * finish_task_switch() has enabled them before schedule_tail()'s put_user,
 * the write runs with interrupts on; at one CPU no IPI is sent and they
 * stay off until the iret (kernel/sched/core.c, schedule_tail()).
 */
void fork_child_tail(void)
{
	if (current->set_child_tid) {
		int smp = !static_branch_on(&sched_up_key);

		if (smp)
			local_irq_enable();
		put_user(current->pid, (int *)current->set_child_tid);
		current->set_child_tid = 0;
		if (smp)
			local_irq_disable();	/* ret_from_trap runs with them off */
	}
	unlock_kernel();	/* to user mode: the CPU lets the giant lock go */
}

/*
 * A kernel thread running FN(ARG), made but not yet woken (Linux's
 * kthread_create(), whose thread waits for wake_up_process()): the caller
 * may bind it (kthread_bind()) or change its policy, then
 * wake_up_new_task().  NULL (*ERR set) if there is no room.
 */
struct task *kthread_create_err(const char *name, void (*fn)(void *), void *arg, int *err)
{
	struct task *p;

	p = alloc_task(err);
	if (!p)
		return NULL;
	strlcpy(p->comm, name, sizeof(p->comm));
	sched_fork(p);			/* as do_fork: placement first */
	p->parent = current;
	p->exit_signal = -1;		/* nobody waits: reaped on exit */
	init_waitqueue_head(&p->wait_chldexit);
	if (!(p->sig = signal_state_alloc(NULL))) {
		free_task(p);
		*err = -ENOMEM;
		return NULL;
	}
	arch_thread_init(p, fn, arg);
	total_forks++;
	return p;
}

struct task *kthread_create(const char *name, void (*fn)(void *), void *arg)
{
	int err;

	return kthread_create_err(name, fn, arg, &err);
}

int kernel_thread(const char *name, void (*fn)(void *), void *arg)
{
	struct task *p;
	int err;

	p = kthread_create_err(name, fn, arg, &err);
	if (!p)
		return err;
	wake_up_new_task(p);
	return p->pid;
}
