/*
 * kernel/cpumask.h - sets of CPUs (Linux's <linux/cpumask.h>, the part
 * Granule uses).  NR_CPUS is 32, so a mask is one 32-bit word.
 *
 * The four masks of every kernel:
 *	cpu_possible_mask  CPUs that may ever run (have a per-CPU area); fixed at boot
 *	cpu_present_mask   CPUs the firmware lists (MADT or MP table), after maxcpus=
 *	cpu_online_mask    CPUs running kernel code now (set by each CPU itself)
 *	nr_cpu_ids         one more than the highest possible CPU number
 * CPU 0 is always the boot CPU.  Setting and clearing a bit is atomic
 * (lock or / lock and), since each CPU sets its own online bit while
 * others read the mask.
 */
#ifndef KERNEL_CPUMASK_H
#define KERNEL_CPUMASK_H

#include <kernel/types.h>
#include <kernel/threads.h>

typedef struct cpumask {
	u32 bits;
} cpumask_t;

_Static_assert(NR_CPUS <= 32, "a cpumask is one 32-bit word");

extern struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask	((const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)
/* Every CPU number, online or not (Linux's cpu_all_mask, CPU_MASK_ALL):
 * what init is allowed, so its children may run wherever a CPU comes up. */
static const struct cpumask __cpu_all_mask = { ~0u };
#define cpu_all_mask		(&__cpu_all_mask)
extern unsigned int nr_cpu_ids;

#ifdef HOST_TEST
/* The host tests' one CPU (kernel/cpu.c is not in them): CPU 0 online,
 * present and possible; weak, so a test may define its own. */
__attribute__((weak)) struct cpumask __cpu_possible_mask = { 1 }, __cpu_present_mask = { 1 },
	__cpu_online_mask = { 1 };
__attribute__((weak)) unsigned int nr_cpu_ids = 1;
#endif

/* MASK as a CPU list, "0-1,3" (Linux's cpulist_scnprintf), in BUF of SIZE. */
void cpulist_snprint(char *buf, size_t size, const struct cpumask *mask);

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_or(&m->bits, 1u << cpu, __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_and(&m->bits, ~(1u << cpu), __ATOMIC_SEQ_CST);
}

static inline int cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return (__atomic_load_n(&m->bits, __ATOMIC_RELAXED) >> cpu) & 1;
}

/* Clear CPU's bit and say whether it was set, in one atomic step. */
static inline int cpumask_test_and_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	return (__atomic_fetch_and(&m->bits, ~(1u << cpu), __ATOMIC_SEQ_CST) >> cpu) & 1;
}

/* Set CPU's bit and say whether it was set already, in one atomic step. */
static inline int cpumask_test_and_set_cpu(unsigned int cpu, struct cpumask *m)
{
	return (__atomic_fetch_or(&m->bits, 1u << cpu, __ATOMIC_SEQ_CST) >> cpu) & 1;
}

static inline void cpumask_clear(struct cpumask *m)		{ m->bits = 0; }
static inline int cpumask_empty(const struct cpumask *m)	{ return m->bits == 0; }
static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return (unsigned int)__builtin_popcount(m->bits);
}
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s) { d->bits = s->bits; }
static inline void cpumask_and(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	d->bits = a->bits & b->bits;
}
static inline int cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	return a->bits == b->bits;
}
static inline void cpumask_or(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	d->bits = a->bits | b->bits;
}
static inline int cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	return (a->bits & b->bits) != 0;
}
/* Is every CPU of A in B? */
static inline int cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	return (a->bits & ~b->bits) == 0;
}

/* The first set CPU after N (-1: from the start), or nr_cpu_ids if none. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	u32 rest = (n + 1 >= 32) ? 0 : m->bits & (~0u << (n + 1));

	return rest ? (unsigned int)__builtin_ctz(rest) : nr_cpu_ids;
}
#define cpumask_first(m)	cpumask_next(-1, m)

/* Any CPU of M but CPU, or >= nr_cpu_ids if there is none. */
static inline unsigned int cpumask_any_but(const struct cpumask *m, unsigned int cpu)
{
	u32 rest = m->bits & ~(1u << cpu);

	return rest ? (unsigned int)__builtin_ctz(rest) : nr_cpu_ids;
}

#define for_each_cpu(cpu, mask)				\
	for ((cpu) = cpumask_first(mask);		\
	     (unsigned int)(cpu) < nr_cpu_ids;		\
	     (cpu) = cpumask_next((cpu), (mask)))
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_present_cpu(cpu)	for_each_cpu((cpu), cpu_present_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)

#define num_online_cpus()	cpumask_weight(cpu_online_mask)
#define num_present_cpus()	cpumask_weight(cpu_present_mask)
#define num_possible_cpus()	cpumask_weight(cpu_possible_mask)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_present(cpu)	cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_possible(cpu)	cpumask_test_cpu((cpu), cpu_possible_mask)

static inline void set_cpu_possible(unsigned int cpu, int on)
{
	if (on)
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_possible_mask);
}
static inline void set_cpu_present(unsigned int cpu, int on)
{
	if (on)
		cpumask_set_cpu(cpu, &__cpu_present_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_present_mask);
}
static inline void set_cpu_online(unsigned int cpu, int on)
{
	if (on)
		cpumask_set_cpu(cpu, &__cpu_online_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_online_mask);
}

/* A mask of one CPU. */
static inline struct cpumask cpumask_of_cpu(unsigned int cpu)
{
	return (struct cpumask){ 1u << cpu };
}

#endif
