/*
 * tests/labs/prop_wake_affine.c - lab wake_affine's property test: random
 * four-CPU machines under sched_preset=linux-6.12 (one LLC of four cores,
 * two packages of two cores, or no shared cache), each CPU idle, running
 * one or two tasks, or with a task queued it has not switched to; PELT
 * loads and utilisations on the edges (0, equal, 1024, ties of the
 * WA_WEIGHT inequality); the waker's and the wakee's loads; sync; the
 * wakee's allowed CPUs and recent_used_cpu; WA_IDLE, WA_WEIGHT, WA_BIAS
 * and SIS_UTIL on or off.  Observed, in order: wake_affine()'s CPU and
 * the domain's ttwu_move_affine, select_idle_cpu()'s CPU after
 * update_idle_cpu_scan(), select_idle_sibling()'s CPU and the wakee's
 * recent_used_cpu afterwards.
 */
#include <string.h>
#include "smp_lab.h"
#include "property.h"
#include "reference.h"
#include "../../kernel/sched/eevdf_pelt.h"

enum { IDLE, RUNS, RUNS2, QUEUED };
static const char *const state_names[] = { "idle", "runs a task", "runs one of two tasks",
					    "has a task queued, its idle task still runs" };
static const int topos[] = { 2, 1, 0 };		/* smp_lab_topos[] */
static const char *const feats[] = { "WA_IDLE", "WA_WEIGHT", "WA_BIAS", "SIS_UTIL" };

struct wa_case {
	int topo;			/* index in topos[] */
	int st[SMP_NCPUS];
	u32 load[SMP_NCPUS], util[SMP_NCPUS];
	u32 task_load, waker_load;
	int this_cpu, prev, target, recent, sync;
	u32 allowed;
	int off;			/* feats[] bits turned off */
};

static u32 edge_load(struct prop_rng *r)
{
	static const s64 e[] = { 0, 1024, 2048, 3072, 512, 1 };

	return (u32)prop_edge(r, e, 6, 0, 4096);
}

static void generate(struct prop_rng *r, void *p)
{
	static const s64 ue[] = { 0, 1024, 512, 700, 1023 };
	struct wa_case *c = p;

	c->topo = (int)prop_below(r, 3);
	for (int i = 0; i < SMP_NCPUS; i++) {
		c->st[i] = (int)prop_below(r, 4);
		c->load[i] = edge_load(r);
		c->util[i] = (u32)prop_edge(r, ue, 5, 0, 1024);
	}
	c->task_load = edge_load(r);
	c->waker_load = prop_chance(r, 50) ? 0 : edge_load(r);
	c->this_cpu = (int)prop_below(r, SMP_NCPUS);
	c->prev = (int)prop_below(r, SMP_NCPUS);
	if (c->prev == c->this_cpu)
		c->prev = (c->prev + 1) % SMP_NCPUS;
	c->target = prop_chance(r, 50) ? c->this_cpu : c->prev;
	c->recent = (int)prop_below(r, SMP_NCPUS);
	c->sync = prop_chance(r, 40);
	c->allowed = prop_chance(r, 70) ? 0xf : ((u32)prop_below(r, 16) | (1u << c->prev));
	c->off = prop_chance(r, 50) ? (int)prop_below(r, 16) : 0;
	/* WA_WEIGHT's tie, reached past WA_IDLE (both CPUs busy, two tasks
	 * here), 1 either side: 100 * (this - waker + task) = 112 * (prev - task) */
	if (prop_chance(r, 15)) {
		c->st[c->this_cpu] = RUNS2;
		c->st[c->prev] = RUNS;
		c->sync = prop_chance(r, 70);
		c->off &= ~6;
		c->waker_load = 1000;
		c->task_load = 1000;
		c->load[c->this_cpu] = (u32)(1120 + prop_range(r, -1, 1));
		c->load[c->prev] = 2000;
	}
}

static void build(const struct wa_case *c, struct task **pp)
{
	struct task *p;

	smp_lab_start("linux-6.12");
	for (int i = 0; i < 4; i++)
		if (c->off & (1 << i)) {
			char no[16];

			snprintf(no, sizeof(no), "NO_%s", feats[i]);
			sched_feat_parse(no);
		}
	set_schedstats(1);
	build_sched_domains(&all4, smp_lab_topos[topos[c->topo]]);
	for (int i = 0; i < SMP_NCPUS; i++) {
		if (c->st[i] != IDLE)
			smp_lab_queue(i, c->st[i] == RUNS2 ? 2 : 1, c->st[i] != QUEUED);
	}
	for (int i = 0; i < SMP_NCPUS; i++) {
		struct sched_avg *sa = &eevdf_rq(&cpu_rq(i)->cfs)->avg;

		sa->load_avg = c->load[i];
		sa->util_avg = c->util[i];
		sa->util_est = 0;
	}
	p = sleeper_on(c->prev);
	p->se.avg.load_avg = c->task_load;
	p->cpus_allowed.bits = c->allowed;
	p->recent_used_cpu = c->recent;
	on_cpu(c->this_cpu);
	current->se.avg.load_avg = c->waker_load;
	*pp = p;
}

