/*
 * user/tests/ut_acct.c - usertests: the measured numbers.  Every field the
 * kernel accounts (kernel/sched/cputime.c, loadavg.c, kernel/proc/rusage.c,
 * kernel/fs/procfs_stat.c) is read twice, around work that must move it:
 * user-mode spinning (user time), system calls in a loop (system time),
 * sleeps (idle time, voluntary switches), a competing spinner (involuntary
 * switches), fresh pages touched (minor faults, RSS), a reaped child (the
 * children's sums), kernel objects and tmpfs data (Slab, Cached).  The
 * load average needs 5 s per sample: tests/system/test_accounting.py.
 * Tick sampling makes the split approximate, so the bounds are loose; a
 * field stuck at a constant still fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "ut.h"

#define MS	1000000LL

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* the vDSO: no system call */
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spin in user mode for NS of wall time (alone on the CPU: CPU time). */
static void spin_user(long long ns)
{
	long long end = mono_ns() + ns;

	while (mono_ns() < end)
		;
}

/*
 * Spin in system calls for NS: nearly every instruction is the kernel's.
 * Each round writes 4 KiB into a pipe and reads it back (two copies of a
 * page with interrupts on), so the tick, which samples the mode it
 * interrupted, finds the kernel almost every time; a getppid() loop spends
 * a fifth of its instructions in user mode or with interrupts off, and its
 * samples then depend on where the tick's phase falls in the loop.
 */
static void spin_kernel(long long ns)
{
	static char page[PAGE_SIZE];
	long long end = mono_ns() + ns;
	int fds[2];

	CHECK(sys_pipe((long)fds) == 0, "pipe");
	while (mono_ns() < end) {
		sys_write(fds[1], (long)page, sizeof(page));
		sys_read(fds[0], (long)page, sizeof(page));
	}
	sys_close(fds[0]);
	sys_close(fds[1]);
}

/* Touch PAGES fresh pages (each a minor fault); they stay mapped. */
static void touch_pages(int pages)
{
	char *p = malloc((size_t)pages * PAGE_SIZE);

	CHECK(p, "malloc %d pages", pages);
	for (int i = 0; i < pages; i++)
		p[i * PAGE_SIZE] = 1;
}

/* Field K (1-based, Linux's numbering) of /proc/PATH/stat. */
static unsigned long long stat_field(const char *path, int k)
{
	char buf[1024];

	return strtoull(ut_stat_field(path, k, buf, sizeof(buf)), NULL, 10);
}

/* The number after "KEY" (a line start, e.g. "\nctxt ") in FILE, or the
 * N-th number (0-based) of that line. */
static unsigned long long file_value(const char *file, const char *key, int n)
{
	char buf[4096];
	char *p;

	buf[0] = '\n';
	CHECK(ut_slurp(file, buf + 1, sizeof(buf) - 1) > 0, "read %s", file);
	p = strstr(buf, key);
	CHECK(p, "%s has no '%s'", file, key + 1);
	p += strlen(key);
	for (int i = 0; i < n; i++)
		strtoull(p, &p, 10);
	return strtoull(p, NULL, 10);
}

/* /proc/uptime's figure K (0: up, 1: idle) in hundredths of a second. */
static unsigned long long uptime_cs(int k)
{
	char buf[64];
	char *p = buf;
	unsigned long long v = 0;

	CHECK(ut_slurp("/proc/uptime", buf, sizeof(buf)) > 0, "read /proc/uptime");
	for (int i = 0; i <= k; i++) {
		v = strtoull(p, &p, 10) * 100;
		CHECK(*p == '.', "/proc/uptime: %s", buf);
		v += strtoull(p + 1, &p, 10);
	}
	return v;
}

enum { USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL };
static unsigned long long cpu(int field)
{
	return file_value("/proc/stat", "\ncpu  ", field);
}

