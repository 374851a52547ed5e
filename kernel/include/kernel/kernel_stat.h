/*
 * kernel/kernel_stat.h - CPU time and interrupt counts per CPU (Linux
 * 2.6.35's include/linux/kernel_stat.h), and the tick accounting that fills
 * them (kernel/sched/cputime.c).
 *
 * The tick charges the state it interrupts (account_process_tick): one tick
 * to the interrupted task's utime (user mode) or stime (kernel mode), and to
 * this CPU's user or nice (user mode, by the task's nice), system (kernel
 * mode), or idle (the idle task).  Units: task utime/stime and cpustat are
 * counted in ticks (2.6.35's cputime_t is jiffies); a tick is tick_nsec ns.
 *
 * Fields Granule never moves, and why (docs/SHELL.md, "What the numbers
 * are"): irq and softirq (every interrupt handler and softirq runs with
 * interrupts off, so the tick never lands in one), iowait (no
 * task ever waits for block I/O), steal, guest, guest_nice (no hypervisor
 * accounting, no guests).
 */
#ifndef KERNEL_KERNEL_STAT_H
#define KERNEL_KERNEL_STAT_H

#include <kernel/types.h>
#include <kernel/smp.h>
#include <kernel/time.h>

#define NR_IRQS		16	/* the 8259 pair's lines: IRQ n is vector 0x20 + n */
#define NR_SOFTIRQS	10	/* 2.6.35's HI .. RCU (<kernel/interrupt.h>) */
#define USER_HZ		100	/* clock_t ticks per second, as sysconf(_SC_CLK_TCK) */

struct cpu_usage_stat {
	u64 user, nice, system, softirq, irq, idle, iowait, steal, guest, guest_nice;
};

struct kernel_stat {
	struct cpu_usage_stat cpustat;
	u32 irqs[NR_IRQS];		/* interrupts per IRQ line on this CPU */
	u32 softirqs[NR_SOFTIRQS];
};

/* A per-CPU variable, as 2.6.35's (kernel/sched.c). */
DECLARE_PER_CPU(struct kernel_stat, kstat);
#define kstat_cpu(cpu)		per_cpu(kstat, cpu)
#define kstat_this_cpu		__get_cpu_var(kstat)

/* Count an interrupt of line IRQ (Linux's kstat_incr_irqs_this_cpu): one
 * "incl %fs:kstat+..." on this CPU's copy. */
static inline void kstat_incr_irqs_this_cpu(unsigned int irq)
{
	this_cpu_inc(kstat.irqs[irq]);
}

/* arch: interrupts that have no IRQ line (the local APIC timer, spurious
 * ones) on CPU, counted in /proc/stat's intr total (Linux's
 * arch_irq_stat_cpu). */
u64 arch_irq_stat_cpu(int cpu);

/* The length of a tick in ns (Linux's tick_nsec): 10^9 / HZ, or the PIT's
 * actual period (kernel/time/hrtimer.c sets it). */
extern u32 tick_nsec;

/* Ticks of cputime as clock_t (USER_HZ) and as ns. */
u64 cputime_to_clock_t(u64 ticks);
static inline u64 cputime_to_nsecs(u64 ticks)
{
	return ticks * tick_nsec;
}

struct task;
void account_user_time(struct task *p, u32 cputime);
void account_system_time(struct task *p, u32 cputime);
void account_idle_time(u32 cputime);
/* The tick's charge to P (current): USER_TICK is 1 when it interrupted
 * user mode (update_process_times(user_mode(get_irq_regs()))). */
void account_process_tick(struct task *p, int user_tick);

/*
 * P's utime and stime in ns, as 2.6.35's task_times(): the scheduler's
 * precise sum_exec_runtime split in the ratio of the sampled ticks, and
 * never less than what was reported before (prev_utime, prev_stime).
 */
void task_times(struct task *p, u64 *ut, u64 *st);
/* The split itself: RTIME ns in the ratio UTIME : STIME ticks, kept
 * monotonic against *PREV_UT and *PREV_ST (ns). */
void cputime_adjust(u64 rtime, u64 utime, u64 stime, u64 *prev_ut, u64 *prev_st,
		    u64 *ut, u64 *st);

#endif