/* the lowest domain of THIS_CPU that spans PREV (select_task_rq's walk) */
static struct sched_domain *affine_sd(int this_cpu, int prev)
{
	struct sched_domain *sd;

	for_each_domain(this_cpu, sd)
		if ((sd->flags & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu((unsigned int)prev, sched_domain_span(sd)))
			return sd;
	return NULL;
}

static void run(const void *q, int reference, struct prop_obs *o)
{
	const struct wa_case *c = q;
	struct sched_domain *sd, *llc;
	struct task *p;
	int cpu;

	build(c, &p);
	sd = affine_sd(c->this_cpu, c->prev);
	if (sd) {
		unsigned int before = sd->ttwu_move_affine;

		cpu = reference ? ref_wake_affine_eevdf(sd, p, c->this_cpu, c->prev, c->sync)
				: wake_affine_eevdf(sd, p, c->this_cpu, c->prev, c->sync);
		obs_num(o, cpu, "wake_affine(): the CPU chosen");
		obs_num(o, sd->ttwu_move_affine - before, "wake_affine(): ttwu_move_affine counted");
	}
	if (reference)
		ref_update_idle_cpu_scan(c->this_cpu);
	else
		update_idle_cpu_scan(c->this_cpu);
	llc = eevdf_sd_llc(c->target);
	if (llc) {
		cpu = reference ? ref_select_idle_cpu(p, llc, c->target)
				: select_idle_cpu(p, llc, c->target);
		obs_num(o, cpu, "update_idle_cpu_scan() then select_idle_cpu(): the idle CPU "
			"found (-1: none)");
	}
	cpu = reference ? ref_select_idle_sibling_eevdf(p, c->prev, c->target)
			: select_idle_sibling_eevdf(p, c->prev, c->target);
	obs_num(o, cpu, "select_idle_sibling(): the CPU chosen");
	obs_num(o, p->recent_used_cpu, "the wakee's recent_used_cpu afterwards");
	current->se.avg.load_avg = 0;
	detach_sched_domains(&all4);
}

static int shrink(const void *q, int k, void *out_)
{
	const struct wa_case *in = q;
	struct wa_case *out = out_;

	*out = *in;
	SHRINK_TRY(in->off, out->off = 0);
	SHRINK_TRY(in->sync, out->sync = 0);
	SHRINK_TRY(in->allowed != 0xf, out->allowed = 0xf);
	SHRINK_TRY(in->waker_load, out->waker_load = 0);
	for (int i = 0; i < SMP_NCPUS; i++) {
		SHRINK_TRY(in->st[i], out->st[i] = IDLE);
		SHRINK_TRY(in->util[i], out->util[i] = 0);
		SHRINK_TRY(in->load[i], out->load[i] = 0);
	}
	SHRINK_TRY(in->task_load, out->task_load = 0);
	SHRINK_TRY(in->topo, out->topo = 0);
	return 0;
}

static void describe(const void *q, struct prop_text *t)
{
	const struct wa_case *c = q;

	prop_say(t, "%s; ", smp_lab_topo_names[topos[c->topo]]);
	for (int i = 0; i < SMP_NCPUS; i++)
		prop_say(t, "CPU %d %s, load_avg %u, util_avg %u; ", i, state_names[c->st[i]],
			 c->load[i], c->util[i]);
	prop_say(t, "CPU %d wakes a task (load_avg %u, last on CPU %d, recent_used_cpu %d, "
		 "cpus_allowed 0x%x)%s, the waker's load_avg %u; target CPU %d", c->this_cpu,
		 c->task_load, c->prev, c->recent, c->allowed, c->sync ? " with sync" : "",
		 c->waker_load, c->target);
	for (int i = 0; i < 4; i++)
		if (c->off & (1 << i))
			prop_say(t, "; NO_%s", feats[i]);
}

static const struct prop_lab lab = {
	.lab = "wake_affine", .size = sizeof(struct wa_case), .cases = 800, .seed = 11,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
};

void test_property_wake_affine(void **state)
{
	prop_check(&lab);
}
