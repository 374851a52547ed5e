/*
 * tests/host/sched/test_rebalance.c - when a CPU balances (Linux 2.6.35's
 * load_balance(), rebalance_domains(), idle_balance()) on fake CPUs:
 * what moves, the schedstat counters, balance_interval's backoff, the
 * failure count that ends in an active-balance request, and
 * rq->next_balance.  The arithmetic underneath is test_balance.c's; the
 * figures below reuse its hand-computed cases.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "fake.h"
#include "smp_fake.h"
#include "smp_topo.h"
#include <kernel/interrupt.h>
#include <kernel/kernel_stat.h>
#include <kernel/errno.h>
#include <string.h>

static int rebalance_teardown(void **state)
{
	detach_sched_domains(&all4);
	return smp_teardown(state);
}

/* CPU 0's one domain over two sockets (CPU level: 125 %, 1-4 ms, idle_idx 1). */
static struct sched_domain *two_socket_domain(void)
{
	build_sched_domains(&two, two_sockets);
	return cpu_rq(0)->sd;
}

/* Idle CPU 0 beside three nice-0 tasks: imbalance 1536, two move. */
static void test_load_balance_pulls(void **state)
{
	struct sched_domain *sd = two_socket_domain();
	int balance = 1;

	(void)state;
	load_cpu(1, 3, 0);
	sd->balance_interval = 4;
	assert_int_equal(load_balance(0, cpu_rq(0), sd, CPU_IDLE, &balance), 1);
	assert_int_equal(cpu_rq(0)->nr_running, 2);
	assert_int_equal(cpu_rq(1)->nr_running, 1);
	assert_int_equal(sd->balance_interval, 1);	/* unbalanced: min_interval */
	assert_int_equal(sd->nr_balance_failed, 0);
	assert_int_equal(sd->lb_count[CPU_IDLE], 1);
	assert_int_equal(sd->lb_imbalance[CPU_IDLE], 1536);
	assert_int_equal(sd->lb_gained[CPU_IDLE], 2);
	assert_false(raw_spin_is_locked(&cpu_rq(0)->lock) || raw_spin_is_locked(&cpu_rq(1)->lock));
}

/*
 * /proc/schedstat after that balance: a cpu line per online CPU (four) and
 * CPU 0's and CPU 1's one domain, span 00000003; CPU 0's counts the
 * CPU_IDLE balance: lb_count 1, imbalance 1536, gained 2 (2.6.35's order:
 * count balanced failed imbalance gained hot_gained nobusyq nobusyg).
 */
static void test_schedstat_lines(void **state)
{
	struct sched_domain *sd = two_socket_domain();
	static char buf[4096];
	int balance = 1;
	size_t len;

	(void)state;
	load_cpu(1, 3, 0);
	load_balance(0, cpu_rq(0), sd, CPU_IDLE, &balance);
	len = sched_schedstat_snprint(buf, sizeof(buf));
	assert_int_equal(len, strlen(buf));
	assert_true(strstr(buf, "version 15\ntimestamp ") == buf);
	assert_non_null(strstr(buf, "\ndomain0 00000003 1 0 0 1536 2 0 0 0"
				    " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
				    " 0 0 0 0 0 0 0 0 0 0 0 0\ncpu1 "));
	assert_non_null(strstr(buf, "\ndomain0 00000003 0 0 0 0 0 0 0 0 0"));
	assert_non_null(strstr(buf, "\ncpu3 0 0 0 0 0 0 0 0 0\n"));
	assert_null(strstr(buf, "domain1"));
	/* a short buffer: the length it needs, the text cut, NUL-terminated */
	assert_int_equal(sched_schedstat_snprint(buf, 20), len);
	assert_int_equal(strlen(buf), 19);
}

/* One task each: no busiest group; the interval doubles to max_interval (4). */
static void test_balanced_backs_off(void **state)
{
	struct sched_domain *sd = two_socket_domain();
	static const unsigned int interval[] = { 2, 4, 4 };
	int balance = 1;

	(void)state;
	load_cpu(0, 1, 0);
	load_cpu(1, 1, 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(load_balance(0, cpu_rq(0), sd, CPU_NOT_IDLE, &balance), 0);
		assert_int_equal(sd->balance_interval, interval[i]);
	}
	assert_int_equal(sd->lb_balanced[CPU_NOT_IDLE], 3);
	assert_int_equal(sd->lb_nobusyg[CPU_NOT_IDLE], 3);
}

