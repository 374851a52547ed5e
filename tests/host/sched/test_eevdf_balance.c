/*
 * tests/host/sched/test_eevdf_balance.c - Linux 6.12's load balancer for
 * the EEVDF class (kernel/sched/eevdf_lb_stats.c, eevdf_balance.c) on
 * fake CPUs under sched_preset=linux-6.12, against cases worked out by
 * hand from 6.12's formulas (kernel/sched/fair.c; the comments show the
 * arithmetic): group_classify(), update_sd_pick_busiest(),
 * calculate_imbalance()'s three kinds (tasks, utilisation, load),
 * detach_tasks() with a cache-hot task, one whole sched_balance_rq(), and
 * the fork/exec choice of sched_balance_find_dst_group().
 *
 * Group statistics are set by hand where the rule is the subject; PELT
 * figures are set directly (the series is test_pelt.c's).  Every CPU's
 * capacity is 1024.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "smp_topo.h"
#include "../../../kernel/sched/eevdf_pelt.h"
#include "../../../kernel/sched/eevdf_lb.h"

static int lb_setup(void **state)
{
	smp_setup(state);
	knob_set_ok("sched_preset", "linux-6.12");
	return 0;
}

static int lb_teardown(void **state)
{
	detach_sched_domains(&all4);
	return smp_teardown(state);
}

static struct sched_avg *rq_avg(int cpu)
{
	return &eevdf_rq(&cpu_rq(cpu)->cfs)->avg;
}

/* A group of WEIGHT CPUs with NR tasks, utilisation UTIL, runnable RUNNABLE. */
static struct sg_lb_stats sgs_of(unsigned int weight, unsigned int nr,
				 unsigned long util, unsigned long runnable)
{
	struct sg_lb_stats sgs;

	memset(&sgs, 0, sizeof(sgs));
	sgs.group_weight = weight;
	sgs.group_capacity = 1024UL * weight;
	sgs.sum_nr_running = sgs.sum_h_nr_running = nr;
	sgs.group_util = util;
	sgs.group_runnable = runnable;
	return sgs;
}

/*
 * group_classify() at imbalance_pct 125, one CPU (capacity 1024):
 *	overloaded if nr > weight and (1024*100 < util*125, util > 819.2,
 *		or 1024*125 < runnable*100, runnable > 1280)
 *	has spare if nr < weight, or not (runnable > 1280) and util < 819.2
 *	fully busy otherwise
 *	2 tasks, util 1024:                 102400 < 128000: overloaded
 *	2 tasks, util 700, runnable 1400:   128000 < 140000: overloaded
 *	2 tasks, util 700, runnable 1000:   102400 > 87500:  has spare
 *	1 task, util 900, runnable 900:     102400 < 112500: fully busy
 *	1 task, util 500:                   has spare; 0 tasks: has spare
 *	the parent's imbalance flag set (not overloaded): imbalanced
 */
static void test_group_classify(void **state)
{
	struct sched_domain *sd;
	struct sg_lb_stats sgs;

	(void)state;
	build_sched_domains(&two, one_pkg_four_cores);
	sd = cpu_rq(0)->sd;
	sgs = sgs_of(1, 2, 1024, 1024);
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_overloaded);
	sgs = sgs_of(1, 2, 700, 1400);
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_overloaded);
	sgs = sgs_of(1, 2, 700, 1000);
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_has_spare);
	sgs = sgs_of(1, 1, 900, 900);
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_fully_busy);
	/* at 6.12's LLC imbalance_pct, 117: 102400 > 900*117 = 105300? no: still busy */
	assert_int_equal(group_classify(117, sd->groups, sd, &sgs), group_fully_busy);
	sgs = sgs_of(1, 1, 800, 800);	/* 102400 > 800*125 = 100000: spare */
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_has_spare);
	sgs = sgs_of(1, 0, 0, 0);
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_has_spare);

	*sg_imbalance(sd) = 1;		/* our group, at this level, flagged */
	sgs = sgs_of(1, 1, 500, 500);
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_imbalanced);
	sgs = sgs_of(1, 2, 1024, 1024);	/* overloaded ranks first */
	assert_int_equal(group_classify(125, sd->groups, sd, &sgs), group_overloaded);
	*sg_imbalance(sd) = 0;
}

static void env_for(struct lb_env *env, struct sched_domain *sd, int dst_cpu,
		    enum cpu_idle_type idle, struct cpumask *cpus)
{
	memset(env, 0, sizeof(*env));
	env->sd = sd;
	env->dst_cpu = dst_cpu;
	env->dst_rq = cpu_rq(dst_cpu);
	env->idle = idle;
	*cpus = *sched_domain_span(sd);
	env->cpus = cpus;
}

