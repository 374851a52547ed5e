/*
 * kernel/sched/sd_sysctl.c - /proc/sys/kernel/sched_domain/cpuN/domainM/,
 * Linux 2.6.35's sd_alloc_ctl_domain_table() (kernel/sched.c, under
 * CONFIG_SCHED_DEBUG): each attached domain's balancing parameters, read
 * and written at run time, and its name, read only.
 *
 * The directory has a cpuN for every possible CPU and, in it, a domainM
 * for each domain attached to that CPU, lowest first (domain0 is rq->sd):
 * at one CPU, cpu0 is empty, as 2.6.35's is.  The files and their order are
 * 2.6.35's table's.  A write goes through the knob parser (kernel/cmdline.c),
 * so a bad value gets the one-line refusal every knob gives and changes
 * nothing.  2.6.35 bounds none of them (proc_dointvec_minmax with no
 * extra1/extra2); Granule keeps each where the balancer's arithmetic stays
 * sound (docs/SCHEDULER.md, deliberate differences):
 *	*_idx		0..4	an index into rq->cpu_load[CPU_LOAD_IDX_MAX]
 *	imbalance_pct	100..1000	wake_affine() takes (imbalance_pct - 100) / 2
 *	min/max_interval	1..60000 ms	a balance at most once a minute
 *	busy_factor	1..1000, cache_nice_tries 0..100, flags the SD_* bits (0..8191)
 * A domain's fields are words read by other CPUs without a lock, as in
 * 2.6.35: a write is one store, seen at the next balance.
 */
#include <kernel/cmdline.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include "sched.h"
#include "topology.h"

enum sd_type { SD_ULONG, SD_UINT, SD_INT, SD_NAME };

struct sd_field {
	const char *name;
	size_t off;			/* in struct sched_domain */
	enum sd_type type;
	s64 min, max;			/* accepted on a write */
};

#define F(n, t, lo, hi) { #n, offsetof(struct sched_domain, n), t, lo, hi }

/* 2.6.35's order: sd_alloc_ctl_domain_table()'s table[0..11]. */
static const struct sd_field sd_fields[] = {
	F(min_interval, SD_ULONG, 1, 60000),
	F(max_interval, SD_ULONG, 1, 60000),
	F(busy_idx, SD_UINT, 0, CPU_LOAD_IDX_MAX - 1),
	F(idle_idx, SD_UINT, 0, CPU_LOAD_IDX_MAX - 1),
	F(newidle_idx, SD_UINT, 0, CPU_LOAD_IDX_MAX - 1),
	F(wake_idx, SD_UINT, 0, CPU_LOAD_IDX_MAX - 1),
	F(forkexec_idx, SD_UINT, 0, CPU_LOAD_IDX_MAX - 1),
	F(busy_factor, SD_UINT, 1, 1000),
	F(imbalance_pct, SD_UINT, 100, 1000),
	F(cache_nice_tries, SD_UINT, 0, 100),
	F(flags, SD_INT, 0, 2 * SD_PREFER_SIBLING - 1),
	F(name, SD_NAME, 0, 0),
};

int sd_sysctl_nr_fields(void)
{
	return (int)ARRAY_SIZE(sd_fields);
}

/* Field FIELD's file name, or NULL past the last. */
const char *sd_sysctl_field_name(int field)
{
	return field >= 0 && field < sd_sysctl_nr_fields() ? sd_fields[field].name : NULL;
}

/* Only the name is read only (mode 0444; the others 0644). */
int sd_sysctl_writable(int field)
{
	return sd_sysctl_field_name(field) && sd_fields[field].type != SD_NAME;
}

/* CPU's domain LEVEL, counted from the lowest attached one; NULL if none. */
struct sched_domain *sd_sysctl_domain(int cpu, int level)
{
	struct sched_domain *sd;

	if (cpu < 0 || cpu >= (int)nr_cpu_ids || !cpumask_test_cpu((unsigned int)cpu, cpu_possible_mask))
		return NULL;
	for_each_domain(cpu, sd)
		if (level-- == 0)
			return sd;
	return NULL;
}

/* The field's value as text and a newline, as a sysctl file reads. */
size_t sd_sysctl_show(struct sched_domain *sd, int field, char *buf, size_t size)
{
	if (!sd_sysctl_field_name(field))	/* a file name never parsed to it */
		return 0;
	const struct sd_field *f = &sd_fields[field];
	const void *p = (const char *)sd + f->off;

	switch (f->type) {
	case SD_ULONG:
		return (size_t)snprintf(buf, size, "%lu\n", *(const unsigned long *)p);
	case SD_UINT:
		return (size_t)snprintf(buf, size, "%u\n", *(const unsigned int *)p);
	case SD_INT:
		return (size_t)snprintf(buf, size, "%d\n", *(const int *)p);
	default:
		return (size_t)snprintf(buf, size, "%s\n", *(const char *const *)p);
	}
}

/*
 * Write VAL to CPU's domain LEVEL's FIELD: 0, or -EINVAL with the knob
 * registry's one line ("sysctl: sched_domain.cpu0.domain0.imbalance_pct=50:
 * out of range (expected an integer 100..1000); keeping 125") and the
 * field unchanged.  The parse goes to a copy, stored only when accepted.
 */
int sd_sysctl_write(int cpu, int level, int field, const char *val)
{
	struct sched_domain *sd = sd_sysctl_domain(cpu, level);
	char name[64];
	union { u32 u; s32 i; } v;

	if (!sd || !sd_sysctl_writable(field))
		return -EINVAL;
	const struct sd_field *f = &sd_fields[field];
	void *p = (char *)sd + f->off;
	if (f->type == SD_ULONG)
		v.u = (u32)*(unsigned long *)p;
	else
		v.u = *(u32 *)p;
	snprintf(name, sizeof(name), "sched_domain.cpu%d.domain%d.%s", cpu, level, f->name);
	struct knob k = {
		.name = name, .type = f->type == SD_INT ? KNOB_INT : KNOB_UINT, .ptr = &v,
		.min = f->min, .max = f->max,
	};
	if (knob_write(&k, val, "sysctl"))
		return -EINVAL;
	if (f->type == SD_ULONG)
		*(unsigned long *)p = v.u;
	else
		*(u32 *)p = v.u;
	return 0;
}
