/*
 * kernel/trace/trace.c - the tracer proper: the boot parameters' parsers,
 * the ring buffer, recording an event, trace_marker, and the end-of-run
 * dump in the layout of ftrace's trace file.
 *
 * Recording: a probe handler (probes.c) asks trace_reserve() for a record
 * of its event, fills the fields and calls trace_commit().  Both run with
 * interrupts off, so a record is written whole before anything else can
 * write; a full buffer drops its oldest records (ring_buffer.c).
 *
 * The dump (trace_dump, from sys_granule_poweroff) stops recording, then
 * writes with console_write():
 *	==== granule trace begin ====
 *	# tracer: nop
 *	...ftrace's header, with entries-in-buffer/entries-written...
 *	          <idle>-0       [000] d....     0.125010: sched_switch: ...
 *	==== granule trace end: N entries, M lost ====
 * tools/trace finds the two marker lines in a serial log.
 */
#include <kernel/trace.h>
#include <kernel/cmdline.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/kmalloc.h>
#include <kernel/uaccess.h>
#include <kernel/time.h>
#include <kernel/sched.h>
#include <arch/irqflags.h>
#include "ring_buffer.h"
#include "events.h"
#include "trace_internal.h"

#define TRACE_BUF_MIN		4096u
#define TRACE_BUF_MAX		(4096u << 10)	/* KMALLOC_MAX_SIZE */
#define TRACE_MARKER_MAX	256		/* bytes kept of one marker */
#define TRACE_LINE_MAX		384

static struct ring_buffer rb;
static int recording;			/* buffer allocated, not yet dumped */

/* ---- trace_event= and trace_buf_size= (run while parsing the command line) */

static const char *const systems[] = { "sched", "timer" };

/* The events of SYS matching NAME ("*": all); 0 if none. */
static u32 match_events(const char *sys, const char *name)
{
	u32 mask = 0;

	for (int t = TRACE_PRINT + 1; t < TRACE_NR_EVENTS; t++) {
		if (strcmp(sys, "*") && strcmp(sys, trace_event_system(t)))
			continue;
		if (strcmp(name, "*") && strcmp(name, trace_event_name(t)))
			continue;
		mask |= 1u << t;
	}
	return mask;
}

/* One item: SYS:EVENT, SYS:*, *:*, SYS or EVENT. */
static u32 parse_item(const char *item)
{
	char sys[32];
	const char *colon = strchr(item, ':');

	if (colon) {
		if ((size_t)(colon - item) >= sizeof(sys))
			return 0;
		memcpy(sys, item, (size_t)(colon - item));
		sys[colon - item] = '\0';
		return match_events(sys, colon + 1);
	}
	for (unsigned i = 0; i < ARRAY_SIZE(systems); i++)
		if (!strcmp(item, systems[i]))
			return match_events(item, "*");
	return match_events("*", item);
}

int trace_event_set(const struct knob *k, const char *val)
{
	char item[64];
	u32 mask = 0;
	const char *p = val;

	if (strlen(val) >= sizeof(trace_event_text))
		return -1;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		u32 m;

		if (n == 0 || n >= sizeof(item))
			return -1;
		memcpy(item, p, n);
		item[n] = '\0';
		m = parse_item(item);
		if (!m)
			return -1;
		mask |= m;
		p += n + (end ? 1 : 0);
		if (end && !*p)
			return -1;	/* trailing comma */
	}
	trace_event_mask = mask;
	trace_on = mask != 0;
	strlcpy(trace_event_text, val, sizeof(trace_event_text));
	return 0;
}

/* memparse(): a number with an optional K, M or G suffix. */
int trace_buf_size_set(const struct knob *k, const char *val)
{
	u64 n = 0;
	const char *p = val;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (u64)(*p++ - '0');
		if (n > TRACE_BUF_MAX)
			return -1;
	}
	if (*p == 'k' || *p == 'K')
		n <<= 10, p++;
	else if (*p == 'm' || *p == 'M')
		n <<= 20, p++;
	if (*p || n < TRACE_BUF_MIN || n > TRACE_BUF_MAX)
		return -1;
	trace_buf_size = (u32)n;
	return 0;
}

/* ---- start ------------------------------------------------------------------ */

void trace_probes_init(void)
{
	int n = trace_probes_register(trace_event_mask);

	printk("trace: events %s (%d probes)%s\n", trace_event_text, n,
	       tp_printk ? ", tp_printk" : "");
}

