/*
 * kernel/proc/exit.c - exit, exit_group, wait4, reparenting.
 *
 * A process's leader becomes a zombie (EXIT_ZOMBIE) and waits for its parent
 * to collect the status with wait4; once the last thread of the group is
 * gone, wait4 frees it.  Other threads free themselves (EXIT_DEAD, reaped
 * by reap_dead_tasks() after they have switched away for the last time).
 *
 * The parent of a process is a whole thread group, represented by its
 * leader's struct task, which outlives every other thread of the group (it
 * is freed only once the group is dead and reaped).  So a child forked by
 * any thread - even after the leader itself has exited - hangs on the
 * leader's children list, any thread of the group may wait4 for it, and
 * its exit signal goes to a live thread of the group.  Only when the last
 * thread of a group exits ("group dead", Linux's signal->live reaching 0)
 * does what belongs to the process go: its POSIX timers (exit_itimers) and
 * its children, which init (pid 1) inherits - Linux's find_new_reaper picks
 * a live thread of the group first, which the leader's list stands for
 * here.  init reaps the zombies it inherits.  During an exec by a
 * non-leader thread the children pass to that thread as it becomes the
 * leader (take_leadership in exec.c).
 *
 * Wait status encoding (Linux): exited = (code & 0xff) << 8,
 * killed by signal S = S.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/futex.h>
#include <kernel/machine.h>
#include <kernel/posix_timers.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/smp_lock.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
#include <arch/process.h>

/*
 * The exit signal of LEADER (its group just died) to the parent process:
 * to a live thread of it (a process-directed signal: the parent's leader
 * may have exited), and wake its wait4()ers.  Linux's do_notify_parent.
 */
static void notify_parent(struct task *leader)
{
	struct task *p = leader->parent;
	int sig = leader->exit_signal, code = leader->exit_code;
	/* The siginfo Linux's do_notify_parent fills: who, and how it ended
	 * (a sigwaitinfo for SIGCHLD read SI_KERNEL and no pid here). */
	struct ksiginfo info = { .si_code = CLD_EXITED };

	info.chld.pid = leader->tgid;
	info.chld.status = code >> 8;
	if (code & 0x7f) {
		info.si_code = CLD_KILLED;
		info.chld.status = code & 0x7f;
	}
	if (sig > 0 && sig <= _NSIG && (p = signal_target(p, sig)))
		send_signal_info(p, sig, &info, NULL);
	wake_up_all(&leader->parent->wait_chldexit);
}

/*
 * Give FATHER's children (FATHER: a group leader) to REAPER, with their
 * threads' parent links: to init when FATHER's group died, or to the thread
 * of the same process that takes FATHER's place in an exec.  As Linux's
 * reparent_leader, a child that changes process gets SIGCHLD as its exit
 * signal ("we don't want people slaying init": clone() lets a child choose
 * any signal, SIGKILL included) and, if it is already a dead zombie, its
 * new parent is notified at once.  Interrupts off.
 */
void forget_original_parent(struct task *father, struct task *reaper)
{
	struct task *c, *n, *th;

	list_for_each_entry_safe(c, n, &father->children, sibling) {
		list_del(&c->sibling);
		list_add_tail(&c->sibling, &reaper->children);
		c->parent = reaper;
		list_for_each_entry(th, &c->thread_group, thread_group)
			th->parent = reaper;
		if (reaper->tgid == father->tgid)
			continue;	/* a threaded reparent: nothing to tell */
		c->exit_signal = SIGCHLD;
		if (c->exit_state == EXIT_ZOMBIE && list_empty(&c->thread_group))
			notify_parent(c);
		else
			kill_orphaned_pgrp(c, father);	/* a stopped job lost its link */
	}
}

/*
 * Is T, about to exit, the last live thread of its process (Linux's
 * group_dead)?  A non-leader leaves the leader's thread_group list in its
 * do_exit(); a leader stays as its head, a zombie.  Nothing else of the
 * group runs while T exits (a uniprocessor whose kernel code is not
 * preempted, and do_exit() never sleeps before its last schedule()), so the
 * answer holds to the end of do_exit().
 */
static int thread_group_dead(struct task *t)
{
	struct task *leader = t->group_leader;

	if (t == leader)
		return list_empty(&t->thread_group);
	return leader->exit_state && leader->thread_group.next == &t->thread_group &&
	       leader->thread_group.prev == &t->thread_group;	/* T alone on the list */
}

/*
 * Linux's mm_release(): T leaves MM (it exits, or execs and drops its old
 * image; MM is still the current address space).  First the futexes T
 * holds (2.6.35's order): its robust list marks them FUTEX_OWNER_DIED, then
 * the PI ones go to their top waiters (exit_pi_state_list).  Then the
 * CLONE_CHILD_CLEARTID word.  If MM is still shared, 0 goes to the tid address and its futex
 * waiters wake (pthread_join; or the parent of a CLONE_VM child).  The
 * address is forgotten either way.
 */
