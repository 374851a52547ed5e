/*
 * kernel/trace/events.c - the names and the text form of the trace events
 * (<kernel/trace/events.h>), as Linux 6.1 prints them in
 * /sys/kernel/tracing/trace:
 *
 *            init-1       [000] d....     0.124571: sched_switch: prev_comm=...
 *
 * i.e. trace_print_context(): "%16s-%-7d [%03d] " + five latency flags +
 * " %5lu.%06lu: " (seconds and microseconds of the ns clock), then the
 * event's TP_printk.  Latency flags: 'd' interrupts off, 'N' need_resched,
 * 'h' hard interrupt, then '.' for preempt depth and migrate-disable (a
 * uniprocessor kernel without preemption has neither).
 */
#ifdef HOST_TEST
#define snprintf ksnprintf
#endif

#include "events.h"
#include <kernel/printk.h>
#include <kernel/string.h>

static const struct {
	const char *system, *name;
} events[TRACE_NR_EVENTS] = {
	[TRACE_PRINT]			= { "ftrace", "print" },
	[TRACE_SCHED_SWITCH]		= { "sched", "sched_switch" },
	[TRACE_SCHED_WAKEUP]		= { "sched", "sched_wakeup" },
	[TRACE_SCHED_WAKEUP_NEW]	= { "sched", "sched_wakeup_new" },
	[TRACE_SCHED_PROCESS_FORK]	= { "sched", "sched_process_fork" },
	[TRACE_SCHED_PROCESS_EXIT]	= { "sched", "sched_process_exit" },
	[TRACE_SCHED_STAT_RUNTIME]	= { "sched", "sched_stat_runtime" },
	[TRACE_SCHED_PLACE]		= { "sched", "sched_place" },
	[TRACE_SCHED_PREEMPT_CHECK]	= { "sched", "sched_preempt_check" },
	[TRACE_HRTIMER_EXPIRE_ENTRY]	= { "timer", "hrtimer_expire_entry" },
	[TRACE_HRTIMER_EXPIRE_EXIT]	= { "timer", "hrtimer_expire_exit" },
	[TRACE_POSIX_TIMER_EXPIRE]	= { "timer", "posix_timer_expire" },
};

const char *trace_event_system(int type)
{
	return type > 0 && type < TRACE_NR_EVENTS ? events[type].system : NULL;
}

const char *trace_event_name(int type)
{
	return type > 0 && type < TRACE_NR_EVENTS ? events[type].name : NULL;
}

int trace_event_lookup(const char *name)
{
	for (int t = 1; t < TRACE_NR_EVENTS; t++)
		if (!strcmp(events[t].name, name))
			return t;
	return 0;
}

/* Linux 6.1's sched_switch prev_state: "S", "D", ..., "R", and "+" if preempted. */
static const char *state_str(s32 state)
{
	static const struct { s32 bit; const char *s; } names[] = {
		{ TRACE_STATE_S, "S" }, { TRACE_STATE_D, "D" }, { TRACE_STATE_T, "T" },
		{ TRACE_STATE_X, "X" }, { TRACE_STATE_Z, "Z" },
	};

	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (state & names[i].bit)
			return names[i].s;
	return "R";
}

static const char *const place_reasons[] = {
	[PLACE_INITIAL] = "initial", [PLACE_WAKEUP] = "wakeup", [PLACE_START_NICE] = "start_nice",
};

