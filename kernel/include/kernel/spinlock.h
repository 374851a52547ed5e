/*
 * kernel/spinlock.h - spinlocks, Linux 2.6.35's API over the ticket lock
 * of <arch/spinlock.h>.
 *
 *	spin_lock(l) / spin_unlock(l)		from code that no interrupt
 *						handler taking L can interrupt
 *	spin_lock_irq(l) / spin_unlock_irq(l)	interrupts off while held, on after
 *	spin_lock_irqsave(l, flags) /		interrupts off while held, then
 *	spin_unlock_irqrestore(l, flags)	back to what they were
 *	spin_trylock(l)				1 and held, or 0 at once
 *	raw_spin_*				the same on a raw_spinlock_t
 *
 * A lock an interrupt handler takes must be taken with interrupts off
 * everywhere else, or the handler spins for ever on the CPU whose
 * interrupted code holds it.  Interrupts go off before the lock is taken
 * and come back after it is released, as in Linux.
 *
 * spinlock_t wraps raw_spinlock_t as in 2.6.35 (where PREEMPT_RT makes
 * the first one sleep).  Granule's kernel is not preemptible, so there is
 * no preempt_disable() in these; the lock validator (lockdep) hooks in here
 * when there is one.  The kernel's locks and what they protect:
 * docs/ARCHITECTURE.md, "Locking".
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <arch/irqflags.h>
#include <arch/spinlock.h>

typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;

typedef struct spinlock {
	struct raw_spinlock rlock;
} spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(name)	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED }
#define __SPIN_LOCK_UNLOCKED(name)	{ .rlock = __RAW_SPIN_LOCK_UNLOCKED(name) }
#define DEFINE_RAW_SPINLOCK(x)		raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define DEFINE_SPINLOCK(x)		spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

static inline void raw_spin_lock_init(raw_spinlock_t *l)
{
	*l = (raw_spinlock_t)__RAW_SPIN_LOCK_UNLOCKED(l);
}

#define raw_spin_lock(l)		arch_spin_lock(&(l)->raw_lock)
#define raw_spin_unlock(l)		arch_spin_unlock(&(l)->raw_lock)
#define raw_spin_trylock(l)		arch_spin_trylock(&(l)->raw_lock)
#define raw_spin_is_locked(l)		arch_spin_is_locked(&(l)->raw_lock)
#define raw_spin_is_contended(l)	arch_spin_is_contended(&(l)->raw_lock)

#define raw_spin_lock_irq(l)		do { local_irq_disable(); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irq(l)		do { raw_spin_unlock(l); local_irq_enable(); } while (0)
#define raw_spin_lock_irqsave(l, flags)	\
	do { local_irq_save(flags); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, flags) \
	do { raw_spin_unlock(l); local_irq_restore(flags); } while (0)

static inline void spin_lock_init(spinlock_t *l)	{ raw_spin_lock_init(&l->rlock); }
#define spin_lock(l)			raw_spin_lock(&(l)->rlock)
#define spin_unlock(l)			raw_spin_unlock(&(l)->rlock)
#define spin_trylock(l)			raw_spin_trylock(&(l)->rlock)
#define spin_is_locked(l)		raw_spin_is_locked(&(l)->rlock)
#define spin_is_contended(l)		raw_spin_is_contended(&(l)->rlock)
#define spin_lock_irq(l)		raw_spin_lock_irq(&(l)->rlock)
#define spin_unlock_irq(l)		raw_spin_unlock_irq(&(l)->rlock)
#define spin_lock_irqsave(l, flags)	raw_spin_lock_irqsave(&(l)->rlock, flags)
#define spin_unlock_irqrestore(l, flags) raw_spin_unlock_irqrestore(&(l)->rlock, flags)

#endif
