/*
 * kernel/proc/exit.c - exit, exit_group, wait4, reparenting.
 *
 * A process's leader becomes a zombie (EXIT_ZOMBIE) and waits for its parent
 * to collect the status with wait4; once the last thread of the group is
 * gone, wait4 frees it.  Other threads free themselves (EXIT_DEAD, reaped
 * by reap_dead_tasks() after they have switched away for the last time).
 * Children of an exiting process are handed to init (pid 1), which reaps
 * zombies it inherits - except while another thread of the process execs
 * (de_thread in exec.c): that thread inherits them, as it becomes the
 * process's leader.
 *
 * Wait status encoding (Linux): exited = (code & 0xff) << 8,
 * killed by signal S = S.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/futex.h>
#include <kernel/machine.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
#include <arch/process.h>

/* Give LEADER's children (and their threads' parent links) to REAPER. */
static void forget_original_parent(struct task *leader, struct task *reaper)
{
	struct task *c, *n;
	int zombies = 0;

	list_for_each_entry_safe(c, n, &leader->children, sibling) {
		list_del(&c->sibling);
		c->parent = reaper;
		list_add_tail(&c->sibling, &reaper->children);
		struct task *th;
		list_for_each_entry(th, &c->thread_group, thread_group)
			th->parent = reaper;
		zombies |= c->exit_state == EXIT_ZOMBIE;
	}
	if (zombies)
		wake_up_all(&reaper->wait_chldexit);
}

static void notify_parent(struct task *leader)
{
	struct task *p = leader->parent;

	if (leader->exit_signal > 0)
		send_signal(p, leader->exit_signal);
	wake_up_all(&p->wait_chldexit);
}

/*
 * Linux's mm_release() for the CLONE_CHILD_CLEARTID word: T leaves MM (it
 * exits, or execs and drops its old image; MM is still the current address
 * space).  If MM is still shared, 0 goes to the tid address and its futex
 * waiters wake (pthread_join; or the parent of a CLONE_VM child).  The
 * address is forgotten either way.
 */
void mm_release(struct task *t, struct mm *mm)
{
	if (t->clear_child_tid && mm->users > 1) {
		u32 zero = 0;
		if (!copy_to_user((void *)t->clear_child_tid, &zero, 4))
			futex_wake(mm, t->clear_child_tid, 1 << 30);
	}
	t->clear_child_tid = 0;
}

__attribute__((noreturn)) void do_exit(int code)
{
	struct task *t = current;
	struct task *leader = t->group_leader;
	/* A thread exec'ing in our process, waiting in de_thread() for us to go
	 * (the signal state may be shared with another process: check tgid). */
	struct task *execer = t->sig ? t->sig->group_exec_task : NULL;

	if (execer && (execer == t || execer->tgid != t->tgid))
		execer = NULL;

	if (t == init_task)
		panic("Attempted to kill init! exitcode=0x%08x", code);
	if (t->mm) {
		struct mm *mm = t->mm;
		mm_release(t, mm);	/* pthread_join's wakeup */
		arch_set_pgdir(t, 0);
		t->mm = NULL;
		mm_put(mm);
	}
	exit_files(t);
	if (execer)
		signal_transfer_shared(t, execer);
	flush_sigqueue(t);		/* before the timers that may own entries go */
	signal_state_put(t->sig);
	t->sig = NULL;

	local_irq_disable();		/* for good: this task never runs again */
	/* A non-leader has children only if it was exec'ing (the old leader
	 * handed them over) and its exec failed: they go to init. */
	if (t == leader || !list_empty(&t->children))
		forget_original_parent(t, execer ? execer : init_task);
	t->exit_code = code;
	if (t != leader) {
		/* Its CPU time stays with the process (wait4's rusage); the
		 * little it runs from here to its last switch is not counted. */
		leader->dead_runtime += task_sched_runtime(t);
		list_del(&t->thread_group);
		t->exit_state = EXIT_DEAD;
		task_autoreap(t);
		/* The last thread of a process whose leader already left. */
		if (leader->exit_state == EXIT_ZOMBIE && list_empty(&leader->thread_group))
			notify_parent(leader);
	} else if (t->exit_signal < 0) {	/* kernel thread: nobody waits */
		t->exit_state = EXIT_DEAD;
		task_autoreap(t);
	} else {
		t->exit_state = EXIT_ZOMBIE;
		if (list_empty(&t->thread_group))
			notify_parent(t);
	}
	if (execer)		/* it rechecks once we are off the CPU */
		wake_up_process(execer);
	t->state = TASK_DEAD;
	schedule();
	panic("do_exit: dead task %d ran again", t->pid);
}

