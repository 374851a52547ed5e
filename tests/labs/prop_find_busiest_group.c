/*
 * tests/labs/prop_find_busiest_group.c - lab find_busiest_group's
 * property test, two kinds of case:
 *   a machine: one of four topologies of four fake CPUs (single cores,
 *	two packages of two cores, one package of four, SMT pairs), 0 to 4
 *	tasks per CPU at any nice level, some CPUs running, their decayed
 *	cpu_load[] above or below the instant load (LB_BIAS), a balancing
 *	CPU, domain level and idle type, some CPUs left out of the mask;
 *	observed: each group's update_sg_lb_stats() figures, then
 *	find_busiest_group()'s busiest group, imbalance and *balance;
 *   the figures: calculate_imbalance() handed a domain's figures (struct
 *	sd_lb_stats) within find_busiest_group()'s preconditions, with
 *	powers 589 to 4096, a third group in the average, a busiest group
 *	imbalanced within or below the average, max_load on fix_small's edge
 *	and 1 either side; observed: the imbalance.
 */
#include <string.h>
#include "smp_lab.h"
#include "property.h"
#include "reference.h"

#define MAXT	4	/* tasks per CPU */
#define MAXB	8	/* tasks of the busiest group (figures) */

struct machine {
	int topo, level, this_cpu, idle;
	int n[SMP_NCPUS], nice[SMP_NCPUS][MAXT], runs[SMP_NCPUS];
	s32 skew[SMP_NCPUS];	/* cpu_load[] - load */
	u32 cpus;		/* the CPUs balanced over */
};

struct figs {
	u32 tpwr, bpwr, p3, extra;
	int tn, bn, tnice[MAXT], bnice[MAXB];
	s32 tjit, bjit;
	int prefer_sibling, group_imb, edge, edge_k, edge_d;
};

struct fbg_case {
	int kind;		/* 0 a machine, 1 the figures */
	struct machine m;
	struct figs f;
};

static const u32 powers[] = { 589, 1024, 1178, 2048, 4096 };
static const char *const idle_names[] = { "CPU_IDLE", "CPU_NOT_IDLE", "CPU_NEWLY_IDLE" };
static const enum cpu_idle_type idles[] = { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE };

static int nice_of(struct prop_rng *r)
{
	static const s64 common[] = { 0, 0, 1, -5, 5, 19, -20 };

	return (int)prop_edge(r, common, 7, -20, 19);
}

static void gen_machine(struct prop_rng *r, struct machine *m)
{
	m->topo = (int)prop_below(r, 4);
	m->level = (int)prop_below(r, 3);	/* up to the highest there is */
	m->this_cpu = (int)prop_below(r, SMP_NCPUS);
	m->idle = (int)prop_below(r, 3);
	m->cpus = 0xf;
	if (prop_chance(r, 15))
		m->cpus = (u32)prop_below(r, 16) | (1u << m->this_cpu);
	for (int c = 0; c < SMP_NCPUS; c++) {
		m->n[c] = (int)prop_below(r, MAXT + 1);
		for (int i = 0; i < m->n[c]; i++)
			m->nice[c][i] = nice_of(r);
		m->runs[c] = m->n[c] && prop_chance(r, 50);
		m->skew[c] = prop_chance(r, 30) ? (s32)prop_range(r, -1500, 1500) : 0;
	}
}

