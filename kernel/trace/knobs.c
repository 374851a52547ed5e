/*
 * kernel/trace/knobs.c - the tracer's boot parameters and the few entry
 * points the rest of the kernel calls while the tracer may be absent.
 *
 * This file is linked with the kernel proper, not in .trace: knobs_print()
 * shows these values after memory_init() has reused a switched-off
 * tracer's memory.  Its variables are in .data (a new .bss variable would
 * move the page-aligned end of .bss, and with it every frame the
 * allocator hands out).  The knobs' ->set functions are in .trace: they
 * only run while the command line is parsed, before memory_init().
 *
 *	trace_event=sched:*,timer:hrtimer_expire_entry	events to record
 *	trace_buf_size=12M				ring buffer bytes of each CPU (K/M)
 *	tp_printk					also print each event
 * (Linux's names; Documentation/admin-guide/kernel-parameters.txt.)
 *
 * trace_on: the tracer is in memory, i.e. trace_event= was on the boot
 * line, even with an empty list (then nothing is recorded until
 * /sys/kernel/debug/tracing/set_event names events; kernel/trace/tracefs.c).
 * Set by the knob's ->changed hook, which runs for a value the parser took,
 * not for the default knobs_init() sets.
 */
#include <kernel/trace.h>
#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/errno.h>

#define __kernel_data	__attribute__((section(".data")))

int trace_on __kernel_data;
u32 trace_event_mask __kernel_data;		/* 1 << enum trace_event_type */
char trace_event_text[128] __kernel_data;	/* the value as given */
/* 12 MiB, not Linux's 1408 KiB: the default 10-s experiment with
 * sched:*,timer:* records ~103,000 events of ~69 bytes (7.1 MB), and the
 * buffer is read only at the end, so it must hold the whole run
 * (tests/system/test_trace.py checks that nothing is lost). */
u32 trace_buf_size __kernel_data = 12u << 20;
int tp_printk __kernel_data;

/* in .trace (kernel/trace/trace.c) */
int trace_event_set(const struct knob *k, const char *val);
int trace_buf_size_set(const struct knob *k, const char *val);
long trace_marker_write(const char *ubuf, int len);
extern char __trace_phys_start[], __trace_phys_end[];

static void trace_event_show(const struct knob *k, char *buf, size_t len)
{
	strlcpy(buf, trace_event_text, len);
}

static void trace_event_changed(const struct knob *k)
{
	trace_on = 1;
}

static void trace_buf_size_show(const struct knob *k, char *buf, size_t len)
{
	snprintf(buf, len, "%u", trace_buf_size);
}

__KNOB(trace_event) = {
	.name = "trace_event", .type = KNOB_CUSTOM, .def_str = "",
	.expect = "a list of SYSTEM:EVENT (sched, timer; EVENT or *)",
	.set = trace_event_set, .show = trace_event_show, .changed = trace_event_changed,
	.help = "trace these events into the ring buffer, dumped at the end (empty: none yet)",
};
__KNOB(trace_buf_size) = {
	.name = "trace_buf_size", .type = KNOB_CUSTOM,
	.expect = "a size 4096..67108864 bytes, with an optional K or M suffix",
	.set = trace_buf_size_set, .show = trace_buf_size_show,
	.help = "trace ring buffer size in bytes (K, M suffixes)",
};
DEFINE_KNOB_BOOL(tp_printk, tp_printk, 0, "also print every trace event on the console");

struct mem_region trace_image_region(void)
{
	return (struct mem_region){ (u32)__trace_phys_start,
				    (u32)(__trace_phys_end - __trace_phys_start) };
}

long sys_granule_trace_marker(const char *ubuf, int len)
{
	if (!trace_on)
		return -ENOSYS;
	return trace_marker_write(ubuf, len);
}
