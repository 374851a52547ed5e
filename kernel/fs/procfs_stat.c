/*
 * kernel/fs/procfs_stat.c - /proc's system-wide statistics, in Linux
 * 2.6.35's layouts (fs/proc/stat.c, loadavg.c, uptime.c, meminfo.c,
 * mm/vmstat.c), so that procps (vmstat, top, uptime, free) and sysstat
 * (mpstat) read them unchanged:
 *
 *	/proc/stat	CPU time per CPU in USER_HZ ticks (the tick's samples,
 *			kernel/sched/cputime.c), interrupts, context switches,
 *			boot time, forks, runnable and blocked tasks
 *	/proc/loadavg	the load average (kernel/sched/loadavg.c), runnable/all
 *			tasks, the last pid
 *	/proc/uptime	seconds since boot, and the CPUs' idle time
 *	/proc/meminfo	frames, the kernel heap's slabs, tmpfs's file data
 *	/proc/vmstat	page faults; the paging and swapping counters
 *
 * What stays 0 and why (docs/SHELL.md, "What the numbers are"): iowait and
 * procs_blocked (no task ever waits for block I/O: Linux's nr_iowait),
 * irq and softirq time (handlers and softirqs run with interrupts off, so
 * the tick never samples one), the softirq line at one CPU (the only
 * softirq, SCHED's, balances domains), steal and guest time
 * (no hypervisor accounting), Buffers, swap, pgpgin/pgpgout (no block
 * device, no swap), majflt (no fault waits for I/O).
 */
#include <kernel/fs.h>
#include <kernel/hrtimer.h>
#include <kernel/kernel_stat.h>
#include <kernel/kmalloc.h>
#include <kernel/loadavg.h>
#include <kernel/math64.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/procfs.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/tmpfs.h>
#include <kernel/vm.h>

#define NS_PER_USER_TICK	(NSEC_PER_SEC / USER_HZ)

static void cpustat_add(struct cpu_usage_stat *sum, const struct cpu_usage_stat *c)
{
	sum->user += c->user;
	sum->nice += c->nice;
	sum->system += c->system;
	sum->idle += c->idle;
	sum->iowait += c->iowait;
	sum->irq += c->irq;
	sum->softirq += c->softirq;
	sum->steal += c->steal;
	sum->guest += c->guest;
	sum->guest_nice += c->guest_nice;
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice" */
static size_t show_cpu_line(char *buf, size_t size, const char *name, const struct cpu_usage_stat *c)
{
	return snprintf(buf, size, "%s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n", name,
			(unsigned long long)cputime_to_clock_t(c->user),
			(unsigned long long)cputime_to_clock_t(c->nice),
			(unsigned long long)cputime_to_clock_t(c->system),
			(unsigned long long)cputime_to_clock_t(c->idle),
			(unsigned long long)cputime_to_clock_t(c->iowait),
			(unsigned long long)cputime_to_clock_t(c->irq),
			(unsigned long long)cputime_to_clock_t(c->softirq),
			(unsigned long long)cputime_to_clock_t(c->steal),
			(unsigned long long)cputime_to_clock_t(c->guest),
			(unsigned long long)cputime_to_clock_t(c->guest_nice));
}

/* Tasks alive (/proc/loadavg's second figure: Linux's nr_threads). */
static int count_threads(void)
{
	struct task *t;
	int n = 0;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid && !t->exit_state)
			n++;
	return n;
}

/* fs/proc/stat.c show_stat(), with the CPUs' sums first. */
size_t procfs_stat_show(char *buf, size_t size)
{
	struct cpu_usage_stat sum = { 0 };
	u32 softirqs[NR_SOFTIRQS] = { 0 }, sum_softirq = 0;
	u64 intr = 0;
	size_t n;
	int cpu;
	char name[8];

	for_each_possible_cpu(cpu) {
		cpustat_add(&sum, &kstat_cpu(cpu).cpustat);
		for (int j = 0; j < NR_IRQS; j++)
			intr += kstat_cpu(cpu).irqs[j];
		intr += arch_irq_stat_cpu(cpu);
		for (int j = 0; j < NR_SOFTIRQS; j++) {
			softirqs[j] += kstat_cpu(cpu).softirqs[j];
			sum_softirq += kstat_cpu(cpu).softirqs[j];
		}
	}
	n = show_cpu_line(buf, size, "cpu ", &sum);
	for_each_online_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		n += show_cpu_line(buf + n, size - n, name, &kstat_cpu(cpu).cpustat);
	}
	n += snprintf(buf + n, size - n, "intr %llu", (unsigned long long)intr);
	for (int j = 0; j < NR_IRQS; j++) {
		u32 irqs = 0;
		for_each_possible_cpu(cpu)
			irqs += kstat_cpu(cpu).irqs[j];
		n += snprintf(buf + n, size - n, " %u", irqs);
	}
	n += snprintf(buf + n, size - n,
		      "\nctxt %llu\nbtime %u\nprocesses %u\nprocs_running %u\nprocs_blocked %u\n"
		      "softirq %u", (unsigned long long)nr_context_switches(),
		      (u32)div_u64(boot_realtime_ns, NSEC_PER_SEC), total_forks, nr_running(), 0u,
		      sum_softirq);
	for (int j = 0; j < NR_SOFTIRQS; j++)
		n += snprintf(buf + n, size - n, " %u", softirqs[j]);
	return n + snprintf(buf + n, size - n, "\n");
}