void trace_buffer_init(void)
{
	void *mem = kmalloc(trace_buf_size);

	if (!mem) {
		printk("trace: cannot allocate %u bytes; tracing off\n", trace_buf_size);
		return;
	}
	rb_init(&rb, mem, trace_buf_size);
	recording = 1;
	printk("trace: %u KiB ring buffer\n", trace_buf_size >> 10);
}

/* ---- recording -------------------------------------------------------------- */

struct trace_entry *trace_reserve(int type, u32 size, u32 eflags, const struct task *t)
{
	struct trace_entry *e;

	if (!recording || !(trace_event_mask & (1u << type) || type == TRACE_PRINT))
		return NULL;
	e = rb_reserve(&rb, size);
	if (!e)
		return NULL;
	memset(e, 0, size);
	e->type = (u16)type;
	e->flags = (u8)((eflags & 0x200 ? 0 : TRACE_FLAG_IRQS_OFF) |
			(t->need_resched ? TRACE_FLAG_NEED_RESCHED : 0));
	e->pid = t->pid;
	e->ts = sched_clock();
	strlcpy(e->comm, t->comm, sizeof(e->comm));
	return e;
}

void trace_commit(struct trace_entry *e)
{
	char line[TRACE_LINE_MAX];

	if (!tp_printk)
		return;
	trace_format_event(e, line, sizeof(line));
	printk("%s\n", line);
}

/* trace_marker: the text, truncated to TRACE_MARKER_MAX, one line. */
long trace_marker_write(const char *ubuf, int len)
{
	char text[TRACE_MARKER_MAX];
	unsigned long flags;
	struct ev_print *e;
	int n = len < (int)sizeof(text) - 1 ? len : (int)sizeof(text) - 1;

	if (len <= 0)
		return -EINVAL;
	if (copy_from_user(text, ubuf, (size_t)n))
		return -EFAULT;
	text[n] = '\0';
	while (n > 0 && text[n - 1] == '\n')
		text[--n] = '\0';
	for (int i = 0; i < n; i++)
		if (text[i] == '\n' || text[i] == '\0')
			text[i] = ' ';
	local_irq_save(flags);
	e = (struct ev_print *)trace_reserve(TRACE_PRINT, sizeof(*e) + (u32)n + 1, 0x200 /* IF */, current);
	if (e) {
		memcpy(e->buf, text, (size_t)n + 1);
		trace_commit(&e->ent);
	}
	local_irq_restore(flags);
	return len;
}

/* ---- the dump ---------------------------------------------------------------- */

/* The dump goes to the serial port only: the screen would scroll for ever. */
static void out(const char *s)
{
	console_write_only("ttyS0", s, strlen(s));
}

void trace_dump(void)
{
	char line[TRACE_LINE_MAX];
	struct trace_entry *e;
	struct rb_iter it;
	unsigned long flags;

	local_irq_save(flags);
	recording = 0;			/* nothing moves under the iterator */
	local_irq_restore(flags);

	out("==== granule trace begin ====\n");
	out("# tracer: nop\n#\n");
	snprintf(line, sizeof(line), "# entries-in-buffer/entries-written: %u/%llu   #P:1\n",
		 rb.entries, (unsigned long long)rb.written);
	out(line);
	out("#\n"
	    "#                                _-----=> irqs-off/BH-disabled\n"
	    "#                               / _----=> need-resched\n"
	    "#                              | / _---=> hardirq/softirq\n"
	    "#                              || / _--=> preempt-depth\n"
	    "#                              ||| / _-=> migrate-disable\n"
	    "#                              |||| /     delay\n"
	    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	    "#              | |         |   |||||     |         |\n");
	rb_iter_start(&rb, &it);
	while ((e = rb_iter_next(&rb, &it, NULL))) {
		int n = trace_format_line(e, line, sizeof(line));

		if (n >= (int)sizeof(line))
			line[sizeof(line) - 2] = '\n';	/* keep the line ending */
		out(line);
	}
	snprintf(line, sizeof(line), "==== granule trace end: %u entries, %llu lost ====\n",
		 rb.entries, (unsigned long long)rb.overrun);
	out(line);
	printk("trace: %u events dumped on ttyS0 (%llu lost)\n", rb.entries,
	       (unsigned long long)rb.overrun);
}
