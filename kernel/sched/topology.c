/*
 * kernel/sched/topology.c - scheduling domains built from a description
 * of the machine (Linux 2.6.35's build_sched_domains(), init_sched_groups_
 * power() and cpu_attach_domain() in kernel/sched.c; the levels' settings
 * are <linux/topology.h>'s SD_SIBLING_INIT, SD_MC_INIT and SD_CPU_INIT).
 *
 * For every CPU i of the map, three domains, each the parent of the last:
 *	SIBLING	span: the CPUs with i's package_id and core_id  (SMT threads)
 *	MC	span: the CPUs with i's package_id               (cores)
 *	CPU	span: the whole map                              (packages)
 * and each domain's groups are the spans of the level below, a circle in
 * CPU order entered at the local one (SIBLING's: one CPU each).  A level
 * that adds nothing is dropped when attached: a domain of one CPU, or a
 * parent with the same span and no flag its child lacks (sd_degenerate,
 * sd_parent_degenerate).  So two single-threaded cores in one package keep
 * MC only (CPU has the same span), and a one-CPU machine keeps no domain.
 *
 * Deliberate differences: no NUMA levels (SD_NODE_INIT, SD_ALLNODES_INIT)
 * and no root domain or cpusets partitions (one partition, the map); the
 * power-savings knobs sched_mc_power_savings and sched_smt_power_savings
 * are fixed at 0, their default, so sd_balance_for_mc_power() and
 * sd_balance_for_package_power() give SD_PREFER_SIBLING and
 * sd_power_saving_flags() gives nothing.  Storage is static, one set per
 * CPU and level, rebuilt in place (Linux allocates it per build).
 */
#include "topology.h"
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/topology.h>

/* One domain and the group it contributes, per CPU and level. */
static struct sched_domain sd_storage[NR_CPUS][SD_LV_MAX];
static struct sched_group sg_storage[NR_CPUS][SD_LV_MAX];

/* The settings of each level, SD_*_INIT of 2.6.35 (intervals in ms). */
static const struct sched_domain sd_init[SD_LV_MAX] = {
	[SD_LV_SIBLING] = {
		.min_interval = 1, .max_interval = 2, .busy_factor = 64,
		.imbalance_pct = 110, .smt_gain = 1178,	/* 15% */
		.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
			 SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_SHARE_CPUPOWER |
			 SD_SHARE_PKG_RESOURCES,
		.balance_interval = 1, .level = SD_LV_SIBLING, .name = "SIBLING",
	},
	[SD_LV_MC] = {
		.min_interval = 1, .max_interval = 4, .busy_factor = 64,
		.imbalance_pct = 125, .cache_nice_tries = 1, .busy_idx = 2,
		.wake_idx = 0, .forkexec_idx = 0,
		.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
			 SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_SHARE_PKG_RESOURCES |
			 SD_PREFER_SIBLING,	/* sd_balance_for_mc_power() */
		.balance_interval = 1, .level = SD_LV_MC, .name = "MC",
	},
	[SD_LV_CPU] = {
		.min_interval = 1, .max_interval = 4, .busy_factor = 64,
		.imbalance_pct = 125, .cache_nice_tries = 1, .busy_idx = 2,
		.idle_idx = 1, .newidle_idx = 0, .wake_idx = 0, .forkexec_idx = 0,
		.flags = SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC |
			 SD_BALANCE_FORK | SD_WAKE_AFFINE |
			 SD_PREFER_SIBLING,	/* sd_balance_for_package_power() */
		.balance_interval = 1, .level = SD_LV_CPU, .name = "CPU",
	},
};

/* The CPUs of MAP in CPU's span at LEVEL (topology_thread_cpumask & co). */
static struct cpumask level_span(const struct cpumask *map, const struct cpu_topology *topo,
				 unsigned int cpu, enum sched_domain_level level)
{
	struct cpumask span;
	unsigned int j;

	cpumask_clear(&span);
	for_each_cpu(j, map) {
		int same_pkg = topo[j].package_id == topo[cpu].package_id;
		int same_core = same_pkg && topo[j].core_id == topo[cpu].core_id;

		if (level == SD_LV_CPU || (level == SD_LV_MC && same_pkg) ||
		    (level == SD_LV_SIBLING && same_core))
			cpumask_set_cpu(j, &span);
	}
	return span;
}

/*
 * The groups of CPU's domain at LEVEL: one per span of the level below (a
 * single CPU below SIBLING), each stored at its first CPU, linked in a
 * circle in CPU order; the domain points at the one holding CPU, the local
 * group.  Every CPU of the span builds the same circle (2.6.35's
 * init_sched_build_groups(), one list shared by the span's CPUs).
 */
