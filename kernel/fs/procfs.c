/*
 * kernel/fs/procfs.c - the process and system files of /proc, in Linux's
 * layouts so that busybox's ps, top, uptime and free read them unchanged:
 *
 *	/proc/PID/{stat,status,statm,cmdline,comm,sched}
 *				one per process (thread group leader), as
 *				fs/proc/array.c and proc_sched_show_task (2.6.35)
 *	/proc/PID/task/TID/...	the same per thread (pidstat -t, ps -L, top -H)
 *	/proc/self		a symbolic link to the caller's PID
 *
 * Every file is generated whole when it is opened and read from that
 * snapshot (f->buf), so a process that exits while its file is open
 * leaves nothing dangling: no pointer to a task outlives the open.
 *
 * Each field is computed as 2.6.35 computes it; docs/SHELL.md ("A process's
 * files") lists them and the few that differ: wchan and ShdPnd are 0, the
 * memory figures count a stack window that grows only on touch, cmdline is
 * the first 128 bytes of argv.  Times in clock ticks use USER_HZ = 100, as
 * Linux on i386.  The system-wide files (/proc/stat, loadavg, ...) are
 * kernel/fs/procfs_stat.c's.
 */
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/kernel_stat.h>
#include <kernel/kmalloc.h>
#include <kernel/math64.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/procfs.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>
#include <kernel/vm.h>
#include <arch/process.h>
#include "procfs_maps.h"

#define PROC_SIZE	4096		/* a file's snapshot */
#define NS_PER_TICK	(NSEC_PER_SEC / USER_HZ)
#define PROC_PID_INO	0x40000		/* /proc/PID: PROC_PID_INO + PID * 16 (+ entry) */
#define PROC_TID_INO	0x200000	/* /proc/PID/task/TID: PROC_TID_INO + TID * 16 (+ entry) */
#define PROC_SELF_INO	0x3ffff

/* What a /proc node is: PE_DIR is /proc/PID or /proc/PID/task/TID, PE_TASK
 * /proc/PID/task; the files are the same in both directories. */
enum { PE_NONE, PE_SELF, PE_DIR, PE_TASK, PE_STAT, PE_STATUS, PE_CMDLINE, PE_COMM, PE_SCHED,
       PE_STATM, PE_MAPS, PE_NR };

static const char *const pid_files[PE_NR] = {
	[PE_STAT] = "stat", [PE_STATUS] = "status", [PE_CMDLINE] = "cmdline",
	[PE_COMM] = "comm", [PE_SCHED] = "sched", [PE_STATM] = "statm", [PE_MAPS] = "maps",
};

/* The process PID (a live or zombie thread group leader), or NULL. */
static struct task *find_process(int pid)
{
	struct task *t = pid > 0 ? find_task_by_pid(pid) : NULL;

	if (!t || t->tgid != pid || t->exit_state == EXIT_DEAD)
		return NULL;
	return t;
}

