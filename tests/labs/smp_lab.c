/*
 * tests/labs/smp_lab.c - the SMP labs' machine (smp_lab.h).
 */
#include "smp_lab.h"

const struct cpu_topology *const smp_lab_topos[4] = {
	two_sockets, two_pkgs_two_cores, one_pkg_four_cores, smt_pairs,
};
const char *const smp_lab_topo_names[4] = {
	"four packages of one core",
	"two packages of two cores",
	"one package of four cores",
	"two packages of one core with two SMT threads",
};

void smp_lab_start(const char *preset)
{
	smp_fake_cpus(SMP_NCPUS);
	lab_scenario_clear();
	knob_set_ok("sched_preset", preset);
}

int smp_lab_teardown(void **state)
{
	detach_sched_domains(&all4);
	/* back to the one CPU of the other labs (cpumask.h's host default) */
	__cpu_possible_mask.bits = __cpu_present_mask.bits = __cpu_online_mask.bits = 1;
	nr_cpu_ids = 1;
	on_cpu(0);
	/* empty queues: the sanitizers' exit path calls sched_yield() (main.c),
	 * which must not pick through another lab's stub */
	sched_test_reset();
	return 0;
}

struct task *smp_lab_queue(int cpu, int n, int running)
{
	struct task *first = NULL;
	struct rq *rq = cpu_rq(cpu);

	for (int i = 0; i < n; i++) {
		struct task *t = spawn_on(cpu, "busy", 0);

		if (!first)
			first = t;
	}
	load_cpu(cpu, 0, 0);
	if (!running || !first)
		return first;
	on_cpu(cpu);
	rq->curr = first;
	this_cpu_write(current_task, first);
	first->sched_class->set_curr_task(rq);
	on_cpu(0);
	return first;
}
