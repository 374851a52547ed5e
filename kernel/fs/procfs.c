/*
 * kernel/fs/procfs.c - the process and system files of /proc, in Linux's
 * layouts so that busybox's ps, top, uptime and free read them unchanged:
 *
 *	/proc/PID/stat, status, cmdline, comm, sched	one per process (thread
 *				group leader), as fs/proc/array.c and
 *				proc_sched_show_task (Linux 2.6.35)
 *	/proc/self		a symbolic link to the caller's PID
 *	/proc/stat, uptime, loadavg, meminfo, schedstat, cpuinfo
 *
 * Every file is generated whole when it is opened and read from that
 * snapshot (f->buf), so a process that exits while its file is open
 * leaves nothing dangling: no pointer to a task outlives the open.
 *
 * Differences from Linux, on purpose: CPU time is not split into user
 * and system time (all of it shows as user time, the idle task's as idle);
 * page faults, signal dispositions, process groups and sessions (until job
 * control) and code/stack addresses print as 0; no load average is kept
 * (0.00, as sysinfo's loads); cmdline is the first 128 bytes of argv.
 * Times in clock ticks use USER_HZ = 100, as Linux on i386.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/hrtimer.h>
#include <kernel/kmalloc.h>
#include <kernel/math64.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/procfs.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>

#define PROC_SIZE	4096		/* a file's snapshot */
#define USER_HZ		100
#define NS_PER_TICK	(1000000000ull / USER_HZ)
#define PROC_PID_INO	0x40000		/* /proc/PID: PROC_PID_INO + PID * 8 (+ entry) */
#define PROC_SELF_INO	0x3ffff

enum { PE_NONE, PE_SELF, PE_DIR, PE_STAT, PE_STATUS, PE_CMDLINE, PE_COMM, PE_SCHED, PE_NR };

static const char *const pid_files[PE_NR] = {
	[PE_STAT] = "stat", [PE_STATUS] = "status", [PE_CMDLINE] = "cmdline",
	[PE_COMM] = "comm", [PE_SCHED] = "sched",
};

/* The process PID (a live or zombie thread group leader), or NULL. */
static struct task *find_process(int pid)
{
	struct task *t = pid > 0 ? find_task_by_pid(pid) : NULL;

	if (!t || t->tgid != pid || t->exit_state == EXIT_DEAD)
		return NULL;
	return t;
}

static int parse_pid(const char *s, size_t len)
{
	int pid = 0;

	if (!len || len > 5 || s[0] == '0')
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		pid = pid * 10 + (s[i] - '0');
	}
	return pid;
}

/* REST is what follows "proc/": "self", "PID", "PID/stat" ... */
int procfs_lookup(const char *rest, int follow, struct fs_node *n)
{
	const char *slash = strchr(rest, '/');
	size_t len = slash ? (size_t)(slash - rest) : strlen(rest);
	int pid;

	if (len == 4 && !strncmp(rest, "self", 4)) {
		pid = current->tgid;
		if (!slash && !follow) {
			n->proc_entry = PE_SELF;
			n->proc_pid = pid;
			n->mode = S_IFLNK | 0777;
			n->ino = PROC_SELF_INO;
			return 0;
		}
	} else if ((pid = parse_pid(rest, len)) < 0) {
		return -ENOENT;
	}
	if (!find_process(pid))
		return -ENOENT;
	n->proc_pid = pid;
	if (!slash) {
		n->proc_entry = PE_DIR;
		snprintf(n->path, sizeof(n->path), "proc/%d", pid);	/* self: its target */
		n->mode = S_IFDIR | 0555;
		n->ino = PROC_PID_INO + pid * 8;
		return 0;
	}
	for (int e = PE_STAT; e < PE_NR; e++)
		if (!strcmp(slash + 1, pid_files[e])) {
			n->proc_entry = e;
			n->mode = S_IFREG | 0444;
			n->ino = PROC_PID_INO + pid * 8 + e;
			return 0;
		}
	return strchr(slash + 1, '/') && find_process(pid) ? -ENOTDIR : -ENOENT;
}

/* readlink of /proc/self: the caller's pid. */
long procfs_readlink(const struct fs_node *n, char *ubuf, int size)
{
	char s[12];
	u32 len;

	if (n->proc_entry != PE_SELF)
		return -EINVAL;
	len = min((u32)snprintf(s, sizeof(s), "%d", n->proc_pid), (u32)size);
	return copy_to_user(ubuf, s, len) ? -EFAULT : (long)len;
}

/* Entry INDEX of "proc" (DIR "": self, then every process) or of "proc/PID". */
int procfs_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	struct task *t;

	if (!dir[0]) {
		if (index == 0) {
			strlcpy(name, "self", size);
			*mode = S_IFLNK | 0777;
			*ino = PROC_SELF_INO;
			return 1;
		}
		index--;
		list_for_each_entry(t, &task_list, tasks)
			if (t->pid && t->pid == t->tgid && t->exit_state != EXIT_DEAD &&
			    index-- == 0) {
				snprintf(name, size, "%d", t->pid);
				*mode = S_IFDIR | 0555;
				*ino = PROC_PID_INO + t->pid * 8;
				return 1;
			}
		return 0;
	}
	int pid = parse_pid(dir, strlen(dir));
	if (!find_process(pid) || index < 0 || index >= PE_NR - PE_STAT)
		return 0;
	strlcpy(name, pid_files[PE_STAT + index], size);
	*mode = S_IFREG | 0444;
	*ino = PROC_PID_INO + pid * 8 + PE_STAT + index;
	return 1;
}