/* Thread TID of process PID (TID 0: the process itself), or NULL. */
static struct task *find_thread(int pid, int tid)
{
	struct task *t = find_task_by_pid(tid ? tid : pid);

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

static u32 entry_ino(int pid, int tid, int e)
{
	return tid ? PROC_TID_INO + (u32)tid * 16 + e : PROC_PID_INO + (u32)pid * 16 + e;
}

/* NAME (what follows "proc/PID/" or "proc/PID/task/TID/") in process PID,
 * thread TID (0: the process): a file, "task" (the process only), or a
 * path through task/TID. */
static int lookup_in(const char *name, int pid, int tid, struct fs_node *n)
{
	n->proc_pid = pid;
	n->proc_tid = tid;
	for (int e = PE_STAT; e < PE_NR; e++)
		if (!strcmp(name, pid_files[e])) {
			n->proc_entry = e;
			n->mode = S_IFREG | 0444;
			n->ino = entry_ino(pid, tid, e);
			return 0;
		}
	if (tid || strncmp(name, "task", 4) || (name[4] && name[4] != '/'))
		return strchr(name, '/') ? -ENOTDIR : -ENOENT;
	if (!name[4] || !name[5]) {			/* task, task/ */
		n->proc_entry = PE_TASK;
		snprintf(n->path, sizeof(n->path), "proc/%d/task", pid);
		n->mode = S_IFDIR | 0555;
		n->ino = entry_ino(pid, 0, PE_TASK);
		return 0;
	}
	const char *t = name + 5, *slash = strchr(t, '/');
	size_t len = slash ? (size_t)(slash - t) : strlen(t);
	if ((tid = parse_pid(t, len)) < 0 || !find_thread(pid, tid))
		return -ENOENT;
	if (!slash || !slash[1]) {
		n->proc_entry = PE_DIR;
		n->proc_tid = tid;
		snprintf(n->path, sizeof(n->path), "proc/%d/task/%d", pid, tid);
		n->mode = S_IFDIR | 0555;
		n->ino = entry_ino(pid, tid, 0);
		return 0;
	}
	return lookup_in(slash + 1, pid, tid, n);
}

/* REST is what follows "proc/": "self", "PID", "PID/stat", "PID/task/TID/stat" ... */
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
		n->ino = entry_ino(pid, 0, 0);
		return 0;
	}
	return lookup_in(slash + 1, pid, 0, n);
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

/* Entry INDEX of "proc/PID/task": its threads, leader first. */
static int task_dir_entry(int pid, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	struct task *leader = find_process(pid), *t;

	if (!leader || index < 0)
		return 0;
	t = leader;
	if (index > 0) {
		t = NULL;
		list_for_each_entry(t, &leader->thread_group, thread_group)
			if (--index == 0)
				break;
		if (index)
			return 0;
	}
	snprintf(name, size, "%d", t->pid);
	*mode = S_IFDIR | 0555;
	*ino = entry_ino(pid, t->pid, 0);
	return 1;
}

/* Entry INDEX of "proc" (DIR "": self, then every process), "proc/PID"
 * (its files, then task), "proc/PID/task" or "proc/PID/task/TID". */
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
				*ino = entry_ino(t->pid, 0, 0);
				return 1;
			}
		return 0;
	}
	const char *slash = strchr(dir, '/');
	int pid = parse_pid(dir, slash ? (size_t)(slash - dir) : strlen(dir)), tid = 0;
	if (slash && !strcmp(slash, "/task"))
		return task_dir_entry(pid, index, name, size, mode, ino);
	if (slash && (strncmp(slash, "/task/", 6) || (tid = parse_pid(slash + 6, strlen(slash + 6))) < 0))
		return 0;
	if (!find_thread(pid, tid) || index < 0 || index > PE_NR - PE_STAT - (tid ? 1 : 0))
		return 0;
	if (index == PE_NR - PE_STAT) {			/* the process's task/ */
		strlcpy(name, "task", size);
		*mode = S_IFDIR | 0555;
		*ino = entry_ino(pid, 0, PE_TASK);
		return 1;
	}
	strlcpy(name, pid_files[PE_STAT + index], size);
	*mode = S_IFREG | 0444;
	*ino = entry_ino(pid, tid, PE_STAT + index);
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

/* ns as clock_t (USER_HZ). */
static unsigned long clock_t_of(u64 ns)
{
	return (unsigned long)div_u64(ns, NS_PER_TICK);
}

