/*
 * tools/granule/sim/engine/tasks_smp.c - `tools/sim tasks --cpus N`: who
 * moved between CPUs, and why, read from the scheduler's own state around
 * each step of tests/host/sched/sim_smp.c:
 *   - a fork: where fork balancing (SD_BALANCE_FORK, find_idlest_group())
 *     put the task, with each CPU's load at the fork index (under EEVDF,
 *     6.12's sched_balance_find_dst_group(): only where);
 *   - a wakeup: select_task_rq_fair()'s choice from the timer's CPU, the
 *     sleeper's own (select_idle_sibling() when it is busy; wake_affine()
 *     and its loads when the waking CPU is another);
 *   - a periodic balance (the scheduler softirq's rebalance_domains()):
 *     find_busiest_group()'s figures, computed just before it runs (the
 *     functions are pure: the same inputs, the same answer), the tasks
 *     moved (schedstat lb_gained), those moved cache-hot (lb_hot_gained),
 *     and a balance that found an imbalance but moved nothing: which
 *     tasks were cache-hot (task_hot()), and whether the stopper was asked
 *     (under EEVDF, 6.12's sched_balance_rq(): its imbalance and moves from
 *     the counters, in the unit its group types chose);
 *   - a newly idle balance (idle_balance() in schedule()): its imbalance
 *     and count, from the same counters;
 *   - the active balance: migration/N's push.
 * The counters are schedstats: with sched_schedstats=0 a balance's move
 * is still shown, its counts not.
 */
#include <stdio.h>
#include <string.h>

#include "tasks.h"
#include "../../tests/host/sched/fake.h"
#include "../../kernel/sched/sched.h"
#include "../../kernel/sched/topology.h"
#include "../../kernel/sched/stats.h"
#include "../../kernel/sched/eevdf.h"

#define MAX_MOVES	400
#define WHY_LEN		420

struct move {
	u64 t;
	int who;			/* spec index, -2 child; -4 a refused balance */
	int from, to;
	char why[WHY_LEN];
};

static struct move moves[MAX_MOVES];
static int nmoves, lost;
static struct sim_task **spec;
static int nspec;

/* what a step may change, noted before it */
struct snap {
	int cpu[MAX_TASKS];		/* each spec task's CPU */
	unsigned int gained[SIM_MAX_CPUS][CPU_MAX_IDLE_TYPES];
	unsigned int hot[SIM_MAX_CPUS][CPU_MAX_IDLE_TYPES];
	unsigned int imb[SIM_MAX_CPUS][CPU_MAX_IDLE_TYPES];
	unsigned int failed[SIM_MAX_CPUS][CPU_MAX_IDLE_TYPES];
	unsigned int count[SIM_MAX_CPUS][CPU_MAX_IDLE_TYPES];
	unsigned long src[SIM_MAX_CPUS], tgt[SIM_MAX_CPUS];	/* at wake_idx */
	/* a periodic balance about to run: find_busiest_group()'s view */
	int balancing, idle;
	unsigned long this_load, max_load, avg_load, imbalance;
	int busiest_cpu;
	unsigned int nr_failed, nice_tries;
	char hot_list[160];
};

static struct snap before[4];	/* nested steps: the stopper inside an action */
static int depth;

static void note(u64 t, int who, int from, int to, const char *why)
{
	struct move *m;

	if (nmoves == MAX_MOVES) {
		lost++;
		return;
	}
	m = &moves[nmoves++];
	m->t = t;
	m->who = who;
	m->from = from;
	m->to = to;
	snprintf(m->why, sizeof(m->why), "%s", why);
}

/* The one domain level of -smp N (MC); a deeper machine: the lowest. */
static struct sched_domain *domain_of(int cpu)
{
	return cpu_rq(cpu)->sd;
}

/* The queued, not running spec tasks of BUSIEST: which are cache-hot? */
static void hot_tasks(struct snap *b, int this_cpu, struct rq *busiest, struct sched_domain *sd)
{
	size_t l = 0;

	b->hot_list[0] = '\0';
	for (int i = 0; i < nspec; i++) {
		struct task *p = &spec[i]->t;
		s64 ago = (s64)(busiest->clock - p->se.exec_start);

		if ((int)task_cpu(p) != cpu_of(busiest) || !p->se.on_rq || busiest->curr == p)
			continue;
		host_cpu = this_cpu;		/* task_hot() reads this_rq() */
		if (task_hot(p, busiest->clock, sd) && l < sizeof(b->hot_list) - 56)
			l += (size_t)snprintf(b->hot_list + l, sizeof(b->hot_list) - l,
					      "%s%s ran %.3f ms ago by its rq clock", l ? ", " : "",
					      p->comm, ago / 1e6);
	}
}