/* A child at nice 5 spins 60 ms in user mode and exits. */
static void nice_spinner(uintptr_t arg)
{
	(void)arg;
	EXPECT_RET(sys_setpriority(PRIO_PROCESS, 0, 5), 0);
	spin_user(60 * MS);
}

/* The user column of /proc/stat's cpuN lines, summed (the cpu line is
 * their sum). */
static unsigned long long cpus_user(void)
{
	char buf[4096], key[16], *p;
	unsigned long long sum = 0;

	buf[0] = '\n';
	CHECK(ut_slurp("/proc/stat", buf + 1, sizeof(buf) - 1) > 0, "read /proc/stat");
	for (int c = 0; c < 32; c++) {
		snprintf(key, sizeof(key), "\ncpu%d ", c);
		if ((p = strstr(buf, key)))
			sum += strtoull(p + strlen(key), NULL, 10);
	}
	return sum;
}

/* The processes /proc lists in state R (running or runnable). */
static int procs_in_state_r(void)
{
	struct { uint64_t ino; int64_t off; uint16_t reclen; uint8_t type; char name[]; }
		__attribute__((packed)) *d;
	char buf[1024], path[32], st[512], *p;
	long fd = sys_open((long)"/proc", O_RDONLY, 0), n;
	int r = 0;

	CHECK(fd >= 0, "open /proc: %ld", fd);
	while ((n = sys_getdents64(fd, (long)buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; off += d->reclen) {
			d = (void *)(buf + off);
			if (d->name[0] < '1' || d->name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", d->name);
			if (ut_slurp(path, st, sizeof(st)) > 0 && (p = strrchr(st, ')')))
				r += p[2] == 'R';	/* field 3, past comm's ')' */
		}
	sys_close(fd);
	return r;
}

/*
 * /proc/stat's ctxt and procs_running are every CPU's (2.6.35's
 * nr_context_switches() and nr_running() sum each runqueue), whichever CPU
 * reads them: ctxt read on each of our CPUs in turn never goes back, and
 * procs_running counts the tasks in state R once each (us, and any a test
 * before left running; the usertests parent and init wait).
 */
static void proc_stat_each_cpu(void)
{
	unsigned long cpus = ut_cpus();
	unsigned long long last = 0, now;

	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < 32; c++) {
			if (!(cpus & (1ul << c)))
				continue;
			ut_pin_cpu(c);
			now = file_value("/proc/stat", "\nctxt ", 0);
			CHECK(now >= last, "ctxt %llu read on CPU %d, %llu before", now, c, last);
			last = now;
			now = file_value("/proc/stat", "\nprocs_running ", 0);
			CHECK(now == (unsigned)procs_in_state_r(), "procs_running %llu read on CPU %d, "
			      "%d processes in state R", now, c, procs_in_state_r());
		}
}

/* /proc/stat: each CPU-time column moves with its kind of work; the
 * interrupt, switch and fork counters move, and ctxt and procs_running are
 * every CPU's. */
static void acct_proc_stat(void)
{
	unsigned long long u = cpu(USER), n = cpu(NICE), s = cpu(SYSTEM), i = cpu(IDLE);
	unsigned long long ctxt = file_value("/proc/stat", "\nctxt ", 0);
	unsigned long long intr = file_value("/proc/stat", "\nintr ", 0);
	unsigned long long forks = file_value("/proc/stat", "\nprocesses ", 0);

	spin_user(60 * MS);
	CHECK(cpu(USER) >= u + 4, "user %llu -> %llu after 60 ms in user mode", u, cpu(USER));
	spin_kernel(60 * MS);
	CHECK(cpu(SYSTEM) >= s + 3, "system %llu -> %llu after 60 ms of system calls", s, cpu(SYSTEM));
	ut_sleep_ns(50 * MS);
	CHECK(cpu(IDLE) >= i + 3, "idle %llu -> %llu after a 50 ms sleep", i, cpu(IDLE));
	CHECK(ut_run_child(nice_spinner, 0) == 0, "the nice child");
	CHECK(cpu(NICE) >= n + 4, "nice %llu -> %llu after 60 ms at nice 5", n, cpu(NICE));
	/* never sampled here (docs/SHELL.md): iowait irq softirq steal */
	CHECK(cpu(IOWAIT) + cpu(IRQ) + cpu(SOFTIRQ) + cpu(STEAL) == 0, "iowait/irq/softirq/steal");
	CHECK(file_value("/proc/stat", "\nctxt ", 0) >= ctxt + 3, "ctxt %llu did not move", ctxt);
	CHECK(file_value("/proc/stat", "\nintr ", 0) >= intr + 100, "intr %llu did not move", intr);
	CHECK(file_value("/proc/stat", "\nprocesses ", 0) >= forks + 1, "processes %llu", forks);
	CHECK(file_value("/proc/stat", "\nprocs_running ", 0) >= 1, "procs_running");
	CHECK(cpus_user() >= u + 4, "the cpuN lines' user %llu, %llu before", cpus_user(), u);
	proc_stat_each_cpu();
}

/* A child that faults 32 pages in, spins 30 ms in user mode and 30 ms in
 * the kernel, sleeps 4 times, and exits. */
static void busy_child(uintptr_t arg)
{
	(void)arg;
	touch_pages(32);
	spin_user(30 * MS);
	spin_kernel(30 * MS);
	for (int k = 0; k < 4; k++)
		ut_sleep_ns(MS);
}

/* /proc/self/stat: minflt utime stime move with our work, cminflt cutime
 * cstime with a reaped child's; majflt never (no fault waits for I/O). */
static void acct_pid_stat(void)
{
	const char *me = "/proc/self/stat";
	unsigned long long flt = stat_field(me, 10), ut = stat_field(me, 14), st = stat_field(me, 15);
	unsigned long long cflt = stat_field(me, 11), cut = stat_field(me, 16), cst = stat_field(me, 17);

	touch_pages(16);
	CHECK(stat_field(me, 10) >= flt + 16, "minflt %llu -> %llu after 16 pages", flt,
	      stat_field(me, 10));
	spin_user(60 * MS);
	CHECK(stat_field(me, 14) >= ut + 4, "utime %llu -> %llu", ut, stat_field(me, 14));
	spin_kernel(60 * MS);
	CHECK(stat_field(me, 15) >= st + 3, "stime %llu -> %llu (utime %llu -> %llu)", st, stat_field(me, 15), ut, stat_field(me, 14));
	CHECK(ut_run_child(busy_child, 0) == 0, "the busy child");
	CHECK(stat_field(me, 11) >= cflt + 32, "cminflt %llu -> %llu", cflt, stat_field(me, 11));
	CHECK(stat_field(me, 16) >= cut + 2, "cutime %llu -> %llu", cut, stat_field(me, 16));
	CHECK(stat_field(me, 17) >= cst + 1, "cstime %llu -> %llu", cst, stat_field(me, 17));
	CHECK(stat_field(me, 12) + stat_field(me, 13) == 0, "majflt/cmajflt");
}

/* A child that spins until killed. */
static long start_spinner(void)
{
	long pid = sys_fork();

	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0)
		for (;;)
			;
	return pid;
}

/* /proc/self/status's switch counts: a sleep is voluntary, a preemption
 * by the tick (a spinner beside us) involuntary.  "Beside" means on our
 * CPU: on another the spinner never preempts us, so we keep to one. */
static void acct_ctxt_switches(void)
{
	const char *me = "/proc/self/status";
	unsigned long long v, nv;

	ut_one_cpu();				/* the spinner too */
	v = file_value(me, "\nvoluntary_ctxt_switches:", 0);
	nv = file_value(me, "\nnonvoluntary_ctxt_switches:", 0);
	for (int k = 0; k < 5; k++)
		ut_sleep_ns(MS);
	CHECK(file_value(me, "\nvoluntary_ctxt_switches:", 0) >= v + 5, "voluntary %llu after 5 sleeps", v);
	long pid = start_spinner();
	spin_user(50 * MS);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	ut_wait((int)pid);
	CHECK(file_value(me, "\nnonvoluntary_ctxt_switches:", 0) >= nv + 3,
	      "nonvoluntary %llu after 50 ms beside a spinner", nv);
}

static long long tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000LL + tv->tv_usec;
}

