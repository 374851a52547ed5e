/*
 * tests/host/sched/test_pelt.c - kernel/sched/pelt.c (Linux 6.12's PELT)
 * against values worked out by hand from the formulas, y = 0.5^(1/32):
 * the table and LOAD_AVG_MAX, decay_load(), a task running 345 ms, an
 * entity asleep halving every 32 periods, a queue's sums against its
 * entities', and a period split between two updates.
 *
 *	build/host/sched_pelt          run the checks (cmocka)
 *	build/host/sched_pelt --print  print docs/SCHEDULER.md's PELT table
 *
 * Units: a time unit is 1024 ns, a period 1024 units (1.048576 ms).
 * yinv[n] below is runnable_avg_yN_inv[n] = (u32)((2^32 - 1) * y^n).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../../kernel/sched/pelt.h"
#include "docblock.h"

/* the series alone: EEVDF's feature bits off (no UTIL_EST flag) */
unsigned int sysctl_sched_features_eevdf;

#define UNIT		1024ULL			/* ns */
#define PERIOD		(1024 * UNIT)		/* ns */
#define NICE_5		335			/* prio_to_weight[25] */

static double y(void) { return pow(0.5, 1.0 / 32); }

/* Documentation/scheduler/sched-pelt.c's two computations, redone. */
static void test_table(void **state)
{
	long max = 1024, last = 0, y_inv = (long)(((1UL << 32) - 1) * y());

	for (int i = 0; i < LOAD_AVG_PERIOD; i++)
		assert_int_equal(runnable_avg_yN_inv[i],
				 (u32)(((1UL << 32) - 1) * pow(y(), i)));
	assert_int_equal(runnable_avg_yN_inv[0], 0xffffffffu);	/* not 2^32 */
	/* max = max * y + 1024 in the table's fixed point, until it stops moving */
	for (int n = -1; ; n++) {
		if (n > -1)
			max = ((max * y_inv) >> 32) + 1024;
		if (last == max)
			break;
		last = max;
	}
	assert_int_equal(max, LOAD_AVG_MAX);
	/* the real series 1024 / (1 - y) = 47788.08; the floors lose 46 */
	assert_int_equal((long)(1024 / (1 - y())), 47788);
}

/*
 * decay_load(47742, n) = 47742 * y^n, floored, with 2^32 - 1 for 2^32:
 *   n = 0:   47742 * (1 - 2^-32)                          = 47741.99..  -> 47741
 *   n = 1:   47742 * 0.9785720620 = 46718.987              -> 46718
 *   n = 31:  47742 * 0.5^(31/32) = 47742 * 0.5109433 = 24393.71 -> 24393
 *   n = 32:  (47742 >> 1) = 23871, * (1 - 2^-32)          -> 23870
 *   n = 63:  23871 * 0.5^(31/32) = 12196.85                -> 12196
 *   n = 64 * 32 = 2048 > 63 * 32:                          -> 0
 *   2^40 * y: 2^40 * 0xfa83b2da >> 32 = 0xfa83b2da << 8    = 1075951360512
 */
static void test_decay_load(void **state)
{
	assert_int_equal(decay_load(LOAD_AVG_MAX, 0), 47741);
	assert_int_equal(decay_load(LOAD_AVG_MAX, 1), 46718);
	assert_int_equal(decay_load(LOAD_AVG_MAX, 31), 24393);
	assert_int_equal(decay_load(LOAD_AVG_MAX, 32), 23870);
	assert_int_equal(decay_load(LOAD_AVG_MAX, 63), 12196);
	assert_int_equal(decay_load(LOAD_AVG_MAX, 64 * 32), 0);
	assert_int_equal(decay_load(~0ULL, 64 * 32), 0);
	assert_true(decay_load(1ULL << 40, 1) == 0xfa83b2daULL << 8);
	/* c2 for one period is empty: 47742 - 46718 - 1024 */
	assert_int_equal(__accumulate_pelt_segments(1, 0, 0), 0);
}

/* A nice-0 task, alone and running on RQ's queue, its sched_avg zero. */
static struct rq rq;
static struct sched_entity *runner(struct sched_entity *se, u32 weight)
{
	memset(se, 0, sizeof(*se));
	se->load.weight = weight;
	se->on_rq = 1;
	return se;
}

