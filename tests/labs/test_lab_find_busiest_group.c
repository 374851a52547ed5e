/*
 * tests/labs/test_lab_find_busiest_group.c - lab find_busiest_group: the
 * load balancer's arithmetic (Linux 2.6.35 update_sg_lb_stats()'s figures
 * of a group, calculate_imbalance(), fix_small_imbalance()).  The first
 * checks queue tasks on four fake CPUs, build the domains of a topology
 * and call update_sg_lb_stats() or find_busiest_group(); the others hand
 * calculate_imbalance() the domain's figures as update_sd_lb_stats()
 * leaves them (struct sd_lb_stats), so that each edge of the formula is
 * reached on purpose.  Expected figures are the reference's output (the
 * comments show the sums); prop_find_busiest_group.c covers random
 * machines besides.
 */
#include <string.h>
#include "smp_lab.h"

/* the domain of CPU 0 at LEVEL (0 = the lowest; SMT pairs have three:
 * SIBLING, MC of one group, CPU) */
static struct sched_domain *domain(int level)
{
	struct sched_domain *sd = cpu_rq(0)->sd;

	while (level-- > 0)
		sd = sd->parent;
	return sd;
}

static struct sched_group *group_of(struct sched_domain *sd, int cpu)
{
	struct sched_group *g = sd->groups;

	while (!cpumask_test_cpu((unsigned int)cpu, sched_group_cpus(g)))
		g = g->next;
	return g;
}

/* update_sg_lb_stats() of the group holding CPU, balanced from CPU 0, CPU_IDLE */
static struct sg_lb_stats stats(struct sched_domain *sd, int cpu)
{
	struct sg_lb_stats sgs;
	struct sched_group *g = group_of(sd, cpu);
	int sd_idle = 0, balance = 1;

	memset(&sgs, 0, sizeof(sgs));
	update_sg_lb_stats(sd, g, 0, CPU_IDLE, get_sd_load_idx(sd, CPU_IDLE), &sd_idle,
			   cpumask_test_cpu(0, sched_group_cpus(g)), &all4, &balance, &sgs);
	return sgs;
}

/* group_load * 1024 / cpu_power: a group of two CPUs (power 2048) with
 * 4096 of load averages 2048; an SMT thread (power 589) with one nice-0
 * task 1024 * 1024 / 589 = 1780 */
static void test_avg_load_per_power(void **state)
{
	build_sched_domains(&all4, two_pkgs_two_cores);
	load_cpu(2, 3, 0);
	load_cpu(3, 1, 0);
	lab_scenario("two packages of two cores; CPU 2 runs 3 nice-0 tasks, CPU 3 one (4096 in "
		     "all); update_sg_lb_stats() of the package {2,3} (power 2048), from CPU 0");
	LAB_EQ(stats(domain(1), 2).avg_load, 2048, "the group's avg_load");
	detach_sched_domains(&all4);
	smp_lab_start("linux-2.6.35");
	build_sched_domains(&all4, smt_pairs);
	load_cpu(1, 1, 0);
	lab_scenario("two packages of one core with two SMT threads; CPU 1 (CPU 0's sibling "
		     "thread, power 589) runs one nice-0 task; update_sg_lb_stats() of the "
		     "group {1} at the SMT level");
	LAB_EQ(stats(domain(0), 1).avg_load, 1780, "the group's avg_load");
}

/* capacity = DIV_ROUND_CLOSEST(cpu_power, 1024): 589 -> 1, 2048 -> 2, 1178 -> 1 */
static void test_group_capacity_rounds(void **state)
{
	build_sched_domains(&all4, smt_pairs);
	load_cpu(1, 1, 0);
	lab_scenario("two packages of one core with two SMT threads; the SMT level's group {1} "
		     "(power 589), one task");
	LAB_EQ(stats(domain(0), 1).group_capacity, 1, "its group_capacity");
	lab_scenario("two packages of one core with two SMT threads; the package level's group "
		     "{2,3} (power 1178)");
	LAB_EQ(stats(domain(2), 2).group_capacity, 1, "its group_capacity");
	detach_sched_domains(&all4);
	build_sched_domains(&all4, two_pkgs_two_cores);
	lab_scenario("two packages of two cores; the package level's group {2,3} (power 2048)");
	LAB_EQ(stats(domain(1), 2).group_capacity, 2, "its group_capacity");
}

