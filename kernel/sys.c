/*
 * kernel/sys.c - small syscalls: identity, priority, uname, sysinfo, and
 * Granule's private calls (power off, free-frame count, sched_debug).
 */
#include <kernel/cmdline.h>
#include <kernel/errno.h>
#include <kernel/loadavg.h>
#include <kernel/tmpfs.h>
#include <kernel/kmalloc.h>
#include <kernel/math64.h>
#include <kernel/machine.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/trace.h>
#include <kernel/time.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>

#define PRIO_PROCESS	0
#define PRIO_PGRP	1
#define PRIO_USER	2

long sys_getpid(void)  { return current->tgid; }
long sys_gettid(void)  { return current->pid; }
long sys_getppid(void) { return current->group_leader->parent ? current->group_leader->parent->tgid : 0; }

/*
 * Is T one of the tasks getpriority/setpriority(WHICH, WHO) name?  As
 * Linux's: PRIO_PROCESS a thread id (0: the caller), PRIO_PGRP every thread
 * of every process in a group (0: the caller's), PRIO_USER every task of a
 * user id (0: the caller's; everything runs as root, so any other id names
 * nobody).  These two said -EINVAL, where Linux takes them.  Kernel threads
 * and exited tasks are never named.
 */
static int prio_match(struct task *t, int which, int who)
{
	if (t->exit_state || !t->mm)
		return 0;
	switch (which) {
	case PRIO_PROCESS:
		return t->pid == (who ? who : current->pid);
	case PRIO_PGRP:
		return t->group_leader->pgrp == (who ? who : current->group_leader->pgrp);
	case PRIO_USER:
		return who == 0;	/* uid 0: root's tasks, all of them */
	}
	return 0;
}

/* Linux's raw getpriority returns 20 - nice (1..40) so it is never negative:
 * the highest among the tasks named, -ESRCH if none. */
long sys_getpriority(int which, int who)
{
	struct task *t;
	long ret = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which, who) && 20 - task_nice(t) > ret)
			ret = 20 - task_nice(t);
	return ret;
}

long sys_setpriority(int which, int who, int nice)
{
	struct task *t;
	long ret = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	nice = clamp(nice, -20, 19);
	list_for_each_entry(t, &task_list, tasks) {
		if (prio_match(t, which, who)) {
			/* set_one_prio's can_nice(): RLIMIT_NICE is 0, so lowering
			 * nice asks for CAP_SYS_NICE */
			if (nice < task_nice(t))
				capable(CAP_SYS_NICE);
			set_user_nice(t, nice);
			ret = 0;
		}
	}
	return ret;
}

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

long sys_uname(struct new_utsname *u)
{
	static const struct new_utsname uts = {
		.sysname = "Granule", .nodename = "granule", .release = GRANULE_VERSION,
		.version = "#1 CFS 2.6.35", .machine = "i686", .domainname = "(none)",
	};
	return copy_to_user(u, &uts, sizeof(uts));
}

/* Linux i386's struct sysinfo (64 bytes); memory in pages (mem_unit). */
struct sysinfo32 {
	s32 uptime;
	u32 loads[3];			/* 1, 5, 15 min load averages << 16 */
	u32 totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	u32 totalhigh, freehigh, mem_unit;
	char reserved[8];
};

/*
 * sysinfo(info) (2.6.35's do_sysinfo): uptime in s, the load averages
 * (kernel/sched/loadavg.c) with 16 fraction bits, memory in frames (shared:
 * tmpfs's data, rounded up to frames), procs = tasks alive.
 */
long sys_sysinfo(struct sysinfo32 *u)
{
	u32 tmp_bytes, tmp_nodes;
	struct sysinfo32 si = {
		.uptime = (s32)div_u64(sched_clock(), NSEC_PER_SEC),
		.totalram = nr_total_frames(), .freeram = nr_free_frames(),
		.procs = (u16)nr_tasks(), .mem_unit = PAGE_SIZE,
	};

	get_avenrun(si.loads, 0, SI_LOAD_SHIFT - FSHIFT);
	tmpfs_usage(&tmp_bytes, &tmp_nodes);
	si.sharedram = (tmp_bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	return copy_to_user(u, &si, sizeof(si)) ? -EFAULT : 0;
}

static int poweroff_at_end = 1;
DEFINE_KNOB_BOOL(poweroff, poweroff_at_end, 1, "power off when init ends (0: halt and keep the screen)");

/* init's last call: power off with STATUS for the test harness, or halt
 * with the results left on the screen (poweroff=0, real hardware). */
long sys_granule_poweroff(int status)
{
	if (current != init_task)
		return -EPERM;
	trace_report_at_end();		/* trace_event=: the ftrace text dump (first: it stops recording) */
	sched_report_at_end();		/* sched_debug=end and friends */
	if (!poweroff_at_end) {
		printk("init finished with status %d; system halted (poweroff=0)\n", status);
		machine_halt();
	}
	machine_power_off(status);
}

/*
 * Free frames, after what is only lazily freed has been given back: exited
 * threads (normally freed by the next alloc_task()) and the empty slab each
 * kernel heap size class keeps in reserve (kmalloc_shrink).  The count then
 * depends only on what is allocated: usertests compares it before and after
 * a run.
 */
long sys_granule_frames(void)
{
	reap_dead_tasks();
	kmalloc_shrink();
	return nr_free_frames();
}

long sys_granule_sched_debug(void)
{
	sched_debug_show();
	return 0;
}
