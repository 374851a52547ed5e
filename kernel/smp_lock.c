/*
 * kernel/smp_lock.c - the giant kernel lock (<kernel/smp_lock.h>): Linux
 * 2.0's kernel_flag, in the shape of 2.6.35's lib/kernel_lock.c.
 *
 * Why one lock: the kernel outside the scheduler was written for one CPU
 * (docs/ARCHITECTURE.md, "Preemption model"): kernel code is never
 * preempted and masks interrupts for exclusion.  Once a second CPU runs
 * kernel code for a task, every shared structure (page tables, files,
 * pipes, signals, timers, tty, trace buffers) would race.  Holding one lock
 * whenever a CPU runs such code keeps the uniprocessor invariants between
 * CPUs unchanged, as Linux 2.0 did; the fine-grained locks replace it one
 * structure at a time, the leaves first: frames (zone->lock), kmalloc (a
 * list_lock per cache) and printk (logbuf_lock) have theirs.
 *
 * The lock is 2.6.35's ticket spinlock (FIFO).  Both calls work with
 * interrupts off, whatever the caller's state: an interrupt that came
 * between the ticket and the flag (or the flag and the release) and took
 * the lock itself would wait behind its own CPU for ever.  A CPU waiting
 * with interrupts off would never see the call-function IPI of a CPU that
 * holds the lock and waits for that call (a TLB shootdown): so while it
 * waits it runs its pending cross calls itself, as Linux 2.0's lock loop
 * flushed the TLB while it spun.  Those calls never take kernel_flag.
 *
 * The lock belongs to a task, as 2.6.35's BKL does (task->lock_depth):
 * schedule() lets it go when the task switched out holds it and takes it
 * back before a task that held it resumes (release_kernel_lock(),
 * reacquire_kernel_lock() below).  So kernel_flag_held, per CPU, is the
 * hold of the task running there; the two calls take and release at most
 * once whatever the caller's state (no depth count: nothing nests).
 */
#include <kernel/entry.h>
#include <kernel/errno.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>
#include <arch/barrier.h>
#include <arch/irqflags.h>

static arch_spinlock_t kernel_flag = __ARCH_SPIN_LOCK_UNLOCKED;
DEFINE_PER_CPU(int, kernel_flag_held);
/* The ticket + 1 a task of this CPU waits on with interrupts on (0: none). */
static DEFINE_PER_CPU(int, kernel_flag_waiting);

static inline u8 kernel_flag_ticket(void)
{
	u16 old = __atomic_fetch_add(&kernel_flag.slock, 1 << TICKET_SHIFT, __ATOMIC_SEQ_CST);

	return (u8)(old >> TICKET_SHIFT);
}

/*
 * Take the lock, interrupts off.  An interrupt that came while this CPU's
 * task waits for it with interrupts on (__lock_kernel_irqs_on()) does not
 * queue behind that task, which would wait for it for ever: it waits for
 * the task's ticket, and __unlock_kernel() then leaves the lock to the task.
 */
void __lock_kernel(void)
{
	unsigned long flags;
	u8 ticket;
	int w;

	local_irq_save(flags);
	if (!this_cpu_read(kernel_flag_held)) {
		w = this_cpu_read(kernel_flag_waiting);
		ticket = w ? (u8)(w - 1) : kernel_flag_ticket();
		while (READ_ONCE(kernel_flag.tickets.head) != ticket) {
			/* serve what the holder may be waiting for */
			generic_smp_call_function_single_interrupt();
			generic_smp_call_function_interrupt();
			cpu_relax();
		}
		this_cpu_write(kernel_flag_held, 1);
	}
	local_irq_restore(flags);
}

/*
 * Take the lock from task context (a system call's or a user trap's entry)
 * with interrupts on while it waits, as 2.6.35's lock_kernel() spins: this
 * CPU's timer and IPIs are taken meanwhile (a woken rt task is switched to
 * as soon as the wait ends, at the way out), the cross calls with them.
 * Interrupts are as the caller had them on return.
 */
