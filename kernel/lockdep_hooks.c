/*
 * kernel/lockdep_hooks.c - the lock validator in the kernel: lockdep=1,
 * the hooks the spinlocks and the interrupt entry call, and
 * /proc/lockdep_stats.  The graph itself is kernel/lockdep.c.
 *
 * lockdep=0 (the default) costs nothing a benchmark sees: the spinlock
 * hooks sit behind lockdep_key, a static key turned off at boot, so each
 * lock and unlock site is a jmp over the call; the interrupt handlers are
 * wrapped only when the validator is on (lockdep_irq_handler(), at
 * registration).  The validator is chosen at boot, as Linux's
 * CONFIG_PROVE_LOCKING is at build time: a later write is refused.
 *
 * Each CPU keeps its held locks (Linux keeps them per task; Granule's
 * kernel is not preemptible, so no spinlock is held across a switch) and
 * its hard-irq depth.  Addresses print as [<c0101234>]; Granule has no
 * kallsyms, so `addr2line -f -i -e build/granule-debug.elf c0101234`
 * names the function that took the lock.
 */
#include <kernel/cmdline.h>
#include <kernel/jump_label.h>
#include <kernel/lockdep.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/procfs.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>

static int lockdep_on;			/* lockdep=: 0 or 1, at boot only */
struct static_key lockdep_key = STATIC_KEY_INIT_TRUE;
static DEFINE_PER_CPU(struct lockdep_cpu, lockdep_cpu);

static int lockdep_check(const struct knob *k)
{
	if (!knob_at_runtime())
		return 0;
	printk("sysctl: lockdep: the lock validator is chosen at boot: reboot with lockdep=0 or 1; "
	       "keeping %d\n", lockdep_on);
	return -1;
}

__KNOB(lockdep) = { .name = "lockdep", .type = KNOB_BOOL, .ptr = &lockdep_on, .def = 0,
		    .min = 0, .max = 1, .check = lockdep_check,
		    .help = "lock validator: report lock order inversions and irq-unsafe use (0/1)" };

int lockdep_enabled(void)
{
	return lockdep_on;
}

/* After the command line: the hooks off unless lockdep=1. */
void lockdep_init(void)
{
	debug_locks = lockdep_on;
	static_key_set(&lockdep_key, lockdep_on);
	if (lockdep_on)
		printk("lockdep: the lock validator is on: %d classes, %d dependencies, "
		       "%d locks held per CPU at most\n",
		       MAX_LOCKDEP_KEYS, MAX_LOCKDEP_ENTRIES, MAX_LOCK_DEPTH);
}

/* ktest=lockdep, between its reports: forget every class and this CPU's
 * held locks, and turn the validator on again. */
void lockdep_restart(void)
{
	struct lockdep_cpu *c = this_cpu_ptr(&lockdep_cpu);

	lockdep_reset();
	c->depth = 0;
	c->hardirq_context = 0;
}

void lockdep_print_ip(unsigned long ip)
{
	printk("[<%08lx>]\n", ip);
}

void lockdep_print_who(void)
{
	struct task *p = current;

	if (p)
		printk("%s/%d", p->comm, p->pid);
	else
		printk("swapper/0");
}

/* The caller's own return address: the instruction after the call that
 * spin_lock() expanded to, the place the lock is taken. */
noinline void lock_acquire(struct lockdep_map *map, int trylock)
{
	if (lockdep_on)
		__lock_acquire(this_cpu_ptr(&lockdep_cpu), map, trylock, !irqs_disabled(),
			       (unsigned long)__builtin_return_address(0));
}

noinline void lock_acquire_nested(struct lockdep_map *map, unsigned int subclass)
{
	if (lockdep_on)
		__lock_acquire_nested(this_cpu_ptr(&lockdep_cpu), map, subclass, 0, !irqs_disabled(),
				      (unsigned long)__builtin_return_address(0));
}

noinline void lock_release(struct lockdep_map *map)
{
	if (lockdep_on)
		__lock_release(this_cpu_ptr(&lockdep_cpu), map,
			       (unsigned long)__builtin_return_address(0));
}

/* ---- hard irqs ---- */

static irq_handler_t lockdep_irq_handlers[256];

/* Every handler runs in here under lockdep=1.  An interrupt from user mode
 * that finds a lock held in process context: the lock was held on the way
 * out to user space (lockdep_sys_exit, found at the next interrupt). */
static void lockdep_hardirq(struct trap_frame *tf)
{
	struct lockdep_cpu *c = this_cpu_ptr(&lockdep_cpu);

	if (user_mode(tf))
		__lockdep_sys_exit(c);
	__lockdep_hardirq_enter(c);
	lockdep_irq_handlers[tf->vector](tf);
	__lockdep_hardirq_exit(c);
}

irq_handler_t lockdep_irq_handler(int vector, irq_handler_t handler)
{
	if (!lockdep_on)
		return handler;
	lockdep_irq_handlers[vector] = handler;
	return lockdep_hardirq;
}

/* ---- /proc/lockdep_stats (2.6.35's kernel/lockdep_proc.c, the lines Granule keeps) ---- */

size_t procfs_lockdep_stats_show(char *buf, size_t size)
{
	const struct lockdep_stats *s = &lockdep_stats;

	return (size_t)snprintf(buf, size,
		" lock-classes:                  %4lu [max: %d]\n"
		" direct dependencies:           %4lu [max: %d]\n"
		" acquisitions:                  %4lu\n"
		" max locking depth:             %4lu\n"
		" reports:                       %4lu\n"
		" debug_locks:                   %4d\n",
		s->nr_classes, MAX_LOCKDEP_KEYS, s->nr_dependencies, MAX_LOCKDEP_ENTRIES,
		s->nr_acquires, s->max_depth, s->nr_reports, lockdep_on && debug_locks);
}
