/*
 * user/tests/ut_procfs.c - usertests: /proc's process files and system
 * files (kernel/fs/procfs.c) - their figures against the caller's own,
 * the error paths, and a snapshot that outlives its process.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "ut.h"

#define O_RDONLY	0
#define O_WRONLY	1
#define O_DIRECTORY	0200000

/* The number after "NAME:" in /proc/meminfo's text BUF. */
static unsigned long meminfo_field(const char *buf, const char *name)
{
	for (size_t n = strlen(name); *buf; buf++)
		if (!strncmp(buf, name, n) && buf[n] == ':')
			return strtoul(buf + n + 1, NULL, 10);
	return ~0ul;
}

/* The whole of PATH into BUF (NUL-terminated); its length, or -errno (ut.h). */
long ut_slurp(const char *path, char *buf, long size)
{
	long fd = sys_open((long)path, O_RDONLY, 0), n, len = 0;

	if (fd < 0)
		return fd;
	while (len < size - 1 && (n = sys_read(fd, (long)buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	sys_close(fd);
	return len;
}

const char *ut_stat_field(const char *path, int k, char *buf, long size)
{
	char *p;

	CHECK(ut_slurp(path, buf, size) > 0, "read %s", path);
	p = strrchr(buf, ')');		/* field 2 ends here; field 3 follows */
	CHECK(p && p[1] == ' ', "%s: %.60s", path, buf);
	p += 2;
	for (int f = 3; f < k; f++) {
		p = strchr(p, ' ');
		CHECK(p, "%s has no field %d", path, k);
		p++;
	}
	return p;
}

/* 1 if directory DIR lists NAME. */
static int lists(const char *dir, const char *name)
{
	char buf[1024];
	long fd = sys_open((long)dir, O_RDONLY | O_DIRECTORY, 0), n;
	int found = 0;

	CHECK(fd >= 0, "open %s: %ld", dir, fd);
	while ((n = sys_getdents64(fd, (long)buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; off += *(uint16_t *)(buf + off + 16))
			found |= !strcmp(buf + off + 19, name);
	sys_close(fd);
	return found;
}

static void procfs_pid(void)
{
	char buf[1024], want[64], path[64];
	long pid = sys_getpid();

	CHECK(ut_slurp("/proc/self/stat", buf, sizeof(buf)) > 0, "read /proc/self/stat");
	snprintf(want, sizeof(want), "%ld (usertests) R %ld ", pid, (long)sys_getppid());
	CHECK(!strncmp(buf, want, strlen(want)), "/proc/self/stat: '%.60s', expected '%s'", buf, want);
	int fields = 2;		/* pid and (comm), then one per space */
	for (char *p = strchr(buf, ')'); *p; p++)
		fields += *p == ' ';
	CHECK(fields == 44, "/proc/self/stat has %d fields, Linux 2.6.35 has 44", fields);
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	CHECK(ut_slurp(path, buf, sizeof(buf)) > 0, "read %s", path);
	snprintf(want, sizeof(want), "\nTgid:\t%ld\nPid:\t%ld\nPPid:\t%ld\n", pid, pid, (long)sys_getppid());
	CHECK(!strncmp(buf, "Name:\tusertests\nState:\tR (running)\n", 35) && ut_has(buf, want),
	      "status: '%.80s'", buf);
	EXPECT_RET(ut_slurp("/proc/self/comm", buf, sizeof(buf)), 10);
	CHECK(!strcmp(buf, "usertests\n"), "comm '%s'", buf);
	long n = ut_slurp("/proc/self/cmdline", buf, sizeof(buf));
	CHECK(n >= 10 && !strcmp(buf, "usertests") && buf[n - 1] == '\0', "cmdline '%s' (%ld)", buf, n);
	CHECK(ut_slurp("/proc/self/sched", buf, sizeof(buf)) > 0 && !strncmp(buf, "usertests (", 11) &&
	      ut_has(buf, "se.sum_exec_runtime"), "sched: '%.60s'", buf);
	/* /proc/self is a link to the pid */
	snprintf(want, sizeof(want), "%ld", pid);
	EXPECT_RET(sys_readlink((long)"/proc/self", (long)buf, sizeof(buf)), (long)strlen(want));
	CHECK(!strncmp(buf, want, strlen(want)), "readlink /proc/self: %.8s", buf);
	EXPECT_RET(sys_readlink((long)"/proc/self", (long)buf, 1), 1);
	EXPECT_RET(sys_readlink((long)"/proc/self", 0xC0000000u, 8), -EFAULT);
	EXPECT_RET(sys_readlink((long)"/proc/self/stat", (long)buf, 8), -EINVAL);
	CHECK(lists("/proc", want) && lists("/proc", "self") && lists("/proc", "meminfo"),
	      "/proc does not list %s, self and meminfo", want);
	CHECK(lists("/proc/self", "status") && lists("/proc/self", "cmdline"), "/proc/self's files");
	/* errors */
	EXPECT_RET(sys_open((long)"/proc/self/stat", O_WRONLY, 0), -EACCES);
	EXPECT_RET(sys_open((long)"/proc/99999/stat", O_RDONLY, 0), -ENOENT);
	EXPECT_RET(sys_open((long)"/proc/0/stat", O_RDONLY, 0), -ENOENT);
	EXPECT_RET(sys_open((long)"/proc/01/stat", O_RDONLY, 0), -ENOENT);
	EXPECT_RET(sys_open((long)"/proc/self/nosuch", O_RDONLY, 0), -ENOENT);
	EXPECT_RET(sys_open((long)"/proc/self/stat/x", O_RDONLY, 0), -ENOTDIR);
	EXPECT_RET(sys_open((long)"/proc/self/stat", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	EXPECT_RET(sys_read(3, 0xC0000000u, 1), -EBADF);
	long fd = sys_open((long)"/proc/self/stat", O_RDONLY, 0);
	EXPECT_RET(sys_read(fd, 0xC0000000u, 16), -EFAULT);
	EXPECT_RET(sys_read(fd, 0, 16), -EFAULT);
	EXPECT_RET(sys_close(fd), 0);
}

/* A file opened before its process exits still reads (the snapshot); a
 * new open after the reap is -ENOENT. */
static void procfs_exit(void)
{
	char path[64], buf[256];
	long pid = sys_fork();

	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0)
		for (;;)
			ut_sleep_ns(1000000000);
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	long fd = sys_open((long)path, O_RDONLY, 0);
	CHECK(fd >= 0, "open %s: %ld", path, fd);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	ut_wait((int)pid);
	EXPECT_RET(sys_open((long)path, O_RDONLY, 0), -ENOENT);
	CHECK(sys_read(fd, (long)buf, sizeof(buf) - 1) > 20 && !strncmp(buf, "Name:\tusertests", 15),
	      "the snapshot of a reaped process");
	EXPECT_RET(sys_close(fd), 0);
}

static void procfs_sys(void)
{
	char buf[2048];
	uint32_t si[16];
	unsigned long total = 0, free = 0;
	long fd = sys_open((long)"/proc/meminfo", O_RDONLY, 0), n;

	CHECK(fd >= 0, "open /proc/meminfo: %ld", fd);
	EXPECT_RET(sys_sysinfo((long)si), 0);		/* the same moment: nothing allocated between */
	n = sys_read(fd, (long)buf, sizeof(buf) - 1);
	CHECK(n > 0, "read meminfo: %ld", n);
	buf[n] = '\0';
	sys_close(fd);
	total = meminfo_field(buf, "MemTotal");
	free = meminfo_field(buf, "MemFree");
	CHECK(!strncmp(buf, "MemTotal:", 9), "meminfo: %.60s", buf);
	CHECK(total == si[4] * 4 && free == si[5] * 4, "meminfo %lu/%lu kB, sysinfo %u/%u frames",
	      total, free, si[4], si[5]);
	CHECK(ut_slurp("/proc/uptime", buf, sizeof(buf)) > 0, "uptime");
	char *p;
	unsigned long up = strtoul(buf, &p, 10) * 100;
	CHECK(*p == '.', "/proc/uptime: %s", buf);
	up += strtoul(p + 1, &p, 10);
	unsigned long idle = strtoul(p + 1, &p, 10) * 100;
	CHECK(*p == '.', "/proc/uptime: %s", buf);
	idle += strtoul(p + 1, &p, 10);
	CHECK(*p == '\n' && up > 0, "/proc/uptime: %s", buf);
	CHECK(ut_slurp("/proc/loadavg", buf, sizeof(buf)) > 0 && buf[1] == '.' && buf[4] == ' ',
	      "/proc/loadavg: %s", buf);	/* the figures: ut_acct.c */
	CHECK(ut_slurp("/proc/stat", buf, sizeof(buf)) > 0 && !strncmp(buf, "cpu  ", 5) &&
	      ut_has(buf, "\nctxt ") && ut_has(buf, "\nbtime 12844"), "/proc/stat: %.80s", buf);
	/* the idle time is every CPU's (2.6.35's uptime_proc_show sums them):
	 * at most the uptime once per cpuN line of /proc/stat */
	unsigned long cpus = 0;
	for (char *c = buf; (c = strstr(c, "\ncpu")); c++)
		cpus++;
	CHECK(cpus >= 1 && idle <= up * cpus, "/proc/uptime: idle %lu > %lu cs x %lu CPUs", idle, up, cpus);
	CHECK(ut_slurp("/proc/schedstat", buf, sizeof(buf)) > 0 && !strncmp(buf, "version 15\n", 11),
	      "/proc/schedstat: %.40s", buf);
	CHECK(ut_slurp("/proc/cpuinfo", buf, sizeof(buf)) > 0 && !strncmp(buf, "processor\t: 0\n", 14),
	      "/proc/cpuinfo: %.40s", buf);
	EXPECT_RET(sys_open((long)"/proc/uptime", O_WRONLY, 0), -EACCES);
}

const struct ut_test ut_procfs_tests[] = {
	{ procfs_pid, "procfs_pid" },
	{ procfs_exit, "procfs_exit" },
	{ procfs_sys, "procfs_sys" },
	{ NULL, NULL },
};