/* getrusage(RUSAGE_SELF, RUSAGE_THREAD, RUSAGE_CHILDREN) and wait4's.  On
 * one CPU, so that the spinner preempts us (ru_nivcsw). */
static void acct_getrusage(void)
{
	struct rusage a, b, t, kids0, kids1, ru;
	int st;

	ut_one_cpu();
	CHECK(getrusage(RUSAGE_SELF, &a) == 0 && getrusage(RUSAGE_CHILDREN, &kids0) == 0, "getrusage");
	touch_pages(64);
	spin_user(40 * MS);
	spin_kernel(40 * MS);
	ut_sleep_ns(MS);
	long pid = start_spinner();
	spin_user(40 * MS);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	ut_wait((int)pid);
	CHECK(getrusage(RUSAGE_SELF, &b) == 0 && getrusage(RUSAGE_THREAD, &t) == 0, "getrusage");
	CHECK(tv_us(&b.ru_utime) >= tv_us(&a.ru_utime) + 30000, "ru_utime %lld -> %lld us",
	      tv_us(&a.ru_utime), tv_us(&b.ru_utime));
	CHECK(tv_us(&b.ru_stime) >= tv_us(&a.ru_stime) + 20000, "ru_stime %lld -> %lld us",
	      tv_us(&a.ru_stime), tv_us(&b.ru_stime));
	CHECK(b.ru_minflt >= a.ru_minflt + 64, "ru_minflt %ld -> %ld", a.ru_minflt, b.ru_minflt);
	CHECK(b.ru_nvcsw >= a.ru_nvcsw + 1 && b.ru_nivcsw >= a.ru_nivcsw + 1,
	      "ru_nvcsw %ld -> %ld, ru_nivcsw %ld -> %ld", a.ru_nvcsw, b.ru_nvcsw, a.ru_nivcsw,
	      b.ru_nivcsw);
	CHECK(b.ru_maxrss >= a.ru_maxrss + 64 * 4, "ru_maxrss %ld -> %ld KiB", a.ru_maxrss, b.ru_maxrss);
	CHECK(b.ru_majflt == 0, "ru_majflt %ld", b.ru_majflt);
	/* one thread: the thread's counts are the process's */
	CHECK(t.ru_nvcsw == b.ru_nvcsw && t.ru_minflt == b.ru_minflt, "RUSAGE_THREAD");
	/* wait4's rusage is the child's, and RUSAGE_CHILDREN adds it */
	pid = sys_fork();
	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0) {
		busy_child(0);
		sys_exit(0);
	}
	EXPECT_RET(sys_wait4(pid, (long)&st, 0, (long)&ru), pid);
	CHECK(tv_us(&ru.ru_utime) >= 20000 && tv_us(&ru.ru_stime) >= 10000, "wait4: %lld us + %lld us",
	      tv_us(&ru.ru_utime), tv_us(&ru.ru_stime));
	CHECK(ru.ru_minflt >= 32 && ru.ru_nvcsw >= 4 && ru.ru_maxrss >= 32 * 4,
	      "wait4: minflt %ld nvcsw %ld maxrss %ld", ru.ru_minflt, ru.ru_nvcsw, ru.ru_maxrss);
	CHECK(getrusage(RUSAGE_CHILDREN, &kids1) == 0, "getrusage");
	CHECK(kids1.ru_minflt >= kids0.ru_minflt + ru.ru_minflt &&
	      kids1.ru_nvcsw >= kids0.ru_nvcsw + ru.ru_nvcsw &&
	      tv_us(&kids1.ru_stime) >= tv_us(&kids0.ru_stime) + tv_us(&ru.ru_stime) &&
	      kids1.ru_maxrss >= ru.ru_maxrss, "RUSAGE_CHILDREN did not add wait4's");
}

