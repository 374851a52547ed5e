/*
 * kernel/trace/trace.c - the tracer proper: the boot parameters' parsers,
 * the ring buffer, recording an event, trace_marker, and the end-of-run
 * dump in the layout of ftrace's trace file.
 *
 * Recording: a probe handler (probes.c) asks trace_reserve() for a record
 * of its event, fills the fields and calls trace_commit().  Both run with
 * interrupts off, so a record is written whole before anything else on
 * this CPU can write; a full buffer drops its oldest records
 * (ring_buffer.c).  As ftrace's, there is one buffer per possible CPU,
 * written only by its CPU (the one the event happens on), each of
 * trace_buf_size bytes.  ftrace's writer is lockless (2.6.35
 * ring_buffer.c's commit pages); here the writer holds its own CPU's
 * buffer lock from trace_reserve() to trace_commit(), a lock only a reader
 * on another CPU can contend, and at one possible CPU no lock is taken.
 *
 * The dump (trace_dump, from sys_granule_poweroff) stops recording, then
 * writes with console_write():
 *	==== granule trace begin ====
 *	# tracer: nop
 *	...ftrace's header, with entries-in-buffer/entries-written...
 *	          <idle>-0       [000] d....     0.125010: sched_switch: ...
 * (the CPUs' buffers merged by time, as the trace file reads).
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
#include <kernel/smp_copies.h>
#include <kernel/cpumask.h>
#include <kernel/smp.h>
#include <arch/irqflags.h>
#include <arch/spinlock.h>
#include "ring_buffer.h"
#include "events.h"
#include "trace_internal.h"

#define TRACE_BUF_MIN		4096u
#define TRACE_CHUNK_MAX		KMALLOC_MAX_SIZE	/* one block: 4 MiB */
#define TRACE_BUF_MAX		(RB_MAX_CHUNKS * TRACE_CHUNK_MAX)	/* 64 MiB */
#define TRACE_MARKER_MAX	256		/* bytes kept of one marker */
#define TRACE_LINE_MAX		384

static struct ring_buffer rbs[NR_CPUS];	/* one per possible CPU */
static arch_spinlock_t rb_lock[NR_CPUS];	/* its writer (its CPU) against readers */
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

/* Every possible CPU's ring of BYTES, into NEW; -ENOMEM (nothing kept). */
static int rings_alloc(struct ring_buffer *new, u32 bytes)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (ring_alloc(&new[cpu], bytes)) {
			while (cpu--)
				ring_free(&new[cpu]);
			return -ENOMEM;
		}
	}
	return 0;
}

static void trace_smp_write_path(void);

void trace_buffer_init(void)
{
	if (rings_alloc(rbs, trace_buf_size)) {
		printk("trace: cannot allocate %u bytes for each of %u CPUs; tracing off\n",
		       trace_buf_size, nr_cpu_ids);
		return;
	}
	if (nr_cpu_ids > 1)
		trace_smp_write_path();
	recording = 1;
	if (nr_cpu_ids > 1)
		printk("trace: %u KiB ring buffer per CPU, %u CPUs\n", trace_buf_size >> 10, nr_cpu_ids);
	else
		printk("trace: %u KiB ring buffer\n", trace_buf_size >> 10);
	trace_probes_update(trace_event_mask);	/* hrtimers_init() is done: no more finding */
}

/* ---- recording -------------------------------------------------------------- */

/*
 * Two versions of the write path.  At one possible CPU, trace_reserve()
 * and trace_commit() write CPU 0's buffer with no lock, instruction for
 * instruction the uniprocessor tracer (under -icount a probe's cost is
 * time, and every figure of a traced -smp 1 run stays what it was).  At
 * more, trace_buffer_init() makes them jump to the _smp versions: this
 * CPU's buffer, its lock held from reserve to commit.  The record's
 * fields are written out in both rather than shared through an inline
 * helper: with one, GCC allocates trace_reserve()'s registers differently
 * and the uniprocessor path runs one instruction less than it did.
 */
/* tp_printk: the event on the console too. */
static inline __attribute__((always_inline)) void print_entry(struct trace_entry *e)
{
	char line[TRACE_LINE_MAX];

	if (!tp_printk)
		return;
	trace_format_event(e, line, sizeof(line));
	printk("%s\n", line);
}

