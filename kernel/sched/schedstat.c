/*
 * kernel/sched/schedstat.c - /proc/schedstat, version 15 (Linux 2.6.35's
 * show_schedstat() in kernel/sched_stats.h).
 *
 *	version 15
 *	timestamp JIFFIES
 *	cpuN yld_count 0 sched_count sched_goidle ttwu_count ttwu_local
 *	     rq_cpu_time run_delay pcount		(one line per online CPU)
 *	domainM SPAN then, for each of CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE:
 *	     lb_count lb_balanced lb_failed lb_imbalance lb_gained
 *	     lb_hot_gained lb_nobusyq lb_nobusyg
 *	     and alb_count alb_failed alb_pushed sbe_count sbe_balanced
 *	     sbe_pushed sbf_count sbf_balanced sbf_pushed ttwu_wake_remote
 *	     ttwu_move_affine ttwu_move_balance	(one line per domain of cpuN,
 *						 lowest first)
 * SPAN is cpumask_scnprintf()'s: the mask in hex, one 32-bit chunk (NR_CPUS
 * is 32), "00000003".  The second cpu field is 2.6.35's legacy sched_switch,
 * always 0; rq_cpu_time is not kept (0).  Without domains (one CPU, or
 * before they are built) there are only the cpu lines.
 */
#include <kernel/host_test.h>	/* first: HOST_TEST renames vsnprintf/snprintf */
#include "topology.h"
#include <kernel/printk.h>

/* Append to BUF as snprintf would, keeping the total length in *POS. */
static void put(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + (*pos < size ? *pos : size), *pos < size ? size - *pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

static void put_domain(char *buf, size_t size, size_t *pos, int dcount, struct sched_domain *sd)
{
	int itype;

	put(buf, size, pos, "domain%d %08x", dcount, sd->span.bits);
	for (itype = CPU_IDLE; itype < CPU_MAX_IDLE_TYPES; itype++)
		put(buf, size, pos, " %u %u %u %u %u %u %u %u",
		    sd->lb_count[itype], sd->lb_balanced[itype], sd->lb_failed[itype],
		    sd->lb_imbalance[itype], sd->lb_gained[itype], sd->lb_hot_gained[itype],
		    sd->lb_nobusyq[itype], sd->lb_nobusyg[itype]);
	put(buf, size, pos, " %u %u %u %u %u %u %u %u %u %u %u %u\n",
	    sd->alb_count, sd->alb_failed, sd->alb_pushed, sd->sbe_count, sd->sbe_balanced,
	    sd->sbe_pushed, sd->sbf_count, sd->sbf_balanced, sd->sbf_pushed,
	    sd->ttwu_wake_remote, sd->ttwu_move_affine, sd->ttwu_move_balance);
}

size_t sched_schedstat_snprint(char *buf, size_t size)
{
	size_t pos = 0;
	unsigned int cpu;

	put(buf, size, &pos, "version 15\ntimestamp %llu\n", (unsigned long long)jiffies);
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct sched_domain *sd;
		int dcount = 0;

		put(buf, size, &pos, "cpu%u %u %u %u %u %u %u %llu %llu %llu\n", cpu,
		    rq->yld_count, rq->sched_switch, rq->sched_count, rq->sched_goidle,
		    rq->ttwu_count, rq->ttwu_local, (unsigned long long)rq->rq_cpu_time,
		    (unsigned long long)rq->rq_sched_info.run_delay,
		    (unsigned long long)rq->rq_sched_info.pcount);
		for_each_domain(cpu, sd)
			put_domain(buf, size, &pos, dcount++, sd);
	}
	return pos;
}
