/*
 * arch/spinlock.h - the x86 ticket spinlock of Linux 2.6.35
 * (arch/x86/include/asm/spinlock.h, "x86: FIFO ticket spinlocks", Nick
 * Piggin, 2.6.25), for NR_CPUS < 256: two byte-sized counters in one
 * 16-bit word,
 *
 *	head (low byte)   the ticket now being served
 *	tail (high byte)  the next ticket to hand out
 *
 * lock:    take a ticket and advance tail in one "lock xaddw" of 0x0100;
 *          spin ("rep; nop", the pause hint) until head equals the ticket.
 * unlock:  head++ ("incb" on the low byte: only the holder writes head, and
 *          x86 stores are not reordered with older stores or loads, so no
 *          fence is needed).
 * trylock: only if head == tail (free, nobody waiting), "lock cmpxchgw" the
 *          word to tail + 1.
 * Held:      head != tail.  Contended: tail - head > 1 (someone waits).
 * The tickets wrap at 256 together, and at most NR_CPUS (< 256) CPUs wait
 * at once, so the comparison never confuses two tickets: waiters are served
 * in the order they came (FIFO), which the old test-and-set lock did not
 * promise.
 *
 * Only the arithmetic is written here; kernel/spinlock.h adds the
 * interrupt-masking variants.  Nothing here is i386-only, so the host tests
 * run the same instructions (tests/host/smp/test_spinlock.c).
 */
#ifndef ARCH_SPINLOCK_H
#define ARCH_SPINLOCK_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <arch/barrier.h>

#define TICKET_SHIFT	8

typedef struct arch_spinlock {
	union {
		u16 slock;			/* tail << 8 | head */
		struct {
			u8 head;		/* now serving */
			u8 tail;		/* next ticket */
		} tickets;
	};
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	{ { 0 } }

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	u16 t = 1 << TICKET_SHIFT;

	/* t: the old word, whose high byte (%h0) is our ticket; the low byte
	 * (%b0) is reloaded with head until the two match */
	__asm__ __volatile__(
		"lock; xaddw %w0, %1\n"
		"1:\tcmpb %h0, %b0\n\t"
		"je 2f\n\t"
		"rep; nop\n\t"
		"movb %1, %b0\n\t"
		"jmp 1b\n"
		"2:"
		: "+Q" (t), "+m" (lock->slock)
		:
		: "memory", "cc");
}

static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	__asm__ __volatile__("incb %0" : "+m" (lock->tickets.head) : : "memory", "cc");
}

static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	u16 old = READ_ONCE(lock->slock);

	if ((u8)(old >> TICKET_SHIFT) != (u8)old)
		return 0;	/* held, or someone waits */
	return __atomic_compare_exchange_n(&lock->slock, &old, (u16)(old + (1 << TICKET_SHIFT)),
					   0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

static inline int arch_spin_is_locked(const arch_spinlock_t *lock)
{
	u16 v = READ_ONCE(lock->slock);

	return (u8)(v >> TICKET_SHIFT) != (u8)v;
}

static inline int arch_spin_is_contended(const arch_spinlock_t *lock)
{
	u16 v = READ_ONCE(lock->slock);

	return (u8)((v >> TICKET_SHIFT) - v) > 1;
}

#endif
