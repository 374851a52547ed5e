/*
 * kernel/trace/trace_internal.h - what the tracer's files share
 * (kernel/trace/; the rest of the kernel sees <kernel/trace.h>).
 */
#ifndef KERNEL_TRACE_INTERNAL_H
#define KERNEL_TRACE_INTERNAL_H

#include <kernel/types.h>
#include <kernel/task.h>
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

/* probes.c: patch in the probes the events in MASK need; returns how many. */
int trace_probes_register(u32 mask);

#endif
