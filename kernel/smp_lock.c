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
 * Held means "this CPU holds it" (per-CPU kernel_flag_held), not "this
 * task": schedule() hands it over with the CPU, so the two calls take and
 * release at most once whatever the caller's state (no depth count).
 */
#include <kernel/entry.h>
#include <kernel/smp.h>
#include <kernel/smp_lock.h>
#include <kernel/spinlock.h>
#include <arch/barrier.h>
#include <arch/irqflags.h>

static arch_spinlock_t kernel_flag = __ARCH_SPIN_LOCK_UNLOCKED;
DEFINE_PER_CPU(int, kernel_flag_held);

void __lock_kernel(void)
{
	unsigned long flags;
	u16 old;
	u8 ticket;

	local_irq_save(flags);
	if (!this_cpu_read(kernel_flag_held)) {
		old = __atomic_fetch_add(&kernel_flag.slock, 1 << TICKET_SHIFT, __ATOMIC_SEQ_CST);
		ticket = (u8)(old >> TICKET_SHIFT);
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

void __unlock_kernel(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (this_cpu_read(kernel_flag_held)) {
		this_cpu_write(kernel_flag_held, 0);
		arch_spin_unlock(&kernel_flag);
	}
	local_irq_restore(flags);
}

/*
 * Let the lock go at a long loop's preemption point (cond_resched()) if
 * another CPU is waiting for it, and queue for it again behind that CPU:
 * 2.6.35's __cond_resched_lock() when spin_needbreak().  schedule() hands
 * the lock to the next task of this CPU, so only this lets another CPU in
 * before the loop ends: without it a 64 KiB console write held it for the
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
 * int 0x80 at more than one CPU (arch_smp_syscall_gate): the call runs
 * under the lock, and the way back to user mode lets it go (do_syscall()
 * returns with interrupts off, its exit work done).  A call that does not
 * return here (exit, a new program's first entry) lets it go on its own
 * way out: schedule() to another task, or unlock_kernel() on the way to
 * user mode (kernel/entry.c, fork_child_tail(), arch_enter_user()).
 */
void do_syscall_smp(struct trap_frame *tf)
{
	__lock_kernel();
	do_syscall(tf);
	__unlock_kernel();
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