static void build_groups(const struct cpumask *map, const struct cpu_topology *topo,
			 unsigned int cpu, enum sched_domain_level level)
{
	struct sched_domain *sd = &sd_storage[cpu][level];
	struct sched_group *first = NULL, *last = NULL;
	struct cpumask covered, span;
	unsigned int i;

	cpumask_clear(&covered);
	for_each_cpu(i, &sd->span) {
		struct sched_group *sg;

		if (cpumask_test_cpu(i, &covered))
			continue;
		if (level == SD_LV_SIBLING)
			span = cpumask_of_cpu(i);
		else
			span = level_span(map, topo, i, (enum sched_domain_level)(level - 1));
		sg = &sg_storage[cpumask_first(&span)][level];
		sg->cpumask = span;
		covered.bits |= span.bits;
		if (last)
			last->next = sg;
		else
			first = sg;
		last = sg;
		if (cpumask_test_cpu(cpu, &span))
			sd->groups = sg;
	}
	last->next = first;
}

/*
 * A group's power (2.6.35 init_sched_groups_power): at the lowest level,
 * SCHED_LOAD_SCALE, or for SMT threads sharing a core
 *	1024 * smt_gain / threads >> 10	(2 threads: 589 each)
 * and above, the sum of the child level's groups in it.
 */
static void init_sched_groups_power(unsigned int cpu, struct sched_domain *sd)
{
	struct sched_domain *child = sd->child;
	struct sched_group *group;

	if (cpu != group_first_cpu(sd->groups))
		return;
	sd->groups->cpu_power = 0;
	if (!child) {
		unsigned long power = SCHED_LOAD_SCALE;
		unsigned int weight = sd->span_weight;

		if ((sd->flags & SD_SHARE_CPUPOWER) && weight > 1) {
			power *= sd->smt_gain;
			power /= weight;
			power >>= SCHED_LOAD_SHIFT;
		}
		sd->groups->cpu_power += (unsigned int)power;
		cpu_rq(cpu)->cpu_power = power;
		return;
	}
	group = child->groups;
	do {
		sd->groups->cpu_power += group->cpu_power;
		group = group->next;
	} while (group != child->groups);
}

/* 2.6.35 sd_degenerate(): a domain that balances nothing. */
int sd_degenerate(struct sched_domain *sd)
{
	if (cpumask_weight(sched_domain_span(sd)) == 1)
		return 1;
	/* these flags need at least two groups */
	if (sd->flags & (SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_FORK |
			 SD_BALANCE_EXEC | SD_SHARE_CPUPOWER | SD_SHARE_PKG_RESOURCES)) {
		if (sd->groups != sd->groups->next)
			return 0;
	}
	/* this one does not use groups */
	if (sd->flags & SD_WAKE_AFFINE)
		return 0;
	return 1;
}

/* 2.6.35 sd_parent_degenerate(): PARENT adds nothing to SD. */
int sd_parent_degenerate(struct sched_domain *sd, struct sched_domain *parent)
{
	unsigned long cflags = (unsigned long)sd->flags, pflags = (unsigned long)parent->flags;

	if (sd_degenerate(parent))
		return 1;
	if (!cpumask_equal(sched_domain_span(sd), sched_domain_span(parent)))
		return 0;
	/* flags needing groups don't count if the parent has one group */
	if (parent->groups == parent->groups->next)
		pflags &= ~(unsigned long)(SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE |
					   SD_BALANCE_FORK | SD_BALANCE_EXEC |
					   SD_SHARE_CPUPOWER | SD_SHARE_PKG_RESOURCES |
					   SD_SERIALIZE);	/* nr_node_ids == 1 */
	if (~cflags & pflags)
		return 0;
	return 1;
}

/* MASK as a CPU list, "0-1,3" (Linux's cpulist_scnprintf; also
 * /proc/PID/status's Cpus_allowed_list). */
void cpulist_snprint(char *buf, size_t size, const struct cpumask *mask)
{
	size_t n = 0;
	unsigned int cpu, last;

	buf[0] = '\0';
	for_each_cpu(cpu, mask) {
		for (last = cpu; last + 1 < NR_CPUS && cpumask_test_cpu(last + 1, mask); last++)
			;
		n += (size_t)snprintf(buf + n, size - n, last > cpu ? "%s%u-%u" : "%s%u",
				      n ? "," : "", cpu, last);
		if (n >= size)
			return;
		cpu = last;
	}
}

/*
 * One level of sched_domain_debug() (2.6.35's sched_domain_debug_one): the
 * span and level name, then the groups in their circle, each with its
 * power when it is not one CPU's, and the checks' ERROR lines.
 */
