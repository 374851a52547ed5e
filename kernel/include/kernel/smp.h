/*
 * kernel/smp.h - several CPUs: which one runs, bringing the others up, and
 * running a function on another CPU (Linux 2.6.35's <linux/smp.h>).
 *
 * Bring-up (kernel/cpu.c, the architecture's arch/x86/smpboot.c):
 *	smp_init()		start every present CPU, up to maxcpus=, and
 *				print "Brought up N CPUs"
 * Cross calls (kernel/smp.c), each one an IPI to the target:
 *	smp_call_function_single(cpu, func, info, wait)
 *	smp_call_function_many(mask, func, info, wait)	the others in MASK
 *	smp_call_function(func, info, wait)		every other online CPU
 *	on_each_cpu(func, info, wait)			... and this one
 *	smp_send_reschedule(cpu)			"look at need_resched"
 * FUNC runs in the target's interrupt handler, with interrupts off: it
 * must be short and must not sleep.  WAIT: return only once every target
 * has run it.  A caller must have interrupts on (two CPUs calling each
 * other with interrupts off would wait for ever), as Linux warns.
 *
 * State Linux keeps per CPU (the runqueue, the CPU-time statistics of
 * <kernel/kernel_stat.h>, the load average's fold in struct rq) is kept
 * per CPU here too, in per-CPU variables (<kernel/percpu.h>) or in arrays
 * indexed by CPU number, and walked with for_each_possible_cpu() and
 * for_each_online_cpu() (<kernel/cpumask.h>).
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/cpumask.h>
#include <kernel/percpu.h>

/* The running CPU (0 is the boot CPU).  Stable in Granule's kernel code:
 * a task never moves while it runs in the kernel (no kernel preemption). */
#define smp_processor_id()	raw_smp_processor_id()

/* maxcpus= (nosmp is maxcpus=0): how many CPUs smp_init() may have online. */
extern unsigned int setup_max_cpus;

/* CPU 0, the boot CPU, is online, present and possible (first in kmain). */
void boot_cpu_init(void);
void smp_init(void);
/* Every CPU's idle loop at more than one CPU (kernel/init.c): hlt until
 * need_resched, then schedule() under the giant lock (<kernel/smp_lock.h>). */
__attribute__((noreturn)) void cpu_idle_smp(void);

/* ---- cross calls (kernel/smp.c) ---- */

/* Linux's struct call_single_data: one queued call. */
struct call_single_data {
	struct list_head list;
	void (*func)(void *info);
	void *info;
	u16 flags;			/* CSD_FLAG_LOCK: in use until the call ran */
};

int smp_call_function_single(int cpu, void (*func)(void *info), void *info, int wait);
void smp_call_function_many(const struct cpumask *mask, void (*func)(void *info),
			    void *info, int wait);
int smp_call_function(void (*func)(void *info), void *info, int wait);
int on_each_cpu(void (*func)(void *info), void *info, int wait);
void smp_send_reschedule(int cpu);

/* Before the first cross call: every possible CPU's queue. */
void call_function_init(void);
/* The IPI handlers' generic halves (the architecture acknowledges the IPI). */
void generic_smp_call_function_interrupt(void);
void generic_smp_call_function_single_interrupt(void);

/* ---- what the architecture provides (arch/x86/smpboot.c, ipi.c) ---- */

/* Find the CPUs (MADT or MP table) and fill cpu_possible/present_mask. */
void arch_find_cpus(void);
/* The boot CPU onto its own per-CPU area (after setup_per_cpu_areas). */
void smp_prepare_boot_cpu(void);
/* Before the first __cpu_up(): the trampoline, the warm-reset vector. */
void smp_prepare_cpus(unsigned int max_cpus);
/* Start CPU with IDLE as its idle task; 0 once it is online. */
struct task;
int __cpu_up(unsigned int cpu, struct task *idle);
/* More than one CPU online: int 0x80 through the gate that takes the
 * giant lock around a call that needs it (arch/x86/idt.c). */
void arch_smp_syscall_gate(void);
/* After the last __cpu_up(): take the trampoline down. */
void smp_cpus_done(unsigned int max_cpus);
void arch_send_call_function_single_ipi(int cpu);
void arch_send_call_function_ipi_mask(const struct cpumask *mask);
void arch_send_reschedule(int cpu);

#endif