/*
 * 345 ms running, one update: 345000000 ns >> 10 = 336914 units
 * = 329 periods + 18 units; d1 = 1024 - 0, d3 = 18:
 *   c1 = decay_load(1024, 329) = (1024 >> 10) * y^9 = 0.82 -> 0
 *   c2 = 47742 - decay_load(47742, 329) - 1024
 *      = 47742 - floor(46 * y^9 = 37.85) - 1024 = 47742 - 37 - 1024 = 46681
 *   contrib = 0 + 46681 + 18 = 46699 = load_sum; util_sum = 46699 << 10
 *   divider = 47742 - 1024 + 18 = 46736
 *   load_avg = 1024 * 46699 / 46736 = 1023.19 -> 1023, util_avg the same
 * against 1024 * (1 - y^k), k = 345 / 1.048576 = 329.02 periods: 1023.18.
 */
#define RUN_NS		345000000ULL
#define RUN_CONTRIB	46699
#define RUN_DIVIDER	46736

static void test_run_345ms(void **state)
{
	struct sched_entity se;
	double k = (double)RUN_NS / PERIOD, ideal = 1024 * (1 - pow(y(), k));

	rq.cfs.curr = runner(&se, NICE_0_LOAD);
	assert_int_equal(__update_load_avg_se(RUN_NS, &rq.cfs, &se), 1);
	assert_true(se.avg.last_update_time == 336914 * UNIT);	/* 64 ns left over */
	assert_int_equal(se.avg.period_contrib, 18);
	assert_int_equal(get_pelt_divider(&se.avg), RUN_DIVIDER);
	assert_int_equal(se.avg.load_sum, RUN_CONTRIB);
	assert_int_equal(se.avg.runnable_sum, RUN_CONTRIB << 10);
	assert_int_equal(se.avg.util_sum, RUN_CONTRIB << 10);
	assert_int_equal(se.avg.load_avg, 1023);
	assert_int_equal(se.avg.runnable_avg, 1023);
	assert_int_equal(se.avg.util_avg, 1023);
	assert_true(fabs(se.avg.util_avg - ideal) < 1);

	/*
	 * The same 345 ms in 1 ms ticks: each crossing floors each sum once,
	 * at most one unit per decay_load, and those losses decay too: under
	 * sum_k y^k < 47 units of load_sum (< 1.03 of load_avg) in all.
	 */
	runner(&se, NICE_0_LOAD);
	for (u64 t = 1000000; t <= RUN_NS; t += 1000000)
		__update_load_avg_se(t, &rq.cfs, &se);
	assert_in_range(RUN_CONTRIB - se.avg.load_sum, 0, 46);
	assert_in_range(se.avg.load_avg, 1022, 1023);
	assert_in_range(se.avg.util_avg, 1022, 1023);
	rq.cfs.curr = NULL;
}

/*
 * Asleep: nothing is added and every 32 periods decay_load() halves a sum
 * and takes one off (the table's y^0 is 1 - 2^-32): s -> floor(s / 2) - 1.
 * From the 345 ms state, period_contrib 18 stays 18 (32 * 1024 + 18 units).
 */
static void test_sleep_halves(void **state)
{
	struct sched_entity se;
	u64 now = RUN_NS;

	rq.cfs.curr = runner(&se, NICE_0_LOAD);
	__update_load_avg_se(now, &rq.cfs, &se);
	se.on_rq = 0;
	rq.cfs.curr = NULL;
	now = se.avg.last_update_time;
	for (int i = 1; i <= 10; i++) {
		u64 load_sum = se.avg.load_sum;
		u32 util_sum = se.avg.util_sum, util_avg = se.avg.util_avg;

		now += 32 * PERIOD;
		assert_int_equal(__update_load_avg_blocked_se(now, &se), 1);
		assert_int_equal(se.avg.period_contrib, 18);
		assert_int_equal(se.avg.load_sum, load_sum / 2 - 1);
		assert_int_equal(se.avg.util_sum, util_sum / 2 - 1);
		assert_in_range(se.avg.util_avg + 1, util_avg / 2, util_avg / 2 + 1);
		if (i == 1) {	/* 23348 * 1024 / 46736 = 511.6 */
			assert_int_equal(se.avg.load_sum, 23348);
			assert_int_equal(se.avg.load_avg, 511);
		}
	}
	/* one 2016-period sleep forgets everything */
	assert_int_equal(__update_load_avg_blocked_se(now + 2017 * PERIOD, &se), 1);
	assert_int_equal(se.avg.load_sum + se.avg.util_sum + se.avg.load_avg, 0);
}

