/*
 * tests/host/sched/test_eevdf_smp.c - the EEVDF class's wakeup placement
 * (kernel/sched/eevdf_smp.c, Linux 6.12's select_task_rq_fair() fast
 * path) on four fake CPUs under sched_preset=linux-6.12, against cases
 * worked out by hand (the comments show the arithmetic):
 * wake_affine_weight() on PELT loads, wake_affine_idle(), wake_wide(),
 * SIS_UTIL's scan depth and select_idle_sibling()'s order of candidates;
 * and PELT's averages following a task moved queued or asleep.
 *
 * PELT figures are set directly (the averages are the inputs here; the
 * series is test_pelt.c's).  Domains: two_sockets (a CPU level, no shared
 * cache) or one_pkg_four_cores (an MC level: one last-level cache),
 * imbalance_pct 125 either way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "smp_topo.h"
#include "../../../kernel/sched/eevdf_pelt.h"

static int eevdf_smp_setup(void **state)
{
	smp_setup(state);
	knob_set_ok("sched_preset", "linux-6.12");
	return 0;
}

static int eevdf_smp_teardown(void **state)
{
	detach_sched_domains(&all4);
	return smp_teardown(state);
}

static struct sched_avg *rq_avg(int cpu)
{
	return &eevdf_rq(&cpu_rq(cpu)->cfs)->avg;
}

/* CPU runs one nice-0 task (not idle). */
static void busy(int cpu)
{
	load_cpu(cpu, 1, 0);
	run_on(cpu, 0);
}

/*
 * WA_WEIGHT with WA_BIAS: this CPU wins if
 *	100 * 1024 * (load(this) + task) < 112 * 1024 * (load(prev) - task)
 * (112 = 100 + (125 - 100) / 2; both capacities 1024).  Task 1024:
 *	this 1024, prev 3072:  100 * 2048 = 204800 < 112 * 2048 = 229376: this
 *	this 2048, prev 2048:  100 * 3072 = 307200 > 112 * 1024 = 114688: no
 *	this 1024, prev 2100:  100 * 2048 = 204800 > 112 * 1076 = 120512: no
 *	(2.6.35's wake_affine, on the same loads, takes this CPU for the last:
 *	 this_load + prev's <= one task's average fails, but not the slack)
 * sync (the waker, load 1024, leaves this CPU):
 *	this 1024 - 1024 + 1024 = 1024, prev 1024 - 1024 = 0, + 1: no
 *	a waker heavier than its CPU's load: this CPU at once
 */
static void test_wake_affine_weight(void **state)
{
	struct sched_domain *sd;
	struct task *p;

	(void)state;
	build_sched_domains(&two, two_sockets);
	sd = cpu_rq(0)->sd;
	assert_int_equal(sd->imbalance_pct, 125);
	p = sleeper_on(1);
	p->se.avg.load_avg = 1024;
	on_cpu(0);

	rq_avg(0)->load_avg = 1024;
	rq_avg(1)->load_avg = 3072;
	assert_int_equal(wake_affine_weight(sd, p, 0, 1, 0), 0);

	rq_avg(0)->load_avg = 2048;
	rq_avg(1)->load_avg = 2048;
	assert_int_equal(wake_affine_weight(sd, p, 0, 1, 0), NR_CPUS);

	rq_avg(0)->load_avg = 1024;
	rq_avg(1)->load_avg = 2100;
	assert_int_equal(wake_affine_weight(sd, p, 0, 1, 0), NR_CPUS);
	sched_feat_parse("NO_WA_BIAS");		/* no slack: 2048 > 1076 */
	assert_int_equal(wake_affine_weight(sd, p, 0, 1, 0), NR_CPUS);
	sched_feat_parse("WA_BIAS");

	current->se.avg.load_avg = 1024;	/* the waker */
	rq_avg(0)->load_avg = 1024;
	rq_avg(1)->load_avg = 1024;
	assert_int_equal(wake_affine_weight(sd, p, 0, 1, 1), NR_CPUS);
	current->se.avg.load_avg = 2000;
	assert_int_equal(wake_affine_weight(sd, p, 0, 1, 1), 0);
	current->se.avg.load_avg = 0;

	/* wake_affine(): WA_IDLE has no opinion (both busy), WA_WEIGHT says
	 * this CPU; the domain counts the affine move */
	set_schedstats(1);
	busy(0);
	busy(1);
	on_cpu(0);
	rq_avg(0)->load_avg = 1024;
	rq_avg(1)->load_avg = 3072;
	assert_int_equal(wake_affine_eevdf(sd, p, 0, 1, 0), 0);
	assert_int_equal(sd->ttwu_move_affine, 1);
	rq_avg(1)->load_avg = 1024;
	assert_int_equal(wake_affine_eevdf(sd, p, 0, 1, 0), 1);	/* prev */
	assert_int_equal(sd->ttwu_move_affine, 1);
}

