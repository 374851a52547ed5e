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
 *
 * At run time (kernel/trace/tracefs.c, /sys/kernel/debug/tracing) the
 * functions at the end change what is recorded: the events (and so the
 * probes), recording on or off without losing the buffer, the buffer
 * emptied or resized; and a reader walks the buffer record by record.
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
#define TRACE_CHUNK_MAX		KMALLOC_MAX_SIZE	/* one block: 4 MiB */
#define TRACE_BUF_MAX		(RB_MAX_CHUNKS * TRACE_CHUNK_MAX)	/* 64 MiB */
#define TRACE_MARKER_MAX	256		/* bytes kept of one marker */
#define TRACE_LINE_MAX		384

static struct ring_buffer rb;
static int recording;			/* buffer allocated, tracing_on, not yet dumped */
static int tracing_on_file = 1;		/* tracing_on (ftrace's default: on) */
static int dumped;			/* the end-of-run dump stopped recording for good */
static u32 generation;			/* bumped when the buffer is emptied or replaced */

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

/* One item: SYS:EVENT, SYS:*, SYS: (as SYS:*), *:*, SYS, EVENT or *. */
u32 trace_parse_item(const char *item)
{
	char sys[32];
	const char *colon = strchr(item, ':');

	if (colon) {
		if ((size_t)(colon - item) >= sizeof(sys))
			return 0;
		memcpy(sys, item, (size_t)(colon - item));
		sys[colon - item] = '\0';
		return match_events(sys, colon[1] ? colon + 1 : "*");
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
		m = trace_parse_item(item);
		if (!m)
			return -1;
		mask |= m;
		p += n + (end ? 1 : 0);
		if (end && !*p)
			return -1;	/* trailing comma */
	}
	trace_event_mask = mask;
	strlcpy(trace_event_text, val, sizeof(trace_event_text));
	return 0;		/* trace_on: the knob's ->changed (knobs.c) */
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

	printk("trace: events %s (%d probes)%s\n",
	       trace_event_mask ? trace_event_text : "none yet (set_event turns them on)", n,
	       tp_printk ? ", tp_printk" : "");
}

/* A ring of BYTES in blocks of at most 4 MiB (kmalloc's largest), all of
 * them the same size: NEW is set up empty; -ENOMEM (nothing kept) if one
 * block cannot be had. */
static int ring_alloc(struct ring_buffer *new, u32 bytes)
{
	u32 n = (bytes + TRACE_CHUNK_MAX - 1) / TRACE_CHUNK_MAX;
	u32 chunk = (bytes / n + 1023) & ~1023u;
	void *blocks[RB_MAX_CHUNKS];

	for (u32 i = 0; i < n; i++) {
		if (!(blocks[i] = kmalloc(chunk))) {
			while (i--)
				kfree(blocks[i]);
			return -ENOMEM;
		}
	}
	rb_init_chunks(new, blocks, n, chunk);
	return 0;
}

static void ring_free(struct ring_buffer *old)
{
	for (u32 i = 0; i < old->nchunks; i++)
		kfree(old->chunks[i]);
}