static int pick(struct lb_env *env, struct sd_lb_stats *sds, struct sg_lb_stats cand,
		enum group_type type, unsigned long avg_load, unsigned int idle_cpus)
{
	cand.group_type = type;
	cand.avg_load = avg_load;
	cand.idle_cpus = idle_cpus;
	return update_sd_pick_busiest(env, sds, env->sd->groups->next, &cand);
}

/*
 * update_sd_pick_busiest(): a higher group_type wins outright; among
 * overloaded groups the higher avg_load; among groups with spare capacity
 * the fewer idle CPUs, then the more tasks; a group without a fair task
 * never.
 */
static void test_update_sd_pick_busiest(void **state)
{
	struct sd_lb_stats sds;
	struct lb_env env;
	struct cpumask cpus;

	(void)state;
	build_sched_domains(&all4, two_pkgs_two_cores);
	env_for(&env, cpu_rq(0)->sd->parent, 0, CPU_IDLE, &cpus);	/* CPU level: 2 groups of 2 */
	memset(&sds, 0, sizeof(sds));
	sds.busiest_stat = sgs_of(2, 2, 1024, 1024);
	sds.busiest_stat.group_type = group_fully_busy;

	assert_true(pick(&env, &sds, sgs_of(2, 3, 2048, 2048), group_overloaded, 1536, 0));
	assert_false(pick(&env, &sds, sgs_of(2, 1, 100, 100), group_has_spare, 0, 1));
	assert_false(pick(&env, &sds, sgs_of(2, 0, 0, 0), group_overloaded, 0, 2));	/* no task */

	sds.busiest_stat.group_type = group_overloaded;
	sds.busiest_stat.avg_load = 2000;
	assert_false(pick(&env, &sds, sgs_of(2, 4, 2048, 2048), group_overloaded, 1500, 0));
	assert_true(pick(&env, &sds, sgs_of(2, 4, 2048, 2048), group_overloaded, 2001, 0));

	sds.busiest_stat = sgs_of(2, 1, 500, 500);
	sds.busiest_stat.group_type = group_has_spare;
	sds.busiest_stat.idle_cpus = 1;
	assert_false(pick(&env, &sds, sgs_of(2, 1, 500, 500), group_has_spare, 0, 2));
	assert_false(pick(&env, &sds, sgs_of(2, 1, 500, 500), group_has_spare, 0, 1)); /* = tasks */
	assert_true(pick(&env, &sds, sgs_of(2, 2, 500, 500), group_has_spare, 0, 1));
	assert_true(pick(&env, &sds, sgs_of(2, 1, 900, 900), group_has_spare, 0, 0));
}

/* calculate_imbalance() of ENV on a LOCAL and a BUSIEST group. */
static void imbalance_of(struct lb_env *env, struct sd_lb_stats *sds,
			 struct sg_lb_stats local, enum group_type ltype,
			 struct sg_lb_stats busiest, enum group_type btype)
{
	local.group_type = ltype;
	busiest.group_type = btype;
	sds->local_stat = local;
	sds->busiest_stat = busiest;
	sds->local = env->sd->groups;
	sds->busiest = env->sd->groups->next;
	env->imbalance = 0;
	calculate_imbalance(env, sds);
}

/*
 * calculate_imbalance()'s choice of kind:
 * - local has spare, busiest overloaded, in the same LLC (MC, one CPU a
 *   group): tasks, sibling_imbalance = 3 - 0 = 3, halved: 1;
 *   with the CPU busy (CPU_NOT_IDLE) sibling_imbalance is 0: 0.
 * - the same across caches (two sockets, the CPU level): util,
 *   max(1024, 300) - 300 = 724; local util 1100 (over capacity) on an
 *   idle CPU: max(1024, 1100) - 1100 = 0, so one task instead.
 * - both groups with spare capacity, two CPUs each, no prefer_sibling:
 *   even the idle CPUs out, (2 - 0) >> 1 = 1.
 * - both overloaded: load, with avg = 4000 * 1024 / 2048 = 2000,
 *   min((3000 - 2000) * 1024, (2000 - 1000) * 1024) / 1024 = 1000;
 * - local fully busy (load 1500: avg_load 1500), busiest avg 3000, domain
 *   4500 * 1024 / 2048 = 2250: min(750 * 1024, 750 * 1024) / 1024 = 750;
 *   local load 2500 (above the domain's 2500 * ... average 2750? no:
 *   total 5500, avg 2750 > 2500) moves min(250, 250) = 250; local load
 *   3000 = busiest's avg: nothing.
 * - busiest imbalanced (affinity): one task.
 */