/*
 * Every task of the busiest CPU pinned there: move_tasks() reports all
 * pinned, CPU 1 leaves the candidate set, the redo finds no busiest
 * group; balanced, and the interval doubles (the pinned cap is 512).
 */
static void test_all_pinned(void **state)
{
	struct sched_domain *sd = two_socket_domain();
	int balance = 1;

	(void)state;
	load_cpu(1, 3, 0);
	for (struct list_head *n = cpu_rq(1)->cfs.tasks.next; n != &cpu_rq(1)->cfs.tasks;
	     n = n->next)
		task_of(list_entry(n, struct sched_entity, group_node))->cpus_allowed =
			cpumask_of_cpu(1);
	assert_int_equal(load_balance(0, cpu_rq(0), sd, CPU_IDLE, &balance), 0);
	assert_int_equal(cpu_rq(1)->nr_running, 3);
	assert_int_equal(sd->balance_interval, 2);
	assert_int_equal(sd->lb_nobusyg[CPU_IDLE], 1);	/* the redo's */
	assert_int_equal(sd->lb_balanced[CPU_IDLE], 1);
	assert_int_equal(sd->lb_failed[CPU_IDLE], 0);
}

/*
 * CPU 1 runs A (allowed anywhere) and queues B (pinned to CPU 1): the
 * imbalance is 1024 but nothing can move, and all_pinned is clear (A
 * passed the affinity test).  Failures 1, 2, 3; the 4th makes 4 > 1 + 2:
 * a push of A to CPU 0 is requested and the count drops to 1 + 1.
 */
static void test_failures_request_active_balance(void **state)
{
	struct sched_domain *sd = two_socket_domain();
	struct task *a, *b;
	int balance = 1;

	(void)state;
	load_cpu(1, 2, 0);
	run_on(1, 0);
	a = cpu_curr(1);
	b = list_entry(cpu_rq(1)->cfs.tasks.next, struct sched_entity, group_node) == &a->se
		? task_of(list_entry(cpu_rq(1)->cfs.tasks.prev, struct sched_entity, group_node))
		: task_of(list_entry(cpu_rq(1)->cfs.tasks.next, struct sched_entity, group_node));
	assert_ptr_not_equal(a, b);
	b->cpus_allowed = cpumask_of_cpu(1);
	for (unsigned int i = 1; i <= 3; i++) {
		assert_int_equal(load_balance(0, cpu_rq(0), sd, CPU_IDLE, &balance), 0);
		assert_int_equal(sd->nr_balance_failed, i);
		assert_int_equal(cpu_rq(1)->active_balance, 0);
		assert_int_equal(sd->balance_interval, 1);
	}
	assert_int_equal(load_balance(0, cpu_rq(0), sd, CPU_IDLE, &balance), 0);
	assert_int_equal(cpu_rq(1)->active_balance, 1);
	assert_int_equal(cpu_rq(1)->push_cpu, 0);
	assert_int_equal(sd->nr_balance_failed, 2);
	assert_int_equal(sd->balance_interval, 2);	/* a push under way: back off */
	assert_int_equal(sd->lb_failed[CPU_IDLE], 4);
	assert_int_equal(cpu_rq(1)->nr_running, 2);
	/* the push is CPU 1's stopper's work (active_load_balance_cpu_stop):
	 * here A still runs (no stopper preempted it) and B is pinned, so
	 * nothing moves: alb_count and alb_failed, and the request is over */
	assert_non_null(host_stop_work);
	assert_int_equal(host_stop_cpu, 1);
	assert_int_equal(host_stop_run(), 0);
	assert_int_equal(sd->alb_count, 1);
	assert_int_equal(sd->alb_failed, 1);
	assert_int_equal(sd->alb_pushed, 0);
	assert_int_equal(cpu_rq(1)->active_balance, 0);
	assert_int_equal(cpu_rq(1)->nr_running, 2);
	/* a newly idle CPU never asks for a push */
	sd->nr_balance_failed = 10;
	cpu_rq(1)->active_balance = 0;
	load_balance(0, cpu_rq(0), sd, CPU_NEWLY_IDLE, &balance);
	assert_int_equal(cpu_rq(1)->active_balance, 0);
}

