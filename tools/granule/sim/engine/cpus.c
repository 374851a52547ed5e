/*
 * tools/granule/sim/engine/cpus.c - the simulated machine's CPUs: `--cpus N`
 * (1..8) and their boot, in the image's order at -smp N: per-CPU areas,
 * sched_init(), an idle task per CPU (tests/host/sched/smp_fake.c, the
 * host tests' machine), the boot line's knobs, then sched_init_smp()
 * (the domains from each CPU's package and core: QEMU's -smp N default
 * since 6.2, one package of N cores, so one MC domain, as the image's
 * sched_debug shows) and the SMP paths on (sched_up_key off, as once a
 * second CPU is online).  The tasks, ticks and stoppers are
 * tests/host/sched/sim_smp.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cpus.h"
#include "../../tests/host/sched/fake.h"
#include "../../tests/host/sched/smp_fake.h"
#include "../../kernel/sched/sched.h"
#include <kernel/topology.h>

int cpus_arg(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char *end;
		long n;

		if (strcmp(argv[i], "--cpus"))
			continue;
		if (i + 1 == argc)
			die("--cpus needs a value%s%s", " (1..8)", "");
		n = strtol(argv[i + 1], &end, 10);
		if (*end || end == argv[i + 1] || n < 1 || n > SIM_MAX_CPUS)
			die("--cpus %s: out of range (expected 1..8)%s", argv[i + 1], "");
		return (int)n;
	}
	return 1;
}

void cpus_boot(int ncpus)
{
	if (ncpus == 1) {
		sched_test_reset();
		return;
	}
	host_percpu_setup(ncpus);	/* setup_per_cpu_areas() */
	smp_fake_cpus(ncpus);		/* sched_init(), the APs' idle tasks */
}

void cpus_online(int ncpus)
{
	if (ncpus == 1)
		return;
	host_cores_per_package = (unsigned int)ncpus;
	sched_init_smp();
	static_key_set(&sched_up_key, false);	/* more than one CPU online */
}
