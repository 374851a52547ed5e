/*
 * kernel/proc/vfork.c - CLONE_VFORK: the parent of a vfork child waits for
 * the child to let go of their shared memory (exec or exit).
 */
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

/*
 * CLONE_VFORK (vfork(2) = clone(CLONE_VM | CLONE_VFORK | SIGCHLD)): the
 * parent sleeps until the child execs or exits (mm_release ->
 * complete_vfork_done), as Linux's wait_for_vfork_done().  DONE lives on
 * the parent's kernel stack; the child, still unreaped, cannot outlive the
 * sleep.  Uninterruptible, as 2.6.35's wait_for_completion (a signal to
 * the parent waits until the child lets go of the shared memory).
 */
struct vfork_done {
	int done;
	struct wait_queue_head wq;
};

void complete_vfork_done(struct task *t)
{
	struct vfork_done *vd = t->vfork_done;
	unsigned long flags;

	local_irq_save(flags);
	t->vfork_done = NULL;
	vd->done = 1;
	wake_up_all(&vd->wq);
	local_irq_restore(flags);
}

long vfork_wait(struct task *p)
{
	struct vfork_done vd = { .done = 0 };
	int pid = p->pid;
	unsigned long flags;

	init_waitqueue_head(&vd.wq);
	p->vfork_done = &vd;
	wake_up_new_task(p);
	local_irq_save(flags);
	while (!vd.done)
		wait_sleep(&vd.wq, TASK_UNINTERRUPTIBLE);
	local_irq_restore(flags);
	return pid;
}