static void gen_figs(struct prop_rng *r, struct figs *f)
{
	f->tpwr = powers[prop_below(r, 5)];
	f->bpwr = powers[prop_below(r, 5)];
	f->p3 = prop_chance(r, 40) ? powers[prop_below(r, 5)] : 0;
	f->extra = f->p3 ? (u32)prop_below(r, 12000) : 0;
	f->tn = (int)prop_below(r, MAXT + 1);
	f->bn = (int)prop_range(r, 1, MAXB);
	for (int i = 0; i < f->tn; i++)
		f->tnice[i] = nice_of(r);
	for (int i = 0; i < f->bn; i++)
		f->bnice[i] = nice_of(r);
	f->tjit = prop_chance(r, 25) ? (s32)prop_range(r, -300, 300) : 0;
	f->bjit = prop_chance(r, 25) ? (s32)prop_range(r, -300, 300) : 0;
	f->prefer_sibling = prop_chance(r, 30);
	f->group_imb = prop_chance(r, 20);
	f->edge = prop_chance(r, 30);
	f->edge_k = (int)prop_below(r, 2);
	f->edge_d = (int)prop_range(r, -1, 1);
}

/* The sd_lb_stats of F; 0 if outside find_busiest_group()'s preconditions. */
static int figures(const struct figs *f, struct sd_lb_stats *s, struct sched_group *tg,
		   struct sched_group *bg)
{
	unsigned long tsum = 0, bsum = 0, cap;
	s64 tl, ml;

	memset(s, 0, sizeof(*s));
	if (f->bn < 1)
		return 0;
	for (int i = 0; i < f->tn; i++)
		tsum += prio_to_weight[f->tnice[i] + 20];
	for (int i = 0; i < f->bn; i++)
		bsum += prio_to_weight[f->bnice[i] + 20];
	tl = (s64)(tsum * SCHED_LOAD_SCALE / f->tpwr) + f->tjit;
	ml = (s64)(bsum * SCHED_LOAD_SCALE / f->bpwr) + f->bjit;
	if (f->edge)
		ml = tl + f->edge_k * (s64)(bsum / (unsigned long)f->bn * SCHED_LOAD_SCALE / f->bpwr) +
		     f->edge_d;
	if (tl < 0 || ml < 0)
		return 0;
	tg->cpu_power = f->tpwr;
	bg->cpu_power = f->bpwr;
	s->this = tg;
	s->busiest = bg;
	s->this_load = (unsigned long)tl;
	s->this_load_per_task = tsum;
	s->this_nr_running = (unsigned long)f->tn;
	s->max_load = (unsigned long)ml;
	s->busiest_load_per_task = bsum;
	s->busiest_nr_running = (unsigned long)f->bn;
	cap = (f->bpwr + SCHED_LOAD_SCALE / 2) / SCHED_LOAD_SCALE;
	s->busiest_group_capacity = f->prefer_sibling ? min(cap, 1UL) : cap;
	s->group_imb = f->group_imb;
	s->avg_load = (s->this_load * f->tpwr / SCHED_LOAD_SCALE +
		       s->max_load * f->bpwr / SCHED_LOAD_SCALE + f->extra) * SCHED_LOAD_SCALE /
		      (f->tpwr + f->bpwr + f->p3);
	return s->this_load < s->max_load && s->this_load < s->avg_load &&
	       100 * s->max_load > 125 * s->this_load;
}

static void generate(struct prop_rng *r, void *p)
{
	struct fbg_case *c = p;
	struct sd_lb_stats s;
	struct sched_group tg, bg;

	c->kind = prop_chance(r, 40) ? 0 : 1;
	if (c->kind == 0) {
		gen_machine(r, &c->m);
		return;
	}
	for (int tries = 0; tries < 100; tries++) {
		gen_figs(r, &c->f);
		if (figures(&c->f, &s, &tg, &bg))
			return;
	}
	c->f.tn = 0;
	c->f.tjit = 0;
	c->f.edge = 0;
}

static void build(const struct machine *m)
{
	smp_lab_start("linux-2.6.35");
	build_sched_domains(&all4, smp_lab_topos[m->topo]);
	for (int c = 0; c < SMP_NCPUS; c++) {
		s64 load;

		for (int i = 0; i < m->n[c]; i++)
			spawn_on(c, "t", m->nice[c][i]);
		if (m->runs[c])
			run_on(c, 0);
		load = (s64)cpu_rq(c)->load.weight + m->skew[c];
		for (int i = 0; i < CPU_LOAD_IDX_MAX; i++)
			cpu_rq(c)->cpu_load[i] = (unsigned long)(load < 0 ? 0 : load);
	}
	on_cpu(m->this_cpu);
}

