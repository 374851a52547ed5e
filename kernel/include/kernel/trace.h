/*
 * kernel/trace.h - the event tracer's interface to the rest of the kernel
 * (kernel/trace/; docs/TRACING.md).
 *
 * The tracer's code and data are linked in their own part of the image
 * (.trace, after .bss: see linker.ld).  With tracing off (no trace_event=)
 * memory_init() hands that part to the frame allocator like any free
 * memory, so the running kernel is the same, frame for frame and
 * instruction for instruction, as one built without a tracer.  Hence the
 * rule for the callers below: after memory_init(), call into the tracer
 * only when trace_on says it is there (the inline wrappers do).
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include <kernel/types.h>
#include <kernel/pmm.h>

extern int trace_on;		/* trace_event= was given (even empty): the tracer is there */

/* The tracer's part of the image, as a region for pmm_init() to reserve. */
struct mem_region trace_image_region(void);

/* In .trace: call only if trace_on (or before memory_init()). */
void trace_probes_init(void);	/* after cmdline_parse: patch the probes in */
void trace_buffer_init(void);	/* after kmalloc_init: allocate the ring buffer */
void trace_dump(void);		/* the ftrace text dump over the console */

static inline void trace_early_init(void)
{
	if (trace_on)
		trace_probes_init();
}

static inline void trace_init(void)
{
	if (trace_on)
		trace_buffer_init();
}

/* End of the run (sys_granule_poweroff): dump the buffer. */
static inline void trace_report_at_end(void)
{
	if (trace_on)
		trace_dump();
}

/* granule_trace_marker(2): -ENOSYS when tracing is off (as on Linux). */
long sys_granule_trace_marker(const char *ubuf, int len);

/* In .trace (kernel/trace/tracefs.c): /sys/kernel/debug/tracing, for the
 * file name space; call only if trace_on.  Lookup of PATH (canonical, no
 * leading '/'): 0 or -ENOENT; entry INDEX of directory DIR: 1 or 0. */
struct fs_node;
int trace_fs_lookup(const char *path, struct fs_node *n);
int trace_fs_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino);

#endif