/*
 * WA_IDLE: an idle waking CPU takes the wakee only if it shares the
 * previous CPU's cache and that one is busy; a sync waker alone on its
 * CPU hands it over; an idle previous CPU keeps it.
 */
static void test_wake_affine_idle(void **state)
{
	(void)state;
	build_sched_domains(&all4, one_pkg_four_cores);
	busy(1);
	assert_true(cpus_share_cache(0, 3));
	assert_int_equal(wake_affine_idle(0, 1, 0), 0);	/* this idle, prev busy */
	assert_int_equal(wake_affine_idle(0, 2, 0), 2);	/* both idle: prev */
	assert_int_equal(wake_affine_idle(1, 2, 0), 2);	/* prev idle */
	assert_int_equal(wake_affine_idle(1, 1, 1), 1);	/* sync, alone on it */
	busy(2);
	assert_int_equal(wake_affine_idle(1, 2, 0), NR_CPUS);
	detach_sched_domains(&all4);

	build_sched_domains(&all4, two_sockets);	/* no shared cache */
	assert_false(cpus_share_cache(0, 3));
	assert_int_equal(wake_affine_idle(0, 1, 0), NR_CPUS);
	assert_int_equal(wake_affine_idle(0, 3, 0), 3);	/* prev idle */
}

/*
 * wake_wide(): with an LLC of 4, wide once the lesser flip count is >= 4
 * and the greater >= 4 times it.  record_wakee() counts a flip per new
 * wakee.
 */
static void test_wake_wide(void **state)
{
	struct task *a, *b;

	(void)state;
	build_sched_domains(&all4, one_pkg_four_cores);
	a = sleeper_on(1);
	b = sleeper_on(2);
	on_cpu(0);
	current->wakee_flips = 16;
	a->wakee_flips = 3;
	assert_false(wake_wide(a));		/* 3 < 4 */
	a->wakee_flips = 4;
	assert_true(wake_wide(a));		/* 16 >= 4 * 4 */
	a->wakee_flips = 5;
	assert_false(wake_wide(a));		/* 16 < 20 */

	current->wakee_flips = 0;
	current->wakee_flip_decay_ts = jiffies;
	select_task_rq_eevdf(a, SD_BALANCE_WAKE, 0);
	select_task_rq_eevdf(a, SD_BALANCE_WAKE, 0);	/* same wakee: no flip */
	select_task_rq_eevdf(b, SD_BALANCE_WAKE, 0);
	assert_int_equal(current->wakee_flips, 2);
	assert_ptr_equal(current->last_wakee, b);
}

/* Each CPU's utilisation, then SIS_UTIL's depth from CPU 0's periodic balance. */
static void set_utils(u32 u0, u32 u1, u32 u2, u32 u3)
{
	rq_avg(0)->util_avg = u0;
	rq_avg(1)->util_avg = u1;
	rq_avg(2)->util_avg = u2;
	rq_avg(3)->util_avg = u3;
	update_idle_cpu_scan(0);
}

