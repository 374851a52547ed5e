/*
 * kernel/trace/tracefs.c - /sys/kernel/debug/tracing: the event tracer at
 * run time, with the files, layouts and semantics of Linux 6.1's tracefs
 * (Documentation/trace/ftrace.rst; kernel/trace/trace.c, trace_events.c):
 *
 *   trace             read: the buffers in the trace file's layout, the
 *                     header and one line per event, the CPUs' buffers
 *                     merged oldest first, as the end-of-run dump prints
 *                     them (the records there when the file was opened;
 *                     reading does not consume them, and ones overwritten
 *                     meanwhile show as "CPU:N [LOST M EVENTS]"); opened
 *                     for writing with O_TRUNC (`echo > trace`): every
 *                     buffer is emptied, its counts 0
 *   per_cpu/cpuN/trace  the same for CPU N's buffer alone (its counts in
 *                     the header); O_TRUNC empties them all (ftrace empties
 *                     that CPU's only); CPUs 0 to 3 have one (TRACE_PER_CPU_DIRS).
 *   trace_marker      write: the text becomes an ftrace:print event
 *                     ("tracing_mark_write: TEXT"), the event the
 *                     wakeup-latency program's marker system call writes
 *                     too; at most 1024 bytes a write are taken (Linux's
 *                     TRACE_BUF_SIZE), the first 255 kept; -EBADF while
 *                     recording is off
 *   tracing_on        "1"/"0": recording on/off, the buffer kept (a number,
 *                     non-zero is on; anything else -EINVAL)
 * A refused write is -EINVAL with one line saying why, rate-limited
 * (tracing_refused(): a loop of bad writes cannot flood the console).
 *   set_event         read: the enabled events, "sched:sched_switch" one per
 *                     line; write: items separated by blanks, each
 *                     SYSTEM:EVENT, SYSTEM:*, SYSTEM:, SYSTEM, EVENT or *,
 *                     "!" in front to disable; O_TRUNC (`echo X >`) disables
 *                     every event first, so `echo > set_event` clears; an
 *                     item naming no event is -EINVAL (those before it stay
 *                     applied, as with Linux's one item per write)
 *   buffer_size_kb    each CPU's ring in KiB, 4..65536 (trace_buf_size='s
 *                     range); a bad value is -EINVAL with one line, nothing
 *                     changed; a new size empties the buffers (Linux keeps
 *                     what fits)
 *   buffer_total_size_kb  read: every possible CPU's rings, summed
 *   available_events  every event that can be enabled, one per line
 *
 * These files exist only when the kernel booted with the tracer, i.e. with
 * trace_event= on the command line (an empty list records nothing until
 * set_event names events): without it the tracer's part of the image was
 * given to the frame allocator at boot (docs/TRACING.md), so there is
 * nothing left to turn on, and /sys/kernel/debug has no tracing directory.
 * Turning an event on at run time patches its probes in, turning the last
 * one that needs a probe off patches it out again (trace_probes_update).
 */
#include <kernel/trace.h>
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/kmalloc.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <kernel/cpumask.h>
#include "events.h"
#include "trace_internal.h"

#define DIR		"sys/kernel/debug/tracing"
#define TRACEFS_INO	0x3000		/* inode numbers: TRACEFS_INO + index */
#define MARKER_MAX	1024		/* bytes a trace_marker write takes (TRACE_BUF_SIZE) */
#define RECORD_MAX	512		/* the largest record: ftrace:print with its text */
#define SMALL		64		/* a number and a newline */
#define LIST_SIZE	1024		/* every event's "system:name\n" */

/* ---- tracing_on, buffer_size_kb ---- */

/* A decimal number, the whole of VAL (kstrtoul's base 10). */
static int parse_u32(const char *val, u32 *out)
{
	u64 v = 0;

	if (!*val)
		return -EINVAL;
	for (; *val; val++) {
		if (*val < '0' || *val > '9' || (v = v * 10 + (u64)(*val - '0')) > 0xffffffffu)
			return -EINVAL;
	}
	*out = (u32)v;
	return 0;
}

static size_t on_show(char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n", trace_is_on());
}

/* As Linux's rb_simple_write(): any decimal number, 0 stops recording, the rest start it. */
static int on_store(const char *val)
{
	u32 v;

	if (parse_u32(val, &v)) {
		tracing_refused("tracing: tracing_on=%s: invalid (expected a decimal number: 0 off, any other on); "
		       "keeping %d\n", val,
		       trace_is_on());
		return -EINVAL;
	}
	trace_set_on(v != 0);
	return 0;
}

