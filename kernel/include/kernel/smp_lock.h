/*
 * kernel/smp_lock.h - the giant kernel lock (Linux 2.0's kernel_flag, the
 * big kernel lock of 2.2-2.6: <linux/smp_lock.h>), the interim SMP
 * exclusion of everything the scheduler's own locks do not cover.
 *
 * A CPU holds kernel_flag whenever it runs kernel code that may touch a
 * shared structure, so the uniprocessor rule "kernel code is never
 * preempted and masks interrupts for exclusion" holds between CPUs too.
 * It belongs to the CPU, not to a task: schedule() hands it from the task
 * switched out to the one switched in, and the idle loop, which holds it
 * only around schedule(), lets it go.  So lock_kernel() and unlock_kernel()
 * do not nest: they take it if this CPU does not hold it, release it if it
 * does.  docs/ARCHITECTURE.md, "Locking", has the rules.
 *
 * smp_key is on while more than one CPU is online (smp_cpus_done()); at one
 * CPU every site is a jump over the lock, and the system call gate is the
 * uniprocessor one, so a -smp 1 boot runs the instructions it ran before.
 */
#ifndef KERNEL_SMP_LOCK_H
#define KERNEL_SMP_LOCK_H

#include <kernel/jump_label.h>
#include <kernel/percpu.h>
#include <kernel/spinlock.h>

extern struct static_key smp_key, sched_up_key;	/* kernel/sched/core.c */
DECLARE_PER_CPU(int, kernel_flag_held);

void __lock_kernel(void);
void __unlock_kernel(void);
int __cond_resched_kernel_lock(void);

#ifdef HOST_TEST	/* the host tests' kernel files run on one thread */
static inline void lock_kernel(void) { }
static inline void unlock_kernel(void) { }
static inline int cond_resched_kernel_lock(void) { return 0; }
#else
static inline void lock_kernel(void)
{
	if (static_branch_on(&smp_key))
		__lock_kernel();
}

static inline void unlock_kernel(void)
{
	if (static_branch_on(&smp_key))
		__unlock_kernel();
}

/* A long loop's preemption point (cond_resched()): another CPU waiting for
 * the lock gets it now, not when this CPU next goes to user mode or idle. */
static inline int cond_resched_kernel_lock(void)
{
	return static_branch_on(&smp_key) ? __cond_resched_kernel_lock() : 0;
}
#endif

/*
 * Does this CPU hold the giant lock (2.6.35's kernel_locked())?  At one
 * CPU there is no lock and nothing to hold it against: always.
 */
#ifdef HOST_TEST
static inline int kernel_locked(void) { return 1; }
#else
static inline int kernel_locked(void)
{
	return !static_branch_on(&smp_key) || this_cpu_read(kernel_flag_held);
}
#endif

/*
 * A raw spinlock that only exists while more than one CPU is online: taken
 * and released behind smp_key, so at one CPU each is one jump over the lock
 * (interrupts, off around it, are the caller's).  rq_lock() (kernel/sched)
 * and the hrtimer bases' locks (kernel/time/hrtimer.c) are these.
 */
static inline void smp_raw_spin_lock(raw_spinlock_t *lock)
{
	if (static_branch_on(&smp_key))
		raw_spin_lock(lock);
}

static inline void smp_raw_spin_unlock(raw_spinlock_t *lock)
{
	if (static_branch_on(&smp_key))
		raw_spin_unlock(lock);
}

/* int 0x80's C entry at more than one CPU (arch/x86/entry.asm). */
struct trap_frame;
void do_syscall_smp(struct trap_frame *tf);

/* At the end of smp_init(): the key, the gate and the boot CPU's hold. */
void smp_lock_init(void);

#endif
