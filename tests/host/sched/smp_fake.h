/*
 * tests/host/sched/smp_fake.h - a four-CPU machine for the scheduler's
 * host tests (smp_fake.c): the CPU masks and nr_cpu_ids of four CPUs (or N:
 * smp_fake_cpus), an idle task per CPU, and helpers that run the scheduler "on" a CPU by
 * setting host_cpu (the per-CPU shim's running CPU).  A test binary that
 * links smp_fake.c calls host_percpu_setup(SMP_NCPUS) once in main(),
 * before any sched_init().
 */
#ifndef TESTS_HOST_SCHED_SMP_FAKE_H
#define TESTS_HOST_SCHED_SMP_FAKE_H

#include <kernel/task.h>

#define SMP_NCPUS	4

extern struct task *smp_idle[NR_CPUS];

/* N CPUs possible, present and online, sched_test_reset(), and an idle
 * task (pid 0, "swapper", pinned) on each CPU after 0; on CPU 0 after.
 * host_percpu_setup(N) must have run.  tools/sim tasks --cpus N uses it too. */
void smp_fake_cpus(int n);

/* Run what follows on CPU (host_cpu = CPU). */
void on_cpu(int cpu);
/* Fork NAME at NICE from CPU's current task, on CPU, allowed on every CPU
 * (Linux's init widens its mask; an idle task's is its CPU); back on 0. */
struct task *spawn_on(int cpu, const char *name, int nice);
/* Queue N tasks of NICE on CPU (spawn_on, not run) and set CPU's decayed
 * cpu_load[] to its load, so source_load() and target_load() read it. */
void load_cpu(int cpu, int n, int nice);
/* A nice-0 task asleep (TASK_INTERRUPTIBLE, never queued), last on CPU,
 * allowed on every CPU (its recent_used_cpu CPU too). */
struct task *sleeper_on(int cpu);
/* On CPU: schedule() if it idles with work queued, then MS ticks; back on 0. */
void run_on(int cpu, int ms);
/* cmocka fixtures: sched_test_reset() and an idle task (pid 0) on each
 * other CPU; after a test, every CPU's invariants hold. */
int smp_setup(void **state);
int smp_teardown(void **state);
/* main(): the per-CPU areas, the group run, the areas freed (for ASan). */
struct CMUnitTest;
int smp_run_tests(const char *name, const struct CMUnitTest *tests, size_t n);
#define SMP_RUN_TESTS(tests) smp_run_tests(#tests, tests, sizeof(tests) / sizeof((tests)[0]))

#endif
