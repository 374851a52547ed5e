/*
 * user/tests/ut_rt_smp.c - the rt class on several CPUs (kernel/sched/
 * rt_smp.c): SCHED_FIFO tasks that wake together on one CPU spread over
 * every CPU at once, because a woken rt task whose CPU runs a better rt
 * task goes to the lowest CPU (select_task_rq_rt -> find_lowest_rq), and
 * what is left is pushed after the switch.  At one CPU there is nothing
 * to spread and the test only checks that all of them ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ut.h"

#define SCHED_FIFO	1
#define SIGCHLD_	17
#define CLOCK_MONOTONIC	1
#define SPIN_NS		500000000LL	/* a spinner gives up after 0.5 s */
#define NSPIN		4

static char stack[NSPIN][16384] __attribute__((aligned(16)));
static volatile int go, next_index, running, recorded, saw_all[NSPIN], cpu_of_spinner[NSPIN];
static int nspin;

static long long now_ns(void)
{
	long t[2];

	sys_clock_gettime(CLOCK_MONOTONIC, (long)t);
	return t[0] * 1000000000LL + t[1];
}

/*
 * Wait for GO, then spin until all NSPIN spinners run at the same time
 * (or SPIN_NS passed): on one CPU a FIFO spinner runs alone until it gives
 * up.  Record whether it saw them all, and its CPU (/proc stat field 39);
 * then spin until every spinner has recorded its CPU, so that none exits
 * before: the first exit wakes us (FIFO 60, pinned to our CPU), and the
 * spinner we preempt there would be pushed to the CPU the exit freed and
 * record that one.
 */
static void spinner(void)
{
	int i = __atomic_fetch_add(&next_index, 1, __ATOMIC_SEQ_CST);
	long long end;
	char buf[512];

	while (!go)
		sys_futex((long)&go, FUTEX_WAIT, 0, 0, 0, 0);
	__atomic_fetch_add(&running, 1, __ATOMIC_SEQ_CST);
	end = now_ns() + SPIN_NS;
	while (__atomic_load_n(&running, __ATOMIC_SEQ_CST) < nspin && now_ns() < end)
		;
	saw_all[i] = running >= nspin;
	cpu_of_spinner[i] = atoi(ut_stat_field("/proc/self/stat", 39, buf, sizeof(buf)));
	__atomic_fetch_add(&recorded, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&recorded, __ATOMIC_SEQ_CST) < nspin && now_ns() < end)
		;
}

static void rt_spread_on_wakeup(void)
{
	unsigned long all = ut_cpus();
	int prio = 60, ncpus = __builtin_popcountl(all);
	long tid[NSPIN];
	int seen = 0;

	nspin = ncpus < NSPIN ? ncpus : NSPIN;
	/* us at FIFO 60 and the spinners at FIFO 50, all made on CPU 0 */
	ut_pin_cpu(__builtin_ctzl(all));
	EXPECT_RET(sys_sched_setscheduler(0, SCHED_FIFO, (long)&prio), 0);
	prio = 50;
	for (int i = 0; i < nspin; i++) {
		tid[i] = ut_clone(CLONE_VM | SIGCHLD_, stack[i], sizeof(stack[i]), 0, 0, spinner);
		CHECK(tid[i] > 0, "clone: %ld", tid[i]);
		EXPECT_RET(sys_sched_setscheduler(tid[i], SCHED_FIFO, (long)&prio), 0);
	}
	ut_sleep_ns(10000000);		/* they run and wait for GO, one by one */
	for (int i = 0; i < nspin; i++)	/* now they may run anywhere */
		EXPECT_RET(sys_sched_setaffinity(tid[i], sizeof(all), (long)&all), 0);
	go = 1;				/* woken while we (FIFO 60) run on CPU 0 */
	sys_futex((long)&go, FUTEX_WAKE, NSPIN, 0, 0, 0);
	for (int i = 0; i < nspin; i++)
		ut_wait((pid_t)tid[i]);

	for (int i = 0; i < nspin; i++) {
		CHECK(saw_all[i], "spinner %d (CPU %d) never saw all %d running at once",
		      i, cpu_of_spinner[i], nspin);
		seen |= 1 << cpu_of_spinner[i];
	}
	CHECK(__builtin_popcount(seen) == nspin, "%d spinners ran on CPUs %#x", nspin, seen);
}

const struct ut_test ut_rt_smp_tests[] = {
	{ rt_spread_on_wakeup, "rt_spread_on_wakeup" },
	{ NULL, NULL },
};
