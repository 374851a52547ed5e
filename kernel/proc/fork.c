/*
 * kernel/proc/fork.c - fork, clone and kernel threads.
 *
 * The scheduling half of task creation is Linux's: sched_fork() places the
 * child (task_fork_fair: START_DEBIT, child_runs_first ...) and
 * wake_up_new_task() queues it and checks preemption with WF_FORK - the
 * path the 2010 SIGEV_THREAD latency debate is about.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
#include <arch/process.h>

/* Undo alloc_task() and the links made so far. */
static void fork_cleanup(struct task *p)
{
	unsigned long flags;

	local_irq_save(flags);
	list_del(&p->sibling);
	list_del(&p->thread_group);
	local_irq_restore(flags);
	if (p->mm)
		mm_put(p->mm);
	exit_files(p);
	signal_state_put(p->sig);
	free_task(p);
}

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
	p = alloc_task(&err);
	if (!p)
		return err;
	memcpy(p->comm, current->comm, sizeof(p->comm));
	p->sig_blocked = current->sig_blocked;

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
		list_add_tail(&p->sibling, &p->parent->children);
	}
	init_waitqueue_head(&p->wait_chldexit);
	local_irq_restore(flags);

	if (clone_flags & CLONE_VM) {
		p->mm = current->mm;
		mm_get(p->mm);
	} else {
		p->mm = mm_dup(current->mm);
		if (!p->mm) {
			fork_cleanup(p);
			return -ENOMEM;
		}
	}
	arch_set_pgdir(p, p->mm->pgdir);
	if (copy_files(p, clone_flags)) {
		fork_cleanup(p);
		return -ENOMEM;
	}
	if (clone_flags & CLONE_SIGHAND) {
		p->sig = current->sig;
		p->sig->count++;
	} else if (!(p->sig = signal_state_alloc(current->sig))) {
		fork_cleanup(p);
		return -ENOMEM;
	}
	/* The child's registers and TLS descriptors (a copy of ours, one of them
	 * replaced by CLONE_SETTLS), before any side effect in user memory. */
	arch_fork_child(p, tf, newsp);
	if (clone_flags & CLONE_SETTLS) {
		err = arch_fork_settls(p, tls);
		if (err) {
			fork_cleanup(p);
			return err;
		}
	}
	if (clone_flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = child_tidptr;
	if ((clone_flags & CLONE_PARENT_SETTID) && put_user(p->pid, (int *)parent_tidptr)) {
		fork_cleanup(p);
		return -EFAULT;
	}
	if ((clone_flags & CLONE_CHILD_SETTID) && (clone_flags & CLONE_VM) &&
	    put_user(p->pid, (int *)child_tidptr)) {
		fork_cleanup(p);
		return -EFAULT;
	}

	sched_fork(p);		/* placement: task_fork_fair */
	wake_up_new_task(p);	/* enqueue + check_preempt_curr(WF_FORK) */
	return p->pid;
}

int kernel_thread(const char *name, void (*fn)(void *), void *arg)
{
	struct task *p;
	int err;

	p = alloc_task(&err);
	if (!p)
		return err;
	strlcpy(p->comm, name, sizeof(p->comm));
	p->parent = current;
	p->exit_signal = -1;		/* nobody waits: reaped on exit */
	init_waitqueue_head(&p->wait_chldexit);
	if (!(p->sig = signal_state_alloc(NULL))) {
		free_task(p);
		return -ENOMEM;
	}
	arch_thread_init(p, fn, arg);
	sched_fork(p);
	wake_up_new_task(p);
	return p->pid;
}