/* Does the tick's trigger_load_balance() raise SCHED_SOFTIRQ on CPU? */
static int balance_raised(int cpu)
{
	int raised;

	this_cpu_write(softirq_pending, 0);
	trigger_load_balance(cpu_rq(cpu), cpu);
	raised = !!(local_softirq_pending() & 1u << SCHED_SOFTIRQ);
	this_cpu_write(softirq_pending, 0);
	return raised;
}

/*
 * rebalance_domains() from CPU 0 of two packages (MC, then CPU), domains
 * built at jiffies J.  Busy: interval 1 ms * busy_factor 64 = 64 jiffies
 * (HZ 1000), nothing due, next_balance J + 64.  Idle: 1 jiffy; at J + 1
 * MC ({0}, {1} both idle) is balanced and CPU pulls two of package 1's
 * three tasks (imbalance 1536); next_balance = J + 1 + 1.
 */
static void test_rebalance_domains(void **state)
{
	struct sched_domain *mc, *top;
	u64 j;

	(void)state;
	jiffies = 5000;
	j = jiffies;
	build_sched_domains(&all4, two_pkgs_two_cores);
	mc = cpu_rq(0)->sd;
	top = mc->parent;
	load_cpu(2, 3, 0);
	rebalance_domains(0, CPU_NOT_IDLE);
	assert_int_equal(cpu_rq(0)->next_balance, j + 64);
	assert_int_equal(mc->lb_count[CPU_NOT_IDLE] + top->lb_count[CPU_NOT_IDLE], 0);
	rebalance_domains(0, CPU_IDLE);
	assert_int_equal(cpu_rq(0)->next_balance, j + 1);
	assert_false(balance_raised(0));

	jiffies = j + 1;
	assert_true(balance_raised(0));
	rebalance_domains(0, CPU_IDLE);
	assert_int_equal(mc->lb_balanced[CPU_IDLE], 1);
	assert_int_equal(top->lb_count[CPU_IDLE], 1);
	assert_int_equal(cpu_rq(0)->nr_running, 2);
	assert_int_equal(cpu_rq(2)->nr_running, 1);
	assert_int_equal(mc->last_balance, j + 1);
	assert_int_equal(top->last_balance, j + 1);
	assert_int_equal(cpu_rq(0)->next_balance, j + 2);
	/* without domains, never due */
	detach_sched_domains(&all4);
	assert_false(balance_raised(0));
}

/*
 * The tick's softirq: scheduler_tick() notes the idle task running
 * (idle_at_tick) and raises SCHED_SOFTIRQ when next_balance is due;
 * do_softirq(), as irq_exit() runs it, balances as CPU_IDLE, counts the
 * softirq in kstat and clears it.  Not due: nothing raised.
 */
static void test_tick_softirq_balances(void **state)
{
	struct sched_domain *mc;
	u32 before;

	(void)state;
	jiffies = 7000;
	build_sched_domains(&all4, two_pkgs_two_cores);
	mc = cpu_rq(0)->sd;
	jiffies += 1;		/* MC's interval (1 ms idle) has passed */
	cpu_rq(0)->next_balance = jiffies;
	this_cpu_write(softirq_pending, 0);
	scheduler_tick();
	assert_int_equal(cpu_rq(0)->idle_at_tick, 1);
	assert_int_equal(local_softirq_pending(), 1u << SCHED_SOFTIRQ);
	before = kstat_cpu(0).softirqs[SCHED_SOFTIRQ];
	do_softirq();
	assert_int_equal(local_softirq_pending(), 0);
	assert_int_equal(kstat_cpu(0).softirqs[SCHED_SOFTIRQ], before + 1);
	assert_int_equal(mc->lb_count[CPU_IDLE], 1);
	assert_int_equal(mc->lb_count[CPU_NOT_IDLE], 0);
	/* next_balance moved past now: the next tick raises nothing */
	assert_true((long)(cpu_rq(0)->next_balance - jiffies) > 0);
	scheduler_tick();
	assert_int_equal(local_softirq_pending(), 0);
	detach_sched_domains(&all4);
}

/*
 * idle_balance() (rq lock held, as schedule() holds it): avg_idle starts
 * at 2 * 0.5 ms, above the migration cost, so CPU 0 pulls at once
 * (CPU_NEWLY_IDLE, newidle_idx 0: two of three, as above); next_balance =
 * last_balance + 1 ms.  A CPU that idled 0.1 ms on average only stamps.
 */