/*
 * Start the group exit of the current process with wait status CODE, if
 * none is under way: the status is recorded (Linux's SIGNAL_GROUP_EXIT and
 * group_exit_code, kept by the group leader - the signal state may be
 * shared with other processes) and every other thread gets SIGKILL.
 * Returns the process's status: CODE, or that of the group exit already
 * under way.
 */
int group_exit_start(int code)
{
	struct task *leader = current->group_leader, *t;

	if (leader->group_exit)
		return leader->group_exit_code;
	leader->group_exit = 1;
	leader->group_exit_code = code;
	list_for_each_entry(t, &leader->thread_group, thread_group)
		if (t != current)
			send_signal(t, SIGKILL);
	if (current != leader)
		send_signal(leader, SIGKILL);
	return code;
}

/*
 * End the whole process.  The first caller's CODE is the process's status;
 * the other threads, killed with SIGKILL, come back here and reuse it.  A
 * thread killed by de_thread() (group_exec_task set) just exits: the
 * process goes on in the exec'ing thread, whose leader status must not be
 * touched.
 */
__attribute__((noreturn)) void do_group_exit(int code)
{
	struct signal_state *s = current->sig;

	if (s && s->group_exec_task && s->group_exec_task != current &&
	    s->group_exec_task->tgid == current->tgid)
		do_exit(code);
	code = group_exit_start(code);
	current->group_leader->exit_code = code;
	do_exit(code);
}

/* Does child C match wait4's PID argument? (<= 0: any child; no pgrps.) */
static int wait_match(struct task *c, int pid)
{
	return pid <= 0 || c->pid == pid;
}

/*
 * wait4(2).  A zombie leader is reaped once its whole group is gone and it
 * is off the CPU.  As Linux, the child is released even if writing STATUS
 * or RU faults (the call then returns -EFAULT).
 */
long do_wait4(int pid, int *status_user, int options, struct rusage32 *ru)
{
	struct task *self = current->group_leader;

	if (options & ~WNOHANG)
		return -EINVAL;
	for (;;) {
		struct task *c, *n;
		int found = 0;
		unsigned long flags;

		local_irq_save(flags);
		list_for_each_entry_safe(c, n, &self->children, sibling) {
			if (!wait_match(c, pid))
				continue;
			found = 1;
			if (c->exit_state != EXIT_ZOMBIE || !list_empty(&c->thread_group) || c->on_rq)
				continue;
			int cpid = c->pid, status = c->exit_code;
			u64 cputime = rusage_reap(self, c);
			list_del(&c->sibling);
			local_irq_restore(flags);
			free_task(c);
			if (ru && put_rusage(ru, cputime))
				return -EFAULT;
			if (status_user && copy_to_user(status_user, &status, sizeof(status)))
				return -EFAULT;
			return cpid;
		}
		if (!found || (options & WNOHANG) || signal_pending(current)) {
			local_irq_restore(flags);
			return !found ? -ECHILD : (options & WNOHANG) ? 0 : -ERESTARTSYS;
		}
		/* Still off since the scan: no exit can slip in before we sleep. */
		wait_sleep(&self->wait_chldexit, TASK_INTERRUPTIBLE);
		local_irq_restore(flags);
	}
}