static void test_calculate_imbalance(void **state)
{
	struct sd_lb_stats sds;
	struct lb_env env;
	struct cpumask cpus;
	struct sg_lb_stats l, b;

	(void)state;
	build_sched_domains(&two, one_pkg_four_cores);		/* MC: SD_SHARE_PKG_RESOURCES */
	env_for(&env, cpu_rq(0)->sd, 0, CPU_IDLE, &cpus);
	memset(&sds, 0, sizeof(sds));
	imbalance_of(&env, &sds, sgs_of(1, 0, 0, 0), group_has_spare,
		     sgs_of(1, 3, 1024, 3072), group_overloaded);
	assert_int_equal(env.migration_type, migrate_task);
	assert_int_equal(env.imbalance, 1);
	env.idle = CPU_NOT_IDLE;
	imbalance_of(&env, &sds, sgs_of(1, 0, 0, 0), group_has_spare,
		     sgs_of(1, 3, 1024, 3072), group_overloaded);
	assert_int_equal(env.imbalance, 0);

	detach_sched_domains(&two);
	build_sched_domains(&two, two_sockets);			/* CPU level: no shared cache */
	env_for(&env, cpu_rq(0)->sd, 0, CPU_IDLE, &cpus);
	imbalance_of(&env, &sds, sgs_of(1, 1, 300, 300), group_has_spare,
		     sgs_of(1, 3, 1024, 3072), group_overloaded);
	assert_int_equal(env.migration_type, migrate_util);
	assert_int_equal(env.imbalance, 724);
	imbalance_of(&env, &sds, sgs_of(1, 0, 1100, 0), group_has_spare,
		     sgs_of(1, 3, 1024, 3072), group_overloaded);
	assert_int_equal(env.migration_type, migrate_task);
	assert_int_equal(env.imbalance, 1);

	l = sgs_of(2, 0, 0, 0);
	l.idle_cpus = 2;
	b = sgs_of(2, 2, 1024, 1024);
	sds.prefer_sibling = 0;
	imbalance_of(&env, &sds, l, group_has_spare, b, group_has_spare);
	/* group_weight 2, no prefer_sibling: idle CPUs 2 - 0, halved */
	assert_int_equal(env.migration_type, migrate_task);
	assert_int_equal(env.imbalance, 1);

	l = sgs_of(1, 2, 1024, 2048);
	l.avg_load = 1000;
	b = sgs_of(1, 4, 1024, 4096);
	b.avg_load = 3000;
	sds.total_load = 4000;
	sds.total_capacity = 2048;
	sds.avg_load = 2000;			/* as sched_balance_find_src_group() sets it */
	imbalance_of(&env, &sds, l, group_overloaded, b, group_overloaded);
	assert_int_equal(env.migration_type, migrate_load);
	assert_int_equal(env.imbalance, 1000);

	l = sgs_of(1, 1, 900, 900);
	l.group_load = 1500;
	sds.total_load = 4500;
	imbalance_of(&env, &sds, l, group_fully_busy, b, group_overloaded);
	assert_int_equal(env.migration_type, migrate_load);
	assert_int_equal(env.imbalance, 750);
	l.group_load = 2500;
	sds.total_load = 5500;
	imbalance_of(&env, &sds, l, group_fully_busy, b, group_overloaded);
	assert_int_equal(env.imbalance, 250);
	l.group_load = 3000;
	imbalance_of(&env, &sds, l, group_fully_busy, b, group_overloaded);
	assert_int_equal(env.imbalance, 0);

	imbalance_of(&env, &sds, sgs_of(1, 1, 500, 500), group_has_spare,
		     sgs_of(1, 2, 500, 500), group_imbalanced);
	assert_int_equal(env.migration_type, migrate_task);
	assert_int_equal(env.imbalance, 1);
}

/* Three nice-0 tasks queued on CPU 1, none running; oldest first in *T. */
static void three_on_cpu1(struct task *t[3])
{
	for (int i = 0; i < 3; i++)
		t[i] = spawn_on(1, "load", 0);
}