/* group_imb: max - min CPU load > 2 * the group's load per task */
static void test_group_imb_edge(void **state)
{
	build_sched_domains(&all4, two_pkgs_two_cores);
	lab_scenario("two packages of two cores, every CPU idle; group {2,3} from CPU 0");
	LAB_EQ(stats(domain(1), 2).group_imb, 0, "its group_imb");
	load_cpu(2, 2, 0);
	lab_scenario("two packages of two cores; CPU 2 runs two nice-0 tasks, CPU 3 none: "
		     "2048 - 0 is exactly 2 x 1024 per task; group {2,3} from CPU 0");
	LAB_EQ(stats(domain(1), 2).group_imb, 0, "its group_imb");
	load_cpu(2, 1, 0);
	lab_scenario("two packages of two cores; CPU 2 runs three nice-0 tasks, CPU 3 none: "
		     "3072 - 0 > 2 x 1024; group {2,3} from CPU 0");
	LAB_EQ(stats(domain(1), 2).group_imb, 1, "its group_imb");
}

/* find_busiest_group() from CPU 0 at LEVEL; *IMB its imbalance */
static struct sched_group *busiest(int level, enum cpu_idle_type idle, unsigned long *imb)
{
	int sd_idle = 0, balance = 1;

	*imb = 12345;
	return find_busiest_group(domain(level), 0, imb, idle, &sd_idle, &all4, &balance);
}

/* CPU 0 idle, CPU 1 three nice-0 tasks, CPUs 2 and 3 one each: avg 5120 /
 * 4 = 1280, max_pull = min(3072 - 1280, 2 * 1024) = 1792, imbalance
 * min(1792, 1280 - 0) = 1280: what CPU 0 can take up to the average */
static void test_idle_cpu_pulls(void **state)
{
	struct sched_group *g;
	unsigned long imb;

	build_sched_domains(&all4, two_sockets);
	load_cpu(1, 3, 0);
	load_cpu(2, 1, 0);
	load_cpu(3, 1, 0);
	lab_scenario("four packages of one core; CPU 0 idle, CPU 1 runs 3 nice-0 tasks, CPUs 2 "
		     "and 3 one each; find_busiest_group() from CPU 0, CPU_IDLE");
	g = busiest(0, CPU_IDLE, &imb);
	LAB_EQ(g ? (long long)g->cpumask.bits : -1, 0x2, "the busiest group's CPU mask");
	LAB_EQ(imb, 1280, "the imbalance");
}

/* four nice -5 tasks on package {2,3}, package {0,1} idle: capacity 1
 * (SD_PREFER_SIBLING) caps max_pull at 3 * 1024 * 1024 / 2048 = 1536;
 * imbalance min(1536, 3121) * 2048 / 1024 = 3072 < 3121: one task */
static void test_capacity_caps_the_pull(void **state)
{
	unsigned long imb;

	build_sched_domains(&all4, two_pkgs_two_cores);
	load_cpu(2, 2, -5);
	load_cpu(3, 2, -5);
	lab_scenario("two packages of two cores; CPUs 2 and 3 run two nice -5 tasks each "
		     "(3121 apiece), package {0,1} idle; find_busiest_group() at the package "
		     "level from CPU 0, CPU_IDLE");
	LAB_YES(busiest(1, CPU_IDLE, &imb) != NULL, "is a busiest group found");
	LAB_EQ(imb, 3121, "the imbalance");
}

/* The domain's figures as update_sd_lb_stats() leaves them. */
struct figures {
	unsigned int tpwr, bpwr;		/* this and the busiest group's power */
	unsigned long this_load, this_sum, this_nr;	/* avg_load, weight, tasks */
	unsigned long max_load, busiest_sum, busiest_nr, capacity;
	unsigned long avg;
	int group_imb;
};

static unsigned long imbalance_of(const struct figures *f)
{
	static struct sched_group this_g, busiest_g;
	struct sd_lb_stats sds;
	unsigned long imb = 12345;

	memset(&sds, 0, sizeof(sds));
	this_g.cpu_power = f->tpwr;
	busiest_g.cpu_power = f->bpwr;
	sds.this = &this_g;
	sds.busiest = &busiest_g;
	sds.this_load = f->this_load;
	sds.this_load_per_task = f->this_sum;
	sds.this_nr_running = f->this_nr;
	sds.max_load = f->max_load;
	sds.busiest_load_per_task = f->busiest_sum;
	sds.busiest_nr_running = f->busiest_nr;
	sds.busiest_group_capacity = f->capacity;
	sds.avg_load = f->avg;
	sds.group_imb = f->group_imb;
	calculate_imbalance(&sds, 0, &imb);
	return imb;
}

static void say(const struct figures *f, const char *what)
{
	lab_scenario("%s: this group power %u, avg_load %lu, %lu tasks weighing %lu; busiest "
		     "power %u, avg_load %lu, %lu tasks weighing %lu, capacity %lu%s; domain "
		     "avg_load %lu; calculate_imbalance()", what, f->tpwr, f->this_load, f->this_nr,
		     f->this_sum, f->bpwr, f->max_load, f->busiest_nr, f->busiest_sum, f->capacity,
		     f->group_imb ? ", imbalanced within" : "", f->avg);
}

