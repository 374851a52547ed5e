/*
 * tests/labs/test_lab_wake_affine.c - lab wake_affine: where a woken task
 * runs under EEVDF on several CPUs (Linux 6.12 wake_affine_idle(),
 * wake_affine_weight(), wake_affine(), update_idle_cpu_scan(),
 * select_idle_cpu() and select_idle_sibling()).  Each check puts four
 * fake CPUs in a chosen state (idle, running a task, or a task queued
 * that the CPU has not switched to yet), sets the PELT loads and
 * utilisations the functions read (the averages are inputs here) and
 * calls the lab's function under sched_preset=linux-6.12.  Expected
 * figures are the reference's output (the comments show the sums);
 * prop_wake_affine.c covers random machines besides.
 */
#include "smp_lab.h"
#include "../../kernel/sched/eevdf_pelt.h"

static struct sched_avg *rq_avg(int cpu)
{
	return &eevdf_rq(&cpu_rq(cpu)->cfs)->avg;
}

/* CPU runs one nice-0 task */
static void busy(int cpu)
{
	smp_lab_queue(cpu, 1, 1);
}

/* one package of four cores (one LLC), CPU 0 the waker's, P asleep, last on 1 */
static struct task *llc_machine(void)
{
	struct task *p;

	build_sched_domains(&all4, one_pkg_four_cores);
	p = sleeper_on(1);
	on_cpu(0);
	return p;
}

static const char *cpu_name(int cpu)
{
	static const char *const n[] = { "CPU 0", "CPU 1", "CPU 2", "CPU 3" };

	return cpu >= 0 && cpu < SMP_NCPUS ? n[cpu] : "no opinion (NR_CPUS)";
}

#define LAB_CPU(got, want, what) do {						\
	int g_ = (got), w_ = (want);						\
	if (g_ != w_)								\
		LAB_FAIL((what), cpu_name(w_), cpu_name(g_));			\
} while (0)

/* WA_IDLE: an idle waking CPU sharing the cache takes the wakee unless the
 * previous CPU is idle too; an idle previous CPU keeps it */
static void test_wa_idle(void **state)
{
	llc_machine();
	busy(1);
	on_cpu(0);
	lab_scenario("one package of four cores; this CPU 0 idle, the wakee's previous CPU 1 "
		     "busy; wake_affine_idle(0, 1, sync=0)");
	LAB_CPU(wake_affine_idle(0, 1, 0), 0, "the CPU WA_IDLE chooses");
	busy(0);
	on_cpu(0);
	lab_scenario("one package of four cores; CPUs 0 and 1 both busy; wake_affine_idle(0, 1, "
		     "sync=0)");
	LAB_CPU(wake_affine_idle(0, 1, 0), NR_CPUS, "the CPU WA_IDLE chooses");
	lab_scenario("one package of four cores; this CPU 0 busy, the previous CPU 2 idle; "
		     "wake_affine_idle(0, 2, sync=0)");
	LAB_CPU(wake_affine_idle(0, 2, 0), 2, "the CPU WA_IDLE chooses");
	lab_scenario("one package of four cores; CPUs 2 and 3 idle; wake_affine_idle(2, 3, "
		     "sync=0): both idle, the previous keeps it");
	LAB_CPU(wake_affine_idle(2, 3, 0), 3, "the CPU WA_IDLE chooses");
}

/* sync: a waker alone on its CPU, about to sleep, hands the CPU over */
static void test_wa_idle_sync(void **state)
{
	llc_machine();
	busy(0);
	busy(1);
	on_cpu(0);
	lab_scenario("one package of four cores; CPUs 0 and 1 each run one task (the waker on "
		     "0); wake_affine_idle(0, 1, sync=1)");
	LAB_CPU(wake_affine_idle(0, 1, 1), 0, "the CPU WA_IDLE chooses");
	load_cpu(0, 1, 0);
	lab_scenario("one package of four cores; CPU 0 runs the waker and has a second task "
		     "queued, CPU 1 busy; wake_affine_idle(0, 1, sync=1)");
	LAB_CPU(wake_affine_idle(0, 1, 1), NR_CPUS, "the CPU WA_IDLE chooses");
	detach_sched_domains(&all4);
	smp_lab_start("linux-6.12");
	build_sched_domains(&all4, two_sockets);
	lab_scenario("four packages of one core (no shared cache); CPU 0 idle, CPU 1 idle; "
		     "wake_affine_idle(0, 1, sync=0)");
	LAB_CPU(wake_affine_idle(0, 1, 0), 1, "the CPU WA_IDLE chooses");
}

