/*
 * kernel/smp.c - running a function on other CPUs (Linux 2.6.35's
 * kernel/smp.c, "generic helpers for smp ipi calls").
 *
 * Two queues, as in 2.6.35:
 *  - one per CPU, call_single_queue, for smp_call_function_single(): the
 *    caller links a call_single_data (csd) onto the target's list under
 *    the list's lock and sends the CALL_FUNCTION_SINGLE IPI only if the
 *    list was empty (an IPI already on its way will find the new entry);
 *    the target's handler takes the whole list and runs it;
 *  - one shared, call_function.queue, for smp_call_function_many(): the
 *    caller's per-CPU call_function_data holds FUNC, a mask of the targets
 *    and REFS, how many of them have still to run it; each target's
 *    CALL_FUNCTION handler finds the entries with its bit set, clears the
 *    bit, runs FUNC and drops REFS; the last one unlinks the entry.
 * A csd is "locked" (CSD_FLAG_LOCK) from the moment it is filled until its
 * function has run: the next user of the same csd waits for that, and a
 * caller that asked to WAIT waits for it too (csd_lock_wait).
 *
 * Deliberate difference: 2.6.35 walks call_function.queue under RCU, so a
 * handler may read an entry while another CPU unlinks it.  Granule has no
 * RCU: a handler looks for its next entry under call_function.lock, from
 * the head each time, and runs FUNC after dropping the lock; an entry
 * cannot go away meanwhile, because this CPU's REFS is not dropped yet.
 */
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <arch/barrier.h>
#include <arch/irqflags.h>

enum { CSD_FLAG_LOCK = 0x01 };

struct call_function_data {
	struct call_single_data csd;
	int refs;			/* targets still to run csd.func (atomic) */
	struct cpumask cpumask;		/* targets that have not taken it yet */
};

struct call_single_queue {
	struct list_head list;
	raw_spinlock_t lock;
};

static struct {
	struct list_head queue;
	raw_spinlock_t lock;
} call_function = {
	.queue = LIST_HEAD_INIT(call_function.queue),
	.lock = __RAW_SPIN_LOCK_UNLOCKED(call_function.lock),
};

static DEFINE_PER_CPU(struct call_function_data, cfd_data);
static DEFINE_PER_CPU(struct call_single_queue, call_single_queue);
static DEFINE_PER_CPU(struct call_single_data, csd_data);	/* the no-wait single call's */

/* The per-CPU list heads point into each CPU's own area: set up once the
 * areas exist (2.6.35's init_call_single_data, an early initcall). */
void call_function_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct call_single_queue *q = &per_cpu(call_single_queue, cpu);

		INIT_LIST_HEAD(&q->list);
		raw_spin_lock_init(&q->lock);
	}
}

/* Wait until DATA's last call has run. */
static void csd_lock_wait(struct call_single_data *data)
{
	while (READ_ONCE(data->flags) & CSD_FLAG_LOCK)
		cpu_relax();
}

/* Take DATA for a new call, after its previous one has run. */
static void csd_lock(struct call_single_data *data)
{
	csd_lock_wait(data);
	data->flags = CSD_FLAG_LOCK;
	smp_mb();	/* the flag before the fields are filled */
}

/* The call has run: DATA (maybe on a waiter's stack) is free again. */
static void csd_unlock(struct call_single_data *data)
{
	smp_mb();	/* everything FUNC did, before the waiter sees this */
	WRITE_ONCE(data->flags, data->flags & ~CSD_FLAG_LOCK);
}

/* Queue DATA on CPU's list; the IPI only if the list was empty. */
static void generic_exec_single(int cpu, struct call_single_data *data, int wait)
{
	struct call_single_queue *dst = &per_cpu(call_single_queue, cpu);
	unsigned long flags;
	int ipi;

	raw_spin_lock_irqsave(&dst->lock, flags);
	ipi = list_empty(&dst->list);
	list_add_tail(&data->list, &dst->list);
	raw_spin_unlock_irqrestore(&dst->lock, flags);
	if (ipi)
		arch_send_call_function_single_ipi(cpu);
	if (wait)
		csd_lock_wait(data);
}

/* Linux's WARN_ON_ONCE(irqs_disabled() ...): a cross call with interrupts
 * off can deadlock against a CPU calling this one. */