static int sched_domain_debug_one(struct sched_domain *sd, unsigned int cpu, int level)
{
	struct sched_group *group = sd->groups;
	struct cpumask groupmask;
	char str[64];

	cpulist_snprint(str, sizeof(str), sched_domain_span(sd));
	cpumask_clear(&groupmask);
	printk("%*s domain %d: ", level, "", level);
	if (!(sd->flags & SD_LOAD_BALANCE)) {
		printk("does not load-balance\n");
		if (sd->parent)
			printk("ERROR: !SD_LOAD_BALANCE domain has parent");
		return -1;
	}
	printk("span %s level %s\n", str, sd->name);
	if (!cpumask_test_cpu(cpu, sched_domain_span(sd)))
		printk("ERROR: domain->span does not contain CPU%u\n", cpu);
	if (!cpumask_test_cpu(cpu, sched_group_cpus(group)))
		printk("ERROR: domain->groups does not contain CPU%u\n", cpu);

	printk("%*s groups:", level + 1, "");
	do {
		if (!group->cpu_power) {
			printk("\nERROR: domain->cpu_power not set\n");
			break;
		}
		if (cpumask_intersects(&groupmask, sched_group_cpus(group))) {
			printk("\nERROR: repeated CPUs\n");
			break;
		}
		cpumask_or(&groupmask, &groupmask, sched_group_cpus(group));
		cpulist_snprint(str, sizeof(str), sched_group_cpus(group));
		printk(" %s", str);
		if (group->cpu_power != SCHED_LOAD_SCALE)
			printk(" (cpu_power = %u)", group->cpu_power);
		group = group->next;
	} while (group != sd->groups);
	printk("\n");

	if (!cpumask_equal(sched_domain_span(sd), &groupmask))
		printk("ERROR: groups don't span domain->span\n");
	if (sd->parent && !cpumask_subset(&groupmask, sched_domain_span(sd->parent)))
		printk("ERROR: parent span is not a superset of domain->span\n");
	return 0;
}

/*
 * What cpu_attach_domain() attaches to CPU, lowest level first, when the
 * kernel was booted with sched_debug (2.6.35's sched_domain_debug, there
 * behind the same boot parameter).
 */
static void sched_domain_debug(struct sched_domain *sd, unsigned int cpu)
{
	int level = 0;

	if (sysctl_sched_debug != SCHED_DEBUG_DOMAINS)
		return;
	if (!sd) {
		printk("CPU%u attaching NULL sched-domain.\n", cpu);
		return;
	}
	printk("CPU%u attaching sched-domain:\n", cpu);
	for (; sd; sd = sd->parent, level++)
		if (sched_domain_debug_one(sd, cpu, level))
			break;
}

/* 2.6.35 cpu_attach_domain() without the root domain: drop what adds nothing. */
static void cpu_attach_domain(struct sched_domain *sd, unsigned int cpu)
{
	struct sched_domain *tmp;

	for (tmp = sd; tmp; ) {
		struct sched_domain *parent = tmp->parent;

		if (!parent)
			break;
		if (sd_parent_degenerate(tmp, parent)) {
			tmp->parent = parent->parent;
			if (parent->parent)
				parent->parent->child = tmp;
		} else {
			tmp = tmp->parent;
		}
	}
	if (sd && sd_degenerate(sd)) {
		sd = sd->parent;
		if (sd)
			sd->child = NULL;
	}
	sched_domain_debug(sd, cpu);
	cpu_rq(cpu)->sd = sd;
}

int build_sched_domains(const struct cpumask *cpu_map, const struct cpu_topology *topo)
{
	unsigned int cpu;
	int level;

	if (cpumask_empty(cpu_map))
		return -EINVAL;
	for_each_cpu(cpu, cpu_map) {
		struct sched_domain *parent = NULL;

		for (level = SD_LV_CPU; level > SD_LV_NONE; level--) {
			struct sched_domain *sd = &sd_storage[cpu][level];

			*sd = sd_init[level];
			sd->span = level_span(cpu_map, topo, cpu, (enum sched_domain_level)level);
			sd->span_weight = cpumask_weight(&sd->span);
			sd->last_balance = jiffies;
			sd->parent = parent;
			if (parent)
				parent->child = sd;
			parent = sd;
		}
	}
	for_each_cpu(cpu, cpu_map)
		for (level = SD_LV_SIBLING; level < SD_LV_MAX; level++)
			build_groups(cpu_map, topo, cpu, (enum sched_domain_level)level);
	/* powers bottom up: a level sums the one below */
	for (level = SD_LV_SIBLING; level < SD_LV_MAX; level++)
		for_each_cpu(cpu, cpu_map)
			init_sched_groups_power(cpu, &sd_storage[cpu][level]);
	for_each_cpu(cpu, cpu_map)
		cpu_attach_domain(&sd_storage[cpu][SD_LV_SIBLING], cpu);
	return 0;
}

void detach_sched_domains(const struct cpumask *cpu_map)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpu_map)
		cpu_rq(cpu)->sd = NULL;
}

/*
 * After smp_init(): the domains of the online CPUs, from where the arch
 * found each (2.6.35's sched_init_smp() -> arch_init_sched_domains(), one
 * partition; <kernel/topology.h>).
 */
void sched_init_smp(void)
{
	static struct cpu_topology topo[NR_CPUS];
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		topo[cpu].package_id = topology_physical_package_id(cpu);
		topo[cpu].core_id = topology_core_id(cpu);
	}
	build_sched_domains(cpu_online_mask, topo);
	/* 2.6.35 cpu_attach_domain() -> rq_attach_root(): each CPU joins the
	 * one root domain, and the rt class publishes its state there (set up
	 * here, not in sched_init(): at one CPU nothing reads it, and the boot
	 * stays as long as the uniprocessor's) */
	init_defrootdomain();
	for_each_online_cpu(cpu)
		set_rq_online(cpu_rq(cpu));
}
