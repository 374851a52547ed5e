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
	int ret;

	detach_sched_domains(&all4);
	ret = smp_teardown(state);
	/* back to the one CPU of the other labs (cpumask.h's host default) */
	__cpu_possible_mask.bits = __cpu_present_mask.bits = __cpu_online_mask.bits = 1;
	nr_cpu_ids = 1;
	on_cpu(0);
	return ret;
}
