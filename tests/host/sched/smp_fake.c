/*
 * tests/host/sched/smp_fake.c - the four-CPU machine of smp_fake.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "../../../kernel/sched/sched.h"

struct task *smp_idle[NR_CPUS];

void on_cpu(int cpu)
{
	host_cpu = cpu;
}

struct task *spawn_on(int cpu, const char *name, int nice)
{
	struct task *t;

	on_cpu(cpu);
	t = spawn(name, nice);
	t->cpus_allowed.bits = (1u << SMP_NCPUS) - 1;	/* as init's, not the idle's */
	on_cpu(0);
	return t;
}

void load_cpu(int cpu, int n, int nice)
{
	while (n-- > 0)
		spawn_on(cpu, "load", nice);
	for (int i = 0; i < CPU_LOAD_IDX_MAX; i++)
		cpu_rq(cpu)->cpu_load[i] = cpu_rq(cpu)->load.weight;
}

struct task *sleeper_on(int cpu)
{
	struct task *p = task_alloc("wakee");

	p->static_prio = p->prio = p->normal_prio = DEFAULT_PRIO;
	set_load_weight(p);
	p->sched_class = &fair_sched_class;
	p->cpu = (unsigned int)cpu;
	p->cpus_allowed.bits = (1u << SMP_NCPUS) - 1;
	p->state = TASK_INTERRUPTIBLE;
	p->recent_used_cpu = cpu;
	return p;
}

void run_on(int cpu, int ms)
{
	on_cpu(cpu);
	if (current == this_rq()->idle && this_rq()->nr_running)
		schedule();
	ticks(ms);
	on_cpu(0);
}

void smp_fake_cpus(int n)
{
	/* N CPUs possible, present and online (cpumask.h's host default: 1) */
	__cpu_possible_mask.bits = __cpu_present_mask.bits = __cpu_online_mask.bits =
		(1u << n) - 1;
	nr_cpu_ids = (unsigned int)n;
	on_cpu(0);
	sched_test_reset();
	smp_idle[0] = sched_idle_task();
	for (int cpu = 1; cpu < n; cpu++) {
		struct task *idle = task_alloc("swapper");

		idle->pid = 0;			/* as Linux's fork_idle() */
		idle->policy = SCHED_NORMAL;	/* as sched_init()'s init_task */
		idle->static_prio = idle->normal_prio = idle->prio = DEFAULT_PRIO;
		on_cpu(cpu);
		init_idle(idle, cpu);
		set_load_weight(idle);
		this_cpu_write(current_task, idle);
		smp_idle[cpu] = idle;
	}
	on_cpu(0);
}

int smp_setup(void **state)
{
	(void)state;
	smp_fake_cpus(SMP_NCPUS);
	return 0;
}

int smp_teardown(void **state)
{
	for (int cpu = SMP_NCPUS - 1; cpu >= 0; cpu--) {
		on_cpu(cpu);
		capture_reset();
		if (sched_verify())
			fail_msg("CPU %d: %s", cpu, capture_buf);
	}
	return sched_test_teardown(state);
}

int smp_run_tests(const char *name, const struct CMUnitTest *tests, size_t n)
{
	int failed;

	host_percpu_setup(SMP_NCPUS);
	failed = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	host_percpu_teardown();
	return failed;
}
