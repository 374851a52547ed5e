/*
 * kernel/lockdep.h - the lock validator: Linux 2.6.35's lockdep
 * (kernel/lockdep.c; LWN "The kernel lock validator", 2006) in miniature.
 *
 * Every lock belongs to a class: the place that defines it (a static
 * lock's own address; a lock inside a structure, the spin_lock_init() call
 * that set it up, as Linux's static lock_class_key per init site), named
 * as the source names it.  The validator learns from what it sees:
 *
 *   A held while B is taken		the dependency A -> B (an edge of the graph)
 *   an edge that closes a cycle	"possible circular locking dependency"
 *   a class taken in a hard irq	{IN-HARDIRQ-W}: the class is irq-safe
 *   a class taken with irqs on		{HARDIRQ-ON-W}: the class is irq-unsafe
 *   both on one class			"inconsistent ... usage"
 *   safe -> unsafe in the graph	"HARDIRQ-safe -> HARDIRQ-unsafe lock order"
 *   the class taken again, held	"possible recursive locking detected"
 *   a lock released, not held		"bad unlock balance detected!"
 *   more than MAX_LOCK_DEPTH held	"BUG: MAX_LOCK_DEPTH too low!"
 *   a lock held on the way to user	"lock held when returning to user space!"
 *
 * The first report turns the validator off (debug_locks_off(), as Linux:
 * one report, then a system that keeps running).  Locks are classes, not
 * instances, so one run through each path finds an order that would
 * deadlock only under an unlucky interleaving of several CPUs.
 *
 * The graph logic is pure: its state is passed in (struct lockdep_cpu, a
 * CPU's held locks and hard-irq depth), so tests/host/smp/test_lockdep.c
 * runs it on made-up scenarios.  Two functions come from outside, the
 * kernel's glue (kernel/lockdep_glue.c) or the host test:
 * lockdep_print_ip() and lockdep_print_who().
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include <kernel/types.h>

#define MAX_LOCK_DEPTH		48	/* held at once on one CPU, as 2.6.35 */
#define MAX_LOCKDEP_KEYS	256	/* classes (8191 in 2.6.35) */
#define MAX_LOCKDEP_ENTRIES	1024	/* dependencies (16384 in 2.6.35) */

/* What a lock carries for the validator: its class key and name, and the
 * class once looked up (Linux's lockdep_map with its class_cache). */
struct lock_class;
struct lockdep_map {
	const void *key;		/* the static lock, or its init site */
	const char *name;		/* "call_function.lock", "&q->lock" */
	struct lock_class *class_cache;
};

/* One lock a CPU holds (Linux's struct held_lock). */
struct held_lock {
	struct lock_class *class;
	const struct lockdep_map *instance;
	unsigned long acquire_ip;	/* where it was taken */
	unsigned int irq_context;	/* hard-irq depth it was taken at */
	unsigned int trylock;		/* a trylock orders nothing after it */
};

/* A CPU's held locks, innermost last (Linux keeps them per task; Granule's
 * kernel is not preemptible, so a spinlock never changes CPU). */
struct lockdep_cpu {
	unsigned int depth;
	unsigned int hardirq_context;	/* > 0 inside a hard-irq handler */
	struct held_lock held[MAX_LOCK_DEPTH];
};

/* Counts for /proc/lockdep_stats. */
struct lockdep_stats {
	unsigned long nr_classes;
	unsigned long nr_dependencies;
	unsigned long nr_acquires;
	unsigned long max_depth;
	unsigned long nr_reports;
};

extern int debug_locks;			/* 1 while the validator runs */
extern struct lockdep_stats lockdep_stats;

static inline void lockdep_init_map(struct lockdep_map *map, const char *name, const void *key)
{
	map->key = key;
	map->name = name;
	map->class_cache = NULL;
}
void __lock_acquire(struct lockdep_cpu *c, struct lockdep_map *map, int trylock,
		    int irqs_on, unsigned long ip);
/* The same as SUBCLASS of MAP's class (spin_lock_nested; 0 is the class). */
void __lock_acquire_nested(struct lockdep_cpu *c, struct lockdep_map *map, unsigned int subclass,
			   int trylock, int irqs_on, unsigned long ip);
void __lock_release(struct lockdep_cpu *c, struct lockdep_map *map, unsigned long ip);
/* Returning to user mode: report any lock still held (lockdep_sys_exit). */
void __lockdep_sys_exit(struct lockdep_cpu *c);
static inline void __lockdep_hardirq_enter(struct lockdep_cpu *c) { c->hardirq_context++; }
static inline void __lockdep_hardirq_exit(struct lockdep_cpu *c) { c->hardirq_context--; }
/* Turn the validator off; 1 if this call did (Linux's debug_locks_off). */
int debug_locks_off(void);
/* Forget every class and dependency, turn the validator on (host tests, ktest). */
void lockdep_reset(void);
/* A class's name, or NULL if KEY has none yet (the tests' check). */
const char *lockdep_class_name(const void *key);

/* Supplied outside the pure core: print "[<c0101234>] sym+0x12/0x40" (or
 * the bare address) and a newline; print "comm/pid" of the running task. */
void lockdep_print_ip(unsigned long ip);
void lockdep_print_who(void);

#ifndef HOST_TEST
#include <kernel/jump_label.h>
#include <arch/irq.h>

/* The kernel's side (kernel/lockdep_hooks.c). */
extern struct static_key lockdep_key;	/* on only with lockdep=1 */
void lockdep_init(void);		/* after the command line */
void lockdep_restart(void);		/* ktest=lockdep: forget all, on again */
int lockdep_enabled(void);		/* lockdep=1 given */
void lock_acquire(struct lockdep_map *map, int trylock);
void lock_acquire_nested(struct lockdep_map *map, unsigned int subclass);
void lock_release(struct lockdep_map *map);
/* HANDLER itself, or under lockdep=1 a wrapper that runs it as a hard irq. */
irq_handler_t lockdep_irq_handler(int vector, irq_handler_t handler);

#define spin_acquire(map, trylock) \
	do { if (static_branch_on(&lockdep_key)) lock_acquire(map, trylock); } while (0)
#define spin_release(map) \
	do { if (static_branch_on(&lockdep_key)) lock_release(map); } while (0)
#define spin_acquire_nested(map, subclass) \
	do { if (static_branch_on(&lockdep_key)) lock_acquire_nested(map, subclass); } while (0)
#else
#define spin_acquire_nested(map, subclass)	do { (void)(map); } while (0)
#define spin_acquire(map, trylock)	do { (void)(map); } while (0)
#define spin_release(map)		do { (void)(map); } while (0)
#endif

#endif