static void run_machine(const struct machine *m, int reference, struct prop_obs *o)
{
	struct sched_domain *sd;
	struct sched_group *g, *busiest;
	struct cpumask cpus = { m->cpus };
	enum cpu_idle_type idle = idles[m->idle];
	unsigned long imb = 12345;
	int sd_idle = 0, balance = 1;

	build(m);
	sd = cpu_rq(m->this_cpu)->sd;
	for (int l = 0; l < m->level && sd->parent; l++)
		sd = sd->parent;
	g = sd->groups;
	do {
		struct sg_lb_stats sgs;
		int local = cpumask_test_cpu((unsigned int)m->this_cpu, sched_group_cpus(g));
		int bal = 1, sdi = 0, idx = get_sd_load_idx(sd, idle);
		unsigned int first = cpumask_first(sched_group_cpus(g));

		memset(&sgs, 0, sizeof(sgs));
		if (reference)
			ref_update_sg_lb_stats(sd, g, m->this_cpu, idle, idx, &sdi, local, &cpus,
					       &bal, &sgs);
		else
			update_sg_lb_stats(sd, g, m->this_cpu, idle, idx, &sdi, local, &cpus, &bal,
					   &sgs);
		obs_num(o, (s64)sgs.avg_load, "update_sg_lb_stats(): group of CPU %u's avg_load",
			first);
		obs_num(o, (s64)sgs.group_capacity, "group of CPU %u's group_capacity", first);
		obs_num(o, sgs.group_imb, "group of CPU %u's group_imb", first);
		g = g->next;
	} while (g != sd->groups);
	if (reference)
		busiest = ref_find_busiest_group(sd, m->this_cpu, &imb, idle, &sd_idle, &cpus,
						 &balance);
	else
		busiest = find_busiest_group(sd, m->this_cpu, &imb, idle, &sd_idle, &cpus,
					     &balance);
	obs_num(o, busiest ? (s64)busiest->cpumask.bits : -1,
		"find_busiest_group(): the busiest group's CPU mask (-1: none)");
	obs_num(o, (s64)imb, "find_busiest_group(): the imbalance");
	obs_num(o, balance, "find_busiest_group(): *balance");
	detach_sched_domains(&all4);
}

static void run(const void *p, int reference, struct prop_obs *o)
{
	const struct fbg_case *c = p;
	static struct sched_group tg, bg;
	struct sd_lb_stats s;
	unsigned long imb = 12345;

	if (c->kind == 0) {
		run_machine(&c->m, reference, o);
		return;
	}
	smp_lab_start("linux-2.6.35");
	if (!figures(&c->f, &s, &tg, &bg))
		return;		/* a shrink outside the preconditions: nothing to compare */
	if (reference)
		ref_calculate_imbalance(&s, 0, &imb);
	else
		calculate_imbalance(&s, 0, &imb);
	obs_num(o, (s64)imb, "calculate_imbalance(): the imbalance");
}

static int shrink_machine(const struct machine *in, int k, struct machine *out)
{
	for (int c = 0; c < SMP_NCPUS; c++) {
		SHRINK_TRY(in->n[c], out->n[c]--);
		for (int i = 0; i < in->n[c]; i++)
			SHRINK_TRY(in->nice[c][i], out->nice[c][i] = 0);
		SHRINK_TRY(in->skew[c], out->skew[c] = 0);
		SHRINK_TRY(in->runs[c], out->runs[c] = 0);
	}
	SHRINK_TRY(in->cpus != 0xf, out->cpus = 0xf);
	SHRINK_TRY(in->level, out->level = 0);
	SHRINK_TRY(in->topo, out->topo = 0);
	SHRINK_TRY(in->this_cpu, out->this_cpu = 0);
	SHRINK_TRY(in->idle, out->idle = 0);
	return 0;
}