static void test_idle_balance(void **state)
{
	struct sched_domain *sd = two_socket_domain();

	(void)state;
	load_cpu(1, 3, 0);
	raw_spin_lock(&cpu_rq(0)->lock);
	cpu_rq(0)->avg_idle = 100000;
	idle_balance(0, cpu_rq(0));
	assert_int_equal(cpu_rq(0)->idle_stamp, cpu_rq(0)->clock);
	assert_int_equal(cpu_rq(0)->nr_running, 0);

	assert_int_equal(2 * sysctl_sched_migration_cost, 1000000);
	cpu_rq(0)->avg_idle = 2 * sysctl_sched_migration_cost;
	idle_balance(0, cpu_rq(0));
	assert_true(raw_spin_is_locked(&cpu_rq(0)->lock));
	raw_spin_unlock(&cpu_rq(0)->lock);
	assert_int_equal(cpu_rq(0)->nr_running, 2);
	assert_int_equal(cpu_rq(0)->idle_stamp, 0);
	assert_int_equal(sd->lb_count[CPU_NEWLY_IDLE], 1);
	assert_int_equal(cpu_rq(0)->next_balance, sd->last_balance + 1);
}

/* /proc/sys/kernel/sched_domain's files (sd_sysctl.c): CPU 0's only domain
 * is domain0, a refused write leaves the field, an accepted one is the next
 * balance's. */
static void test_sd_sysctl_files(void **state)
{
	struct sched_domain *sd = two_socket_domain();
	char buf[32];

	assert_ptr_equal(sd_sysctl_domain(0, 0), sd);
	assert_null(sd_sysctl_domain(0, 1));
	assert_null(sd_sysctl_domain(NR_CPUS, 0));
	assert_string_equal(sd_sysctl_field_name(0), "min_interval");
	assert_string_equal(sd_sysctl_field_name(sd_sysctl_nr_fields() - 1), "name");
	assert_null(sd_sysctl_field_name(sd_sysctl_nr_fields()));
	assert_false(sd_sysctl_writable(sd_sysctl_nr_fields() - 1));
	sd_sysctl_show(sd, sd_sysctl_nr_fields() - 1, buf, sizeof(buf));
	assert_string_equal(buf, "CPU\n");
	assert_int_equal(sd_sysctl_write(0, 0, 8, "50"), -EINVAL);	/* imbalance_pct < 100 */
	assert_int_equal(sd->imbalance_pct, 125);
	assert_int_equal(sd_sysctl_write(0, 0, 8, "117"), 0);
	assert_int_equal(sd->imbalance_pct, 117);
	assert_int_equal(sd_sysctl_write(0, 0, 2, "5"), -EINVAL);	/* busy_idx past cpu_load[] */
	assert_int_equal(sd_sysctl_write(0, 0, 1, "16"), 0);		/* max_interval, a long */
	assert_int_equal(sd->max_interval, 16);
	sd_sysctl_show(sd, 1, buf, sizeof(buf));
	assert_string_equal(buf, "16\n");
	assert_int_equal(sd_sysctl_write(0, 0, sd_sysctl_nr_fields() - 1, "x"), -EINVAL);
	/* a field index past the table (or below it) is nothing, not a read
	 * past sd_fields[]: the fuzzer once reached field 255 (UBSan) */
	const int bad[] = { -1, sd_sysctl_nr_fields(), 255 };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int f = bad[i];
		assert_false(sd_sysctl_writable(f));
		assert_int_equal(sd_sysctl_show(sd, f, buf, sizeof(buf)), 0);
		assert_int_equal(sd_sysctl_write(0, 0, f, "1"), -EINVAL);
	}
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, smp_setup, rebalance_teardown)
	const struct CMUnitTest tests[] = {
		T(test_load_balance_pulls),
		T(test_schedstat_lines),
		T(test_balanced_backs_off),
		T(test_tick_softirq_balances),
		T(test_all_pinned),
		T(test_failures_request_active_balance),
		T(test_rebalance_domains),
		T(test_idle_balance),
		T(test_sd_sysctl_files),
	};

	return SMP_RUN_TESTS(tests);
}
