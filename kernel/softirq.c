/*
 * kernel/softirq.c - softirqs (Linux 2.6.35's kernel/softirq.c, the part
 * Granule uses): open_softirq() names a vector's handler, raise_softirq()
 * marks it pending on this CPU, and irq_exit() runs the pending ones on
 * the way out of the interrupt that raised them (do_softirq()).
 *
 * Deliberate differences (docs/ARCHITECTURE.md, "Softirqs"): the handlers
 * run with interrupts off, as every Granule handler does (2.6.35 turns
 * them on for the softirq), so nothing can raise a vector meanwhile and
 * __do_softirq()'s restart loop and ksoftirqd have nothing to do; and
 * only the SMP copy of trap_dispatch() calls irq_exit(), since only a CPU
 * with sched domains raises one.
 */
#include <kernel/interrupt.h>
#include <kernel/kernel_stat.h>
#include <arch/irqflags.h>

DEFINE_PER_CPU(u32, softirq_pending);
static struct softirq_action softirq_vec[NR_SOFTIRQS];

_Static_assert(NR_SOFTIRQ_VECTORS == NR_SOFTIRQS, "/proc/stat's softirq columns");

void open_softirq(int nr, void (*action)(struct softirq_action *))
{
	softirq_vec[nr].action = action;
}

/* Mark NR pending on this CPU (interrupts off: from a handler). */
void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	this_cpu_write(softirq_pending, local_softirq_pending() | 1u << nr);
	local_irq_restore(flags);
}

/*
 * Run this CPU's pending softirqs, lowest vector first, each counted in
 * /proc/stat's softirq line (2.6.35's __do_softirq()).  The mask is taken
 * and cleared first, as Linux's, so a vector raised by a handler would run
 * at the next irq_exit().
 */
void do_softirq(void)
{
	struct softirq_action *h = softirq_vec;
	unsigned long flags;
	u32 pending;

	local_irq_save(flags);
	pending = local_softirq_pending();
	this_cpu_write(softirq_pending, 0);
	for (; pending; h++, pending >>= 1) {
		if (!(pending & 1))
			continue;
		this_cpu_inc(kstat.softirqs[h - softirq_vec]);	/* kstat_incr_softirqs_this_cpu */
		if (h->action)
			h->action(h);
	}
	local_irq_restore(flags);
}
