/*
 * kernel/sched/topology.h - scheduling domains and groups (Linux 2.6.35's
 * struct sched_domain and struct sched_group, <linux/sched.h> and
 * <linux/topology.h>), and the balancer's interface (balance.c,
 * fair_smp.c).  Included by those files and their host tests only.
 *
 * A CPU's domains nest from the closest CPUs outwards:
 *	SIBLING	the hardware threads of one core (SMT), sharing its power
 *	MC	the cores of one package, sharing its cache
 *	CPU	every CPU of the machine
 * each the parent of the one below.  A domain's span is divided into
 * groups (a circular list, the local group first): in SIBLING one group per
 * thread, in MC one per core, in CPU one per package.  Load balancing at a
 * level moves load between the groups of that level only.
 */
#ifndef KERNEL_SCHED_TOPOLOGY_H
#define KERNEL_SCHED_TOPOLOGY_H

#include "sched.h"

/* <linux/sched.h> 2.6.35: a domain's flags */
#define SD_LOAD_BALANCE		0x0001	/* do load balancing on this domain */
#define SD_BALANCE_NEWIDLE	0x0002	/* balance when about to become idle */
#define SD_BALANCE_EXEC		0x0004	/* balance on exec */
#define SD_BALANCE_FORK		0x0008	/* balance on fork, clone */
#define SD_BALANCE_WAKE		0x0010	/* balance on wakeup */
#define SD_WAKE_AFFINE		0x0020	/* wake task to waking CPU */
#define SD_PREFER_LOCAL		0x0040	/* prefer to keep tasks local to this domain */
#define SD_SHARE_CPUPOWER	0x0080	/* domain members share cpu power */
#define SD_POWERSAVINGS_BALANCE	0x0100	/* balance for power savings */
#define SD_SHARE_PKG_RESOURCES	0x0200	/* domain members share cpu pkg resources */
#define SD_SERIALIZE		0x0400	/* only a single load balancing instance */
#define SD_PREFER_SIBLING	0x1000	/* prefer to place tasks in a sibling domain */

#define SCHED_LOAD_SCALE	(1UL << SCHED_LOAD_SHIFT)	/* 1024: one CPU's power */

enum cpu_idle_type {
	CPU_IDLE,		/* periodic balance of an idle CPU */
	CPU_NOT_IDLE,		/* periodic balance of a busy CPU */
	CPU_NEWLY_IDLE,		/* idle_balance(): about to go idle */
	CPU_MAX_IDLE_TYPES
};

enum sched_domain_level {
	SD_LV_NONE = 0,
	SD_LV_SIBLING,
	SD_LV_MC,
	SD_LV_CPU,
	SD_LV_MAX
};

struct sched_group {
	struct sched_group *next;	/* circular */
	/* the group's power, SCHED_LOAD_SCALE per full CPU (an SMT thread
	 * less: smt_gain / threads) */
	unsigned int cpu_power;
	struct cpumask cpumask;
};

static inline struct cpumask *sched_group_cpus(struct sched_group *sg)
{
	return &sg->cpumask;
}

static inline unsigned int group_first_cpu(struct sched_group *group)
{
	return cpumask_first(sched_group_cpus(group));
}

struct sched_domain {
	struct sched_domain *parent;	/* top domain: NULL */
	struct sched_domain *child;	/* bottom domain: NULL */
	struct sched_group *groups;	/* the balancing groups, local first */
	unsigned long min_interval;	/* minimum balance interval, ms */
	unsigned long max_interval;	/* maximum balance interval, ms */
	unsigned int busy_factor;	/* less balancing by factor if busy */
	unsigned int imbalance_pct;	/* no balance until over watermark, % */
	unsigned int cache_nice_tries;	/* leave cache-hot tasks for # tries */
	unsigned int busy_idx;		/* cpu_load[] index when busy ... */
	unsigned int idle_idx;		/* ... when idle */
	unsigned int newidle_idx;	/* ... when newly idle */
	unsigned int wake_idx;		/* ... at wakeup */
	unsigned int forkexec_idx;	/* ... at fork and exec */
	unsigned int smt_gain;		/* SMT: a core's power, all threads (1178) */
	int flags;			/* SD_* */
	enum sched_domain_level level;

	/* runtime fields */
	unsigned long last_balance;	/* jiffies of the last balance */
	unsigned int balance_interval;	/* ms; doubles while balanced */
	unsigned int nr_balance_failed; /* load_balance() failures in a row */

