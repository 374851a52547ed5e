/*
 * kernel/fs/sysctl_sd.c - the directory tree /proc/sys/kernel/sched_domain/
 * (Linux 2.6.35's register_sched_domain_sysctl()): cpuN for each possible
 * CPU, domainM for each domain attached to it, and in each domain the files
 * of kernel/sched/sd_sysctl.c.  A file's node carries its CPU, level and
 * field in fs_node.sd_file; pseudo.c opens, reads and writes it.
 *
 * Inode numbers: SD_INO for the directory, then
 * SD_INO + 1 + cpu * 256 + (level + 1) * 16 + field + 1 below it, with -1
 * for a level or field the path stops before.
 */
#include <kernel/cpumask.h>
#include <kernel/errno.h>
#include <kernel/fs.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>

#define SD_DIR		"proc/sys/kernel/sched_domain"
#define SD_INO		0x8000

static u32 sd_ino(int cpu, int level, int field)
{
	if (cpu < 0)
		return SD_INO;
	return SD_INO + 1 + (u32)cpu * 256 + (u32)(level + 1) * 16 + (u32)(field + 1);
}

/* "cpu3" -> 3 (with PREFIX "cpu"); -1 if S is not PREFIX and a number. */
static int parse_index(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);
	int v = 0;

	if (strncmp(s, prefix, n) || s[n] < '0' || s[n] > '9')
		return -1;
	for (s += n; *s >= '0' && *s <= '9' && v < 1000; s++)
		v = v * 10 + (*s - '0');
	if (*s && *s != '/')
		return -1;
	*rest = *s ? s + 1 : s;
	return v;
}

static int cpu_listed(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS && cpumask_test_cpu((unsigned int)cpu, cpu_possible_mask);
}

/*
 * PATH (no leading '/') as SD_DIR[/cpuN[/domainM[/FIELD]]]: 0 with CPU,
 * LEVEL and FIELD (-1 where the path stops before them), or -ENOENT.
 */
static int sd_parse(const char *path, int *cpu, int *level, int *field)
{
	const char *p = path + strlen(SD_DIR), *rest;

	*cpu = *level = *field = -1;
	if (strncmp(path, SD_DIR, strlen(SD_DIR)) || (*p && *p != '/'))
		return -ENOENT;
	if (!*p || !p[1])
		return 0;
	if ((*cpu = parse_index(p + 1, "cpu", &rest)) < 0 || !cpu_listed(*cpu))
		return -ENOENT;
	if (!*rest)
		return 0;
	if ((*level = parse_index(rest, "domain", &rest)) < 0 || !sd_sysctl_domain(*cpu, *level))
		return -ENOENT;
	if (!*rest)
		return 0;
	for (*field = 0; sd_sysctl_field_name(*field); ++*field)
		if (!strcmp(sd_sysctl_field_name(*field), rest))
			return 0;
	return -ENOENT;
}

/* PATH (no leading '/') under SD_DIR: fill N and return 0, or -ENOENT. */
int sysctl_sd_lookup(const char *path, struct fs_node *n)
{
	int cpu, level, field;

	if (sd_parse(path, &cpu, &level, &field))
		return -ENOENT;
	n->mode = S_IFDIR | 0555;
	n->sd_file = SD_FILE(cpu & 0xff, level & 0xff, field & 0xff);	/* a directory: 0xff */
	if (field >= 0)
		n->mode = S_IFREG | (sd_sysctl_writable(field) ? 0644 : 0444);
	n->ino = sd_ino(cpu, level, field);
	return 0;
}

/*
 * Entry INDEX of DIR, if DIR is SD_DIR or below it: 1 with the entry, 0
 * past the last; -1 if DIR is not ours.
 */
int sysctl_sd_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	int cpu, level, field;

	if (sd_parse(dir, &cpu, &level, &field) || field >= 0)
		return -1;
	*mode = S_IFDIR | 0555;
	if (cpu < 0) {				/* cpuN, each possible CPU */
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (cpu_listed(cpu) && index-- == 0)
				break;
		if (cpu == NR_CPUS)
			return 0;
		snprintf(name, size, "cpu%d", cpu);
		*ino = sd_ino(cpu, -1, -1);
		return 1;
	}
	if (level < 0) {			/* cpuN: its domains */
		if (!sd_sysctl_domain(cpu, index))
			return 0;
		snprintf(name, size, "domain%d", index);
		*ino = sd_ino(cpu, index, -1);
		return 1;
	}
	if (!sd_sysctl_field_name(index))	/* domainM: the fields */
		return 0;
	strlcpy(name, sd_sysctl_field_name(index), size);
	*mode = S_IFREG | (sd_sysctl_writable(index) ? 0644 : 0444);
	*ino = sd_ino(cpu, level, index);
	return 1;
}