/*
 * WA_WEIGHT with WA_BIAS (imbalance_pct 125: 112 on the previous side):
 *	100 * (load(this) + task) < 112 * (load(prev) - task)
 * task 1024: this 1024, prev 2924: 204800 < 212800: this CPU
 */
static void test_wa_weight_bias(void **state)
{
	struct task *p = llc_machine();
	struct sched_domain *sd = cpu_rq(0)->sd;

	p->se.avg.load_avg = 1024;
	rq_avg(0)->load_avg = 1024;
	rq_avg(1)->load_avg = 2924;
	lab_scenario("wakee load_avg 1024; this CPU 0 load_avg 1024, previous CPU 1 2924; "
		     "imbalance_pct 125, WA_BIAS; wake_affine_weight(sd, p, 0, 1, sync=0)");
	LAB_CPU(wake_affine_weight(sd, p, 0, 1, 0), 0, "the CPU WA_WEIGHT chooses");
	sched_feat_parse("NO_WA_BIAS");
	lab_scenario("the same, NO_WA_BIAS: 2048 > 1900");
	LAB_CPU(wake_affine_weight(sd, p, 0, 1, 0), NR_CPUS, "the CPU WA_WEIGHT chooses");
	sched_feat_parse("WA_BIAS");
	rq_avg(1)->load_avg = 3500;
	rq_avg(0)->load_avg = 3000;
	lab_scenario("wakee load_avg 1024; this CPU 0 load_avg 3000, previous CPU 1 3500; "
		     "wake_affine_weight(sd, p, 0, 1, sync=0)");
	LAB_CPU(wake_affine_weight(sd, p, 0, 1, 0), NR_CPUS, "the CPU WA_WEIGHT chooses");
}

/*
 * sync takes the waker's load off this CPU and adds 1 to the previous
 * side, so a tie stacks the wakee on its waker:
 *	waker 1000, task 1000, this 1120, prev 2000:
 *	100 * (1120 - 1000 + 1000) = 112000 = 112 * (2000 - 1000); + 1: this
 */
static void test_wa_weight_sync(void **state)
{
	struct task *p = llc_machine();
	struct sched_domain *sd = cpu_rq(0)->sd;

	p->se.avg.load_avg = 1000;
	current->se.avg.load_avg = 1000;
	rq_avg(0)->load_avg = 1120;
	rq_avg(1)->load_avg = 2000;
	lab_scenario("the waker's load_avg 1000, the wakee's 1000; this CPU 0 load_avg 1120, "
		     "previous CPU 1 2000 (a tie once the waker's load is off); "
		     "wake_affine_weight(sd, p, 0, 1, sync=1)");
	LAB_CPU(wake_affine_weight(sd, p, 0, 1, 1), 0, "the CPU WA_WEIGHT chooses");
	lab_scenario("the same without sync");
	LAB_CPU(wake_affine_weight(sd, p, 0, 1, 0), NR_CPUS, "the CPU WA_WEIGHT chooses");
	current->se.avg.load_avg = 1500;
	rq_avg(1)->load_avg = 0;
	lab_scenario("the waker's load_avg 1500, more than its CPU 0's 1120; previous CPU 1 "
		     "idle (0); wake_affine_weight(sd, p, 0, 1, sync=1)");
	LAB_CPU(wake_affine_weight(sd, p, 0, 1, 1), 0, "the CPU WA_WEIGHT chooses");
	current->se.avg.load_avg = 0;
}