struct trace_entry *trace_reserve(int type, u32 size, u32 eflags, const struct task *t)
{
	struct trace_entry *e;

	if (!recording || !(trace_event_mask & (1u << type) || type == TRACE_PRINT))
		return NULL;
	e = rb_reserve(&rbs[0], size);
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
	print_entry(e);
}

static struct trace_entry *trace_reserve_smp(int type, u32 size, u32 eflags, const struct task *t)
{
	struct trace_entry *e;
	unsigned int cpu;

	if (!recording || !(trace_event_mask & (1u << type) || type == TRACE_PRINT))
		return NULL;
	cpu = smp_processor_id();		/* interrupts are off: this CPU to trace_commit */
	arch_spin_lock(&rb_lock[cpu]);
	e = rb_reserve(&rbs[cpu], size);
	if (!e) {
		arch_spin_unlock(&rb_lock[cpu]);
		return NULL;
	}
	memset(e, 0, size);
	e->type = (u16)type;
	e->flags = (u8)((eflags & 0x200 ? 0 : TRACE_FLAG_IRQS_OFF) |
			(t->need_resched ? TRACE_FLAG_NEED_RESCHED : 0));
	e->pid = t->pid;
	e->ts = sched_clock();
	strlcpy(e->comm, t->comm, sizeof(e->comm));
	return e;
}

static void trace_commit_smp(struct trace_entry *e)
{
	arch_spin_unlock(&rb_lock[smp_processor_id()]);
	print_entry(e);
}

/* trace_marker: the text, truncated to TRACE_MARKER_MAX, one line; -EBADF
 * with recording off (tracing_on 0, or after the dump), as Linux's
 * tracing_mark_write when its buffer refuses the event.  SMP picks the
 * write path (a constant: the two callers below get one each). */
static inline __attribute__((always_inline)) long marker_write(const char *ubuf, int len, int smp)
{
	char text[TRACE_MARKER_MAX];
	unsigned long flags;
	struct ev_print *e;
	int n = len < (int)sizeof(text) - 1 ? len : (int)sizeof(text) - 1;
	u32 size;

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
	size = sizeof(*e) + (u32)n + 1;
	e = (struct ev_print *)(smp ? trace_reserve_smp(TRACE_PRINT, size, 0x200 /* IF */, current)
				    : trace_reserve(TRACE_PRINT, size, 0x200 /* IF */, current));
	if (e) {
		memcpy(e->buf, text, (size_t)n + 1);
		if (smp)
			trace_commit_smp(&e->ent);
		else
			trace_commit(&e->ent);
	}
	local_irq_restore(flags);
	return len;
}

long trace_marker_write(const char *ubuf, int len)
{
	return marker_write(ubuf, len, 0);
}

static long trace_marker_write_smp(const char *ubuf, int len)
{
	return marker_write(ubuf, len, 1);
}

/*
 * More than one possible CPU: the _smp write path from now on.  The pairs
 * are this table, not the section smp_copies (<kernel/smp_copies.h>): the
 * tracer's sections are renamed .trace.*, and it is patched only when on.
 */
static void trace_smp_write_path(void)
{
	static const struct smp_copy write_path[] = {
		SMP_COPY(trace_reserve), SMP_COPY(trace_commit), SMP_COPY(trace_marker_write),
	};

	smp_copies_redirect(write_path, write_path + ARRAY_SIZE(write_path));
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
			"# entries-in-buffer/entries-written: %u/%llu   #P:%u\n"
			"#\n"
			"#                                _-----=> irqs-off/BH-disabled\n"
			"#                               / _----=> need-resched\n"
			"#                              | / _---=> hardirq/softirq\n"
			"#                              || / _--=> preempt-depth\n"
			"#                              ||| / _-=> migrate-disable\n"
			"#                              |||| /     delay\n"
			"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
			"#              | |         |   |||||     |         |\n",
			entries, (unsigned long long)written, num_online_cpus());
}