static size_t size_show(char *buf, size_t size)
{
	return snprintf(buf, size, "%u\n", trace_buffer_kib());
}

static size_t total_show(char *buf, size_t size)
{
	return snprintf(buf, size, "%u\n", trace_buffer_total_kib());
}

static int size_store(const char *val)
{
	u32 kib;

	if (parse_u32(val, &kib)) {
		tracing_refused("tracing: buffer_size_kb=%s: invalid (expected a size in KiB, 4..65536); keeping %u\n",
		       val, trace_buffer_kib());
		return -EINVAL;
	}
	return (int)trace_resize(kib);
}

/* ---- set_event, available_events ---- */

static size_t events_show(char *buf, size_t size, u32 mask)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int t = TRACE_PRINT + 1; t < TRACE_NR_EVENTS; t++)
		if (mask & (1u << t) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s:%s\n", trace_event_system(t),
					      trace_event_name(t));
	return min(n, size - 1);
}

static size_t set_event_show(char *buf, size_t size)
{
	return events_show(buf, size, trace_event_mask);
}

static size_t available_show(char *buf, size_t size)
{
	return events_show(buf, size, ~0u);
}

static void set_event_clear(void)
{
	trace_set_events(0);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static int set_event_store(const char *val)
{
	char item[64];
	u32 mask = trace_event_mask, m = 0;
	int err = 0;

	for (;;) {
		size_t len = 0, neg;

		while (is_blank(*val))
			val++;
		while (val[len] && !is_blank(val[len]))
			len++;
		if (!len)
			break;
		neg = val[0] == '!';
		if (len - neg > 0 && len - neg < sizeof(item)) {
			memcpy(item, val + neg, len - neg);
			item[len - neg] = '\0';
			m = trace_parse_item(item);
		}
		if (len - neg == 0 || len - neg >= sizeof(item) || !m) {
			tracing_refused("tracing: set_event: '%.*s' names no event (expected SYSTEM:EVENT, "
			       "SYSTEM:*, EVENT or *, ! to disable: see available_events)\n",
			       (int)min(len, (size_t)64), val);
			err = -EINVAL;
			break;
		}
		mask = neg ? mask & ~m : mask | m;
		val += len;
	}
	trace_set_events(mask);		/* the items before a bad one stay applied */
	return err;
}

/* ---- trace ---- */

struct trace_reader {
	struct trace_cursor c;
	int started;
	u32 off, len;			/* what of text[] is still to read */
	char text[TRACE_HEADER_MAX];	/* the header, or one line (with a LOST line before) */
	u8 rec[RECORD_MAX];
};

/* The next piece of text: the header first, then a line per record; 0 at the end. */
static int fill(struct trace_reader *r)
{
	u64 lost;
	u32 len;
	int n = 0, cpu;

	r->off = 0;
	if (!r->started) {
		r->started = 1;
		r->len = (u32)min(trace_header(r->text, sizeof(r->text), r->c.entries, r->c.written),
				  (int)sizeof(r->text) - 1);
		return 1;
	}
	len = trace_cursor_next(&r->c, r->rec, sizeof(r->rec), &lost, &cpu);
	if (lost)
		n = snprintf(r->text, sizeof(r->text), "CPU:%d [LOST %llu EVENTS]\n", cpu,
			     (unsigned long long)lost);
	if (len) {
		int room = (int)sizeof(r->text) - n;
		int m = trace_format_line((const struct trace_entry *)r->rec, cpu, r->text + n, room);

		if (m >= room) {		/* cut: keep the line ending */
			r->text[sizeof(r->text) - 2] = '\n';
			m = room - 1;
		}
		n += m;
	}
	r->len = (u32)n;
	return n > 0;
}

static long trace_read(struct file *f, char *ubuf, u32 count)
{
	struct trace_reader *r = (struct trace_reader *)f->buf;
	u32 done = 0;

	while (done < count && (r->off < r->len || fill(r))) {
		u32 n = min(count - done, r->len - r->off);

		if (copy_to_user(ubuf + done, r->text + r->off, n))
			return done ? (long)done : -EFAULT;
		r->off += n;
		done += n;
	}
	f->pos += done;
	return done;
}

/* Writes go nowhere (Linux's tracing_write_stub): only the open's O_TRUNC counts. */
static long trace_write(struct file *f, const char *ubuf, u32 count)
{
	return count;
}

static const struct file_ops trace_ops = { .read = trace_read, .write = trace_write };

/* The trace file of CPU, or of every CPU (-1). */
static struct file *trace_open_cpu(u32 flags, int cpu)
{
	struct file *f;

	if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
		trace_clear();
	if (!(f = file_alloc(&trace_ops, flags)))
		return NULL;
	if ((flags & O_ACCMODE) != O_WRONLY) {
		struct trace_reader *r = kzalloc(sizeof(*r));

		if (!r) {
			fput(f);
			return NULL;
		}
		trace_cursor_start(&r->c, cpu);
		f->buf = (char *)r;
	}
	return f;
}

static struct file *trace_open(u32 flags)
{
	return trace_open_cpu(flags, -1);
}

/* per_cpu/cpuN/trace's opens: a pseudo file's open is told only the flags. */
#define TRACE_PER_CPU_DIRS	4
#define PER_CPU_OPEN(n) \
	static struct file *trace_open_cpu##n(u32 flags) { return trace_open_cpu(flags, n); }
PER_CPU_OPEN(0)
PER_CPU_OPEN(1)
PER_CPU_OPEN(2)
PER_CPU_OPEN(3)

/* ---- trace_marker ---- */

static long marker_write(struct file *f, const char *ubuf, u32 count)
{
	return trace_marker_write(ubuf, (int)min(count, (u32)MARKER_MAX));
}

static const struct file_ops marker_ops = { .write = marker_write };

static struct file *marker_open(u32 flags)
{
	return file_alloc(&marker_ops, flags);
}

/* ---- the directory ---- */

static const struct pseudo_file tracefs[] = {
	{ .path = DIR, .mode = S_IFDIR | 0700 },
	{ .path = DIR "/available_events", .mode = S_IFREG | 0440, .size = LIST_SIZE,
	  .show = available_show },
	{ .path = DIR "/buffer_size_kb", .mode = S_IFREG | 0640, .size = SMALL,
	  .show = size_show, .store = size_store },
	{ .path = DIR "/buffer_total_size_kb", .mode = S_IFREG | 0440, .size = SMALL,
	  .show = total_show },
	{ .path = DIR "/per_cpu", .mode = S_IFDIR | 0750 },
#define PER_CPU_DIR(n) \
	{ .path = DIR "/per_cpu/cpu" #n, .mode = S_IFDIR | 0750 }, \
	{ .path = DIR "/per_cpu/cpu" #n "/trace", .mode = S_IFREG | 0640, .open = trace_open_cpu##n }
	PER_CPU_DIR(0), PER_CPU_DIR(1), PER_CPU_DIR(2), PER_CPU_DIR(3),
	{ .path = DIR "/set_event", .mode = S_IFREG | 0640, .size = LIST_SIZE,
	  .show = set_event_show, .store = set_event_store, .trunc = set_event_clear },
	{ .path = DIR "/trace", .mode = S_IFREG | 0640, .open = trace_open },
	{ .path = DIR "/trace_marker", .mode = S_IFREG | 0220, .open = marker_open },
	{ .path = DIR "/tracing_on", .mode = S_IFREG | 0640, .size = SMALL,
	  .show = on_show, .store = on_store },
};

/* per_cpu/cpuN and what is in it exist for the possible CPUs only. */
static int absent(const char *path)
{
	const char *p = strstr(path, "/per_cpu/cpu");

	return p && (unsigned int)(p[12] - '0') >= nr_cpu_ids;
}

int trace_fs_lookup(const char *path, struct fs_node *n)
{
	for (size_t i = 0; i < ARRAY_SIZE(tracefs); i++)
		if (!strcmp(tracefs[i].path, path) && !absent(path)) {
			n->pf = &tracefs[i];
			n->mode = tracefs[i].mode;
			n->ino = TRACEFS_INO + i;
			return 0;
		}
	return -ENOENT;
}

/* DIR's entries: "tracing" in sys/kernel/debug, the files in tracing/. */
int trace_fs_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	size_t dlen = strlen(dir);

	for (size_t i = 0; i < ARRAY_SIZE(tracefs); i++) {
		const char *p = tracefs[i].path;

		if (strncmp(p, dir, dlen) || p[dlen] != '/' || strchr(p + dlen + 1, '/') || absent(p) ||
		    index-- > 0)
			continue;
		strlcpy(name, p + dlen + 1, size);
		*mode = tracefs[i].mode;
		*ino = TRACEFS_INO + i;
		return 1;
	}
	return 0;
}