/* new_encode_dev(): a device number as stat and /proc print it since 2.6. */
static u32 new_encode_dev(u32 major, u32 minor)
{
	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

/*
 * 2.6.35's task->flags.  Granule keeps one bit, PF_SUPERPRIV (capable());
 * each other bit is derived here from the state it mirrors in Linux:
 *   PF_EXITING, PF_EXITPIDONE  a zombie (do_exit set both before exit_notify)
 *   PF_SIGNALED    ... that a signal killed
 *   PF_FORKNOEXEC  made by fork or clone and not exec'd since: a thread that
 *                  is not its process's leader, a leader that did not exec
 *   PF_KTHREAD     a kernel thread (no mm and no exec yet: init before its first)
 * The others stay 0, with the reason in docs/SHELL.md: the FPU state is
 * eager, so no first use sets PF_USED_MATH; no randomization
 * (PF_RANDOMIZE), no core dumps, no freezer, no memory reclaim.
 */
static unsigned int task_flags(const struct task *t)
{
	unsigned int flags = t->flags;

	if (t->exit_state || t->state == TASK_DEAD)
		flags |= PF_EXITING | PF_EXITPIDONE | ((t->exit_code & 0x7f) ? PF_SIGNALED : 0);
	if (t != t->group_leader || !t->group_leader->did_exec)
		flags |= PF_FORKNOEXEC;
	if (!t->mm && !t->exit_state && !t->group_leader->did_exec)
		flags |= PF_KTHREAD;
	return flags;
}

/* collect_sigign_sigcatch(): the signals T's process ignores, and those it
 * has a handler for (bit n-1: signal n); none for a zombie, whose handlers
 * are gone (Linux's lock_task_sighand fails). */
static void collect_sigign_sigcatch(const struct task *t, u64 *ign, u64 *caught)
{
	*ign = *caught = 0;
	if (!t->sig)
		return;
	for (int sig = 1; sig <= _NSIG; sig++) {
		u32 h = t->sig->action[sig - 1].handler;
		if (h == SIG_IGN)
			*ign |= sigmask(sig);
		else if (h != SIG_DFL)
			*caught |= sigmask(sig);
	}
}

/* The controlling terminal's device number (0 without one) and its
 * foreground process group (-1 without a terminal, 0 with none set):
 * 2.6.35's tty_nr and tty_pgrp.  The console is the only terminal. */
static void task_tty(const struct task *t, int *tty_nr, int *tpgid)
{
	*tty_nr = 0;
	*tpgid = -1;
	if (t->group_leader->ctty) {
		*tty_nr = (int)new_encode_dev(CONSOLE_RDEV >> 8, CONSOLE_RDEV & 0xff);
		*tpgid = console_tty.pgrp;
	}
}

/* What do_task_stat prints from the mm: vsize (bytes), the code and the
 * first stack pointer, the saved user esp and eip; all 0 without an mm (a
 * kernel thread, a zombie).  /proc is readable by all, as Linux's
 * ptrace_may_access is true for root: the addresses are always shown. */
struct stat_mm {
	unsigned long vsize, rss, start_code, end_code, start_stack, esp, eip;
};

static void stat_mm_of(struct task *t, struct stat_mm *m)
{
	struct mm_counters c;

	*m = (struct stat_mm){ 0 };
	if (!t->mm)
		return;
	mm_get_counters(t->mm, &c);
	*m = (struct stat_mm){ c.total_vm * PAGE_SIZE, t->mm->nr_pages, t->mm->start_code,
			       t->mm->end_code, t->mm->start_stack, kstk_esp(t), kstk_eip(t) };
}

/* 2.6.35's do_task_stat(): WHOLE (/proc/PID/stat) the process's faults
 * and times, else (/proc/PID/task/TID/stat) the thread's own; either way
 * the reaped children's, and the thread's state and scheduling fields.
 * wchan is 0: see get_wchan's paragraph in docs/SHELL.md. */
static size_t show_stat(struct task *t, int whole, char *buf, size_t size)
{
	const struct signal_acct *sig = &t->group_leader->sig_acct;
	const struct task *leader = t->group_leader;
	struct thread_group_acct a;
	struct stat_mm m;
	char state = task_state_char(t);
	int tty_nr, tpgid;
	u64 ut, st, ign, caught;

	thread_group_acct(t, &a);
	if (whole) {
		thread_group_times(t, &ut, &st);
	} else {
		task_times(t, &ut, &st);
		a.min_flt = t->min_flt;
		a.maj_flt = t->maj_flt;
	}
	stat_mm_of(t, &m);
	task_tty(t, &tty_nr, &tpgid);
	collect_sigign_sigcatch(t, &ign, &caught);
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
			t->pid, t->comm, state, t->parent ? t->parent->tgid : 0, leader->pgrp,
			leader->session, tty_nr, tpgid, task_flags(t),
			(unsigned long)a.min_flt, (unsigned long)sig->cmin_flt,
			(unsigned long)a.maj_flt, (unsigned long)sig->cmaj_flt,
			clock_t_of(ut), clock_t_of(st), (long)clock_t_of(sig->cutime),
			(long)clock_t_of(sig->cstime),
			(long)(t->prio - MAX_RT_PRIO), (long)task_nice(t), a.threads,
			(unsigned long long)clock_t_of(t->start_time), m.vsize, (long)m.rss,
			(unsigned long)task_rlimit(t, RLIMIT_RSS), m.start_code, m.end_code, m.start_stack, m.esp, m.eip,
			(unsigned long)(t->sig_pending & 0x7fffffff),
			(unsigned long)(t->sig_blocked & 0x7fffffff), (unsigned long)(ign & 0x7fffffff),
			(unsigned long)(caught & 0x7fffffff), 0ul, 0ul, 0ul,
			t->exit_signal, task_cpu(t), t->rt_priority, t->policy, 0ull, 0ul, 0l);
}