void trace_dump(void)
{
	static struct trace_cursor c;	/* NR_CPUS cursors: not on the stack */
	static u8 rec[TRACE_LINE_MAX];
	char line[TRACE_LINE_MAX], header[TRACE_HEADER_MAX];
	unsigned long flags;
	u64 lost, overrun = 0;
	unsigned int cpu;
	int rcpu;

	local_irq_save(flags);
	recording = 0;			/* nothing moves under the cursor */
	dumped = 1;
	local_irq_restore(flags);

	trace_cursor_start(&c, -1);
	for_each_possible_cpu(cpu)
		overrun += rbs[cpu].overrun;
	out("==== granule trace begin ====\n");
	trace_header(header, sizeof(header), c.entries, c.written);
	out(header);
	while (trace_cursor_next(&c, rec, sizeof(rec), &lost, &rcpu)) {
		int n = trace_format_line((const struct trace_entry *)rec, rcpu, line, sizeof(line));

		if (n >= (int)sizeof(line))
			line[sizeof(line) - 2] = '\n';	/* keep the line ending */
		out(line);
	}
	snprintf(line, sizeof(line), "==== granule trace end: %u entries, %llu lost ====\n",
		 c.entries, (unsigned long long)overrun);
	out(line);
	printk("trace: %u events dumped on ttyS0 (%llu lost)\n", c.entries,
	       (unsigned long long)overrun);
}

/* ---- run time (kernel/trace/tracefs.c) --------------------------------------- */

/* tracing_on: stop or start recording; the buffer keeps what it has. */
void trace_set_on(int on)
{
	unsigned long flags;

	local_irq_save(flags);
	tracing_on_file = on;
	recording = on && rbs[0].mem && !dumped;
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

/* Interrupts off and CPU's buffer locked against its writer (a reader, or
 * a change of the buffer, from any CPU). */
static void rb_lock_cpu(unsigned int cpu, unsigned long *flags)
{
	local_irq_save(*flags);
	if (nr_cpu_ids > 1)
		arch_spin_lock(&rb_lock[cpu]);
}

static void rb_unlock_cpu(unsigned int cpu, unsigned long flags)
{
	if (nr_cpu_ids > 1)
		arch_spin_unlock(&rb_lock[cpu]);
	local_irq_restore(flags);
}

/* echo > trace: every CPU's buffer empty, its counts at 0 (ring_buffer_reset). */
void trace_clear(void)
{
	unsigned long flags;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct ring_buffer *rb = &rbs[cpu];

		rb_lock_cpu(cpu, &flags);
		rb_init_chunks(rb, (void *const *)rb->chunks, rb->nchunks, rb->chunk);
		if (cpu == 0)
			generation++;
		rb_unlock_cpu(cpu, flags);
	}
}

/*
 * buffer_size_kb: new rings of BYTES each (a multiple of 1024 within
 * trace_buf_size='s range; per CPU, as ftrace's), empty; 0, -EINVAL (one
 * line says why) or -ENOMEM, the old rings kept.  Linux keeps the events
 * that fit; here the new rings start empty.
 */
long trace_resize(u32 kib)
{
	static struct ring_buffer new[NR_CPUS], old[NR_CPUS];	/* under the giant lock */
	u32 bytes = kib << 10;
	unsigned long flags;
	unsigned int cpu;

	if (kib < TRACE_BUF_MIN >> 10 || kib > TRACE_BUF_MAX >> 10) {
		tracing_refused("tracing: buffer_size_kb=%u: out of range (expected %u..%u); keeping %u\n",
		       kib, TRACE_BUF_MIN >> 10, TRACE_BUF_MAX >> 10, trace_buffer_kib());
		return -EINVAL;
	}
	if (rings_alloc(new, bytes))
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		rb_lock_cpu(cpu, &flags);
		old[cpu] = rbs[cpu];
		rbs[cpu] = new[cpu];
		if (cpu == 0) {
			trace_buf_size = bytes;
			generation++;
		}
		rb_unlock_cpu(cpu, flags);
	}
	for_each_possible_cpu(cpu)
		ring_free(&old[cpu]);
	return 0;
}

/* buffer_size_kb: one CPU's buffer, as set (the ring holds at least that). */
u32 trace_buffer_kib(void)
{
	return rbs[0].size ? trace_buf_size >> 10 : 0;
}

