/*
 * kernel/entry.c - the portable side of trap entry and exit.
 *
 * Preemption model ("voluntary", like a 2010 desktop kernel with
 * CONFIG_PREEMPT_VOLUNTARY): need_resched set by the tick or a wakeup is
 * honoured when the task returns to user mode, and at the kernel's own
 * scheduling points (sleeping, the idle loop, cond_resched() in long loops).
 * Kernel code itself is never preempted, so it needs no locks beyond
 * interrupt masking and, at more than one CPU, the giant kernel lock
 * (<kernel/smp_lock.h>), which the way back to user mode lets go.  Syscalls are short or reschedule as they go, so the
 * difference from full preemption is at most one syscall or one step of it.
 */
#include <kernel/entry.h>
#include <kernel/errno.h>
#include <kernel/hrtimer.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/smp_lock.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/vm.h>

int user_page_fault(u32 addr, int write)
{
	int err = mm_fault(current->mm, addr, write);

	if (err == -ENOMEM && current->tgid == 1) {
		/*
		 * Linux never picks init for the OOM killer (oom_badness() is 0
		 * for it); pagefault_out_of_memory() frees memory elsewhere and
		 * the fault is retried after a jiffy.  Granule has no OOM killer:
		 * init waits a tick for memory to come back (its children exit and
		 * are reaped), then returns to the faulting instruction.  Never a
		 * SIGKILL, which would be "Attempted to kill init!".
		 */
		if (printk_ratelimit())
			printk("Out of memory: init (pid 1) waits for memory (fault at %x)\n", addr);
		sleep_ns(NSEC_PER_SEC / HZ);
		return 0;
	}
	if (err == -ENOMEM) {
		printk("Out of memory: killed process %d (%s)\n", current->tgid, current->comm);
		force_sig(SIGKILL);	/* as Linux's oom_kill_task */
		return 0;	/* dies on the way out */
	}
	if (err == -EIO) {
		/* A file mapping's page past the file's end: Linux's do_sigbus,
		 * which logs nothing (only SIGSEGV has show_signal_msg). */
		force_sig(SIGBUS);
		return 0;
	}
	return err;
}

/* Linux force_sig(): the signal gets through even if blocked or ignored,
 * and kills even init if it has no handler (force_sig_info clears
 * SIGNAL_UNKILLABLE then: a faulting init cannot go on). */
void force_sig(int sig)
{
	struct k_sigaction *ka = &current->sig->action[sig - 1];

	if (ka->handler == SIG_IGN || (current->sig_blocked & sigmask(sig))) {
		ka->handler = SIG_DFL;
		current->sig_blocked &= ~sigmask(sig);
	}
	if (ka->handler == SIG_DFL)
		current->group_leader->signal_flags &= ~SIGNAL_UNKILLABLE;
	send_signal(current, sig);
}

/*
 * The Linux-style line for a user fault, rate-limited as Linux's
 * show_signal_msg()/do_general_protection() do with printk_ratelimit()
 * (10 lines per 5 s, then "user_exception: N callbacks suppressed"): a
 * program faulting in a loop (single-stepping, a SIGSEGV handler that
 * returns to the fault) must not flood the console.  The signal is sent
 * every time.
 */
void user_exception(int signo, const char *what, u32 ip, u32 sp, u32 addr, u32 error)
{
	if (printk_ratelimit()) {
		if (signo == SIGSEGV && !strcmp(what, "page fault"))
			printk("%s[%d]: segfault at %x ip %08x sp %08x error %x\n",
			       current->comm, current->pid, addr, ip, sp, error);
		else if (!strcmp(what, "general protection fault"))
			printk("%s[%d] general protection ip:%x sp:%x error:%x\n",
			       current->comm, current->pid, ip, sp, error);
		else
			printk("%s[%d] trap %s ip:%x sp:%x error:%x\n",
			       current->comm, current->pid, what, ip, sp, error);
	}
	force_sig(signo);
}

/*
 * SMP (a constant: two copies) is the way out of a call or trap that may
 * not hold the giant lock: it takes it before anything under it, the
 * delivery of a signal (the handlers, the shared pending set, a group stop
 * or exit) or the put-back of a saved signal mask (which senders read).
 * schedule() needs none: it takes back what the task switched in held.
 */
static __attribute__((always_inline)) inline void __exit_to_caller(struct trap_frame *tf,
								   int to_user, const int smp)
{
	if (!to_user)
		return;		/* no kernel preemption (see above) */
	while (current->need_resched)
		schedule();
	if (signal_pending(current)) {
		if (smp)
			__lock_kernel();
		do_signal(tf);
	} else {
		if (smp && current->restore_sigmask)
			__lock_kernel();
		restore_saved_sigmask(current);
	}
	unlock_kernel();	/* user mode holds no giant lock */
}

void exit_to_caller(struct trap_frame *tf, int to_user)
{
	__exit_to_caller(tf, to_user, 0);
}

void exit_to_caller_smp(struct trap_frame *tf, int to_user)
{
	__exit_to_caller(tf, to_user, 1);
}
