/*
 * tests/host/sched/test_topology.c - sched domains and groups built from a
 * topology description (Linux 2.6.35's build_sched_domains(),
 * init_sched_groups_power(), cpu_attach_domain() and SD_*_INIT) on four
 * fake CPUs: spans, groups in their circle (the local one first), powers,
 * flags and intervals, and which levels are dropped as degenerate.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "smp_topo.h"
#include <kernel/errno.h>
#include <kernel/topology.h>

static int topology_teardown(void **state)
{
	detach_sched_domains(&all4);
	return smp_teardown(state);
}

static void test_domains_two_packages_two_cores(void **state)
{
	struct sched_domain *mc, *top;

	(void)state;
	assert_int_equal(build_sched_domains(&all4, two_pkgs_two_cores), 0);
	mc = cpu_rq(2)->sd;		/* SIBLING (one thread) was dropped */
	assert_string_equal(mc->name, "MC");
	assert_int_equal(mc->span.bits, 0xc);
	assert_int_equal(mc->span_weight, 2);
	assert_null(mc->child);
	assert_int_equal(mc->groups->cpumask.bits, 0x4);	/* local first */
	assert_int_equal(mc->groups->next->cpumask.bits, 0x8);
	assert_ptr_equal(mc->groups->next->next, mc->groups);
	assert_int_equal(mc->flags, SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
			 SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_SHARE_PKG_RESOURCES |
			 SD_PREFER_SIBLING);
	assert_int_equal(mc->imbalance_pct, 125);
	assert_int_equal(mc->busy_idx, 2);
	top = mc->parent;
	assert_string_equal(top->name, "CPU");
	assert_int_equal(top->span.bits, 0xf);
	assert_int_equal(top->groups->cpumask.bits, 0xc);	/* package 1 */
	assert_int_equal(top->groups->next->cpumask.bits, 0x3);
	assert_int_equal(top->groups->cpu_power, 2048);		/* two cores */
	assert_int_equal(top->idle_idx, 1);
	assert_int_equal(top->max_interval, 4);
	assert_null(top->parent);
	assert_ptr_equal(top->child, mc);
	assert_int_equal(power_of(2), 1024);
}

/* CPU's one domain, named NAME, spanning SPAN. */
static struct sched_domain *only_domain(int cpu, const char *name, u32 span)
{
	struct sched_domain *sd = cpu_rq(cpu)->sd;

	assert_non_null(sd);
	assert_string_equal(sd->name, name);
	assert_int_equal(sd->span.bits, span);
	assert_null(sd->parent);
	assert_null(sd->child);
	return sd;
}

/* One package: CPU spans what MC spans and adds no flag: dropped. */
static void test_domains_one_package(void **state)
{
	struct sched_domain *sd;

	(void)state;
	build_sched_domains(&all4, one_pkg_four_cores);
	sd = only_domain(1, "MC", 0xf);
	assert_int_equal(sd->groups->cpumask.bits, 0x2);
	assert_int_equal(sd->groups->next->next->next->cpumask.bits, 0x1);
}

/* QEMU -smp 2's default: two sockets of one core; only CPU is left. */
static void test_domains_two_sockets(void **state)
{
	(void)state;
	build_sched_domains(&two, two_sockets);
	only_domain(0, "CPU", 0x3);
	only_domain(1, "CPU", 0x3);
	assert_null(cpu_rq(2)->sd);
	assert_int_equal(build_sched_domains(&(struct cpumask){ 0 }, two_sockets), -EINVAL);
}

/*
 * SMT: a thread has 1024 * 1178 / 2 >> 10 = 589 of power, a core 1178.  MC
 * spans what SIBLING spans in one group, but SD_PREFER_SIBLING is a flag
 * SIBLING lacks and sd_parent_degenerate() does not strip: MC stays.
 */
static void test_domains_smt_power(void **state)
{
	struct sched_domain *sib;

	(void)state;
	build_sched_domains(&all4, smt_pairs);
	sib = cpu_rq(3)->sd;
	assert_string_equal(sib->name, "SIBLING");
	assert_true(sib->flags & SD_SHARE_CPUPOWER);
	assert_int_equal(sib->imbalance_pct, 110);
	assert_int_equal(sib->groups->cpu_power, 589);
	assert_int_equal(power_of(3), 589);
	assert_string_equal(sib->parent->name, "MC");
	assert_ptr_equal(sib->parent->groups->next, sib->parent->groups);
	assert_int_equal(sib->parent->groups->cpu_power, 1178);
	assert_string_equal(sib->parent->parent->name, "CPU");
	assert_int_equal(sib->parent->parent->groups->cpu_power, 1178);
	assert_int_equal(sib->parent->parent->groups->cpumask.bits, 0xc);
}

/*
 * sched_debug (SCHED_DEBUG_DOMAINS): each CPU's domains as they are
 * attached, in 2.6.35's sched_domain_debug() layout: the level indented by
 * its depth, the groups in their circle from the local one, a group's
 * power when it is not one CPU's.  sched_init_smp() takes the ids from
 * <kernel/topology.h> (the host's: one package per CPU, as QEMU's -smp N).
 */
static void test_sched_domain_debug_lines(void **state)
{
	(void)state;
	sysctl_sched_debug = SCHED_DEBUG_DOMAINS;
	capture_reset();
	build_sched_domains(&all4, two_pkgs_two_cores);
	assert_true(capture_contains("CPU0 attaching sched-domain:\n"));
	assert_true(capture_contains(" domain 0: span 0-1 level MC\n"));
	assert_true(capture_contains("  groups: 0 1\n"));
	assert_true(capture_contains("  domain 1: span 0-3 level CPU\n"));
	assert_true(capture_contains("   groups: 0-1 (cpu_power = 2048) 2-3 (cpu_power = 2048)\n"));
	assert_true(capture_contains("   groups: 2-3 (cpu_power = 2048) 0-1 (cpu_power = 2048)\n"));
	assert_false(capture_contains("ERROR"));

	capture_reset();
	sched_init_smp();
	assert_true(capture_contains("CPU1 attaching sched-domain:\n"));
	assert_true(capture_contains(" domain 0: span 0-3 level CPU\n"));
	assert_true(capture_contains("  groups: 1 2 3 0\n"));
	assert_false(capture_contains("level MC"));
	assert_int_equal(cpu_rq(3)->sd->span.bits, 0xf);

	/* one CPU: nothing to balance, a NULL domain (as 2.6.35 says it) */
	capture_reset();
	build_sched_domains(&(struct cpumask){ 0x4 }, two_sockets);
	assert_true(capture_contains("CPU2 attaching NULL sched-domain.\n"));

	capture_reset();
	sysctl_sched_debug = SCHED_DEBUG_OFF;
	build_sched_domains(&all4, two_pkgs_two_cores);
	assert_false(capture_contains("attaching"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, smp_setup, topology_teardown)
	const struct CMUnitTest tests[] = {
		T(test_domains_two_packages_two_cores),
		T(test_domains_one_package),
		T(test_domains_two_sockets),
		T(test_domains_smt_power),
		T(test_sched_domain_debug_lines),
	};

	return SMP_RUN_TESTS(tests);
}
