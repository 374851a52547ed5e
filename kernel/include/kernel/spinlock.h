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
 * no preempt_disable() in these.  The lock validator hooks in here
 * (spin_acquire before the lock is taken, so an inversion is reported
 * before it can hang; spin_release before it is dropped), behind a static
 * key that lockdep=0 turns off.  Each lock carries its class: a static
 * lock its own address, a lock set up by raw_spin_lock_init() that call's
 * place (a static key per call, as Linux's lock_class_key), named as the
 * source names it (<kernel/lockdep.h>).  The kernel's locks and what they
 * protect: docs/ARCHITECTURE.md, "Locking".
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <arch/irqflags.h>
#include <arch/spinlock.h>
#include <kernel/lockdep.h>

typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
	struct lockdep_map dep_map;
} raw_spinlock_t;

typedef struct spinlock {
	struct raw_spinlock rlock;
} spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(lockname)	\
	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED, .dep_map = { .key = &(lockname), .name = #lockname } }
#define __SPIN_LOCK_UNLOCKED(name)	{ .rlock = __RAW_SPIN_LOCK_UNLOCKED(name) }
#define DEFINE_RAW_SPINLOCK(x)		raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define DEFINE_SPINLOCK(x)		spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

/* The class is this call's place: one static __key per expansion. */
#define __raw_spin_lock_init(l, name)					\
	do {								\
		static char __key;					\
		(l)->raw_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED; \
		lockdep_init_map(&(l)->dep_map, name, &__key);		\
	} while (0)
#define raw_spin_lock_init(l)		__raw_spin_lock_init(l, #l)

#define raw_spin_lock(l)	\
	do { spin_acquire(&(l)->dep_map, 0); arch_spin_lock(&(l)->raw_lock); } while (0)
/* A second lock of the class of one held, in a fixed order (two rqs by
 * address): lockdep's SUBCLASS of it (2.6.35's SINGLE_DEPTH_NESTING = 1). */
#define SINGLE_DEPTH_NESTING	1
#define raw_spin_lock_nested(l, subclass)	\
	do { spin_acquire_nested(&(l)->dep_map, subclass); arch_spin_lock(&(l)->raw_lock); } while (0)
#define raw_spin_unlock(l)	\
	do { spin_release(&(l)->dep_map); arch_spin_unlock(&(l)->raw_lock); } while (0)
#define raw_spin_trylock(l)	\
	({ int __got = arch_spin_trylock(&(l)->raw_lock);		\
	   if (__got)							\
		spin_acquire(&(l)->dep_map, 1);				\
	   __got; })
#define raw_spin_is_locked(l)		arch_spin_is_locked(&(l)->raw_lock)
#define raw_spin_is_contended(l)	arch_spin_is_contended(&(l)->raw_lock)

#define raw_spin_lock_irq(l)		do { local_irq_disable(); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irq(l)		do { raw_spin_unlock(l); local_irq_enable(); } while (0)
#define raw_spin_lock_irqsave(l, flags)	\
	do { local_irq_save(flags); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, flags) \
	do { raw_spin_unlock(l); local_irq_restore(flags); } while (0)

#define spin_lock_init(l)		__raw_spin_lock_init(&(l)->rlock, #l)
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