/*
 * detach_tasks(), migrate_task, imbalance 1: the oldest queued task (t0,
 * the tail of cfs.tasks) ran 100 us ago on CPU 1's clock, under
 * sched_migration_cost (500 us): cache-hot, sent to the head; the next
 * oldest (t1) ran 1 ms ago: cold, it moves and the imbalance is spent.
 * After two failures (nr_balance_failed 2 > cache_nice_tries 1) the hot
 * one goes, counted in lb_hot_gained.
 */
static void test_detach_tasks_skips_a_cache_hot_task(void **state)
{
	struct task *t[3];
	struct lb_env env;
	struct cpumask cpus, grp;
	u64 now = 2000000000ULL;

	(void)state;
	set_schedstats(1);
	build_sched_domains(&two, one_pkg_four_cores);
	three_on_cpu1(t);
	env_for(&env, cpu_rq(0)->sd, 0, CPU_IDLE, &cpus);
	assert_int_equal(env.sd->cache_nice_tries, 1);
	grp = *sched_group_cpus(env.sd->groups);
	env.dst_grpmask = &grp;
	env.src_cpu = 1;
	env.src_rq = cpu_rq(1);
	env.migration_type = migrate_task;
	env.imbalance = 1;
	env.loop_max = 3;
	env.loop_break = SCHED_NR_MIGRATE_BREAK;
	cpu_rq(1)->clock = now;
	t[0]->se.exec_start = now - 100000;
	t[1]->se.exec_start = now - 1000000;
	t[2]->se.exec_start = now - 1000000;

	assert_int_equal(detach_tasks(&env), 1);
	assert_int_equal(task_cpu(t[0]), 1);
	assert_int_equal(task_cpu(t[1]), 0);
	assert_int_equal(task_cpu(t[2]), 1);
	assert_int_equal(t[1]->se.nr_migrations, 1);
	assert_int_equal(env.imbalance, 0);
	assert_int_equal(env.sd->lb_gained[CPU_IDLE], 1);
	assert_int_equal(env.sd->lb_hot_gained[CPU_IDLE], 0);
	/* t0 went to the head: the tail is t2 now */
	assert_ptr_equal(cpu_rq(1)->cfs.tasks.prev, &t[2]->se.group_node);

	/* two tasks left: a hot t2 too; without failures nothing moves */
	t[2]->se.exec_start = now - 100000;
	env.imbalance = 1;
	env.loop = 0;
	assert_int_equal(detach_tasks(&env), 0);
	env.sd->nr_balance_failed = 2;
	env.loop = 0;
	assert_int_equal(detach_tasks(&env), 1);
	assert_int_equal(env.sd->lb_hot_gained[CPU_IDLE], 1);
	assert_int_equal(cpu_rq(1)->cfs.nr_running, 1);
}

/*
 * One whole sched_balance_rq() at QEMU's -smp 2 (one MC domain): CPU 1
 * runs one of three nice-0 tasks, its queue's util 1024 (overloaded:
 * 3 > 1 and 1024*100 < 1024*125), CPU 0 idles (has spare).  Busiest
 * overloaded in the same LLC, one CPU a group: migrate_task,
 * sibling_imbalance (3 - 0) >> 1 = 1; the busiest queue has the most fair
 * tasks; the oldest queued, not running and cold, moves.  Schedstat:
 * lb_imbalance 1 (a task, where 2.6.35 would count weight: 1536).
 * Balanced afterwards (2 against 1, neither overloaded by 2 > 1? CPU 1:
 * 2 tasks, util 1024: still overloaded; CPU 0: 1 task, util of the moved
 * one 0 (PELT set by hand): has spare; sibling_imbalance (2-1) >> 1 = 0:
 * nothing more moves).
 */
static void test_sched_balance_rq_pulls_one_task(void **state)
{
	struct task *t[3];
	int cb = 1, moved;
	struct sched_domain *sd;

	(void)state;
	set_schedstats(1);
	build_sched_domains(&two, one_pkg_four_cores);
	sd = cpu_rq(0)->sd;
	three_on_cpu1(t);
	run_on(1, 1);		/* CPU 1 picks one and ticks */
	for (int i = 0; i < 3; i++)
		t[i]->se.exec_start = 0;	/* all long cold */
	rq_avg(1)->util_avg = 1024;
	rq_avg(1)->runnable_avg = 3072;
	rq_avg(1)->load_avg = 3072;
	on_cpu(0);
	moved = sched_balance_rq(0, cpu_rq(0), sd, CPU_IDLE, &cb);
	assert_int_equal(moved, 1);
	assert_int_equal(cb, 1);
	assert_int_equal(sd->lb_count[CPU_IDLE], 1);
	assert_int_equal(sd->lb_imbalance[CPU_IDLE], 1);
	assert_int_equal(sd->lb_gained[CPU_IDLE], 1);
	assert_int_equal(sd->nr_balance_failed, 0);
	assert_int_equal(cpu_rq(0)->cfs.nr_running, 1);
	assert_int_equal(cpu_rq(1)->cfs.nr_running, 2);

	rq_avg(1)->util_avg = 1024;
	rq_avg(0)->util_avg = 0;
	moved = sched_balance_rq(0, cpu_rq(0), sd, CPU_IDLE, &cb);
	assert_int_equal(moved, 0);
	assert_int_equal(sd->lb_nobusyg[CPU_IDLE], 1);
	on_cpu(0);
}

