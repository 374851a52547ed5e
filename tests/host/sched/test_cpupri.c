/*
 * tests/host/sched/test_cpupri.c - the CPU priority map (kernel/sched/
 * cpupri.c, Linux 2.6.35's sched_cpupri.c) against hand-computed cases:
 * the prio -> level conversion, the vectors' masks and counts as CPUs
 * change level, and cpupri_find()'s "lowest level below the task's that
 * has a CPU of its mask".  Pure: no runqueue, four CPU numbers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "../../../kernel/sched/cpupri.h"
#include <kernel/task.h>

static struct cpupri cp;

/* rt_priority 1..99 is prio 98..0 (prio = 99 - rt_priority), level
 * rt_priority + 2 */
#define RT(rtp)		(MAX_RT_PRIO - 1 - (rtp))

static void test_convert_prio(void **state)
{
	(void)state;
	assert_int_equal(convert_prio(CPUPRI_INVALID), CPUPRI_INVALID);
	assert_int_equal(convert_prio(MAX_PRIO), CPUPRI_IDLE);
	assert_int_equal(convert_prio(MAX_RT_PRIO), CPUPRI_NORMAL);	/* no rt queued */
	assert_int_equal(convert_prio(120), CPUPRI_NORMAL);		/* nice 0 */
	assert_int_equal(convert_prio(MAX_PRIO - 1), CPUPRI_NORMAL);	/* nice 19 */
	assert_int_equal(convert_prio(RT(1)), 3);	/* 100 - 98 + 1 */
	assert_int_equal(convert_prio(RT(50)), 52);	/* 100 - 49 + 1 */
	assert_int_equal(convert_prio(RT(99)), 101);	/* 100 - 0 + 1 */
}

static void test_set_moves_cpu_between_vectors(void **state)
{
	(void)state;
	cpupri_init(&cp);
	for (int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(cp.cpu_to_pri[cpu], CPUPRI_INVALID);
	assert_int_equal(cp.pri_active[0] | cp.pri_active[1] | cp.pri_active[2] |
			 cp.pri_active[3], 0);

	/* all four at NORMAL: level 1, bit 1 of word 0 */
	for (int cpu = 0; cpu < 4; cpu++)
		cpupri_set(&cp, cpu, MAX_RT_PRIO);
	assert_int_equal(cp.pri_to_cpu[CPUPRI_NORMAL].count, 4);
	assert_int_equal(cp.pri_to_cpu[CPUPRI_NORMAL].mask.bits, 0xf);
	assert_int_equal(cp.pri_active[0], 1u << 1);

	/* CPU 2 runs rt_priority 50 (level 52: word 1, bit 20) */
	cpupri_set(&cp, 2, RT(50));
	assert_int_equal(cp.cpu_to_pri[2], 52);
	assert_int_equal(cp.pri_to_cpu[CPUPRI_NORMAL].count, 3);
	assert_int_equal(cp.pri_to_cpu[CPUPRI_NORMAL].mask.bits, 0xb);
	assert_int_equal(cp.pri_to_cpu[52].mask.bits, 0x4);
	assert_int_equal(cp.pri_active[1], 1u << 20);

	/* setting the same prio again changes nothing */
	cpupri_set(&cp, 2, RT(50));
	assert_int_equal(cp.pri_to_cpu[52].count, 1);

	/* back to NORMAL: level 52 empties and its bit clears */
	cpupri_set(&cp, 2, MAX_RT_PRIO);
	assert_int_equal(cp.pri_to_cpu[52].count, 0);
	assert_int_equal(cp.pri_to_cpu[52].mask.bits, 0);
	assert_int_equal(cp.pri_active[1], 0);
	assert_int_equal(cp.pri_to_cpu[CPUPRI_NORMAL].count, 4);

	/* offline: out of every vector */
	cpupri_set(&cp, 3, CPUPRI_INVALID);
	assert_int_equal(cp.cpu_to_pri[3], CPUPRI_INVALID);
	assert_int_equal(cp.pri_to_cpu[CPUPRI_NORMAL].mask.bits, 0x7);
}

static struct task task_at(int prio, u32 mask)
{
	struct task t = { 0 };

	t.prio = prio;
	t.cpus_allowed.bits = mask;
	return t;
}

/*
 * CPU 0 runs rt 10 (level 12), CPU 1 rt 80 (level 82), CPU 2 fair
 * (NORMAL), CPU 3 rt 10 (level 12).
 */
static void four_cpus(void)
{
	cpupri_init(&cp);
	cpupri_set(&cp, 0, RT(10));
	cpupri_set(&cp, 1, RT(80));
	cpupri_set(&cp, 2, MAX_RT_PRIO);
	cpupri_set(&cp, 3, RT(10));
}

static void test_find_lowest_level(void **state)
{
	struct cpumask lowest;
	struct task t;

	(void)state;
	four_cpus();
	/* rt 50 may run anywhere: NORMAL is the lowest level, CPU 2 alone */
	t = task_at(RT(50), 0xf);
	assert_int_equal(cpupri_find(&cp, &t, &lowest), 1);
	assert_int_equal(lowest.bits, 0x4);

	/* not allowed on CPU 2: the next level up with a CPU of its mask is
	 * 12 (CPUs 0 and 3), below its own 52 */
	t = task_at(RT(50), 0xb);
	assert_int_equal(cpupri_find(&cp, &t, &lowest), 1);
	assert_int_equal(lowest.bits, 0x9);

	/* only CPU 1 allowed, which runs rt 80 (level 82 >= 52): none */
	t = task_at(RT(50), 0x2);
	assert_int_equal(cpupri_find(&cp, &t, &lowest), 0);

	/* rt 90 (level 92) allowed on CPU 1: level 82 is below it */
	t = task_at(RT(90), 0x2);
	assert_int_equal(cpupri_find(&cp, &t, &lowest), 1);
	assert_int_equal(lowest.bits, 0x2);

	/* an equal level is not below: rt 10 on CPUs 0 and 3 only */
	t = task_at(RT(10), 0x9);
	assert_int_equal(cpupri_find(&cp, &t, NULL), 0);

	/* a fair task (level NORMAL) finds nothing lower: idle is unused */
	t = task_at(120, 0xf);
	assert_int_equal(cpupri_find(&cp, &t, &lowest), 0);
}

/* An offline CPU (CPUPRI_INVALID) is found at no level. */
static void test_find_skips_invalid(void **state)
{
	struct cpumask lowest;
	struct task t;

	(void)state;
	four_cpus();
	cpupri_set(&cp, 2, CPUPRI_INVALID);
	t = task_at(RT(50), 0xf);
	assert_int_equal(cpupri_find(&cp, &t, &lowest), 1);
	assert_int_equal(lowest.bits, 0x9);	/* level 12, not CPU 2 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_convert_prio),
		cmocka_unit_test(test_set_moves_cpu_between_vectors),
		cmocka_unit_test(test_find_lowest_level),
		cmocka_unit_test(test_find_skips_invalid),
	};

	/* a current task: the kernel's sched_yield() replaces libc's, which
	 * LeakSanitizer calls at exit */
	sched_test_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
