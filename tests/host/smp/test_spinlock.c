/*
 * tests/host/smp/test_spinlock.c - the ticket spinlock
 * (<arch/spinlock.h>, the same instructions the kernel runs) and the
 * spinlock API over it (<kernel/spinlock.h>): the head/tail counters after
 * each operation, their wrap at 256, trylock on a free, held and
 * contended lock, the irq variants' interrupt flag, FIFO order among
 * waiters, and mutual exclusion between real threads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <cmocka.h>
#include <kernel/spinlock.h>

static void test_counters(void **state)
{
	arch_spinlock_t l = __ARCH_SPIN_LOCK_UNLOCKED;

	assert_int_equal(l.tickets.head, 0);
	assert_int_equal(l.tickets.tail, 0);
	assert_false(arch_spin_is_locked(&l));
	arch_spin_lock(&l);			/* ticket 0 served at once */
	assert_int_equal(l.tickets.head, 0);
	assert_int_equal(l.tickets.tail, 1);
	assert_true(arch_spin_is_locked(&l));
	assert_false(arch_spin_is_contended(&l));
	arch_spin_unlock(&l);
	assert_int_equal(l.tickets.head, 1);
	assert_int_equal(l.tickets.tail, 1);
	assert_false(arch_spin_is_locked(&l));
	assert_int_equal(l.slock, 0x0101);
}

/* 256 rounds bring both bytes back to 0 together; the lock works across it. */
static void test_wrap(void **state)
{
	arch_spinlock_t l = __ARCH_SPIN_LOCK_UNLOCKED;

	for (int i = 0; i < 255; i++) {
		arch_spin_lock(&l);
		arch_spin_unlock(&l);
	}
	assert_int_equal(l.slock, 0xffff);
	arch_spin_lock(&l);			/* ticket 255; tail wraps to 0 */
	assert_int_equal(l.tickets.tail, 0);
	assert_int_equal(l.tickets.head, 255);
	assert_true(arch_spin_is_locked(&l));
	arch_spin_unlock(&l);
	assert_int_equal(l.slock, 0);
	assert_false(arch_spin_is_locked(&l));
	assert_true(arch_spin_trylock(&l));
	arch_spin_unlock(&l);
}

static void test_trylock(void **state)
{
	arch_spinlock_t l = __ARCH_SPIN_LOCK_UNLOCKED;

	assert_true(arch_spin_trylock(&l));
	assert_int_equal(l.tickets.tail, 1);
	assert_false(arch_spin_trylock(&l));	/* held */
	assert_int_equal(l.tickets.tail, 1);	/* ... and no ticket taken */
	l.tickets.tail = 2;			/* a waiter holds ticket 1 */
	assert_true(arch_spin_is_contended(&l));
	arch_spin_unlock(&l);			/* head 1: the waiter's turn */
	assert_false(arch_spin_trylock(&l));	/* not free: the waiter has it */
	arch_spin_unlock(&l);
	assert_true(arch_spin_trylock(&l));
}

/* The irq variants mask "interrupts" (the shim's flag) while held. */
static void test_irq_variants(void **state)
{
	DEFINE_SPINLOCK(l);
	unsigned long flags;

	local_irq_enable();
	spin_lock_irqsave(&l, flags);
	assert_true(irqs_disabled());
	assert_true(spin_is_locked(&l));
	spin_unlock_irqrestore(&l, flags);
	assert_false(irqs_disabled());
	assert_false(spin_is_locked(&l));

	local_irq_disable();
	spin_lock_irqsave(&l, flags);
	spin_unlock_irqrestore(&l, flags);
	assert_true(irqs_disabled());		/* restored as it was: off */

	local_irq_enable();
	spin_lock_irq(&l);
	assert_true(irqs_disabled());
	spin_unlock_irq(&l);
	assert_false(irqs_disabled());
	assert_true(spin_trylock(&l));
	spin_unlock(&l);
}

/*
 * THREADS queue up in the FIFO test; HAMMERS contend in the exclusion test,
 * no more of them than a CI machine has CPUs: a ticket lock hands over in
 * ticket order, so with more spinners than CPUs every hand-over to a
 * preempted waiter costs the host's whole time slice (4 x 20,000 rounds
 * took 4.6 minutes on an idle 2-core machine).
 */
#define THREADS		4
#define HAMMERS		2
#define ROUNDS		20000

static DEFINE_RAW_SPINLOCK(big);
static volatile long counter;
static int order[THREADS * 2], norder;
static volatile int waiting;

/* Mutual exclusion: a non-atomic read-modify-write under the lock. */
static void *hammer(void *arg)
{
	for (int i = 0; i < ROUNDS; i++) {
		raw_spin_lock(&big);
		long v = counter;
		cpu_relax();
		counter = v + 1;
		raw_spin_unlock(&big);
	}
	return NULL;
}

static void test_threads_exclude(void **state)
{
	pthread_t t[HAMMERS];

	for (int i = 0; i < HAMMERS; i++)
		pthread_create(&t[i], NULL, hammer, NULL);
	for (int i = 0; i < HAMMERS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(counter, HAMMERS * ROUNDS);
	assert_false(raw_spin_is_locked(&big));
}

static void *queue_up(void *arg)
{
	raw_spin_lock(&big);
	order[norder++] = (int)(long)arg;
	raw_spin_unlock(&big);
	return NULL;
}

/* FIFO: waiters get the lock in the order they took their tickets. */
static void test_fifo(void **state)
{
	pthread_t t[THREADS];

	raw_spin_lock(&big);
	for (int i = 0; i < THREADS; i++) {
		u8 tail = big.raw_lock.tickets.tail;

		pthread_create(&t[i], NULL, queue_up, (void *)(long)i);
		while (READ_ONCE(big.raw_lock.tickets.tail) == tail)	/* its ticket taken */
			cpu_relax();
	}
	assert_int_equal((u8)(big.raw_lock.tickets.tail - big.raw_lock.tickets.head), THREADS + 1);
	raw_spin_unlock(&big);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(order[i], i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_trylock),
		cmocka_unit_test(test_irq_variants),
		cmocka_unit_test(test_threads_exclude),
		cmocka_unit_test(test_fifo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