/* find_busiest_group() as CPU's balance of type IDLE sees the machine. */
static void balance_view(struct snap *b, int cpu, enum cpu_idle_type idle)
{
	struct sched_domain *sd = domain_of(cpu);
	struct sd_lb_stats sds;
	struct sched_group *g;
	struct rq *busiest;
	int sd_idle = 0, balance = 1;

	b->balancing = 0;
	if (!sd)
		return;
	b->balancing = 1;
	b->idle = idle;
	memset(&sds, 0, sizeof(sds));
	update_sd_lb_stats(sd, cpu, idle, &sd_idle, cpu_online_mask, &balance, &sds);
	b->this_load = sds.this_load;
	b->max_load = sds.max_load;
	b->avg_load = sds.total_pwr ? SCHED_LOAD_SCALE * sds.total_load / sds.total_pwr : 0;
	balance = 1;
	sd_idle = 0;
	g = find_busiest_group(sd, cpu, &b->imbalance, idle, &sd_idle, cpu_online_mask, &balance);
	busiest = g ? find_busiest_queue(g, idle, b->imbalance, cpu_online_mask) : NULL;
	b->busiest_cpu = busiest ? cpu_of(busiest) : -1;
	b->nr_failed = sd->nr_balance_failed;
	b->nice_tries = sd->cache_nice_tries;
	b->hot_list[0] = '\0';
	if (busiest)
		hot_tasks(b, cpu, busiest, sd);
	host_cpu = cpu;
}

static void take(struct snap *b, struct sim *s, int cpu, enum sim_event ev)
{
	for (int i = 0; i < nspec; i++)
		b->cpu[i] = (int)task_cpu(&spec[i]->t);
	for (int c = 0; c < s->ncpus; c++) {
		struct sched_domain *sd = domain_of(c);

		for (int k = 0; k < CPU_MAX_IDLE_TYPES && sd; k++) {
			b->gained[c][k] = sd->lb_gained[k];
			b->hot[c][k] = sd->lb_hot_gained[k];
			b->imb[c][k] = sd->lb_imbalance[k];
			b->failed[c][k] = sd->lb_failed[k];
			b->count[c][k] = sd->lb_count[k];
		}
		if (sd) {
			b->src[c] = source_load(c, (int)sd->wake_idx);
			b->tgt[c] = target_load(c, (int)sd->wake_idx);
		}
	}
	b->balancing = 0;
	if (ev == SIM_EV_BALANCE)	/* the softirq's type, as run_rebalance_domains() */
		balance_view(b, cpu, cpu_rq(cpu)->idle_at_tick ? CPU_IDLE : CPU_NOT_IDLE);
}

static const char *const idle_names[CPU_MAX_IDLE_TYPES] = {
	[CPU_IDLE] = "idle", [CPU_NOT_IDLE] = "busy", [CPU_NEWLY_IDLE] = "newly idle",
};

/* A periodic balance's account: its figures, what moved. */
static void why_balance(char *w, const struct snap *b, int cpu, int moved, int hot)
{
	const char *sd_name = domain_of(cpu)->name;
	int k = b->idle;

	if (sched_eevdf() && !schedstat_enabled()) {	/* 6.12's: its counts are schedstats */
		snprintf(w, WHY_LEN, "balance on CPU%d (%s, domain %s): 6.12's sched_balance_rq, by "
			 "group type (schedstats=enable for its counts)", cpu, idle_names[k], sd_name);
		return;
	}
	if (sched_eevdf()) {
		snprintf(w, WHY_LEN, "balance on CPU%d (%s, domain %s): 6.12's sched_balance_rq, "
			 "imbalance %u (tasks, util or load, by group type); %d task%s moved%s", cpu,
			 idle_names[k], sd_name, domain_of(cpu)->lb_imbalance[k] - b->imb[cpu][k], moved,
			 moved == 1 ? "" : "s", hot ? ", cache-hot, after enough failures" : "");
		return;
	}

	snprintf(w, WHY_LEN, "balance on CPU%d (%s, domain %s): local load %lu, busiest CPU%d "
		 "load %lu, avg %lu -> imbalance %lu; %d task%s moved%s", cpu, idle_names[k], sd_name,
		 b->this_load, b->busiest_cpu, b->max_load, b->avg_load, b->imbalance, moved,
		 moved == 1 ? "" : "s", hot ? ", cache-hot, after enough failures" : "");
}