void trace_buffer_init(void)
{
	if (ring_alloc(&rb, trace_buf_size)) {
		printk("trace: cannot allocate %u bytes; tracing off\n", trace_buf_size);
		return;
	}
	recording = 1;
	printk("trace: %u KiB ring buffer\n", trace_buf_size >> 10);
	trace_probes_update(trace_event_mask);	/* hrtimers_init() is done: no more finding */
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

/* trace_marker: the text, truncated to TRACE_MARKER_MAX, one line; -EBADF
 * with recording off (tracing_on 0, or after the dump), as Linux's
 * tracing_mark_write when its buffer refuses the event. */
long trace_marker_write(const char *ubuf, int len)
{
	char text[TRACE_MARKER_MAX];
	unsigned long flags;
	struct ev_print *e;
	int n = len < (int)sizeof(text) - 1 ? len : (int)sizeof(text) - 1;

	if (len <= 0)
		return -EINVAL;
	if (!recording)
		return -EBADF;
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

/* ftrace's header of the trace file ("# tracer: nop" ... the column key). */
int trace_header(char *buf, int len, u32 entries, u64 written)
{
	return snprintf(buf, len, "# tracer: nop\n#\n"
			"# entries-in-buffer/entries-written: %u/%llu   #P:1\n"
			"#\n"
			"#                                _-----=> irqs-off/BH-disabled\n"
			"#                               / _----=> need-resched\n"
			"#                              | / _---=> hardirq/softirq\n"
			"#                              || / _--=> preempt-depth\n"
			"#                              ||| / _-=> migrate-disable\n"
			"#                              |||| /     delay\n"
			"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
			"#              | |         |   |||||     |         |\n",
			entries, (unsigned long long)written);
}

void trace_dump(void)
{
	char line[TRACE_LINE_MAX], header[TRACE_HEADER_MAX];
	struct trace_entry *e;
	struct rb_iter it;
	unsigned long flags;

	local_irq_save(flags);
	recording = 0;			/* nothing moves under the iterator */
	dumped = 1;
	local_irq_restore(flags);

	out("==== granule trace begin ====\n");
	trace_header(header, sizeof(header), rb.entries, rb.written);
	out(header);
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

/* ---- run time (kernel/trace/tracefs.c) --------------------------------------- */

/* tracing_on: stop or start recording; the buffer keeps what it has. */
void trace_set_on(int on)
{
	unsigned long flags;

	local_irq_save(flags);
	tracing_on_file = on;
	recording = on && rb.mem && !dumped;
	local_irq_restore(flags);
}

int trace_is_on(void)
{
	return tracing_on_file;
}

/* set_event: record MASK's events from now on, with the probes they need. */
void trace_set_events(u32 mask)
{
	trace_event_mask = mask;
	trace_probes_update(mask);
}

/* echo > trace: an empty buffer, its counts at 0 (ring_buffer_reset). */
void trace_clear(void)
{
	unsigned long flags;

	local_irq_save(flags);
	rb_init_chunks(&rb, (void *const *)rb.chunks, rb.nchunks, rb.chunk);
	generation++;
	local_irq_restore(flags);
}

/*
 * buffer_size_kb: a new ring of BYTES (a multiple of 1024 within
 * trace_buf_size='s range), empty; 0, -EINVAL (one line says why) or
 * -ENOMEM, the old ring kept.  Linux keeps the events that fit; here the
 * new ring starts empty.
 */
long trace_resize(u32 kib)
{
	u32 bytes = kib << 10;
	unsigned long flags;
	struct ring_buffer new, old;

	if (kib < TRACE_BUF_MIN >> 10 || kib > TRACE_BUF_MAX >> 10) {
		tracing_refused("tracing: buffer_size_kb=%u: out of range (expected %u..%u); keeping %u\n",
		       kib, TRACE_BUF_MIN >> 10, TRACE_BUF_MAX >> 10, rb.size >> 10);
		return -EINVAL;
	}
	if (ring_alloc(&new, bytes))
		return -ENOMEM;
	local_irq_save(flags);
	old = rb;
	rb = new;
	trace_buf_size = bytes;
	generation++;
	local_irq_restore(flags);
	ring_free(&old);
	return 0;
}

u32 trace_buffer_kib(void)
{
	return rb.size ? trace_buf_size >> 10 : 0;	/* as set; the ring holds at least that */
}

void trace_cursor_start(struct trace_cursor *c)
{
	unsigned long flags;

	local_irq_save(flags);
	c->seq = rb.overrun;
	c->end = rb.written;
	c->pos = rb.tail;
	c->gen = generation;
	c->entries = rb.entries;
	local_irq_restore(flags);
}

/*
 * The next record of C's range, copied to BUF (SIZE bytes); its length, 0
 * at the end (or once the buffer was emptied or replaced).  Records the
 * writer dropped under the cursor since the last call are skipped and
 * counted in *LOST (ftrace's "[LOST N EVENTS]").
 */
u32 trace_cursor_next(struct trace_cursor *c, void *buf, u32 size, u64 *lost)
{
	unsigned long flags;
	u32 len = 0;
	void *e;

	*lost = 0;
	local_irq_save(flags);
	if (c->gen == generation) {
		/* Behind the tail: lost.  At the tail: go by the tail, since a padding
		 * record C stood on (after catching up at the end of the array) is
		 * dropped with the record before it.  Ahead: that record lives, and
		 * with it everything between it and C. */
		if (c->seq <= rb.overrun) {
			*lost = rb.overrun - c->seq;
			c->seq = rb.overrun;
			c->pos = rb.tail;
		}
		if (c->seq < c->end && c->seq < rb.written && (e = rb_next_at(&rb, &c->pos, &len))) {
			len = len < size ? len : size;
			memcpy(buf, e, len);
			c->seq++;
		}
	}
	local_irq_restore(flags);
	return len;
}