/* wake_affine(): WA_IDLE, then WA_WEIGHT; anything but this CPU means the
 * previous one; an affine move counts in the domain's ttwu_move_affine */
static void test_wake_affine_counts(void **state)
{
	struct task *p = llc_machine();
	struct sched_domain *sd = cpu_rq(0)->sd;

	set_schedstats(1);
	busy(0);
	busy(1);
	on_cpu(0);
	p->se.avg.load_avg = 1024;
	rq_avg(0)->load_avg = 1024;
	rq_avg(1)->load_avg = 3072;
	lab_scenario("CPUs 0 and 1 busy; this CPU 0 load_avg 1024, previous CPU 1 3072, the "
		     "wakee 1024; schedstats on; wake_affine(sd, p, 0, 1, sync=0)");
	LAB_CPU(wake_affine_eevdf(sd, p, 0, 1, 0), 0, "the CPU wake_affine() chooses");
	LAB_EQ(sd->ttwu_move_affine, 1, "the domain's ttwu_move_affine");
	rq_avg(1)->load_avg = 1024;
	lab_scenario("the same, the previous CPU's load_avg 1024");
	LAB_CPU(wake_affine_eevdf(sd, p, 0, 1, 0), 1, "the CPU wake_affine() chooses");
	LAB_EQ(sd->ttwu_move_affine, 1, "the domain's ttwu_move_affine");
	sched_feat_parse("NO_WA_WEIGHT");
	rq_avg(1)->load_avg = 3072;
	lab_scenario("NO_WA_WEIGHT, both CPUs busy, loads 1024 and 3072");
	LAB_CPU(wake_affine_eevdf(sd, p, 0, 1, 0), 1, "the CPU wake_affine() chooses");
}

/* each CPU's util_avg, then SIS_UTIL's depth from CPU 0's periodic balance */
static void utils(u32 u0, u32 u1, u32 u2, u32 u3)
{
	rq_avg(0)->util_avg = u0;
	rq_avg(1)->util_avg = u1;
	rq_avg(2)->util_avg = u2;
	rq_avg(3)->util_avg = u3;
	update_idle_cpu_scan(0);
}

/*
 * SIS_UTIL: x = the LLC's mean util; nr = 4 * (1024 - x^2 * 125^2 /
 * (10000 * 1024)) / 1024 CPUs: utils 1024 1024 0 0 -> x 512, nr 2;
 * utils 0 -> nr 4; all 1024 -> nr 0, no scan.  CPUs 0, 1, 2 busy, 3 idle.
 */
static void test_sis_util_depth(void **state)
{
	struct task *p = llc_machine();

	busy(0);
	busy(1);
	busy(2);
	on_cpu(0);
	utils(1024, 1024, 0, 0);
	lab_scenario("one package of four cores, CPUs 0-2 busy, 3 idle; utils 1024 1024 0 0 "
		     "(depth 2); select_idle_cpu(p, llc, target 0)");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 0), -1, "the idle CPU found (-1: none)");
	utils(0, 0, 0, 0);
	lab_scenario("the same with utils all 0 (depth 4)");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 0), 3, "the idle CPU found (-1: none)");
	utils(700, 700, 700, 700);
	lab_scenario("the same with utils all 700 (x 700: 700^2 * 125^2 / 10240000 = 747, "
		     "depth 4 * 277 / 1024 = 1)");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 2), 3, "the idle CPU found (-1: none)");
	lab_scenario("the same, from target 0: depth 1 sees CPU 1 only");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 0), -1, "the idle CPU found (-1: none)");
	sched_feat_parse("NO_SIS_UTIL");
	lab_scenario("NO_SIS_UTIL, from target 0: the whole LLC");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 0), 3, "the idle CPU found (-1: none)");
}

/* select_idle_sibling(): target if idle, prev if it shares the cache and
 * is idle, the recently used CPU, then the scan */
