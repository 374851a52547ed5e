/*
 * kernel/interrupt.h - softirqs (Linux 2.6.35's <linux/interrupt.h> and
 * kernel/softirq.c): work an interrupt handler asks for, run on the way
 * out of the interrupt (irq_exit()) rather than inside it.
 *
 * Granule raises one: SCHED_SOFTIRQ, from the tick when a CPU's periodic
 * balance is due (trigger_load_balance(), kernel/sched/rebalance.c).  The
 * numbers are 2.6.35's, so /proc/stat's softirq line has its columns.
 */
#ifndef KERNEL_INTERRUPT_H
#define KERNEL_INTERRUPT_H

#include <kernel/types.h>
#include <kernel/percpu.h>

enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	BLOCK_IOPOLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,		/* rebalance_domains() (run_rebalance_domains) */
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQ_VECTORS	/* = NR_SOFTIRQS of <kernel/kernel_stat.h> */
};

struct softirq_action {
	void (*action)(struct softirq_action *);
};

/* This CPU's raised softirqs, a bit each (2.6.35's irq_stat.__softirq_pending). */
DECLARE_PER_CPU(u32, softirq_pending);
#define local_softirq_pending()	this_cpu_read(softirq_pending)

void open_softirq(int nr, void (*action)(struct softirq_action *));
void raise_softirq(unsigned int nr);
void do_softirq(void);

/*
 * The end of an interrupt (2.6.35's irq_exit() without the preempt count:
 * Granule's handlers never nest, so every exit is the outermost): run what
 * the handler raised.  Only more than one CPU ever raises one, so only the
 * SMP copy of trap_dispatch() calls it.
 */
static inline void irq_exit(void)
{
	if (unlikely(local_softirq_pending()))
		do_softirq();
}

#endif