/*
 * A queue against its entities, all updated at the same instants as 6.12
 * does (update_load_avg: the entity, then its queue).  Each update adds the
 * same contrib to every sum, so without decay the queue's sums are exactly
 * its entities' (load weighted by each weight); decay_load() floors each
 * sum separately, so afterwards the queue's can only exceed theirs, by
 * floors that themselves decay (6.12's update_cfs_rq_load_avg() clamps
 * util_sum >= util_avg * PELT_MIN_DIVIDER for the same reason).
 */
static struct sched_entity qa, qb;

static void update_all(u64 now)
{
	__update_load_avg_se(now, &rq.cfs, &qa);
	__update_load_avg_se(now, &rq.cfs, &qb);
	__update_load_avg_cfs_rq(now, &rq.cfs);
}

static void assert_queue_sums(u64 slack_load, u64 slack)
{
	struct sched_avg *q = &rq.eevdf.avg;

	assert_in_range(q->load_sum - (qa.load.weight * qa.avg.load_sum +
				       qb.load.weight * qb.avg.load_sum), 0, slack_load);
	assert_in_range(q->runnable_sum - (qa.avg.runnable_sum + qb.avg.runnable_sum), 0, slack);
	assert_in_range(q->util_sum - (qa.avg.util_sum + qb.avg.util_sum), 0, slack);
}

static void test_queue_is_its_entities(void **state)
{
	struct sched_avg *q = &rq.eevdf.avg;

	memset(&rq, 0, sizeof(rq));
	runner(&qa, NICE_0_LOAD);
	runner(&qb, NICE_5);
	rq.cfs.load.weight = NICE_0_LOAD + NICE_5;
	rq.cfs.nr_running = 2;
	rq.cfs.curr = &qa;

	/* 700 units, no period crossed: every sum is exact */
	update_all(700 * UNIT);
	assert_int_equal(q->load_sum, 1359 * 700);
	assert_int_equal(q->runnable_sum, 2 * 700 << 10);
	assert_int_equal(q->util_sum, 700 << 10);
	assert_queue_sums(0, 0);
	assert_int_equal(q->util_avg, 0);	/* averages wait for a boundary */

	/* 345 ms of 1 ms ticks, A and B taking turns every 4 ms; B
	 * delayed (DELAY_DEQUEUE) for the last 100 ms: queued, not runnable */
	for (u64 t = 1; t <= 345; t++) {
		if (t == 245) {
			qb.sched_delayed = 1;
			rq.eevdf.h_nr_delayed = 1;
			rq.cfs.curr = &qa;
		} else if (t < 245 && t % 4 == 0) {
			rq.cfs.curr = rq.cfs.curr == &qa ? &qb : &qa;
		}
		update_all(t * 1000000);
		/* floors: one per sum and update, decayed: < 47 units, < 1359 * 47 */
		assert_queue_sums(1359 * 47, 47);
		assert_in_range(q->load_avg - (qa.avg.load_avg + qb.avg.load_avg), 0, 2);
		assert_in_range(q->runnable_avg - (qa.avg.runnable_avg + qb.avg.runnable_avg),
				0, 2);
		assert_in_range(q->util_avg - (qa.avg.util_avg + qb.avg.util_avg), 0, 2);
	}
	assert_int_equal(se_runnable(&qb), 0);
	/* the queue ran all the time; its runnable fell towards one task */
	assert_in_range(q->util_avg, 1022, 1023);
	assert_in_range(q->runnable_avg, 1024, 2 * 1024 - 1);
	memset(&rq, 0, sizeof(rq));
}

/*
 * One period in two updates, from zero: 300 units, then to 1224.
 *   first:  no boundary: load_sum = 300, period_contrib = 300, returns 0
 *   second: delta 924 + 300 = 1224: one period, d1 = 724, d3 = 200
 *	load_sum = decay_load(300, 1) + decay_load(724, 1) + 0 + 200
 *		 = floor(293.57) + floor(708.49) + 200 = 1201
 *	util_sum = decay_load(307200, 1) + (708 + 200) << 10
 *		 = floor(300617.3) + 929792 = 1230409
 *	period_contrib = 200, divider = 46718 + 200 = 46918
 *	load_avg = 1024 * 1201 / 46918 = 26.2 -> 26, util_avg 26.2 -> 26
 * One update straight to 1224 gives decay_load(1024, 1) + 200 = 1002 + 200:
 * the split floors twice and loses one.
 */
