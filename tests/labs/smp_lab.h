/*
 * tests/labs/smp_lab.h - the SMP labs' set-up (find_busiest_group,
 * wake_affine): four fake CPUs (tests/host/sched/smp_fake.c, an idle task
 * each), the preset the lab's figures were taken on, and after a check
 * the machine put back to the one CPU the other labs run on.  main.c has
 * made the per-CPU areas of four CPUs once (host_percpu_setup).
 */
#ifndef TESTS_LABS_SMP_LAB_H
#define TESTS_LABS_SMP_LAB_H

#include "lab.h"
#include "../host/sched/smp_fake.h"
#include "../host/sched/smp_topo.h"

/* four CPUs, no domains yet, PRESET ("linux-2.6.35", "linux-6.12") */
void smp_lab_start(const char *preset);
/* the domains detached, every CPU's invariants checked, one CPU again */
int smp_lab_teardown(void **state);

static inline int smp_lab_setup_2635(void **state)
{
	smp_lab_start("linux-2.6.35");
	return 0;
}

static inline int smp_lab_setup_612(void **state)
{
	smp_lab_start("linux-6.12");
	return 0;
}

#define SMP_LAB_TEST(f)	cmocka_unit_test_setup_teardown(f, smp_lab_setup_2635, smp_lab_teardown)
#define EEVDF_SMP_LAB_TEST(f) \
	cmocka_unit_test_setup_teardown(f, smp_lab_setup_612, smp_lab_teardown)

/* The machine of a property case: TOPO's domains over all four CPUs. */
extern const struct cpu_topology *const smp_lab_topos[4];
extern const char *const smp_lab_topo_names[4];

#endif
