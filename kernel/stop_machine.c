/*
 * kernel/stop_machine.c - cpu_stop, the per-CPU stopper (Linux 2.6.35's
 * kernel/stop_machine.c, its cpu_stop half; <kernel/stop_machine.h>).
 *
 * Each online CPU has a stopper: a list of works under a lock and a
 * kernel thread, "migration/N", bound to that CPU and SCHED_FIFO at the
 * highest rt priority, so that once woken it preempts whatever runs there.
 * Queueing a work links it and wakes the thread; the thread takes the
 * works one by one, runs each and, if someone waits, counts it done.
 * The balancer uses it to push a CPU's running task elsewhere (2.6.35's
 * active balance, active_load_balance_cpu_stop in kernel/sched/rebalance.c);
 * a task cannot be pulled while it runs, so its own CPU must move it.
 *
 * Deliberate differences (docs/SCHEDULER.md, "Several CPUs"): the threads
 * are made only while more than one CPU is online, after pid 1, by the
 * boot context (2.6.35 makes them at every CPU count, from kthreadd); a
 * waiter sleeps on a wait queue with a done flag (no struct completion),
 * which the giant kernel lock, held by both sides, keeps race-free.
 */
#include <kernel/stop_machine.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/task.h>
#include <kernel/wait.h>
#include <arch/irqflags.h>

/* What a stop_one_cpu() caller sleeps on (2.6.35's, with a flag and a
 * wait queue in place of the completion). */
struct cpu_stop_done {
	int executed;			/* the function ran */
	int ret;			/* its return value, if nonzero */
	int done;			/* set last: the waiter may go */
	struct wait_queue_head wq;
};

struct cpu_stopper {
	raw_spinlock_t lock;		/* protects works and enabled */
	struct list_head works;
	struct task *thread;		/* migration/N */
	int enabled;
};

static DEFINE_PER_CPU(struct cpu_stopper, cpu_stopper);

/* The work is done (or was never queued): tell the waiter, if any. */
static void cpu_stop_signal_done(struct cpu_stop_done *done, int executed)
{
	if (!done)
		return;
	if (executed)
		done->executed = 1;
	done->done = 1;
	wake_up_all(&done->wq);
}

/*
 * Link WORK on CPU's stopper and wake its thread; a CPU without one says
 * so.  The wakeup preempts whatever runs there (the thread is SCHED_FIFO
 * 99), and resched_task() sends that CPU the reschedule IPI, so a CPU
 * halted in its idle loop, whose tick may be off (clockevent=pit), looks.
 */
static void cpu_stop_queue_work(unsigned int cpu, struct cpu_stop_work *work)
{
	struct cpu_stopper *stopper = &per_cpu(cpu_stopper, cpu);
	unsigned long flags;
	int enabled;

	raw_spin_lock_irqsave(&stopper->lock, flags);
	enabled = stopper->enabled;
	if (enabled)
		list_add_tail(&work->list, &stopper->works);
	raw_spin_unlock_irqrestore(&stopper->lock, flags);
	if (enabled)
		wake_up_process(stopper->thread);
	else
		cpu_stop_signal_done(work->done, 0);
}

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg)
{
	struct cpu_stop_done done = { 0 };
	struct cpu_stop_work work = { .fn = fn, .arg = arg, .done = &done };
	unsigned long flags;

	init_waitqueue_head(&done.wq);
	cpu_stop_queue_work(cpu, &work);
	local_irq_save(flags);
	while (!done.done)
		wait_sleep(&done.wq, TASK_UNINTERRUPTIBLE);
	local_irq_restore(flags);
	return done.executed ? done.ret : -ENOENT;
}

void stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			 struct cpu_stop_work *work_buf)
{
	*work_buf = (struct cpu_stop_work){ .fn = fn, .arg = arg, .done = NULL };
	cpu_stop_queue_work(cpu, work_buf);
}

/* The next work, or NULL (the caller has set its state to sleep). */
static struct cpu_stop_work *cpu_stop_dequeue(struct cpu_stopper *stopper)
{
	struct cpu_stop_work *work = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&stopper->lock, flags);
	if (!list_empty(&stopper->works)) {
		work = list_first_entry(&stopper->works, struct cpu_stop_work, list);
		list_del(&work->list);
	}
	raw_spin_unlock_irqrestore(&stopper->lock, flags);
	return work;
}

/* migration/N: run the works as they come, sleep between them. */
static void cpu_stopper_thread(void *arg)
{
	struct cpu_stopper *stopper = arg;

	lock_kernel();	/* a new task holds none; the works run under it */
	for (;;) {
		struct cpu_stop_work *work;

		current->state = TASK_INTERRUPTIBLE;	/* set_current_state() */
		work = cpu_stop_dequeue(stopper);
		if (!work) {
			schedule();
			continue;
		}
		current->state = TASK_RUNNING;
		struct cpu_stop_done *done = work->done;
		int ret = work->fn(work->arg);

		if (done && ret)
			done->ret = ret;
		cpu_stop_signal_done(done, 1);
	}
}

/*
 * A stopper for each online CPU, as 2.6.35's cpu_stop_init() and its CPU
 * notifier: the thread made bound to its CPU (kthread_bind()) and raised to
 * SCHED_FIFO MAX_RT_PRIO - 1 before its first wakeup.  At one CPU there is
 * nothing to stop (and no task to push elsewhere): none is made.
 */
void cpu_stop_init(void)
{
	unsigned int cpu;
	char name[16];

	if (num_online_cpus() < 2)
		return;
	for_each_online_cpu(cpu) {
		struct cpu_stopper *stopper = &per_cpu(cpu_stopper, cpu);
		struct task *p;

		raw_spin_lock_init(&stopper->lock);
		INIT_LIST_HEAD(&stopper->works);
		snprintf(name, sizeof(name), "migration/%u", cpu);
		p = kthread_create(name, cpu_stopper_thread, stopper);
		if (!p) {
			printk("cpu_stop: no stopper for CPU%u (out of memory)\n", cpu);
			continue;
		}
		kthread_bind(p, cpu);
		sched_setscheduler_prio(p, SCHED_FIFO, MAX_RT_PRIO - 1);
		stopper->thread = p;
		stopper->enabled = 1;
		wake_up_new_task(p);
	}
}