static int shrink_figs(const struct figs *in, int k, struct figs *out)
{
	SHRINK_TRY(in->p3, { out->p3 = 0; out->extra = 0; });
	SHRINK_TRY(in->group_imb, out->group_imb = 0);
	SHRINK_TRY(in->prefer_sibling, out->prefer_sibling = 0);
	SHRINK_TRY(in->tjit, out->tjit = 0);
	SHRINK_TRY(in->bjit, out->bjit = 0);
	SHRINK_TRY(in->edge, out->edge = 0);
	SHRINK_TRY(in->edge && in->edge_d, out->edge_d = 0);
	SHRINK_TRY(in->tpwr != 1024, out->tpwr = 1024);
	SHRINK_TRY(in->bpwr != 1024, out->bpwr = 1024);
	SHRINK_TRY(in->tn, out->tn--);
	SHRINK_TRY(in->bn > 1, out->bn--);
	for (int i = 0; i < in->tn; i++)
		SHRINK_TRY(in->tnice[i], out->tnice[i] = 0);
	for (int i = 0; i < in->bn; i++)
		SHRINK_TRY(in->bnice[i], out->bnice[i] = 0);
	return 0;
}

static int shrink(const void *p, int k, void *q)
{
	const struct fbg_case *in = p;
	struct fbg_case *out = q;

	*out = *in;
	if (in->kind == 0)
		return shrink_machine(&in->m, k, &out->m);
	return shrink_figs(&in->f, k, &out->f);
}

static void describe_machine(const struct machine *m, struct prop_text *t)
{
	prop_say(t, "%s; ", smp_lab_topo_names[m->topo]);
	for (int c = 0; c < SMP_NCPUS; c++) {
		prop_say(t, "CPU %d: %d task%s", c, m->n[c], m->n[c] == 1 ? "" : "s");
		for (int i = 0; i < m->n[c]; i++)
			prop_say(t, "%s%d", i ? "," : " of nice ", m->nice[c][i]);
		if (m->runs[c])
			prop_say(t, ", running");
		if (m->skew[c])
			prop_say(t, ", cpu_load[] = load %+d", m->skew[c]);
		prop_say(t, "; ");
	}
	if (m->cpus != 0xf)
		prop_say(t, "CPU mask 0x%x; ", m->cpus);
	prop_say(t, "CPU %d balances its domain at level %d (0 the lowest; the highest if "
		 "there are fewer) as %s", m->this_cpu, m->level,
		 idle_names[m->idle]);
}

static void describe(const void *p, struct prop_text *t)
{
	const struct fbg_case *c = p;
	static struct sched_group tg, bg;
	struct sd_lb_stats s;

	if (c->kind == 0) {
		describe_machine(&c->m, t);
		return;
	}
	figures(&c->f, &s, &tg, &bg);
	prop_say(t, "calculate_imbalance() with this group power %u, avg_load %lu, %lu tasks "
		 "weighing %lu; busiest power %u, avg_load %lu, %lu tasks weighing %lu, "
		 "capacity %lu%s; domain avg_load %lu", c->f.tpwr, s.this_load,
		 s.this_nr_running, s.this_load_per_task, c->f.bpwr, s.max_load,
		 s.busiest_nr_running, s.busiest_load_per_task, s.busiest_group_capacity,
		 s.group_imb ? ", imbalanced within" : "", s.avg_load);
	if (c->f.p3)
		prop_say(t, " (a third group of power %u)", c->f.p3);
}

static const struct prop_lab lab = {
	.lab = "find_busiest_group", .size = sizeof(struct fbg_case), .cases = 800, .seed = 7,
	.generate = generate, .run = run, .shrink = shrink, .describe = describe,
};

void test_property_find_busiest_group(void **state)
{
	prop_check(&lab);
}
