/*
 * tests/host/smp/test_percpu.c - per-CPU variables on the host
 * (kernel/percpu.h over tests/host/shim/arch/percpu.h): one CPU by default
 * (every offset 0: the variables are plain globals, as the scheduler's
 * tests see `current`), then four CPUs with copies of the section made from
 * the template, each written and read through per_cpu(), this_cpu_*() and
 * this_cpu_ptr(); and the cpumask helpers the kernel iterates CPUs with.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <kernel/percpu.h>
#include <kernel/cpumask.h>

struct pair {
	int a, b;
};

static DEFINE_PER_CPU(int, counter) = 7;
static DEFINE_PER_CPU(struct pair, pair);

static void test_one_cpu(void **state)
{
	assert_int_equal(this_cpu_read(counter), 7);
	this_cpu_write(counter, 8);
	assert_int_equal(counter, 8);			/* offset 0: the variable itself */
	assert_ptr_equal(this_cpu_ptr(&pair), &pair);
	assert_ptr_equal(&per_cpu(counter, 3), &counter);
	counter = 7;
}

static void test_four_cpus(void **state)
{
	host_percpu_setup(4);
	for (int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(per_cpu(counter, cpu), 7);	/* the template's value */
	for (host_cpu = 0; host_cpu < 4; host_cpu++) {
		this_cpu_add(counter, host_cpu);
		this_cpu_ptr(&pair)->a = 100 + host_cpu;
		__get_cpu_var(pair).b = -host_cpu;
	}
	host_cpu = 0;
	for (int cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(per_cpu(counter, cpu), 7 + cpu);
		assert_int_equal(per_cpu(pair, cpu).a, 100 + cpu);
		assert_int_equal(per_cpu(pair, cpu).b, -cpu);
		if (cpu)
			assert_ptr_not_equal(&per_cpu(counter, cpu), &counter);
	}
	host_cpu = 2;
	assert_int_equal(this_cpu_read(counter), 9);
	assert_int_equal(raw_smp_processor_id(), 2);
	host_percpu_teardown();
	assert_int_equal(per_cpu_offset(2), 0);
}

static void test_cpumask(void **state)
{
	struct cpumask m;
	unsigned int cpu, seen = 0;

	assert_int_equal(nr_cpu_ids, 1);		/* the host's one CPU (cpumask.h) */
	assert_true(cpu_online(0) && !cpu_online(1));
	nr_cpu_ids = NR_CPUS;
	cpumask_clear(&m);
	assert_true(cpumask_empty(&m));
	cpumask_set_cpu(1, &m);
	cpumask_set_cpu(3, &m);
	cpumask_set_cpu(31, &m);
	assert_int_equal(cpumask_weight(&m), 3);
	assert_int_equal(cpumask_first(&m), 1);
	assert_int_equal(cpumask_next(1, &m), 3);
	assert_int_equal(cpumask_next(3, &m), 31);
	assert_int_equal(cpumask_next(31, &m), nr_cpu_ids);
	assert_int_equal(cpumask_any_but(&m, 1), 3);
	for_each_cpu(cpu, &m)
		seen |= 1u << cpu;
	assert_int_equal(seen, 0x8000000a);
	assert_true(cpumask_test_and_clear_cpu(3, &m));
	assert_false(cpumask_test_and_clear_cpu(3, &m));
	assert_false(cpumask_test_cpu(3, &m));
	nr_cpu_ids = 4;					/* bits past nr_cpu_ids are not walked */
	seen = 0;
	for_each_cpu(cpu, &m)
		seen |= 1u << cpu;
	assert_int_equal(seen, 0x2);
	nr_cpu_ids = NR_CPUS;
	cpumask_clear(&m);
	cpumask_set_cpu(0, &m);
	assert_true(cpumask_any_but(&m, 0) >= nr_cpu_ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_four_cpus),
		cmocka_unit_test(test_cpumask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