static void test_sis_order(void **state)
{
	struct task *p = llc_machine();

	busy(0);
	busy(1);
	on_cpu(0);
	utils(1024, 1024, 0, 0);
	lab_scenario("one package of four cores, CPUs 0 and 1 busy, 2 and 3 idle; "
		     "select_idle_sibling(p, prev 1, target 2)");
	LAB_CPU(select_idle_sibling_eevdf(p, 1, 2), 2, "the CPU chosen");
	lab_scenario("the same; select_idle_sibling(p, prev 3, target 0)");
	LAB_CPU(select_idle_sibling_eevdf(p, 3, 0), 3, "the CPU chosen");
	p->recent_used_cpu = 3;
	lab_scenario("the same, the wakee's recent_used_cpu 3; select_idle_sibling(p, prev 1, "
		     "target 0)");
	LAB_CPU(select_idle_sibling_eevdf(p, 1, 0), 3, "the CPU chosen");
	LAB_EQ(p->recent_used_cpu, 1, "the wakee's recent_used_cpu afterwards (its prev)");
	lab_scenario("the same, recent_used_cpu now 1 (= prev); select_idle_sibling(p, prev 1, "
		     "target 0): the scan from CPU 1, depth 2");
	LAB_CPU(select_idle_sibling_eevdf(p, 1, 0), 2, "the CPU chosen");
}

/* idle means available_idle_cpu(): the idle task runs AND nothing is
 * queued (a wakeup may have queued a task it has not switched to yet) */
static void test_sis_available_idle(void **state)
{
	struct task *p = llc_machine();

	busy(0);
	busy(1);
	load_cpu(2, 1, 0);	/* queued, CPU 2 still runs its idle task */
	on_cpu(0);
	utils(0, 0, 0, 0);
	p->recent_used_cpu = 1;
	lab_scenario("one package of four cores, CPUs 0 and 1 busy, CPU 2 runs its idle task "
		     "but has a task queued, CPU 3 idle; select_idle_sibling(p, prev 1, "
		     "target 2)");
	LAB_CPU(select_idle_sibling_eevdf(p, 1, 2), 3, "the CPU chosen");
	lab_scenario("the same; select_idle_sibling(p, prev 2, target 0)");
	LAB_CPU(select_idle_sibling_eevdf(p, 2, 0), 3, "the CPU chosen");
}

/* the scan: P's allowed CPUs only, from target + 1, no further than the depth */
static void test_scan_mask_and_depth(void **state)
{
	struct task *p = llc_machine();

	busy(0);
	busy(1);
	busy(2);
	on_cpu(0);
	utils(0, 0, 0, 0);
	p->cpus_allowed.bits = 0x7;
	lab_scenario("one package of four cores, CPUs 0-2 busy, 3 idle but not in the wakee's "
		     "cpus_allowed (0x7); select_idle_cpu(p, llc, target 0)");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 0), -1, "the idle CPU found (-1: none)");
	p->cpus_allowed.bits = 0xf;
	utils(1024, 1024, 0, 0);
	lab_scenario("CPUs 0-2 busy, 3 idle, all allowed; depth 2; select_idle_cpu(p, llc, "
		     "target 1): it looks at 2 and 3");
	LAB_CPU(select_idle_cpu(p, eevdf_sd_llc(0), 1), 3, "the idle CPU found (-1: none)");
}

static const struct CMUnitTest tests[] = {
	EEVDF_SMP_LAB_TEST(test_wa_idle),
	EEVDF_SMP_LAB_TEST(test_wa_idle_sync),
	EEVDF_SMP_LAB_TEST(test_wa_weight_bias),
	EEVDF_SMP_LAB_TEST(test_wa_weight_sync),
	EEVDF_SMP_LAB_TEST(test_wake_affine_counts),
	EEVDF_SMP_LAB_TEST(test_sis_util_depth),
	EEVDF_SMP_LAB_TEST(test_sis_order),
	EEVDF_SMP_LAB_TEST(test_sis_available_idle),
	EEVDF_SMP_LAB_TEST(test_scan_mask_and_depth),
	EEVDF_SMP_LAB_TEST(test_property_wake_affine),
};

LAB_GROUP(wake_affine, tests);
