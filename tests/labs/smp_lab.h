/*
 * tests/labs/smp_lab.h - the SMP labs' set-up (find_busiest_group,
 * wake_affine): four fake CPUs (tests/host/sched/smp_fake.c, an idle task
 * each), the preset the lab's figures were taken on, and after a check
 * the machine put back to the one CPU the other labs run on.  In a tree
 * cut for any other lab these checks must still pass, so they reach the
 * other labs' functions as little as they can (smp_lab_queue).  main.c has
 * made the per-CPU areas of four CPUs once (host_percpu_setup).
 */
#ifndef TESTS_LABS_SMP_LAB_H
#define TESTS_LABS_SMP_LAB_H

#include "lab.h"
#include "../host/sched/smp_fake.h"
#include "../host/sched/smp_topo.h"

/* four CPUs, no domains yet, PRESET ("linux-2.6.35", "linux-6.12") */
void smp_lab_start(const char *preset);
/* the domains detached, one CPU again, its queue empty.  No invariant
 * check (sched_verify) afterwards, as for the property tests' scenes: the
 * lab's functions change no queue, and under linux-6.12 the check asks
 * vruntime_eligible(), which a tree cut for eevdf_pick stubs out */
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

/*
 * Queue N nice-0 tasks on CPU (load_cpu: its cpu_load[] set to its load)
 * and, if RUNNING, make the first one CPU's current task as schedule()
 * would, but through its class's set_curr_task() instead of a pick: the
 * wake_affine checks then hold in a tree cut for eevdf_pick, whose stub
 * pick may not pick.  Returns the first task.
 */
struct task *smp_lab_queue(int cpu, int n, int running);

/* The machine of a property case: TOPO's domains over all four CPUs. */
extern const struct cpu_topology *const smp_lab_topos[4];
extern const char *const smp_lab_topo_names[4];

#endif
