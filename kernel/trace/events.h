/*
 * kernel/trace/events.h - the trace events: their records in the ring
 * buffer and their text form.
 *
 * Every record starts with struct trace_entry (Linux's common fields:
 * type, flags, preempt_count, pid; plus the time and the comm of the task
 * that was running, which Linux keeps in the ring buffer's event header
 * and its saved-cmdlines table).  The fields after it are Linux 6.1's for
 * Linux's events (include/trace/events/sched.h, timer.h) and ours for
 * sched_place, sched_preempt_check and posix_timer_expire.  tools/trace
 * writes the matching "format" descriptions into trace.dat.
 */
#ifndef KERNEL_TRACE_EVENTS_H
#define KERNEL_TRACE_EVENTS_H

#include <kernel/types.h>
#include <kernel/task.h>		/* TASK_COMM_LEN */

enum trace_event_type {
	TRACE_PRINT = 1,		/* ftrace:print (trace_marker) */
	TRACE_SCHED_SWITCH,
	TRACE_SCHED_WAKEUP,
	TRACE_SCHED_WAKEUP_NEW,
	TRACE_SCHED_PROCESS_FORK,
	TRACE_SCHED_PROCESS_EXIT,
	TRACE_SCHED_STAT_RUNTIME,
	TRACE_SCHED_PLACE,
	TRACE_SCHED_PREEMPT_CHECK,
	TRACE_HRTIMER_EXPIRE_ENTRY,
	TRACE_HRTIMER_EXPIRE_EXIT,
	TRACE_POSIX_TIMER_EXPIRE,
	TRACE_NR_EVENTS,
};

/* trace_entry.flags: Linux's TRACE_FLAG_* bits that we can tell. */
#define TRACE_FLAG_IRQS_OFF	0x01
#define TRACE_FLAG_NEED_RESCHED	0x04
#define TRACE_FLAG_HARDIRQ	0x08

struct trace_entry {
	u16 type;
	u8 flags;
	u8 preempt_count;
	s32 pid;
	u64 ts;				/* sched_clock() ns */
	char comm[TASK_COMM_LEN];	/* of pid, for the TASK-PID column */
};

/* Linux 6.1 prev_state bits (TASK_REPORT): S D T t X Z P I, then "+" */
#define TRACE_STATE_S		0x0001
#define TRACE_STATE_D		0x0002
#define TRACE_STATE_T		0x0004
#define TRACE_STATE_X		0x0010
#define TRACE_STATE_Z		0x0020
#define TRACE_STATE_PREEMPT	0x0100	/* TASK_REPORT_MAX: "R+" */

struct ev_print {
	struct trace_entry ent;
	u32 ip;
	char buf[];			/* NUL-terminated */
};

struct ev_sched_switch {
	struct trace_entry ent;
	char prev_comm[TASK_COMM_LEN];
	s32 prev_pid, prev_prio;
	s32 prev_state;			/* long on i386 */
	char next_comm[TASK_COMM_LEN];
	s32 next_pid, next_prio;
};

/* sched_wakeup, sched_wakeup_new, sched_process_exit (target_cpu unused) */
struct ev_sched_task {
	struct trace_entry ent;
	char comm[TASK_COMM_LEN];
	s32 pid, prio, target_cpu;
};

struct ev_sched_fork {
	struct trace_entry ent;
	char parent_comm[TASK_COMM_LEN];
	s32 parent_pid;
	char child_comm[TASK_COMM_LEN];
	s32 child_pid;
};

struct ev_sched_stat_runtime {
	struct trace_entry ent;
	char comm[TASK_COMM_LEN];
	s32 pid;
	u64 runtime, vruntime;		/* ns */
};

/* sched_place.reason */
enum { PLACE_INITIAL, PLACE_WAKEUP, PLACE_START_NICE };

struct ev_sched_place {
	struct trace_entry ent;
	char comm[TASK_COMM_LEN];
	s32 pid;
	u64 old_vruntime, vruntime, min_vruntime;
	s64 delta;		/* vslice (START_DEBIT, > 0) or sleeper credit (< 0) */
	s32 reason;		/* PLACE_* */
};

/* sched_preempt_check.check */
enum { CHECK_TICK, CHECK_WAKEUP };

struct ev_sched_preempt_check {
	struct trace_entry ent;
	s32 check;			/* CHECK_* */
	s32 curr_pid;			/* the running task */
	s32 pid;			/* tick: the leftmost (0 if none); wakeup: the woken */
	s64 ran, slice;			/* tick: delta_exec vs ideal_runtime */
	s64 vdiff, gran;		/* curr.vruntime - pid's vs the bound */
	s32 resched;			/* outcome: need_resched set by this check */
};

struct ev_hrtimer_entry {
	struct trace_entry ent;
	u32 hrtimer;
	s64 now;
	u32 function;
};

struct ev_hrtimer_exit {
	struct trace_entry ent;
	u32 hrtimer;
};

struct ev_posix_timer {
	struct trace_entry ent;
	s32 timer_id, pid, signo, overrun;
};

/* "system:name" of TYPE (NULL if none), and the lookup by "name". */
const char *trace_event_system(int type);
const char *trace_event_name(int type);
int trace_event_lookup(const char *name);

/*
 * One line of ftrace's trace file for E (with its '\n'): the context
 * ("comm-pid [CPU] flags secs.usecs: ", CPU the buffer's it came from) then "name: fields".  Returns the
 * length (snprintf's, may exceed LEN).
 */
int trace_format_line(const struct trace_entry *e, int cpu, char *buf, int len);
/* Just "name: fields" (tp_printk's console line). */
int trace_format_event(const struct trace_entry *e, char *buf, int len);

#endif