struct tms32 { long utime, stime, cutime, cstime; };

/* times(2): the process's and its reaped children's user and system time. */
static void acct_times(void)
{
	struct tms32 a, b;

	EXPECT_RET(sys_times((long)&a) >= 0, 1);
	spin_user(50 * MS);
	spin_kernel(50 * MS);
	CHECK(ut_run_child(busy_child, 0) == 0, "the busy child");
	EXPECT_RET(sys_times((long)&b) >= 0, 1);
	CHECK(b.utime >= a.utime + 3 && b.stime >= a.stime + 3, "tms_utime %ld -> %ld, tms_stime %ld -> %ld",
	      a.utime, b.utime, a.stime, b.stime);
	CHECK(b.cutime >= a.cutime + 2 && b.cstime >= a.cstime + 1, "tms_cutime %ld -> %ld, tms_cstime %ld -> %ld",
	      a.cutime, b.cutime, a.cstime, b.cstime);
}

/* A child that sleeps until killed. */
static long start_sleeper(void)
{
	long pid = sys_fork();

	CHECK(pid >= 0, "fork: %ld", pid);
	if (pid == 0)
		for (;;)
			ut_sleep_ns(1000 * MS);
	return pid;
}

/* /proc/meminfo, /proc/vmstat, sysinfo, /proc/uptime, /proc/loadavg's
 * task figures. */
