/*
 * kernel/trace/trace_internal.h - what the tracer's files share
 * (kernel/trace/; the rest of the kernel sees <kernel/trace.h>).
 */
#ifndef KERNEL_TRACE_INTERNAL_H
#define KERNEL_TRACE_INTERNAL_H

#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/task.h>
#include <kernel/threads.h>
#include "events.h"

/* kernel/trace/knobs.c (the kernel proper) */
extern u32 trace_event_mask;
extern char trace_event_text[128];
extern u32 trace_buf_size;
extern int tp_printk;

/*
 * A zeroed record of TYPE, SIZE bytes, with the common fields filled in
 * for task T (flags from EFLAGS: the probed code's interrupt flag), or
 * NULL if TYPE is off or nothing records.  Interrupts off.
 */
struct trace_entry *trace_reserve(int type, u32 size, u32 eflags, const struct task *t);
/* The record is complete (tp_printk prints it). */
void trace_commit(struct trace_entry *e);

/* probes.c: patch in the probes the events in MASK need, and at boot the
 * two that find the timers' callbacks; returns how many are on. */
int trace_probes_register(u32 mask);
/* probes.c: the probes MASK needs on (registered on first use), the others off. */
int trace_probes_update(u32 mask);

/* trace.c: one set_event / trace_event= item ("sched:*", "sched_switch" ...):
 * its events, 0 if it names none. */
u32 trace_parse_item(const char *item);

/* trace.c: ftrace's trace-file header into BUF; snprintf's length.  ENTRIES
 * and WRITTEN are the CPUs' buffers' counts summed, as ftrace's
 * get_total_entries(). */
#define TRACE_HEADER_MAX	768
int trace_header(char *buf, int len, u32 entries, u64 written);

/*
 * The one line that says why a write to a tracefs file was refused.  Any
 * user can write those files in a loop, so the line goes through Linux's
 * printk_ratelimit() (10 lines in 5 s, shared with the user fault lines,
 * then "FUNC: N callbacks suppressed"); the write's -EINVAL is returned
 * every time.  Linux 2.6.35's trace files print nothing at all.
 */
#define tracing_refused(...) \
	do { if (printk_ratelimit()) printk(__VA_ARGS__); } while (0)

/* trace.c, for tracefs.c: the run-time controls (see there). */
void trace_set_on(int on);
int trace_is_on(void);
void trace_set_events(u32 mask);
void trace_clear(void);
long trace_resize(u32 kib);
u32 trace_buffer_kib(void);
u32 trace_buffer_total_kib(void);
long trace_marker_write(const char *ubuf, int len);

/*
 * A reader of the buffers: the records written before it started, oldest
 * first, the CPUs' buffers merged by time as ftrace's iterator
 * (__find_next_entry: the smallest timestamp, the lower CPU on a tie), or
 * one CPU's alone (per_cpu/cpuN/trace).  trace.c: trace_cursor_start,
 * trace_cursor_next.
 */
struct trace_cpu_cursor {
	u64 seq, end;			/* next record's number; the first one after the range */
	u64 lost;			/* dropped under the cursor, not yet reported */
	u32 pos, gen;			/* its offset; the buffer's generation */
};
struct trace_cursor {
	int cpu;			/* the one CPU read, or -1: every CPU */
	u32 entries;			/* the buffers' entries at start, summed */
	u64 written;			/* and the records ever written */
	struct trace_cpu_cursor at[NR_CPUS];
};
void trace_cursor_start(struct trace_cursor *c, int cpu);
u32 trace_cursor_next(struct trace_cursor *c, void *buf, u32 size, u64 *lost, int *cpu);

#endif