void __lock_kernel_irqs_on(void)
{
	unsigned long flags;
	u8 ticket;

	local_irq_save(flags);
	if (!this_cpu_read(kernel_flag_held)) {
		ticket = kernel_flag_ticket();
		this_cpu_write(kernel_flag_waiting, ticket + 1);
		while (!this_cpu_read(kernel_flag_held) &&
		       READ_ONCE(kernel_flag.tickets.head) != ticket) {
			local_irq_enable();	/* an interrupt may come in here */
			cpu_relax();
			local_irq_disable();
		}
		this_cpu_write(kernel_flag_waiting, 0);
		this_cpu_write(kernel_flag_held, 1);
	}
	local_irq_restore(flags);
}

void __unlock_kernel(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (this_cpu_read(kernel_flag_held) && !this_cpu_read(kernel_flag_waiting)) {
		this_cpu_write(kernel_flag_held, 0);
		arch_spin_unlock(&kernel_flag);
	}
	local_irq_restore(flags);
}

/*
 * Let the lock go at a long loop's preemption point (cond_resched()) if
 * another CPU is waiting for it, and queue for it again behind that CPU:
 * 2.6.35's __cond_resched_lock() when spin_needbreak().  The task keeps the
 * lock across its own switches, so only this lets another CPU in before
 * the loop ends: without it a 64 KiB console write held it for the
 * whole write, and the other CPU could not even come back from a sleep to
 * send the writer its SIGKILL.  The caller already expects anything to
 * change at its cond_resched().  1 if the lock was let go.
 */
int __cond_resched_kernel_lock(void)
{
	if (!this_cpu_read(kernel_flag_held) || !arch_spin_is_contended(&kernel_flag))
		return 0;
	__unlock_kernel();
	cpu_relax();
	__lock_kernel();
	return 1;
}

/*
 * schedule() at more than one CPU, before the switch: 2.6.35's
 * release_kernel_lock(prev).  1 if the task switched out held the lock,
 * which it keeps in its own schedule() frame (its lock_depth) and gives to
 * reacquire_kernel_lock() when it resumes.  Interrupts in any state.
 */
int release_kernel_lock(void)
{
	if (!this_cpu_read(kernel_flag_held))
		return 0;
	__unlock_kernel();
	return 1;
}

/*
 * After the switch, for a task that held the lock: 2.6.35's
 * __reacquire_kernel_lock(), which spins on a trylock with interrupts as
 * the caller has them and gives up with -EAGAIN as soon as this task is
 * asked to switch again (need_resched): a task of higher priority woken
 * meanwhile then runs first instead of waiting behind the lock, and
 * schedule() comes back here after it.  A task, not an interrupt, calls
 * this, so an interrupt taken while it spins holds no ticket of ours and
 * may take the lock itself.  With interrupts off the pending cross calls
 * are served while it spins (the rule of __lock_kernel()).  0 or -EAGAIN.
 */
int reacquire_kernel_lock(struct task *t)
{
	unsigned long flags;

	for (;;) {
		local_irq_save(flags);
		if (arch_spin_trylock(&kernel_flag)) {
			this_cpu_write(kernel_flag_held, 1);
			local_irq_restore(flags);
			return 0;
		}
		generic_smp_call_function_single_interrupt();
		generic_smp_call_function_interrupt();
		local_irq_restore(flags);	/* an interrupt may come in here */
		if (t->need_resched)
			return -EAGAIN;
		cpu_relax();
	}
}

/*
 * After smp_init(): at one CPU smp_key goes off (every site jumps over the
 * lock); at more, sched_up_key goes off (schedule() takes the SMP copy),
 * the system call gate becomes the one that takes the giant lock, and the
 * boot CPU, running kernel code, takes it first.
 */
void smp_lock_init(void)
{
	if (num_online_cpus() < 2) {
		static_key_set(&smp_key, false);
		return;
	}
	static_key_set(&sched_up_key, false);
	__lock_kernel();
	arch_smp_syscall_gate();
}