static void acct_memory_and_tasks(void)
{
	uint32_t si0[16], si1[16];
	unsigned long long slab = file_value("/proc/meminfo", "\nSlab:", 0);
	unsigned long long cached = file_value("/proc/meminfo", "\nCached:", 0);
	unsigned long long memfree = file_value("/proc/meminfo", "\nMemFree:", 0);
	unsigned long long pgfault = file_value("/proc/vmstat", "\npgfault ", 0);
	unsigned long long up = uptime_cs(0), idle = uptime_cs(1);
	int fds[64][2];

	EXPECT_RET(sys_sysinfo((long)si0), 0);
	for (int k = 0; k < 64; k++)		/* kernel objects: files, pipes */
		EXPECT_RET(sys_pipe((long)fds[k]), 0);
	CHECK(file_value("/proc/meminfo", "\nSlab:", 0) > slab, "Slab %llu kB after 64 pipes", slab);
	for (int k = 0; k < 64; k++) {
		sys_close(fds[k][0]);
		sys_close(fds[k][1]);
	}
	long fd = sys_open((long)"/tmp/acct", 0101 /* O_WRONLY | O_CREAT */, 0644);
	static char block[64 * 1024];
	CHECK(fd >= 0 && sys_write(fd, (long)block, sizeof(block)) == sizeof(block), "write /tmp/acct");
	sys_close(fd);
	touch_pages(64);
	CHECK(file_value("/proc/meminfo", "\nCached:", 0) >= cached + 64, "Cached %llu kB after 64 KiB in /tmp",
	      cached);
	CHECK(file_value("/proc/meminfo", "\nShmem:", 0) >= 64, "Shmem");
	CHECK(file_value("/proc/meminfo", "\nMemFree:", 0) + 256 <= memfree, "MemFree %llu kB", memfree);
	CHECK(file_value("/proc/vmstat", "\npgfault ", 0) >= pgfault + 64, "pgfault %llu", pgfault);
	long pid = start_sleeper();
	ut_sleep_ns(50 * MS);
	EXPECT_RET(sys_sysinfo((long)si1), 0);
	/* struct sysinfo: uptime loads[3] totalram freeram sharedram ... procs (u16 at 40) */
	CHECK(si1[6] >= si0[6] + 16, "sysinfo sharedram %u -> %u pages", si0[6], si1[6]);
	CHECK(si1[5] < si0[5], "sysinfo freeram %u -> %u", si0[5], si1[5]);
	CHECK((si1[10] & 0xffff) == (si0[10] & 0xffff) + 1, "sysinfo procs %u -> %u", si0[10] & 0xffff,
	      si1[10] & 0xffff);
	char buf[256], want[32];
	CHECK(ut_slurp("/proc/loadavg", buf, sizeof(buf)) > 0, "read /proc/loadavg");
	snprintf(want, sizeof(want), " %ld\n", pid);
	CHECK(ut_has(buf, want), "/proc/loadavg's last pid is not %ld: %s", pid, buf);
	CHECK(uptime_cs(0) >= up + 5 && uptime_cs(1) >= idle + 3, "/proc/uptime %llu %llu did not move",
	      up, idle);
	EXPECT_RET(sys_kill(pid, SIGKILL), 0);
	ut_wait((int)pid);
	EXPECT_RET(sys_unlink((long)"/tmp/acct"), 0);
	CHECK(file_value("/proc/meminfo", "\nCached:", 0) < cached + 64, "Cached after the unlink");
}

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* The number after "\nctxt " in BUF. */
static unsigned long long ctxt_of(const char *buf)
{
	const char *p = strstr(buf, "\nctxt ");

	CHECK(p, "no ctxt line: %.60s", buf);
	return strtoull(p + 6, NULL, 10);
}