/*
 * select_idle_sibling(p, prev, target), one LLC of four CPUs, 0 and 1 busy.
 * SIS_UTIL's depth from the LLC's mean utilisation x (1024 = busy):
 *	utils 1024 1024 0 0:  x = 512, x^2 * 125^2 / (10000 * 1024) = 400,
 *			      nr = 4 * (1024 - 400) / 1024 = 2 CPUs
 *	utils all 1024:       x = 1024, 1600 -> 1024, nr = 0: no scan
 * The scan starts at target + 1 and stops when the depth runs out.
 */
static void test_select_idle_sibling(void **state)
{
	struct task *p;

	(void)state;
	build_sched_domains(&all4, one_pkg_four_cores);
	busy(0);
	busy(1);
	p = sleeper_on(1);
	on_cpu(0);

	set_utils(1024, 1024, 0, 0);
	assert_int_equal(select_idle_sibling_eevdf(p, 1, 2), 2);	/* target idle */
	assert_int_equal(select_idle_sibling_eevdf(p, 2, 0), 2);	/* prev idle, shares */
	/* target and prev busy: the scan from 1 finds 2 at depth 2 */
	assert_int_equal(select_idle_sibling_eevdf(p, 1, 0), 2);
	assert_int_equal(p->recent_used_cpu, 1);

	/* a recently used CPU that is idle comes before the scan */
	p->recent_used_cpu = 3;
	assert_int_equal(select_idle_sibling_eevdf(p, 1, 0), 3);
	assert_int_equal(p->recent_used_cpu, 1);	/* prev remembered */

	/* 2 busy too: the depth of 2 covers 1 and 2 only, 3 is not seen */
	busy(2);
	on_cpu(0);
	assert_int_equal(select_idle_sibling_eevdf(p, 1, 0), 0);
	sched_feat_parse("NO_SIS_UTIL");	/* the whole LLC */
	assert_int_equal(select_idle_sibling_eevdf(p, 1, 0), 3);
	sched_feat_parse("SIS_UTIL");

	/* an overloaded LLC: no scan at all */
	set_utils(1024, 1024, 1024, 1024);
	assert_int_equal(select_idle_cpu(p, eevdf_sd_llc(0), 0), -1);
	set_utils(1024, 1024, 0, 0);
	p->cpus_allowed.bits = 0x7;		/* 3 not allowed */
	assert_int_equal(select_idle_cpu(p, eevdf_sd_llc(0), 1), -1);
}

/* No shared cache (one core per package): the scan has no LLC domain. */
static void test_select_idle_sibling_without_llc(void **state)
{
	struct task *p;

	(void)state;
	build_sched_domains(&all4, two_sockets);
	busy(0);
	busy(1);
	p = sleeper_on(1);
	on_cpu(0);
	assert_null(eevdf_sd_llc(0));
	assert_int_equal(select_idle_sibling_eevdf(p, 1, 0), 0);
	assert_int_equal(select_idle_sibling_eevdf(p, 2, 0), 0);	/* not cache-affine */
}

/*
 * PELT follows a task between CPUs (eevdf_pelt.c).  Moved while queued
 * (move_queued_task: TASK_ON_RQ_MIGRATING), its averages leave the old
 * queue's at the dequeue (DO_DETACH) and join the new one's at the
 * enqueue (DO_ATTACH, its window aligned on the queue's); moved asleep
 * (set_task_cpu at a wakeup), they are noted in the old queue's
 * "removed", subtracted at its next update.  No time passes in between
 * (the fake clock only moves with ticks), so the figures are exact.
 */