/*
 * A wakeup's account, on CPU (the timer's CPU, where it was armed): if that
 * is the task's previous CPU, 2.6.35's select_task_rq_fair() skips
 * wake_affine() and select_idle_sibling() took an idle CPU of the package;
 * else wake_affine()'s loads and its verdict.
 */
static void why_wakeup(char *w, const struct snap *b, struct task *p, int cpu, int from, int to)
{
	if (from == cpu)
		snprintf(w, WHY_LEN, "wakeup on CPU%d (its timer's CPU, where it slept): busy, so "
			 "select_idle_sibling() chose idle CPU%d", cpu, to);
	else if (to != cpu)
		snprintf(w, WHY_LEN, "wakeup on CPU%d: select_task_rq_fair() chose CPU%d", cpu, to);
	else
		snprintf(w, WHY_LEN, "wakeup on CPU%d (the timer's CPU): wake_affine yes: this CPU%d "
			 "load %lu (+%lu its weight) against prev CPU%d load %lu", cpu, cpu, b->tgt[cpu],
			 (unsigned long)p->se.load.weight, from, b->src[from]);
}

/* A busiest group found, nothing moved: why not. */
static void refused(struct sim *s, const struct snap *b, int cpu, struct sched_domain *sd)
{
	char w[WHY_LEN];

	snprintf(w, WHY_LEN, "balance on CPU%d (%s): busiest CPU%d, imbalance %lu, nothing moved "
		 "(%s%s); nr_balance_failed %u, cache_nice_tries %u%s", cpu, idle_names[b->idle],
		 b->busiest_cpu, b->imbalance, !b->imbalance ? "no move worth it" :
		 b->hot_list[0] ? "cache-hot: " : "its tasks running or pinned",
		 b->imbalance ? b->hot_list : "", sd->nr_balance_failed, b->nice_tries,
		 host_stop_work && (int)host_stop_cpu == b->busiest_cpu ?
		 "; so its stopper is asked to push the running task" : "");
	note(sim_elapsed(s), -4, b->busiest_cpu, cpu, w);
}

/* CPU went idle beside a CPU with tasks waiting, and did not look. */
static void skipped_idle(struct sim *s, int cpu)
{
	char w[WHY_LEN];
	int waiting = 0;

	for (int c = 0; c < s->ncpus; c++)
		waiting |= cpu_rq(c)->nr_running > 1;
	if (!waiting || cpu_rq(cpu)->avg_idle >= sysctl_sched_migration_cost)
		return;
	snprintf(w, WHY_LEN, "CPU%d newly idle, idle_balance() skipped: avg_idle %.3f ms < "
		 "sched_migration_cost %.3f ms (it idles too briefly of late)", cpu,
		 cpu_rq(cpu)->avg_idle / 1e6, sysctl_sched_migration_cost / 1e6);
	note(sim_elapsed(s), -4, cpu, cpu, w);
}

static void report(struct sim *s, const struct snap *b, int cpu, enum sim_event ev)
{
	struct sched_domain *sd = domain_of(cpu);
	int idle = ev == SIM_EV_BALANCE ? b->idle : CPU_NEWLY_IDLE;
	int moved = sd ? (int)(sd->lb_gained[idle] - b->gained[cpu][idle]) : 0;
	int hot = sd ? (int)(sd->lb_hot_gained[idle] - b->hot[cpu][idle]) : 0;
	char w[WHY_LEN];

	for (int i = 0; i < nspec; i++) {
		int to = (int)task_cpu(&spec[i]->t), from = b->cpu[i];

		if (to == from)
			continue;
		if (ev == SIM_EV_BALANCE)
			why_balance(w, b, cpu, moved, hot);
		else if (ev == SIM_EV_WAKEUP)
			why_wakeup(w, b, &spec[i]->t, cpu, from, to);
		else if (ev == SIM_EV_STOPPER)
			snprintf(w, WHY_LEN, "active balance: migration/%d preempted it and pushed it to "
				 "CPU%d (asked by that CPU's failed balances)", cpu, to);
		else
			snprintf(w, WHY_LEN, "idle balance on CPU%d (newly idle, in schedule()): "
				 "imbalance %u; %d task%s moved", to,
				 sd ? sd->lb_imbalance[CPU_NEWLY_IDLE] - b->imb[to][CPU_NEWLY_IDLE] : 0,
				 moved, moved == 1 ? "" : "s");
		note(sim_elapsed(s), i, from, to, w);
	}
	if (ev != SIM_EV_BALANCE && sd && sd->lb_failed[CPU_NEWLY_IDLE] !=
	    b->failed[cpu][CPU_NEWLY_IDLE]) {
		struct snap now = *b;	/* nothing moved: the machine idle_balance() saw */

		balance_view(&now, cpu, CPU_NEWLY_IDLE);
		now.imbalance = sd->lb_imbalance[CPU_NEWLY_IDLE] - b->imb[cpu][CPU_NEWLY_IDLE];
		refused(s, &now, cpu, sd);
	} else if (ev == SIM_EV_BALANCE && sd && sd->lb_failed[idle] != b->failed[cpu][idle]) {
		struct snap now = *b;

		if (sched_eevdf())	/* 6.12's imbalance, not 2.6.35's view of it */
			now.imbalance = sd->lb_imbalance[idle] - b->imb[cpu][idle];
		refused(s, &now, cpu, sd);
	} else if (ev == SIM_EV_ACTION && sd && cpu_curr(cpu) == cpu_rq(cpu)->idle &&
		   sd->lb_count[CPU_NEWLY_IDLE] == b->count[cpu][CPU_NEWLY_IDLE]) {
		skipped_idle(s, cpu);
	}
}

