/*
 * tests/host/sched/test_balance_worked.c - docs/SCHEDULER.md's worked
 * example of find_busiest_group() (Linux 2.6.35, kernel/sched/balance.c),
 * produced by the unchanged code on four fake CPUs: two packages of two
 * cores; CPU 0 runs one nice-0 task, CPU 1 idles, CPU 2 has three nice-0
 * tasks, CPU 3 a nice-0 and a nice-5 one; idle CPU 1 balances the package
 * level (CPU_IDLE).  The block between <!-- worked:balance --> and
 * <!-- /worked:balance --> is rebuilt from the run and must match byte for
 * byte: each group's figures (update_sg_lb_stats), the domain's average,
 * the imbalance (calculate_imbalance), the busiest queue and the tasks
 * move_tasks() pulls.
 *
 *	build/host/sched_balance_worked           the check (cmocka)
 *	build/host/sched_balance_worked --print   the block as the code makes it
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fake.h"
#include "docblock.h"
#include "smp_fake.h"
#include "smp_topo.h"

#define DOC	"docs/SCHEDULER.md"
#define THIS	1		/* the balancing CPU */

/* the block is written to a memory stream (open_memstream): B, *LEN */
struct buf {
	char *s;
	size_t n;
	FILE *f;
};

static void machine(void)
{
	smp_fake_cpus(SMP_NCPUS);
	knob_set_ok("sched_preset", "linux-2.6.35");
	build_sched_domains(&all4, two_pkgs_two_cores);
	load_cpu(0, 1, 0);
	run_on(0, 0);
	load_cpu(2, 3, 0);
	load_cpu(3, 1, 0);
	load_cpu(3, 1, 5);
}

/* "{2,3}" */
static const char *cpus(const struct sched_group *g)
{
	static char s[2][16];
	static int k;
	char *p = s[k++ % 2];
	size_t n = 0;

	for (unsigned int c = 0; c < SMP_NCPUS; c++)
		if (cpumask_test_cpu(c, &g->cpumask))
			n += (size_t)snprintf(p + n, 16 - n, "%s%u", n ? "," : "{", c);
	snprintf(p + n, 16 - n, "}");
	return p;
}

/* One row per group of SD (update_sg_lb_stats); their loads and powers summed. */
static void groups(FILE *f, struct sched_domain *sd, const struct sd_lb_stats *sds,
		   unsigned long *total, unsigned long *pwr)
{
	int prefer = sd->child && (sd->child->flags & SD_PREFER_SIBLING);
	struct sched_group *g = sd->groups;

	fprintf(f, "| group | CPUs' loads | cpu_power | group_load | "
		"avg_load = load · 1024 / power | tasks | capacity | busiest? |\n"
		"|---|---|---:|---:|---:|---:|---:|---|\n");
	do {
		struct sg_lb_stats sgs;
		int local = cpumask_test_cpu(THIS, &g->cpumask), bal = 1, sdi = 0;
		int c0 = (int)cpumask_first(&g->cpumask);

		memset(&sgs, 0, sizeof(sgs));
		update_sg_lb_stats(sd, g, THIS, CPU_IDLE, get_sd_load_idx(sd, CPU_IDLE), &sdi,
				   local, &all4, &bal, &sgs);
		*total += sgs.group_load;
		*pwr += g->cpu_power;
		fprintf(f, "| %s%s | %lu + %lu | %u | %lu | %lu | %lu | %lu%s | %s |\n",
			cpus(g), local ? " (local)" : "", weighted_cpuload(c0),
			weighted_cpuload(c0 + 1), g->cpu_power, sgs.group_load, sgs.avg_load,
			sgs.sum_nr_running, sgs.group_capacity,
			prefer ? ", counted as 1 (the child's SD_PREFER_SIBLING)" : "",
			g == sds->busiest ? "yes" : "no");
		g = g->next;
	} while (g != sd->groups);
}