static void check_irqs_on(const char *fn)
{
	static int warned;

	if (irqs_disabled() && num_online_cpus() > 1 && !warned++)
		printk("WARNING: %s with interrupts disabled (CPU%d)\n", fn, smp_processor_id());
}

int smp_call_function_single(int cpu, void (*func)(void *info), void *info, int wait)
{
	struct call_single_data d = { .flags = 0 };
	int this_cpu = smp_processor_id();
	unsigned long flags;

	check_irqs_on("smp_call_function_single");
	if (cpu == this_cpu) {
		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		return 0;
	}
	if ((unsigned int)cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -ENXIO;
	/* waiting: the csd lives on our stack; not waiting: our per-CPU one */
	struct call_single_data *data = wait ? &d : this_cpu_ptr(&csd_data);
	csd_lock(data);
	data->func = func;
	data->info = info;
	generic_exec_single(cpu, data, wait);
	return 0;
}

void smp_call_function_many(const struct cpumask *mask, void (*func)(void *info),
			    void *info, int wait)
{
	struct call_function_data *data;
	struct cpumask targets;
	unsigned int this_cpu = smp_processor_id(), cpu;
	unsigned long flags;

	check_irqs_on("smp_call_function_many");
	cpumask_and(&targets, mask, cpu_online_mask);
	cpumask_clear_cpu(this_cpu, &targets);
	if (cpumask_empty(&targets))
		return;
	cpu = cpumask_first(&targets);
	if (cpumask_weight(&targets) == 1) {	/* 2.6.35's fast path: one target */
		smp_call_function_single(cpu, func, info, wait);
		return;
	}
	data = this_cpu_ptr(&cfd_data);
	csd_lock(&data->csd);
	data->csd.func = func;
	data->csd.info = info;
	cpumask_copy(&data->cpumask, &targets);
	__atomic_store_n(&data->refs, (int)cpumask_weight(&targets), __ATOMIC_SEQ_CST);

	raw_spin_lock_irqsave(&call_function.lock, flags);
	list_add(&data->csd.list, &call_function.queue);
	raw_spin_unlock_irqrestore(&call_function.lock, flags);
	smp_mb();	/* the entry is visible before the IPI arrives */
	arch_send_call_function_ipi_mask(&targets);
	if (wait)
		csd_lock_wait(&data->csd);
}

int smp_call_function(void (*func)(void *info), void *info, int wait)
{
	smp_call_function_many(cpu_online_mask, func, info, wait);
	return 0;
}

int on_each_cpu(void (*func)(void *info), void *info, int wait)
{
	unsigned long flags;

	smp_call_function(func, info, wait);
	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
	return 0;
}

void smp_send_reschedule(int cpu)
{
	arch_send_reschedule(cpu);
}

/* The entry of call_function.queue this CPU has still to run, its bit
 * cleared, or NULL. */
static struct call_function_data *next_many_call(unsigned int cpu)
{
	struct call_function_data *data, *found = NULL;

	raw_spin_lock(&call_function.lock);
	list_for_each_entry(data, &call_function.queue, csd.list)
		if (cpumask_test_and_clear_cpu(cpu, &data->cpumask)) {
			found = data;
			break;
		}
	raw_spin_unlock(&call_function.lock);
	return found;
}

/* CALL_FUNCTION_VECTOR, interrupts off. */
void generic_smp_call_function_interrupt(void)
{
	unsigned int cpu = smp_processor_id();
	struct call_function_data *data;

	while ((data = next_many_call(cpu))) {
		data->csd.func(data->csd.info);
		if (__atomic_sub_fetch(&data->refs, 1, __ATOMIC_SEQ_CST))
			continue;
		raw_spin_lock(&call_function.lock);
		list_del(&data->csd.list);
		raw_spin_unlock(&call_function.lock);
		csd_unlock(&data->csd);
	}
}

/* CALL_FUNCTION_SINGLE_VECTOR, interrupts off. */
void generic_smp_call_function_single_interrupt(void)
{
	struct call_single_queue *q = this_cpu_ptr(&call_single_queue);
	struct list_head list;

	raw_spin_lock(&q->lock);
	list_replace_init(&q->list, &list);
	raw_spin_unlock(&q->lock);
	while (!list_empty(&list)) {
		struct call_single_data *data =
			list_entry(list.next, struct call_single_data, list);

		list_del(&data->list);
		/* a waiter's csd may be gone the moment it is unlocked */
		data->func(data->info);
		csd_unlock(data);
	}
}