static void observe(struct sim *s, int cpu, enum sim_event ev, int after)
{
	if (ev == SIM_EV_TICK)
		return;			/* the tick's balance is SIM_EV_BALANCE */
	if (!after) {
		if (depth < 4)
			take(&before[depth], s, cpu, ev);
		depth++;
		return;
	}
	depth--;
	if (depth < 4) {
		report(s, &before[depth], cpu, ev);
		host_cpu = cpu;
	}
	for (int d = 0; d < depth && d < 4; d++)	/* an inner step's moves are told */
		for (int i = 0; i < nspec; i++)
			before[d].cpu[i] = (int)task_cpu(&spec[i]->t);
}

void smp_watch(struct sim *s, struct sim_task **st, int n)
{
	spec = st;
	nspec = 0;			/* smp_spawn() counts them in */
	(void)n;
	s->on_event = observe;
}

/* Spec task I forked where the spec says: from CPU 0 with init's mask
 * (fork balancing places it), or from CPU N pinned there, then let go. */
struct sim_task *smp_spawn(struct sim *s, const struct spec_task *sp, int i)
{
	int from = sp[i].cpu < 0 ? 0 : sp[i].cpu;
	struct sched_domain *sd = domain_of(from);
	unsigned long load[SIM_MAX_CPUS];
	char w[WHY_LEN];
	size_t l;
	struct sim_task *t;

	for (int c = 0; c < s->ncpus; c++)
		load[c] = c == from ? source_load(c, (int)sd->forkexec_idx) :
			  target_load(c, (int)sd->forkexec_idx);
	host_cpu = from;
	if (sp[i].cpu >= 0 || sp[i].pinned)
		s->spawn_mask = cpumask_of_cpu((unsigned int)from);
	t = sim_spawn(s, sp[i].kind, sp[i].name, sp[i].nice, sp[i].run_ns, sp[i].sleep_ns);
	if (!sp[i].pinned)
		t->t.cpus_allowed = *cpu_online_mask;
	s->spawn_mask = *cpu_online_mask;
	host_cpu = 0;
	spec[i] = t;
	nspec = i + 1;
	if (sp[i].cpu >= 0 || sp[i].pinned) {
		snprintf(w, sizeof(w), "forked on CPU%d pinned there (taskset)%s", from,
			 sp[i].pinned ? ", and kept there" : ", then allowed every CPU (taskset -p)");
		note(0, i, from, (int)task_cpu(&t->t), w);
		return t;
	}
	if (sched_eevdf()) {
		snprintf(w, sizeof(w), "fork on CPU0, fork balance (6.12's sched_balance_find_dst_group: "
			 "group types on PELT)");
		note(0, i, 0, (int)task_cpu(&t->t), w);
		return t;
	}
	l = (size_t)snprintf(w, sizeof(w), "fork on CPU0, fork balance (find_idlest_group, "
			     "idx %u): CPU0 low guess %lu", sd->forkexec_idx, load[0]);
	for (int c = 1; c < s->ncpus && l < sizeof(w) - 30; c++)
		l += (size_t)snprintf(w + l, sizeof(w) - l, ", CPU%d high %lu", c, load[c]);
	note(0, i, 0, (int)task_cpu(&t->t), w);
	return t;
}