/*
 * sysstat's and procps' interval: SIGALRM, pause(), then /proc/stat read
 * again on the file they keep open (lseek to 0, or a pread at 0), which
 * must give the figures of now (seq_file makes the text again at offset 0).
 */
static void acct_interval_reread(void)
{
	char buf[2048];
	long fd = sys_open((long)"/proc/stat", 0, 0), n;
	struct { int iv_s, iv_us, v_s, v_us; } it = { 0, 0, 0, 20000 };	/* 20 ms, once */

	CHECK(fd >= 0, "open /proc/stat: %ld", fd);
	n = sys_read(fd, (long)buf, sizeof(buf) - 1);
	CHECK(n > 0, "read: %ld", n);
	buf[n] = '\0';
	unsigned long long c0 = ctxt_of(buf);
	signal(SIGALRM, on_alarm);
	EXPECT_RET(sys_setitimer(0, (long)&it, 0), 0);
	EXPECT_RET(sys_pause(), -EINTR);
	CHECK(alarms == 1, "pause returned after %d alarms", alarms);
	EXPECT_RET(sys_lseek(fd, 0, 0), 0);
	n = sys_read(fd, (long)buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	unsigned long long c1 = ctxt_of(buf);
	CHECK(c1 >= c0 + 2, "ctxt %llu -> %llu: the re-read after lseek(0) is the old text", c0, c1);
	ut_sleep_ns(MS);
	n = sys_pread64(fd, (long)buf, sizeof(buf) - 1, 0, 0);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(ctxt_of(buf) >= c1 + 2, "ctxt %llu -> %llu: pread at 0", c1, ctxt_of(buf));
	sys_close(fd);
}

const struct ut_test ut_acct_tests[] = {
	{ acct_proc_stat, "acct_proc_stat" },
	{ acct_pid_stat, "acct_pid_stat" },
	{ acct_ctxt_switches, "acct_ctxt_switches" },
	{ acct_getrusage, "acct_getrusage" },
	{ acct_times, "acct_times" },
	{ acct_memory_and_tasks, "acct_memory_and_tasks" },
	{ acct_interval_reread, "acct_interval_reread" },
	{ NULL, NULL },
};