/*
 * need_active_balance(): only when counting tasks, after more than
 * cache_nice_tries + 2 = 3 failures (MC's cache_nice_tries is 1); a load
 * or util imbalance never kicks the running task on equal CPUs (6.12's
 * reduced-capacity case needs capacity_of() below 1024).
 */
static void test_need_active_balance(void **state)
{
	struct lb_env env;
	struct cpumask cpus;

	(void)state;
	build_sched_domains(&two, one_pkg_four_cores);
	env_for(&env, cpu_rq(0)->sd, 0, CPU_IDLE, &cpus);
	env.src_cpu = 1;
	env.src_rq = cpu_rq(1);
	env.migration_type = migrate_task;
	env.sd->nr_balance_failed = 3;
	assert_false(need_active_balance(&env));
	env.sd->nr_balance_failed = 4;
	assert_true(need_active_balance(&env));
	env.migration_type = migrate_load;
	assert_false(need_active_balance(&env));
	env.migration_type = migrate_util;
	assert_false(need_active_balance(&env));
	env.sd->nr_balance_failed = 0;
}

/* CPU runs one nice-0 task, its queue's PELT set to LOAD and UTIL. */
static void busy_with(int cpu, unsigned int load, unsigned int util)
{
	load_cpu(cpu, 1, 0);
	run_on(cpu, 0);
	rq_avg(cpu)->load_avg = load;
	rq_avg(cpu)->util_avg = rq_avg(cpu)->runnable_avg = util;
	rq_avg(cpu)->util_est = 0;
}

/*
 * sched_balance_find_dst_group() for a new task (no PELT history: nothing
 * of it to take off) at -smp 2, imbalance_pct 125, from CPU 0:
 * - CPU 0 runs a task of util 1024 (1 task on 1 CPU, 1024*100 < 1024*125:
 *   fully busy), CPU 1 idles (has spare): the idlest is better, go there.
 * - both run a task of util 1024 (fully busy): avg_load = load; allowed
 *   imbalance 1024 * 25 / 100 = 256.  Local 1024, CPU 1 600: 600 < 1280
 *   and 100*1024 = 102400 > 125*600 = 75000: go.  CPU 1 900:
 *   102400 <= 112500: stay.
 * - both idle (has spare, one idle CPU each): 1 >= 1, stay.
 * And the walk: sched_balance_find_dst_cpu() gives CPU 1, then CPU 0.
 */
static void test_find_dst_group_for_a_fork(void **state)
{
	struct sched_domain *sd;
	struct task *p;

	(void)state;
	build_sched_domains(&two, one_pkg_four_cores);
	sd = cpu_rq(0)->sd;
	p = sleeper_on(0);
	on_cpu(0);
	assert_null(sched_balance_find_dst_group(sd, p, 0));		/* both idle */

	busy_with(0, 1024, 1024);
	on_cpu(0);
	assert_ptr_equal(sched_balance_find_dst_group(sd, p, 0), sd->groups->next);
	assert_int_equal(sched_balance_find_dst_cpu(sd, p, 0, SD_BALANCE_FORK), 1);

	busy_with(1, 600, 1024);
	on_cpu(0);
	assert_ptr_equal(sched_balance_find_dst_group(sd, p, 0), sd->groups->next);
	rq_avg(1)->load_avg = 900;
	assert_null(sched_balance_find_dst_group(sd, p, 0));
	assert_int_equal(sched_balance_find_dst_cpu(sd, p, 0, SD_BALANCE_FORK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_group_classify, lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_update_sd_pick_busiest, lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_calculate_imbalance, lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_detach_tasks_skips_a_cache_hot_task,
						lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_sched_balance_rq_pulls_one_task,
						lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_need_active_balance, lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_find_dst_group_for_a_fork, lb_setup, lb_teardown),
	};

	return SMP_RUN_TESTS(tests);
}