/* ---- the per-process files (fs/proc/array.c) ---- */

static char task_state_char(const struct task *t)
{
	if (t->exit_state == EXIT_ZOMBIE)
		return 'Z';
	if (t->exit_state == EXIT_DEAD)
		return 'X';
	switch (t->state) {
	case TASK_RUNNING: return 'R';
	case TASK_INTERRUPTIBLE: return 'S';
	case TASK_UNINTERRUPTIBLE: return 'D';
	case TASK_STOPPED: return 'T';
	}
	return 'S';
}

static const char *task_state_name(char c)
{
	switch (c) {
	case 'R': return "R (running)";
	case 'D': return "D (disk sleep)";
	case 'T': return "T (stopped)";
	case 'Z': return "Z (zombie)";
	case 'X': return "X (dead)";
	}
	return "S (sleeping)";
}

/* What a process's threads add up to. */
struct proc_sum {
	int threads;
	u64 runtime;			/* ns, exited threads included */
	u64 nvcsw, nivcsw;
};

static void proc_sum(const struct task *leader, struct proc_sum *s)
{
	struct task *t;

	*s = (struct proc_sum){ .runtime = leader->dead_runtime };
	list_for_each_entry(t, &task_list, tasks)
		if (t->tgid == leader->tgid && t->exit_state != EXIT_DEAD) {
			s->threads++;
			s->runtime += task_sched_runtime(t);
			s->nvcsw += t->nvcsw;
			s->nivcsw += t->nivcsw;
		}
}

static u32 mm_vsize(const struct mm *mm)
{
	u32 bytes = 0;

	if (!mm)
		return 0;
	for (int i = 0; i < mm->nr_areas; i++)
		bytes += mm->areas[i].end - mm->areas[i].start;
	return bytes + (mm->brk - mm->start_brk);
}

static unsigned long ticks(u64 ns)
{
	return (unsigned long)div_u64(ns, NS_PER_TICK);
}

static size_t show_stat(struct task *t, char *buf, size_t size)
{
	struct proc_sum s;
	char state = task_state_char(t);

	proc_sum(t, &s);
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags minflt
	 * cminflt majflt cmajflt utime stime cutime cstime priority nice
	 * num_threads itrealvalue starttime vsize rss rsslim startcode
	 * endcode startstack kstkesp kstkeip signal blocked sigignore
	 * sigcatch wchan nswap cnswap exit_signal processor rt_priority
	 * policy delayacct_blkio_ticks guest_time cguest_time */
	return snprintf(buf, size,
			"%d (%s) %c %d %d %d %d %d %u %lu %lu %lu %lu %lu %lu %ld %ld %ld %ld %d 0 "
			"%llu %lu %ld %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %d %d %u %u "
			"%llu %lu %ld\n",
			t->pid, t->comm, state, t->parent ? t->parent->tgid : 0, 0, 0, 0, -1, 0u,
			0ul, 0ul, 0ul, 0ul, ticks(s.runtime), 0ul, (long)ticks(t->children_runtime), 0l,
			(long)(t->prio - MAX_RT_PRIO), (long)task_nice(t), s.threads,
			(unsigned long long)ticks(t->start_time), (unsigned long)mm_vsize(t->mm),
			(long)(t->mm ? t->mm->nr_pages : 0), 0xfffffffful, 0ul, 0ul, 0ul, 0ul, 0ul,
			(unsigned long)(t->sig_pending & 0x7fffffff),
			(unsigned long)(t->sig_blocked & 0x7fffffff), 0ul, 0ul, 0ul, 0ul, 0ul,
			t->exit_signal, 0, 0u, t->policy, 0ull, 0ul, 0l);
}

static size_t show_status(struct task *t, char *buf, size_t size)
{
	struct proc_sum s;
	u32 vm_kb = mm_vsize(t->mm) >> 10, rss_kb = (t->mm ? t->mm->nr_pages : 0) * (PAGE_SIZE >> 10);

	proc_sum(t, &s);
	return snprintf(buf, size,
			"Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
			"Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t\n"
			"VmPeak:\t%8u kB\nVmSize:\t%8u kB\nVmLck:\t%8u kB\nVmHWM:\t%8u kB\n"
			"VmRSS:\t%8u kB\nVmData:\t%8u kB\nVmStk:\t%8u kB\nVmExe:\t%8u kB\n"
			"VmLib:\t%8u kB\nVmPTE:\t%8u kB\nVmSwap:\t%8u kB\nThreads:\t%d\n"
			"SigQ:\t0/%d\nSigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n"
			"SigIgn:\t%016llx\nSigCgt:\t%016llx\nCapInh:\t%016llx\nCapPrm:\t%016llx\n"
			"CapEff:\t%016llx\nCapBnd:\t%016llx\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n"
			"voluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
			t->comm, task_state_name(task_state_char(t)), t->tgid, t->pid,
			t->parent ? t->parent->tgid : 0, NR_OPEN, vm_kb, vm_kb, 0u, rss_kb, rss_kb,
			0u, 0u, 0u, 0u, 0u, 0u, s.threads, TASK_MAX,
			(unsigned long long)t->sig_pending, 0ull, (unsigned long long)t->sig_blocked,
			0ull, 0ull, 0ull, ~0ull, ~0ull, ~0ull,
			(unsigned long long)s.nvcsw, (unsigned long long)s.nivcsw);
}