/* calculate_imbalance()'s steps, from the figures update_sd_lb_stats() left */
static void steps(FILE *f, struct sched_domain *sd, const struct sd_lb_stats *s,
		  unsigned long total, unsigned long pwr, unsigned long imb)
{
	unsigned long avg = SCHED_LOAD_SCALE * total / pwr, bpwr = s->busiest->cpu_power;
	unsigned long lac = (s->busiest_nr_running - s->busiest_group_capacity) *
			    SCHED_LOAD_SCALE * SCHED_LOAD_SCALE / bpwr;

	fprintf(f, "\n- domain average: avg_load = 1024 · %lu / %lu = %lu; ours %lu, the "
		"busiest's %lu (100 · %lu > %u · %lu: out of balance)\n", total, pwr, avg,
		s->this_load, s->max_load, s->max_load, sd->imbalance_pct, s->this_load);
	fprintf(f, "- the busiest's load per task %lu / %lu = %lu; its load above capacity "
		"(%lu − %lu) · 1024 · 1024 / %lu = %lu\n", s->busiest_load_per_task,
		s->busiest_nr_running, s->busiest_load_per_task / s->busiest_nr_running,
		s->busiest_nr_running, s->busiest_group_capacity, bpwr, lac);
	fprintf(f, "- max_pull = min(%lu − %lu, %lu) = %lu; imbalance = min(max_pull · %lu, "
		"(%lu − %lu) · %u) / 1024 = **%lu**\n", s->max_load, avg, lac,
		min(s->max_load - avg, lac), bpwr, avg, s->this_load, s->this->cpu_power, imb);
}

/* find_busiest_queue() and move_tasks(IMB) from it to THIS */
static void pull(FILE *f, struct sched_domain *sd, struct sched_group *busiest,
		 unsigned long imb)
{
	struct rq *src = find_busiest_queue(busiest, CPU_IDLE, imb, &all4);
	unsigned long load = weighted_cpuload(cpu_of(src));
	unsigned int before[SMP_NCPUS], was = src->nr_running;
	int pinned = 1;

	for (int c = 0; c < SMP_NCPUS; c++)
		before[c] = cpu_rq(c)->nr_running;
	on_cpu(THIS);
	double_rq_lock(cpu_rq(THIS), src);
	move_tasks(cpu_rq(THIS), THIS, src, imb, sd, CPU_IDLE, &pinned);
	double_rq_unlock(cpu_rq(THIS), src);
	on_cpu(0);
	fprintf(f, "- find_busiest_queue(): CPU %d (load %lu); move_tasks(%lu) pulls %u "
		"task%s to CPU %d: tasks per CPU %u %u %u %u → %u %u %u %u\n", cpu_of(src), load,
		imb, was - src->nr_running, was - src->nr_running == 1 ? "" : "s", THIS,
		before[0], before[1], before[2], before[3], cpu_rq(0)->nr_running,
		cpu_rq(1)->nr_running, cpu_rq(2)->nr_running, cpu_rq(3)->nr_running);
}

static void make(struct buf *b)
{
	struct sched_domain *sd;
	struct sched_group *busiest;
	struct sd_lb_stats sds;
	unsigned long imb, total = 0, pwr = 0;
	int sd_idle = 0, balance = 1;

	b->f = open_memstream(&b->s, &b->n);
	assert_non_null(b->f);
	machine();
	sd = cpu_rq(THIS)->sd->parent;
	memset(&sds, 0, sizeof(sds));
	update_sd_lb_stats(sd, THIS, CPU_IDLE, &sd_idle, &all4, &balance, &sds);
	groups(b->f, sd, &sds, &total, &pwr);
	busiest = find_busiest_group(sd, THIS, &imb, CPU_IDLE, &sd_idle, &all4, &balance);
	assert_non_null(busiest);
	assert_ptr_equal(busiest, sds.busiest);
	steps(b->f, sd, &sds, total, pwr, imb);
	pull(b->f, sd, busiest, imb);
	detach_sched_domains(&all4);
	assert_int_equal(fclose(b->f), 0);
}

static void test_balance_block(void **state)
{
	struct buf b;
	char *doc = read_doc(DOC), *a, *z;

	(void)state;
	assert_non_null(doc);
	make(&b);
	a = block(doc, "balance", &z);
	if (!a) {
		free(doc);
		fail_msg("%s has no <!-- worked:balance --> block", DOC);
	}
	*z = '\0';
	if (strcmp(a, b.s)) {
		fprintf(stderr, "%s's block 'balance' differs from what the code makes "
			"(build/host/sched_balance_worked --print):\n--- document\n%s--- code\n%s",
			DOC, a, b.s);
		free(doc);
		free(b.s);
		fail();
	}
	free(doc);
	free(b.s);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_balance_block, smp_setup, smp_teardown),
	};

	if (argc > 1 && !strcmp(argv[1], "--print")) {
		struct buf b;
		int ret;

		host_percpu_setup(SMP_NCPUS);
		make(&b);
		ret = smp_teardown(NULL);
		host_percpu_teardown();
		printf("<!-- worked:balance -->\n%s<!-- /worked:balance -->\n", b.s);
		free(b.s);
		return ret;
	}
	return SMP_RUN_TESTS(tests);
}