/* max_pull = min(max_load - avg, above capacity): what the busiest can
 * give; the imbalance the lesser of it and what we can take, by power */
static void test_max_pull_caps(void **state)
{
	struct figures a = { 1024, 1024, 1000, 1000, 1, 8192, 8192, 8, 1, 6000, 0 };
	struct figures b = { 1024, 1024, 0, 0, 0, 8192, 8192, 4, 1, 4096, 0 };
	struct figures c = { 1024, 2048, 1000, 1000, 1, 4096, 8192, 8, 2, 3000, 0 };

	/* min(8192 - 6000, 7 * 1024) = 2192; min(2192, 6000 - 1000) = 2192 */
	say(&a, "three groups, the third heavy");
	LAB_EQ(imbalance_of(&a), 2192, "the imbalance");
	/* min(8192 - 4096, 3 * 1024) = 3072; min(3072, 4096) = 3072 */
	say(&b, "the busiest's capacity binds");
	LAB_EQ(imbalance_of(&b), 3072, "the imbalance");
	/* min(4096 - 3000, 6 * 1024 * 1024 / 2048) = 1096; min(1096 * 2048, 2000 * 1024) / 1024 */
	say(&c, "the busiest group has two CPUs' power");
	LAB_EQ(imbalance_of(&c), 2000, "the imbalance");
}

/* smp nice balancing can leave the busiest below the domain's average:
 * no pull but what fix_small_imbalance() grants */
static void test_below_average_busiest(void **state)
{
	struct figures a = { 1024, 1024, 1000, 1000, 1, 2048, 2048, 4, 2, 2500, 0 };
	struct figures b = { 1024, 1024, 1000, 1000, 1, 2048, 2048, 4, 2, 2500, 1 };

	/* per task 512; 2048 - 1000 + 512 >= 2 * 512: one task */
	say(&a, "the busiest below the average");
	LAB_EQ(imbalance_of(&a), 512, "the imbalance");
	say(&b, "the busiest below the average, imbalanced within");
	LAB_EQ(imbalance_of(&b), 512, "the imbalance");
}

/* less than one task: move one if the gap is a task (imbn 2, or 1 when
 * the busiest's tasks are heavier than ours), else only for throughput */
static void test_fix_small_imbalance(void **state)
{
	struct figures a = { 1024, 1024, 1024, 1024, 1, 2048, 2048, 2, 1, 1536, 0 };
	struct figures b = { 1024, 2048, 1200, 1200, 2, 1536, 3072, 3, 2, 1400, 0 };
	struct figures c = { 1024, 1024, 1024, 1024, 1, 1844, 1844, 2, 1, 1434, 0 };

	/* 512 < 1024; 2048 - 1024 + 1024 >= 2 * 1024: one task */
	say(&a, "one task against two");
	LAB_EQ(imbalance_of(&a), 1024, "the imbalance");
	/* ours 600 per task, theirs 1024: imbn 1; 336 + 512 >= 512 */
	say(&b, "our tasks lighter than the busiest's");
	LAB_EQ(imbalance_of(&b), 1024, "the imbalance");
	/* 410 < 922; 820 + 922 < 1844; throughput 1946 either way: stays 410 */
	say(&c, "a nice-0 and a nice-1 task against one nice-0");
	LAB_EQ(imbalance_of(&c), 410, "the imbalance");
}

/* fix_small_imbalance() compares per 1024 of power: the busiest's task
 * scaled by 1024 / 2048 is 512, and 1536 - 1024 + 512 >= 2 * 512 */
static void test_fix_small_power_scale(void **state)
{
	struct figures a = { 1024, 2048, 1024, 1024, 1, 1536, 3072, 3, 2, 1365, 0 };

	say(&a, "a package of two CPUs with three nice-0 tasks against one CPU with one");
	LAB_EQ(imbalance_of(&a), 1024, "the imbalance");
}

static const struct CMUnitTest tests[] = {
	SMP_LAB_TEST(test_avg_load_per_power),
	SMP_LAB_TEST(test_group_capacity_rounds),
	SMP_LAB_TEST(test_group_imb_edge),
	SMP_LAB_TEST(test_idle_cpu_pulls),
	SMP_LAB_TEST(test_capacity_caps_the_pull),
	SMP_LAB_TEST(test_max_pull_caps),
	SMP_LAB_TEST(test_below_average_busiest),
	SMP_LAB_TEST(test_fix_small_imbalance),
	SMP_LAB_TEST(test_fix_small_power_scale),
	SMP_LAB_TEST(test_property_find_busiest_group),
};

LAB_GROUP(find_busiest_group, tests);