/*
 * 2.6.35's task_mem() (fs/proc/task_mmu.c), in kB: VmPeak the largest
 * VmSize (hiwater_vm, or total_vm if higher), VmData = total_vm - shared_vm - stack_vm, VmExe the
 * code's pages [start_code, end_code) but at most exec_vm's, VmLib the rest
 * of exec_vm (Linux's later clamp: with the separate read-only and code
 * segments of today's linkers, 2.6.35's difference went below 0), VmPTE the
 * page tables, 4 kB each.
 */
static size_t show_task_mem(struct mm *mm, char *buf, size_t size)
{
	struct mm_counters c;
	u32 kb = PAGE_SIZE >> 10;

	mm_get_counters(mm, &c);
	u32 text = (ALIGN_UP(mm->end_code, PAGE_SIZE) - (mm->start_code & PAGE_MASK)) >> 10;
	text = min(text, c.exec_vm * kb);
	u32 hwm = max(mm->hiwater_rss, mm->nr_pages);
	return snprintf(buf, size,
			"VmPeak:\t%8u kB\nVmSize:\t%8u kB\nVmLck:\t%8u kB\nVmHWM:\t%8u kB\n"
			"VmRSS:\t%8u kB\nVmData:\t%8u kB\nVmStk:\t%8u kB\nVmExe:\t%8u kB\n"
			"VmLib:\t%8u kB\nVmPTE:\t%8u kB\nVmSwap:\t%8u kB\n",
			max(mm->hiwater_vm, c.total_vm) * kb, c.total_vm * kb, c.locked_vm * kb, hwm * kb, mm->nr_pages * kb,
			(c.total_vm - c.shared_vm - c.stack_vm) * kb, c.stack_vm * kb, text,
			c.exec_vm * kb - text, c.nr_ptes * (PAGE_SIZE >> 10), 0u);
}

/* 2.6.35's proc_pid_status(); the context switches are the thread's own
 * (task_context_switch_counts: for /proc/PID, the leader's).  FDSize is
 * the fd table's size (fdt->max_fds); SigQ the queued signals and their
 * process's RLIMIT_SIGPENDING; ShdPnd stays 0: a process-directed signal is given to one of its
 * threads when it is sent, so none waits in a shared set (docs/SHELL.md).
 * Cpus_allowed is cpus_allowed as 2.6.35's seq_cpumask prints it, NR_CPUS
 * (32) bits in hex, and Cpus_allowed_list as cpulist_scnprintf. */