/* buffer_total_size_kb: every possible CPU's, summed (ftrace's). */
u32 trace_buffer_total_kib(void)
{
	return trace_buffer_kib() * nr_cpu_ids;
}

/* The cursor of every CPU C reads (CPU, or all of them for -1). */
#define for_each_cursor_cpu(c, i) \
	for_each_possible_cpu(i) if ((c)->cpu < 0 || (c)->cpu == (int)(i))

void trace_cursor_start(struct trace_cursor *c, int cpu)
{
	unsigned long flags;
	unsigned int i;

	c->cpu = cpu;
	c->entries = 0;
	c->written = 0;
	for_each_cursor_cpu(c, i) {
		struct trace_cpu_cursor *at = &c->at[i];

		rb_lock_cpu(i, &flags);
		at->seq = rbs[i].overrun;
		at->end = rbs[i].written;
		at->pos = rbs[i].tail;
		at->gen = generation;
		at->lost = 0;
		c->entries += rbs[i].entries;
		c->written += rbs[i].written;
		rb_unlock_cpu(i, flags);
	}
}

/*
 * CPU's next record of its range (buffer's lock held): NULL at the end of
 * the range (or once the buffer was emptied or replaced).  Records the
 * writer dropped under the cursor are skipped and counted in at->lost.
 * Behind the tail: lost.  At the tail: go by the tail, since a padding
 * record the cursor stood on (after catching up at the end of the array) is
 * dropped with the record before it.  Ahead: that record lives, and with it
 * everything between it and the cursor.
 */
static void *cursor_peek(struct trace_cpu_cursor *at, unsigned int cpu, u32 *len)
{
	const struct ring_buffer *rb = &rbs[cpu];
	u32 pos;

	if (at->gen != generation)
		return NULL;
	if (at->seq <= rb->overrun) {
		at->lost += rb->overrun - at->seq;
		at->seq = rb->overrun;
		at->pos = rb->tail;
	}
	if (at->seq >= at->end || at->seq >= rb->written)
		return NULL;
	pos = at->pos;
	return rb_next_at(rb, &pos, len);
}

/* The CPU whose next record is the oldest (the lower CPU on a tie), or -1;
 * its lost count in *LOST if it has one waiting but no record is left. */
static int cursor_oldest(struct trace_cursor *c)
{
	unsigned long flags;
	unsigned int i;
	int best = -1;
	u64 best_ts = 0;
	u32 len;

	for_each_cursor_cpu(c, i) {
		const struct trace_entry *e;

		rb_lock_cpu(i, &flags);
		e = cursor_peek(&c->at[i], i, &len);
		if (e && (best < 0 || e->ts < best_ts)) {
			best = (int)i;
			best_ts = e->ts;
		}
		rb_unlock_cpu(i, flags);
	}
	return best;
}

/*
 * The next record of C's range, by time, copied to BUF (SIZE bytes); its
 * length, 0 at the end; its CPU in *CPU.  The records its CPU's writer
 * dropped under the cursor since the last one are counted in *LOST
 * (ftrace's "CPU:N [LOST M EVENTS]").
 */
u32 trace_cursor_next(struct trace_cursor *c, void *buf, u32 size, u64 *lost, int *cpu)
{
	unsigned long flags;
	u32 len = 0;
	void *e;
	int i = cursor_oldest(c);

	*lost = 0;
	*cpu = i < 0 ? 0 : i;
	if (i < 0) {			/* the end: losses no record follows */
		unsigned int j;

		for_each_cursor_cpu(c, j)
			if (c->at[j].lost) {
				*lost = c->at[j].lost;
				*cpu = (int)j;
				c->at[j].lost = 0;
				break;
			}
		return 0;
	}
	rb_lock_cpu((unsigned int)i, &flags);
	/* Dropped since cursor_oldest()?  Then it is only lost: next call goes on. */
	if ((e = cursor_peek(&c->at[i], (unsigned int)i, &len))) {
		rb_next_at(&rbs[i], &c->at[i].pos, &len);
		len = len < size ? len : size;
		memcpy(buf, e, len);
		c->at[i].seq++;
	}
	*lost = c->at[i].lost;
	c->at[i].lost = 0;
	rb_unlock_cpu((unsigned int)i, flags);
	return len;
}