static void test_pelt_follows_a_migrated_task(void **state)
{
	struct task *a, *b, *p;
	u32 l0, lp;

	(void)state;
	a = spawn_on(0, "a", 0);
	b = spawn_on(0, "b", 0);
	run_on(0, 40);			/* both have a history on CPU 0 */
	on_cpu(0);
	p = current == a ? b : a;	/* the queued, not running one */
	l0 = rq_avg(0)->load_avg;
	lp = p->se.avg.load_avg;
	assert_true(lp > 0 && l0 >= lp);

	double_rq_lock(cpu_rq(0), cpu_rq(1));
	move_queued_task(cpu_rq(0), p, cpu_rq(1));
	double_rq_unlock(cpu_rq(0), cpu_rq(1));
	assert_int_equal(task_cpu(p), 1);
	assert_int_equal(p->on_rq, 1);
	assert_int_equal(rq_avg(0)->load_avg, l0 - lp);
	assert_int_equal(rq_avg(1)->load_avg, lp);
	assert_true(p->se.avg.last_update_time == rq_avg(1)->last_update_time);

	/* asleep on CPU 1, woken onto CPU 2: CPU 1 keeps it as "removed" */
	run_on(1, 3);
	on_cpu(1);
	assert_ptr_equal(current, p);
	block_current(TASK_INTERRUPTIBLE);
	lp = p->se.avg.load_avg;
	l0 = rq_avg(1)->load_avg;
	set_task_cpu(p, 2);
	assert_int_equal(eevdf_rq(&cpu_rq(1)->cfs)->removed.nr, 1);
	assert_int_equal(eevdf_rq(&cpu_rq(1)->cfs)->removed.load_avg, lp);
	assert_true(p->se.avg.last_update_time == 0);	/* to be attached on CPU 2 */
	assert_int_equal(rq_avg(1)->load_avg, l0);	/* until its next update */
	update_cfs_rq_load_avg(cpu_rq(1)->clock, &cpu_rq(1)->cfs);
	assert_int_equal(eevdf_rq(&cpu_rq(1)->cfs)->removed.nr, 0);
	assert_int_equal(rq_avg(1)->load_avg, l0 - lp);
	on_cpu(0);
}

/*
 * A queued move (move_queued_task) is a dequeue that is not a sleep, so
 * the old queue notes the entity and its weight for its re-enqueue's lag
 * rescaling (enqueue_entity: vlag' = vlag * w / w').  The re-enqueue is on
 * the new queue: the old one must forget it.  Else, back on that queue
 * later with another weight (nice 5: 335, reweighted and rescaled once on
 * CPU 1), its lag is rescaled again by 1024 / 335 at the wakeup.
 */
static void test_moved_task_leaves_no_reweight_note(void **state)
{
	struct task *a, *b, *p;

	(void)state;
	a = spawn_on(0, "a", 0);
	b = spawn_on(0, "b", 0);
	run_on(0, 4);
	on_cpu(0);
	p = current == a ? b : a;	/* the queued, not running one */

	double_rq_lock(cpu_rq(0), cpu_rq(1));
	move_queued_task(cpu_rq(0), p, cpu_rq(1));
	double_rq_unlock(cpu_rq(0), cpu_rq(1));
	assert_null(eevdf_rq(&cpu_rq(0)->cfs)->reweight_se);

	set_user_nice(p, 5);		/* queued on CPU 1: rescaled there */
	assert_int_equal(p->se.load.weight, 335);
	assert_null(eevdf_rq(&cpu_rq(1)->cfs)->reweight_se);
	run_on(1, 3);
	on_cpu(1);
	assert_ptr_equal(current, p);
	block_current(TASK_INTERRUPTIBLE);
	assert_int_equal(p->se.sched_delayed, 0);	/* alone: eligible */
	p->se.vlag = 1000000;		/* owed 1 ms of virtual time */

	on_cpu(0);
	set_task_cpu(p, 0);
	assert_int_equal(wake_up_process(p), 1);
	assert_int_equal(p->se.vlag, 1000000);	/* not 3056716 */
	assert_int_equal(sched_verify(), 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, eevdf_smp_setup, eevdf_smp_teardown)
	const struct CMUnitTest tests[] = {
		T(test_wake_affine_weight),
		T(test_wake_affine_idle),
		T(test_wake_wide),
		T(test_select_idle_sibling),
		T(test_select_idle_sibling_without_llc),
		T(test_pelt_follows_a_migrated_task),
		T(test_moved_task_leaves_no_reweight_note),
	};

	return SMP_RUN_TESTS(tests);
}