/* -1 idle, -2 a child, -3 a stopper, else the spec index of CPU's current */
static int running_on(int cpu)
{
	struct task *t = cpu_curr(cpu);

	if (t == cpu_rq(cpu)->idle)
		return -1;
	for (int i = 0; i < nspec; i++)
		if (&spec[i]->t == t)
			return i;
	return container_of(t, struct sim_task, t)->kind == SIM_STOPPER ? -3 : -2;
}

void smp_record(struct point *p, struct sim_task **st, int n)
{
	for (int c = 0; c < SIM_MAX_CPUS; c++)
		p->curs[c] = c < (int)nr_cpu_ids ? running_on(c) : -1;
	for (int i = 0; i < n; i++) {
		struct sched_entity *se = &st[i]->t.se;
		int c = (int)task_cpu(&st[i]->t);
		struct cfs_rq *cfs = &cpu_rq(c)->cfs;

		p->cpu[i] = (signed char)c;
		p->state[i] = se->on_rq ? 'R' : 'S';
		if (sched_eevdf()) {
			u64 V = avg_vruntime(cfs);

			p->key[i] = se->on_rq ? entity_lag(V, se) : se->vlag;
			if (se->on_rq && entity_eligible(cfs, se))
				p->state[i] = 'E';
		} else {
			p->key[i] = (s64)(se->vruntime - cfs->min_vruntime);
		}
	}
}

/* one character per task in the timeline: its index, 0-9 then a-f */
static char task_char(int i)
{
	return i == -1 ? '.' : i == -2 ? '+' : i == -3 ? '*' : "0123456789abcdef"[i];
}

void smp_print_points(int np, const struct spec_task *sp, int n, int answers)
{
	int eevdf = sched_eevdf(), ncpus = (int)nr_cpu_ids;

	printf("\nScheduling points (after the first pick and after each of CPU 0's ticks; per task\n"
	       "its CPU, state and %s against that CPU's queue):\n", eevdf ? "lag" : "vruntime - min_vruntime");
	printf("%10s ", "time(ms)");
	for (int c = 0; c < ncpus; c++)
		printf(" cpu%-4d", c);
	for (int i = 0; i < n; i++)
		printf(eevdf ? "  %4s  cpu lag(us)" : "  %4s cpu v-minv(us)", sp[i].name);
	printf("\n");
	for (int k = 0; k < np; k++) {
		const struct point *p = &points[k];

		printf("%10.3f ", p->t / 1e6);
		for (int c = 0; c < ncpus; c++)
			printf(" %-7s", answers ? who_name(sp, p->curs[c]) : "?");
		for (int i = 0; i < n; i++) {
			if (answers)
				printf("  %c%-2d %14.1f", p->state[i], p->cpu[i], p->key[i] / 1e3);
			else
				printf("  %18s", "?");
		}
		printf("\n");
	}
}

void smp_print_timeline(int np, const struct spec_task *sp, int n, u64 until)
{
	u64 cell = until / 60 ? until / 60 : 1;

	printf("\nTimeline, one row per CPU (one column = %.3f ms; each task by its number:",
	       cell / 1e6);
	for (int i = 0; i < n; i++)
		printf(" %c=%s", task_char(i), sp[i].name);
	printf("; + a child, * migration/N, . idle):\n");
	for (int c = 0; c < (int)nr_cpu_ids; c++) {
		int k = 0;

		printf("  cpu%-2d |", c);
		for (u64 t = 0; t < until; t += cell) {
			while (k + 1 < np && points[k + 1].t <= t)
				k++;
			putchar(task_char(points[k].curs[c]));
		}
		printf("|\n");
	}
}

void smp_print_migrations(const struct spec_task *sp, int answers)
{
	if (!answers) {
		printf("\nWhich task moves to which CPU, when, and why? (fork and wakeup placement, "
		       "the balancer)\n");
		return;
	}
	printf("\nMigrations (who moved to which CPU, and why; and balances that found an imbalance\n"
	       "but moved nothing):\n");
	printf("%10s  %-5s %-8s  %s\n", "time(ms)", "task", "cpu", "why");
	for (int k = 0; k < nmoves; k++) {
		const struct move *m = &moves[k];
		char ft[16];

		snprintf(ft, sizeof(ft), "%d->%d", m->from, m->to);
		printf("%10.3f  %-5s %-8s  %s\n", m->t / 1e6, m->who == -4 ? "-" : who_name(sp, m->who),
		       ft, m->why);
	}
	if (lost)
		printf("  (%d more not kept)\n", lost);
}