	/* schedstats (2.6.35 names, /proc/schedstat version 15's order) */
	unsigned int lb_count[CPU_MAX_IDLE_TYPES];
	unsigned int lb_failed[CPU_MAX_IDLE_TYPES];
	unsigned int lb_balanced[CPU_MAX_IDLE_TYPES];
	unsigned int lb_imbalance[CPU_MAX_IDLE_TYPES];
	unsigned int lb_gained[CPU_MAX_IDLE_TYPES];
	unsigned int lb_hot_gained[CPU_MAX_IDLE_TYPES];
	unsigned int lb_nobusyg[CPU_MAX_IDLE_TYPES];
	unsigned int lb_nobusyq[CPU_MAX_IDLE_TYPES];
	unsigned int alb_count, alb_failed, alb_pushed;		/* active balance */
	unsigned int sbe_count, sbe_balanced, sbe_pushed;	/* SD_BALANCE_EXEC */
	unsigned int sbf_count, sbf_balanced, sbf_pushed;	/* SD_BALANCE_FORK */
	unsigned int ttwu_wake_remote, ttwu_move_affine, ttwu_move_balance;

	const char *name;		/* "SIBLING", "MC", "CPU" */
	unsigned int span_weight;	/* cpumask_weight(span) */
	struct cpumask span;
};

static inline struct cpumask *sched_domain_span(struct sched_domain *sd)
{
	return &sd->span;
}

/* CPU's domains, bottom up (2.6.35; rq->sd is the lowest left after the
 * degenerate ones are dropped). */
#define for_each_domain(cpu, __sd) \
	for (__sd = cpu_rq(cpu)->sd; __sd; __sd = __sd->parent)

/* Does any parent of SD have FLAG? (2.6.35 test_sd_parent) */
static inline int test_sd_parent(struct sched_domain *sd, int flag)
{
	return sd->parent && (sd->parent->flags & flag);
}

/*
 * After a placement walk chose CPU at a level of WEIGHT CPUs: the highest
 * of CPU's smaller domains with SD_FLAG, where the walk goes on (2.6.35's
 * and 6.12's select_task_rq_fair(), find_idlest and find_dst walks).
 */
static inline struct sched_domain *sd_below(int cpu, unsigned int weight, int sd_flag)
{
	struct sched_domain *tmp, *sd = NULL;

	for_each_domain(cpu, tmp) {
		if (weight <= tmp->span_weight)
			break;
		if (tmp->flags & sd_flag)
			sd = tmp;
	}
	return sd;
}

/* ---- topology.c: domains built from a description of the machine ------ */

/*
 * Where each CPU sits: CPUs with the same package_id share a package (MC
 * level), and with the same core_id too are threads of one core (SIBLING
 * level).  On x86 these come from CPUID and the APIC ids (the arch code's
 * job); here they are data, so a test can describe any machine.
 */
struct cpu_topology {
	unsigned int package_id;
	unsigned int core_id;
};

/*
 * Build every domain and group of the CPUs in CPU_MAP from TOPO[cpu] and
 * attach them to their rqs (rq->sd), dropping the degenerate levels as
 * 2.6.35's cpu_attach_domain() does.  Returns 0, or -EINVAL for an empty
 * map (nothing changes then).
 */
int build_sched_domains(const struct cpumask *cpu_map, const struct cpu_topology *topo);
void detach_sched_domains(const struct cpumask *cpu_map);	/* rq->sd = NULL */
int sd_degenerate(struct sched_domain *sd);
int sd_parent_degenerate(struct sched_domain *sd, struct sched_domain *parent);

/* ---- balance.c: load_balance()'s arithmetic (2.6.35 sched_fair.c) ------ */

/* what find_busiest_group() learns about the domain (2.6.35) */
struct sd_lb_stats {
	struct sched_group *busiest;	/* busiest group in this sd */
	struct sched_group *this;	/* local group in this sd */
	unsigned long total_load;	/* total load of all groups in sd */
	unsigned long total_pwr;	/* total power of all groups in sd */
	unsigned long avg_load;		/* average load across all groups in sd */

	/* statistics of this group */
	unsigned long this_load;
	unsigned long this_load_per_task;
	unsigned long this_nr_running;

	/* statistics of the busiest group */
	unsigned long max_load;
	unsigned long busiest_load_per_task;
	unsigned long busiest_nr_running;
	unsigned long busiest_group_capacity;

	int group_imb;			/* is there imbalance in this sd */
};

/* ... and about one of its groups */
struct sg_lb_stats {
	unsigned long avg_load;		/* avg load across the CPUs of the group */
	unsigned long group_load;	/* total load over the CPUs of the group */
	unsigned long sum_nr_running;	/* nr tasks running in the group */
	unsigned long sum_weighted_load; /* weighted load of group's tasks */
	unsigned long group_capacity;
	int group_imb;			/* is there an imbalance in the group? */
};

