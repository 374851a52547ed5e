/*
 * kernel/ktest_lockdep.c - ktest=lockdep (with lockdep=1): the lock
 * validator provoked at boot, one report per scenario, on locks of its own
 * (tests/system/test_lockdep.py reads the lines):
 *
 *  1. clean: A then B, three times, irqs off: no report;
 *  2. AB-BA: A then B, then B then A;
 *  3. recursive: two locks set up by one spin_lock_init() site, nested;
 *  4. irq-unsafe use: C taken in a hard irq, then with interrupts on;
 *  5. safe -> unsafe: D taken in a hard irq, E with interrupts on, then E
 *     under D;
 *  6. bad unlock: F released without being taken through the API;
 *  7. held to user: an interrupt from user mode finds G held.
 *
 * The "hard irq" is the validator's own wrapper (lockdep_irq_handler(), the
 * one every real handler runs in) called on a trap frame made up here for
 * an unused vector, with interrupts off as the CPU would have them.  After
 * each report the validator is off; lockdep_restart() forgets the graph and
 * turns it on for the next.  Each scenario prints "ktest: lockdep: NAME:
 * reported" when exactly one report came (none for "clean"); the last line
 * is "ktest: lockdep: passed" or "ktest: lockdep: FAILED (N checks)".
 */
#include <kernel/ktest.h>
#include <kernel/lockdep.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <arch/irq.h>
#include <arch/irqflags.h>
#include <arch/segment.h>

#define KTEST_VECTOR	0xee	/* no handler of its own */

static DEFINE_SPINLOCK(lock_a);
static DEFINE_SPINLOCK(lock_b);
static DEFINE_SPINLOCK(lock_c);
static DEFINE_SPINLOCK(lock_d);
static DEFINE_SPINLOCK(lock_e);
static DEFINE_SPINLOCK(lock_f);
static DEFINE_SPINLOCK(lock_g);
static spinlock_t pair[2];
static spinlock_t *irq_lock;		/* what the made-up irq takes */
static unsigned int failed;

static void take_in_irq(struct trap_frame *tf)
{
	spin_lock(irq_lock);
	spin_unlock(irq_lock);
}

/* Run take_in_irq() as a hard irq that interrupted kernel (or user) mode. */
static void fake_irq(spinlock_t *l, int from_user)
{
	struct trap_frame tf = { .vector = KTEST_VECTOR, .cs = from_user ? 3 : 0 };
	irq_handler_t h = lockdep_irq_handler(KTEST_VECTOR, take_in_irq);
	unsigned long flags;

	irq_lock = l;
	local_irq_save(flags);
	h(&tf);
	local_irq_restore(flags);
}

/* One report since the last restart (WANT 1), or none (WANT 0). */
static void expect(const char *name, unsigned long want)
{
	unsigned long got = lockdep_stats.nr_reports;

	if (got == want && debug_locks == !want) {
		printk("ktest: lockdep: %s: %s\n", name, want ? "reported" : "no report");
	} else {
		failed++;
		printk("ktest: lockdep: check failed: %s: %lu reports, expected %lu\n", name, got, want);
	}
	lockdep_restart();
}

static void scenario_clean(void)
{
	unsigned long flags;

	for (int i = 0; i < 3; i++) {
		spin_lock_irqsave(&lock_a, flags);
		spin_lock(&lock_b);
		spin_unlock(&lock_b);
		spin_unlock_irqrestore(&lock_a, flags);
	}
	expect("clean", 0);
}

static void scenario_ab_ba(void)
{
	unsigned long flags;

	local_irq_save(flags);
	spin_lock(&lock_a);
	spin_lock(&lock_b);
	spin_unlock(&lock_b);
	spin_unlock(&lock_a);
	spin_lock(&lock_b);
	spin_lock(&lock_a);		/* reported here */
	spin_unlock(&lock_a);
	spin_unlock(&lock_b);
	local_irq_restore(flags);
	expect("AB-BA", 1);
}

static void scenario_recursive(void)
{
	unsigned long flags;

	for (int i = 0; i < 2; i++)
		spin_lock_init(&pair[i]);	/* one site: one class */
	spin_lock_irqsave(&pair[0], flags);
	spin_lock(&pair[1]);
	spin_unlock(&pair[1]);
	spin_unlock_irqrestore(&pair[0], flags);
	expect("recursive", 1);
}

static void scenario_irq_unsafe(void)
{
	fake_irq(&lock_c, 0);
	spin_lock(&lock_c);		/* interrupts on: the handler could spin here */
	spin_unlock(&lock_c);
	expect("irq-unsafe use", 1);
}

static void scenario_safe_unsafe(void)
{
	unsigned long flags;

	fake_irq(&lock_d, 0);
	spin_lock(&lock_e);
	spin_unlock(&lock_e);
	spin_lock_irqsave(&lock_d, flags);
	spin_lock(&lock_e);
	spin_unlock(&lock_e);
	spin_unlock_irqrestore(&lock_d, flags);
	expect("safe -> unsafe", 1);
}

static void scenario_bad_unlock(void)
{
	arch_spin_lock(&lock_f.rlock.raw_lock);	/* behind the validator's back */
	spin_unlock(&lock_f);
	expect("bad unlock", 1);
}

static void scenario_held_to_user(void)
{
	unsigned long flags;

	spin_lock_irqsave(&lock_g, flags);
	fake_irq(&lock_c, 1);
	spin_unlock_irqrestore(&lock_g, flags);
	expect("held to user", 1);
}

void ktest_lockdep(void)
{
	if (!lockdep_enabled()) {
		printk("ktest: lockdep: FAILED (needs lockdep=1)\n");
		return;
	}
	lockdep_restart();
	scenario_clean();
	scenario_ab_ba();
	scenario_recursive();
	scenario_irq_unsafe();
	scenario_safe_unsafe();
	scenario_bad_unlock();
	scenario_held_to_user();
	if (failed)
		printk("ktest: lockdep: FAILED (%u checks)\n", failed);
	else
		printk("ktest: lockdep: passed\n");
}