/* The event's TP_printk part. */
static int format_fields(const struct trace_entry *e, char *b, int n)
{
	switch (e->type) {
	case TRACE_PRINT: {
		const struct ev_print *p = (const void *)e;
		return snprintf(b, n, "tracing_mark_write: %s", p->buf);
	}
	case TRACE_SCHED_SWITCH: {
		const struct ev_sched_switch *p = (const void *)e;
		return snprintf(b, n, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
				"next_comm=%s next_pid=%d next_prio=%d",
				p->prev_comm, p->prev_pid, p->prev_prio, state_str(p->prev_state),
				p->prev_state & TRACE_STATE_PREEMPT ? "+" : "",
				p->next_comm, p->next_pid, p->next_prio);
	}
	case TRACE_SCHED_WAKEUP:
	case TRACE_SCHED_WAKEUP_NEW: {
		const struct ev_sched_task *p = (const void *)e;
		return snprintf(b, n, "comm=%s pid=%d prio=%d target_cpu=%03d",
				p->comm, p->pid, p->prio, p->target_cpu);
	}
	case TRACE_SCHED_PROCESS_EXIT: {
		const struct ev_sched_task *p = (const void *)e;
		return snprintf(b, n, "comm=%s pid=%d prio=%d", p->comm, p->pid, p->prio);
	}
	case TRACE_SCHED_PROCESS_FORK: {
		const struct ev_sched_fork *p = (const void *)e;
		return snprintf(b, n, "comm=%s pid=%d child_comm=%s child_pid=%d",
				p->parent_comm, p->parent_pid, p->child_comm, p->child_pid);
	}
	case TRACE_SCHED_STAT_RUNTIME: {
		const struct ev_sched_stat_runtime *p = (const void *)e;
		return snprintf(b, n, "comm=%s pid=%d runtime=%llu [ns] vruntime=%llu [ns]",
				p->comm, p->pid, (unsigned long long)p->runtime,
				(unsigned long long)p->vruntime);
	}
	case TRACE_SCHED_PLACE: {
		const struct ev_sched_place *p = (const void *)e;
		return snprintf(b, n, "comm=%s pid=%d old_vruntime=%llu vruntime=%llu "
				"min_vruntime=%llu delta=%lld reason=%s",
				p->comm, p->pid, (unsigned long long)p->old_vruntime,
				(unsigned long long)p->vruntime, (unsigned long long)p->min_vruntime,
				(long long)p->delta,
				p->reason >= 0 && p->reason <= PLACE_START_NICE ?
				place_reasons[p->reason] : "?");
	}
	case TRACE_SCHED_PREEMPT_CHECK: {
		const struct ev_sched_preempt_check *p = (const void *)e;
		return snprintf(b, n, "check=%s curr_pid=%d pid=%d ran=%lld slice=%lld "
				"vdiff=%lld gran=%lld resched=%d",
				p->check == CHECK_TICK ? "tick" : "wakeup", p->curr_pid, p->pid,
				(long long)p->ran, (long long)p->slice, (long long)p->vdiff,
				(long long)p->gran, p->resched);
	}
	case TRACE_HRTIMER_EXPIRE_ENTRY: {
		const struct ev_hrtimer_entry *p = (const void *)e;
		return snprintf(b, n, "hrtimer=%p function=%p now=%llu",
				(void *)(unsigned long)p->hrtimer, (void *)(unsigned long)p->function,
				(unsigned long long)p->now);
	}
	case TRACE_HRTIMER_EXPIRE_EXIT: {
		const struct ev_hrtimer_exit *p = (const void *)e;
		return snprintf(b, n, "hrtimer=%p", (void *)(unsigned long)p->hrtimer);
	}
	case TRACE_POSIX_TIMER_EXPIRE: {
		const struct ev_posix_timer *p = (const void *)e;
		return snprintf(b, n, "timer_id=%d pid=%d signo=%d overrun=%d",
				p->timer_id, p->pid, p->signo, p->overrun);
	}
	}
	return snprintf(b, n, "unknown event %u", e->type);
}

int trace_format_event(const struct trace_entry *e, char *buf, int len)
{
	const char *name = e->type == TRACE_PRINT ? NULL : trace_event_name(e->type);
	int n = 0;

	if (name)
		n = snprintf(buf, len, "%s: ", name);
	return n + format_fields(e, n < len ? buf + n : NULL, n < len ? len - n : 0);
}

int trace_format_line(const struct trace_entry *e, int cpu, char *buf, int len)
{
	u64 us = e->ts / 1000;
	char flags[6] = {
		e->flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.',
		e->flags & TRACE_FLAG_NEED_RESCHED ? 'N' : '.',
		e->flags & TRACE_FLAG_HARDIRQ ? 'h' : '.',
		'.', '.', '\0',
	};
	int n;

	n = snprintf(buf, len, "%16s-%-7d [%03d] %s %5lu.%06lu: ", e->pid ? e->comm : "<idle>",
		     e->pid, cpu, flags, (unsigned long)(us / 1000000), (unsigned long)(us % 1000000));
	n += trace_format_event(e, n < len ? buf + n : NULL, n < len ? len - n : 0);
	if (n + 1 < len) {
		buf[n] = '\n';
		buf[n + 1] = '\0';
	}
	return n + 1;
}