static void test_period_split(void **state)
{
	struct sched_entity se;

	rq.cfs.curr = runner(&se, NICE_0_LOAD);
	assert_int_equal(__update_load_avg_se(300 * UNIT, &rq.cfs, &se), 0);
	assert_int_equal(se.avg.period_contrib, 300);
	assert_int_equal(se.avg.load_sum, 300);
	assert_int_equal(se.avg.load_avg, 0);
	assert_int_equal(__update_load_avg_se(1224 * UNIT, &rq.cfs, &se), 1);
	assert_int_equal(se.avg.period_contrib, 200);
	assert_int_equal(se.avg.load_sum, 1201);
	assert_int_equal(se.avg.util_sum, 1230409);
	assert_int_equal(se.avg.load_avg, 26);
	assert_int_equal(se.avg.util_avg, 26);

	runner(&se, NICE_0_LOAD);
	__update_load_avg_se(1224 * UNIT, &rq.cfs, &se);
	assert_int_equal(se.avg.load_sum, 1202);
	rq.cfs.curr = NULL;
}

/* Under a unit nothing moves; a clock gone backwards restarts from it. */
static void test_odd_clocks(void **state)
{
	struct sched_entity se;

	rq.cfs.curr = runner(&se, NICE_0_LOAD);
	se.avg.last_update_time = 10 * PERIOD;
	assert_int_equal(__update_load_avg_se(10 * PERIOD + 1023, &rq.cfs, &se), 0);
	assert_true(se.avg.last_update_time == 10 * PERIOD);
	assert_int_equal(se.avg.load_sum, 0);
	assert_int_equal(__update_load_avg_se(5 * PERIOD, &rq.cfs, &se), 0);
	assert_true(se.avg.last_update_time == 5 * PERIOD);
	assert_int_equal(se.avg.load_sum + se.avg.util_sum, 0);
	rq.cfs.curr = NULL;
}

/* ---- docs/SCHEDULER.md's worked example ---------------------------------- */

#define DOC "docs/SCHEDULER.md"

/* The 345 ms run, then 32-period sleeps, as the PELT section shows them. */
static void make_table(char *b, size_t size)
{
	struct sched_entity se;
	u64 now = RUN_NS;
	int n;

	n = snprintf(b, size, "| after | load_sum | util_sum | divider | load_avg | util_avg |"
		     " the real series |\n|---|---:|---:|---:|---:|---:|---:|\n");
	rq.cfs.curr = runner(&se, NICE_0_LOAD);
	for (int i = 0; i <= 4; i++) {
		double k = (double)RUN_NS / PERIOD;
		double real = 1024 * (1 - pow(y(), k)) * pow(0.5, i);

		if (i) {
			se.on_rq = 0;
			rq.cfs.curr = NULL;
			now = se.avg.last_update_time + 32 * PERIOD;
			__update_load_avg_blocked_se(now, &se);
		} else {
			__update_load_avg_se(now, &rq.cfs, &se);
		}
		n += snprintf(b + n, size - n, "| %s%d %s | %llu | %u | %u | %u | %u | %.2f |\n",
			      i ? "+ " : "", i ? 32 * i : 345, i ? "periods asleep" : "ms running",
			      (unsigned long long)se.avg.load_sum, se.avg.util_sum,
			      get_pelt_divider(&se.avg), se.avg.load_avg, se.avg.util_avg, real);
	}
	rq.cfs.curr = NULL;
}

static void test_doc_table(void **state)
{
	char b[2048], *doc = read_doc(DOC), *a, *z;

	assert_non_null(doc);
	make_table(b, sizeof(b));
	a = block(doc, "pelt", &z);
	if (!a) {
		free(doc);
		fail_msg(DOC " has no <!-- worked:pelt --> block");
	}
	*z = '\0';
	if (strcmp(a, b)) {
		fprintf(stderr, DOC "'s PELT table differs from what the code makes "
			"(build/host/sched_pelt --print):\n--- document\n%s--- code\n%s", a, b);
		free(doc);
		fail();
	}
	free(doc);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_decay_load),
		cmocka_unit_test(test_run_345ms),
		cmocka_unit_test(test_sleep_halves),
		cmocka_unit_test(test_queue_is_its_entities),
		cmocka_unit_test(test_period_split),
		cmocka_unit_test(test_odd_clocks),
		cmocka_unit_test(test_doc_table),
	};

	if (argc > 1 && !strcmp(argv[1], "--print")) {
		char b[2048];

		make_table(b, sizeof(b));
		printf("<!-- worked:pelt -->\n%s<!-- /worked:pelt -->\n", b);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