void mm_release(struct task *t, struct mm *mm)
{
	if (unlikely(t->robust_list)) {
		exit_robust_list(t);
		t->robust_list = 0;
	}
	if (unlikely(!list_empty(&t->pi_state_list)))
		exit_pi_state_list(t);
	if (t->vfork_done)
		complete_vfork_done(t);
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
	int group_dead = thread_group_dead(t);

	if (execer && (execer == t || execer->tgid != t->tgid))
		execer = NULL;
	/* An exit runs with interrupts on, as 2.6.35's do_exit(): at more than
	 * one CPU it may free the mm and shoot its TLB down by IPI, which waits
	 * for the other CPUs (smp_call_function_many() wants interrupts on).  A
	 * fatal signal comes here from the way back to user mode, where they
	 * are off.  At one CPU no IPI is sent, and the path is the one it was. */
	if (!static_branch_on(&sched_up_key))
		local_irq_enable();

	/* Linux's find_new_reaper: init may lose its leader, not its last thread. */
	if (group_dead && leader == init_task)
		panic("Attempted to kill init! exitcode=0x%08x", code);
	if (t->mm) {
		struct mm *mm = t->mm;
		rusage_mm_gone(t, mm);	/* the process's ru_maxrss */
		mm_release(t, mm);	/* pthread_join's wakeup */
		arch_set_pgdir(t, 0);
		t->mm = NULL;
		mm_put(mm);
	}
	exit_files(t);
	if (execer)
		signal_transfer_shared(t, execer);
	else if (!group_dead)
		signal_transfer_exiting(t);	/* the others take what the process was sent */
	/* The process's timers die with it (Linux's exit_itimers), not with
	 * the signal state, which another process may share (CLONE_SIGHAND
	 * without CLONE_THREAD); their queued signals go with them. */
	if (group_dead && t->sig)
		exit_itimers(t->sig, leader);
	/* ... and so does its alarm, before the signal state goes: no expiry
	 * may find a dead process, nor its leader once reaped (2.6.35 do_exit). */
	if (group_dead)
		hrtimer_cancel(&leader->real_timer);
	/* A session leader's death takes the terminal from its session
	 * (Linux's disassociate_ctty from do_exit). */
	if (group_dead && leader->session == leader->tgid && leader->ctty)
		release_ctty(leader->session);
	flush_sigqueue(t);
	signal_state_put(t->sig);
	t->sig = NULL;

	local_irq_disable();		/* for good: this task never runs again */
	if (group_dead) {
		forget_original_parent(leader, init_task);
		kill_orphaned_pgrp(leader, NULL);
	}
	t->exit_code = code;
	if (t != leader) {
		/* Its CPU time and counts stay with the process (wait4's
		 * rusage); the little it runs from here to its last switch,
		 * and that switch, are not counted. */
		rusage_thread_exit(leader, t);
		list_del(&t->thread_group);
		t->exit_state = EXIT_DEAD;
		task_autoreap(t);
		if (group_dead)		/* the last thread of a process whose leader left */
			notify_parent(leader);
	} else if (t->exit_signal < 0) {	/* kernel thread: nobody waits */
		t->exit_state = EXIT_DEAD;
		task_autoreap(t);
	} else {
		t->exit_state = EXIT_ZOMBIE;
		if (group_dead)
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
			zap_thread(t);
	if (current != leader)
		zap_thread(leader);
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

/* Does child C match wait4's PID argument?  > 0 that child, -1 any, 0
 * one of the caller's process group, < -1 one of group -PID. */
static int wait_match(struct task *c, int pid)
{
	if (pid == -1)
		return 1;
	if (pid == 0)
		return c->pgrp == current->group_leader->pgrp;
	if (pid < 0)
		return c->pgrp == -pid;
	return c->pid == pid;
}

/*
 * wait4(2).  A zombie leader is reaped once its whole group is gone and it
 * is off the CPU.  As Linux, the child is released even if writing STATUS
 * or RU faults (the call then returns -EFAULT).
 */
long do_wait4(int pid, int *status_user, int options, struct rusage32 *ru)
{
	struct task *self = current->group_leader;

	/* WUNTRACED: report a child that stopped, once, as (sig << 8) | 0x7f;
	 * WCONTINUED: one that was continued, once, as 0xffff. */
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED))
		return -EINVAL;
	if (pid == (int)0x80000000)
		return -ESRCH;		/* -INT_MIN is no group (Linux 4.13+) */
	for (;;) {
		struct task *c, *n;
		int found = 0;
		unsigned long flags;

		local_irq_save(flags);
		list_for_each_entry_safe(c, n, &self->children, sibling) {
			if (!wait_match(c, pid))
				continue;
			found = 1;
			if (!c->exit_state && c->stop_notify &&
			    (options & (c->stop_notify == 1 ? WUNTRACED : WCONTINUED))) {
				int cpid = c->pid;
				int status = c->stop_notify == 1 ? (c->stop_sig << 8) | 0x7f : 0xffff;
				c->stop_notify = 0;
				local_irq_restore(flags);
				if (status_user && copy_to_user(status_user, &status, sizeof(status)))
					return -EFAULT;
				return cpid;
			}
			if (c->exit_state != EXIT_ZOMBIE || !list_empty(&c->thread_group))
				continue;
			int cpid = c->pid, status = c->exit_code;
			struct rusage32 r;
			rusage_reap(self, c, &r);
			list_del(&c->sibling);
			/* still switching out on its CPU: the reaper frees it */
			int later = !task_switched_out(c);
			if (later) {
				c->exit_state = EXIT_DEAD;
				task_autoreap(c);
			}
			local_irq_restore(flags);
			if (!later)
				free_task(c);
			if (ru && copy_to_user(ru, &r, sizeof(r)))
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