static size_t show_file(int entry, struct task *t, char *buf, size_t size)
{
	switch (entry) {
	case PE_STAT: return show_stat(t, buf, size);
	case PE_STATUS: return show_status(t, buf, size);
	case PE_COMM: return snprintf(buf, size, "%s\n", t->comm);
	case PE_SCHED: return proc_sched_task_snprint(t, buf, size);
	case PE_CMDLINE:
		if (!t->mm)
			return 0;
		memcpy(buf, t->mm->cmdline, min(t->mm->cmdline_len, (u32)size));
		return min(t->mm->cmdline_len, (u32)size);
	}
	return 0;
}

static const struct file_ops proc_ops = { .read = snapshot_read };

int procfs_open(const struct fs_node *n, u32 flags, struct file **out)
{
	struct task *t = find_process(n->proc_pid);
	struct file *f;

	if ((flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	if (!t)
		return -ESRCH;			/* gone since the lookup */
	if (!(f = file_alloc(&proc_ops, flags)))
		return -ENOMEM;
	if (!(f->buf = kmalloc(PROC_SIZE))) {
		fput(f);
		return -ENOMEM;
	}
	f->len = min((u32)show_file(n->proc_entry, t, f->buf, PROC_SIZE), PROC_SIZE - 1);
	*out = f;
	return 0;
}

/* ---- the system files ---- */

/* CPU time the tasks used so far: the live ones (idle excluded) plus what
 * exited threads and reaped children left with their process and parent. */
static u64 busy_ns(void)
{
	struct task *t;
	u64 sum = 0;

	list_for_each_entry(t, &task_list, tasks) {
		if (!t->pid || t->exit_state == EXIT_DEAD)
			continue;
		sum += task_sched_runtime(t);
		if (t->pid == t->tgid)
			sum += t->dead_runtime + t->children_runtime;
	}
	return sum;
}

static void cpu_times(u64 *busy, u64 *idle)
{
	u64 now = sched_clock();

	*busy = min(busy_ns(), now);
	*idle = now - *busy;
}

size_t procfs_uptime_show(char *buf, size_t size)
{
	u64 busy, idle, now = sched_clock();

	cpu_times(&busy, &idle);
	unsigned long up = ticks(now), id = ticks(idle);
	return snprintf(buf, size, "%lu.%02lu %lu.%02lu\n", up / USER_HZ, up % USER_HZ,
			id / USER_HZ, id % USER_HZ);
}

static int count_tasks(int running)
{
	struct task *t;
	int n = 0;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid && !t->exit_state && (!running || t->on_rq))
			n++;
	return n;
}

size_t procfs_loadavg_show(char *buf, size_t size)
{
	return snprintf(buf, size, "0.00 0.00 0.00 %d/%d %d\n", count_tasks(1), count_tasks(0),
			last_pid());
}

size_t procfs_stat_show(char *buf, size_t size)
{
	u64 busy, idle;

	cpu_times(&busy, &idle);
	unsigned long long u = ticks(busy), i = ticks(idle);
	return snprintf(buf, size,
			"cpu  %llu 0 0 %llu 0 0 0 0 0 0\ncpu0 %llu 0 0 %llu 0 0 0 0 0 0\n"
			"intr 0\nctxt %llu\nbtime %u\nprocesses %d\nprocs_running %d\n"
			"procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0\n",
			u, i, u, i, (unsigned long long)sched_nr_switches(),
			(u32)div_u64(boot_realtime_ns, 1000000000),
			last_pid(), count_tasks(1));
}

size_t procfs_meminfo_show(char *buf, size_t size)
{
	unsigned long total = nr_total_frames() * (PAGE_SIZE >> 10);
	unsigned long free = nr_free_frames() * (PAGE_SIZE >> 10);

	return snprintf(buf, size,
			"MemTotal:       %8lu kB\nMemFree:        %8lu kB\nBuffers:        %8lu kB\n"
			"Cached:         %8lu kB\nSwapCached:     %8lu kB\nSwapTotal:      %8lu kB\n"
			"SwapFree:       %8lu kB\nShmem:          %8lu kB\nSlab:           %8lu kB\n"
			"SReclaimable:   %8lu kB\n",
			total, free, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul);
}