/* fs/proc/loadavg.c: the averages rounded to hundredths, running/total
 * tasks, the pid handed out last. */
size_t procfs_loadavg_show(char *buf, size_t size)
{
	u32 a[3];

	get_avenrun(a, FIXED_1 / 200, 0);
	return snprintf(buf, size, "%u.%02u %u.%02u %u.%02u %u/%d %d\n",
			LOAD_INT(a[0]), LOAD_FRAC(a[0]), LOAD_INT(a[1]), LOAD_FRAC(a[1]),
			LOAD_INT(a[2]), LOAD_FRAC(a[2]), nr_running(), count_threads(), last_pid());
}

/* fs/proc/uptime.c: seconds since boot, and the idle time the CPUs' ticks
 * sampled (summed over the CPUs), both to hundredths. */
size_t procfs_uptime_show(char *buf, size_t size)
{
	u64 idle = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		idle += kstat_cpu(cpu).cpustat.idle;
	u32 up_rem, id_rem;
	u64 up = div_u64_rem(sched_clock(), NSEC_PER_SEC, &up_rem);
	u64 id = div_u64_rem(cputime_to_nsecs(idle), NSEC_PER_SEC, &id_rem);
	return snprintf(buf, size, "%llu.%02u %llu.%02u\n", (unsigned long long)up,
			up_rem / (u32)NS_PER_USER_TICK, (unsigned long long)id,
			id_rem / (u32)NS_PER_USER_TICK);
}

/* Frames the kernel heap's slab caches hold (kmalloc's objects up to 2 KiB;
 * larger blocks are whole frames, outside Linux's Slab too). */
static unsigned long slab_frames(void)
{
	struct kmalloc_stats st;
	unsigned long frames = 0;

	kmalloc_get_stats(&st);
	for (int i = 0; i < KMALLOC_NR_CACHES; i++)
		frames += (unsigned long)st.cache[i].slabs << st.cache[i].order;
	return frames;
}

/* tmpfs's file data, KiB: Linux counts tmpfs pages in Cached and Shmem. */
static unsigned long tmpfs_kb(void)
{
	u32 bytes, nodes;

	tmpfs_usage(&bytes, &nodes);
	return (bytes + 1023) >> 10;
}

size_t procfs_meminfo_show(char *buf, size_t size)
{
	unsigned long total = nr_total_frames() * (PAGE_SIZE >> 10);
	unsigned long free = nr_free_frames() * (PAGE_SIZE >> 10);
	unsigned long slab = slab_frames() * (PAGE_SIZE >> 10), cached = tmpfs_kb();

	return snprintf(buf, size,
			"MemTotal:       %8lu kB\nMemFree:        %8lu kB\nBuffers:        %8lu kB\n"
			"Cached:         %8lu kB\nSwapCached:     %8lu kB\nSwapTotal:      %8lu kB\n"
			"SwapFree:       %8lu kB\nShmem:          %8lu kB\nSlab:           %8lu kB\n"
			"SReclaimable:   %8lu kB\nSUnreclaim:     %8lu kB\n",
			total, free, 0ul, cached, 0ul, 0ul, 0ul, cached, slab, 0ul, slab);
}

/* mm/vmstat.c's /proc/vmstat, the lines vmstat(8) reads: free pages,
 * the paging and swapping counters, page faults (every task's, since boot). */
size_t procfs_vmstat_show(char *buf, size_t size)
{
	return snprintf(buf, size,
			"nr_free_pages %lu\nnr_slab_unreclaimable %lu\nnr_shmem %lu\n"
			"pgpgin 0\npgpgout 0\npswpin 0\npswpout 0\npgfault %llu\npgmajfault 0\n",
			nr_free_frames(), slab_frames(), (tmpfs_kb() + 3) >> 2,
			(unsigned long long)vm_events_pgfault());
}