static size_t show_status(struct task *t, char *buf, size_t size)
{
	struct thread_group_acct a;
	u64 ign, caught;
	int queued;
	unsigned int limit;
	size_t n;
	char cpus[3 * NR_CPUS];		/* Cpus_allowed_list, "0-3" */

	thread_group_acct(t, &a);
	collect_sigign_sigcatch(t, &ign, &caught);
	sigqueue_usage(t, &queued, &limit);
	cpulist_snprint(cpus, sizeof(cpus), &t->cpus_allowed);
	n = snprintf(buf, size,
		     "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
		     "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t\n",
		     t->comm, task_state_name(task_state_char(t)), t->tgid, t->pid,
		     t->parent ? t->parent->tgid : 0, t->files ? t->files->max_fds : 0);
	if (t->mm)
		n += show_task_mem(t->mm, buf + n, size - n);
	return n + snprintf(buf + n, size - n,
			"Threads:\t%d\n"
			"SigQ:\t%d/%u\nSigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n"
			"SigIgn:\t%016llx\nSigCgt:\t%016llx\nCapInh:\t%016llx\nCapPrm:\t%016llx\n"
			"CapEff:\t%016llx\nCapBnd:\t%016llx\nCpus_allowed:\t%08x\nCpus_allowed_list:\t%s\n"
			"voluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
			a.threads, queued, limit,
			(unsigned long long)t->sig_pending, 0ull, (unsigned long long)t->sig_blocked,
			(unsigned long long)ign, (unsigned long long)caught, 0ull, ~0ull, ~0ull, ~0ull,
			t->cpus_allowed.bits, cpus, (unsigned long long)t->nvcsw, (unsigned long long)t->nivcsw);
}

/* 2.6.35's proc_pid_statm(), in pages: size (total_vm), resident, shared
 * (file pages: 0, every page here is the process's own copy), text (as
 * VmExe, unclamped), lib (0 since 2.6), data (total_vm - shared_vm), dt 0. */
static size_t show_statm(struct task *t, char *buf, size_t size)
{
	struct mm_counters c = { 0 };
	u32 text = 0;

	if (t->mm) {
		mm_get_counters(t->mm, &c);
		text = (ALIGN_UP(t->mm->end_code, PAGE_SIZE) - (t->mm->start_code & PAGE_MASK)) >>
		       PAGE_SHIFT;
	}
	return snprintf(buf, size, "%u %u 0 %u 0 %u 0\n", c.total_vm, t->mm ? t->mm->nr_pages : 0,
			text, c.total_vm - c.shared_vm);
}

static size_t show_file(int entry, struct task *t, int whole, char *buf, size_t size)
{
	switch (entry) {
	case PE_STAT: return show_stat(t, whole, buf, size);
	case PE_STATUS: return show_status(t, buf, size);
	case PE_COMM: return snprintf(buf, size, "%s\n", t->comm);
	case PE_SCHED: return proc_sched_task_snprint(t, buf, size);
	case PE_STATM: return show_statm(t, buf, size);
	case PE_MAPS: return proc_maps_show(t, buf, size);
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
	struct task *t = find_thread(n->proc_pid, n->proc_tid);
	struct file *f;

	if ((flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	if (!t)
		return -ESRCH;			/* gone since the lookup */
	if (!(f = file_alloc(&proc_ops, flags)))
		return -ENOMEM;
	size_t size = n->proc_entry == PE_MAPS ? proc_maps_size(t) : PROC_SIZE;
	if (!(f->buf = kmalloc(size))) {
		fput(f);
		return -ENOMEM;
	}
	f->len = min((u32)show_file(n->proc_entry, t, !n->proc_tid, f->buf, size), (u32)size - 1);
	*out = f;
	return 0;
}