unsigned long weighted_cpuload(int cpu);
unsigned long source_load(int cpu, int type);
unsigned long target_load(int cpu, int type);
unsigned long power_of(int cpu);
unsigned long cpu_avg_load_per_task(int cpu);
int idle_cpu(int cpu);
int get_sd_load_idx(struct sched_domain *sd, enum cpu_idle_type idle);
void update_group_power(struct sched_domain *sd, int cpu);
void update_sg_lb_stats(struct sched_domain *sd, struct sched_group *group, int this_cpu,
			enum cpu_idle_type idle, int load_idx, int *sd_idle, int local_group,
			const struct cpumask *cpus, int *balance, struct sg_lb_stats *sgs);
void update_sd_lb_stats(struct sched_domain *sd, int this_cpu, enum cpu_idle_type idle,
			int *sd_idle, const struct cpumask *cpus, int *balance,
			struct sd_lb_stats *sds);
void fix_small_imbalance(struct sd_lb_stats *sds, int this_cpu, unsigned long *imbalance);
void calculate_imbalance(struct sd_lb_stats *sds, int this_cpu, unsigned long *imbalance);
struct sched_group *find_busiest_group(struct sched_domain *sd, int this_cpu,
				       unsigned long *imbalance, enum cpu_idle_type idle,
				       int *sd_idle, const struct cpumask *cpus, int *balance);
struct rq *find_busiest_queue(struct sched_group *group, enum cpu_idle_type idle,
			      unsigned long imbalance, const struct cpumask *cpus);
int task_hot(struct task *p, u64 now, struct sched_domain *sd);
int can_migrate_task(struct task *p, struct rq *rq, int this_cpu, struct sched_domain *sd,
		     enum cpu_idle_type idle, int *all_pinned);
int move_one_task(struct rq *this_rq, int this_cpu, struct rq *busiest,
		  struct sched_domain *sd, enum cpu_idle_type idle);
int move_tasks(struct rq *this_rq, int this_cpu, struct rq *busiest,
	       unsigned long max_load_move, struct sched_domain *sd,
	       enum cpu_idle_type idle, int *all_pinned);

/* ---- rebalance.c: when a CPU balances (2.6.35) ------------------------ */

int load_balance(int this_cpu, struct rq *this_rq, struct sched_domain *sd,
		 enum cpu_idle_type idle, int *balance);
void idle_balance(int this_cpu, struct rq *this_rq);
void rebalance_domains(int cpu, enum cpu_idle_type idle);
void trigger_load_balance(struct rq *rq, int cpu);
void init_sched_softirq(void);

/* ---- fair_smp.c: where a waking or new task goes (2.6.35) -------------- */

long effective_load(int cpu, long wl, long wg);
int wake_affine(struct sched_domain *sd, struct task *p, int sync);
struct sched_group *find_idlest_group(struct sched_domain *sd, struct task *p,
				      int this_cpu, int load_idx);
int find_idlest_cpu(struct sched_group *group, struct task *p, int this_cpu);
int select_idle_sibling(struct task *p, int target);
int select_task_rq_fair(struct task *p, int sd_flag, int wake_flags);
/* eevdf_smp.c: Linux 6.12's wakeup placement for the EEVDF class */
int select_task_rq_eevdf(struct task *p, int sd_flag, int wake_flags);
struct sched_domain *eevdf_sd_llc(int cpu);
int cpus_share_cache(int this_cpu, int that_cpu);
int available_idle_cpu(int cpu);
int wake_wide(struct task *p);
int wake_affine_idle(int this_cpu, int prev_cpu, int sync);
int wake_affine_weight(struct sched_domain *sd, struct task *p,
		       int this_cpu, int prev_cpu, int sync);
int wake_affine_eevdf(struct sched_domain *sd, struct task *p,
		      int this_cpu, int prev_cpu, int sync);
void update_idle_cpu_scan(int cpu);
int select_idle_cpu(struct task *p, struct sched_domain *sd, int target);
int select_idle_sibling_eevdf(struct task *p, int prev, int target);
/* eevdf_balance.c: Linux 6.12's balancer for the EEVDF class (eevdf_lb.h) */
void sched_balance_domains(struct rq *rq, enum cpu_idle_type idle);
void sched_balance_newidle(int this_cpu, struct rq *this_rq);
/* eevdf_find_dst.c: 6.12's fork/exec slow path (sched_balance_find_dst_group) */
int sched_balance_find_dst_cpu(struct sched_domain *sd, struct task *p, int cpu, int sd_flag);

#endif
