/*
 * tests/fuzz/fuzz_tracefs.c - libFuzzer target: the writers of
 * /sys/kernel/debug/tracing (kernel/trace/tracefs.c through
 * kernel/fs/pseudo.c, with the tracer of trace.c, knobs.c, events.c and
 * ring_buffer.c, all unchanged); the probes are a recorder here
 * (probes.c patches kernel text).
 *
 * Input: up to 32 operations, each an op byte, a length byte and that many
 * bytes.
 * The op byte: bits 0-2 (modulo 6) write set_event, buffer_size_kb,
 * tracing_on, trace_marker or trace, or read trace; bit 3 opens with
 * O_TRUNC; bit 7 takes the rest of the input (past the 256 bytes a write
 * may bring).  Each input starts
 * from a 4 KiB ring (small, so that markers overwrite it), no event, recording on.
 * After every operation:
 *   - set_event enables only known events, the probes asked for exactly
 *     them; it reads back one known event a line, and that text, written
 *     back word by word after an O_TRUNC, gives the same events;
 *   - buffer_size_kb stays in 4..65536, a refused write keeps it, an
 *     accepted one is the number written, and it reads back;
 *   - tracing_on is 0 or 1, a refused write keeps it, and it reads back;
 *   - a marker write takes min(LEN, 1024) bytes while recording, else
 *     -EBADF (-EINVAL if empty);
 *   - trace opened with O_TRUNC reads back as an empty buffer; read, it
 *     is ftrace's header, then exactly entries-in-buffer event lines
 *     (markers, "CPU:0 [LOST N EVENTS]" lines aside), each ending in a
 *     newline, no NUL byte anywhere.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/sched.h>
#include <kernel/trace.h>
#include "../../kernel/trace/trace_internal.h"
#include "pseudo_host.h"

#define DIR		"sys/kernel/debug/tracing/"
#define MARKER_MAX	1024		/* tracefs.c's: bytes a marker write takes */
#define MAX_RECORDS	32		/* operations an input makes: each is checked whole */
#define KNOWN_EVENTS	(((1u << TRACE_NR_EVENTS) - 1) & ~((2u << TRACE_PRINT) - 1))

enum { SET_EVENT, BUFFER_SIZE_KB, TRACING_ON, TRACE_MARKER, TRACE, READ_TRACE, NR_OPS };

/* What the probes were last asked to patch in (trace_probes_update). */
static u32 probes_mask;

int trace_probes_register(u32 mask)
{
	probes_mask = mask;
	return 0;
}

int trace_probes_update(u32 mask)
{
	probes_mask = mask;
	return 0;
}

/* The tracer's part of the image (knobs.c's trace_image_region): none here. */
char __trace_phys_start[1], __trace_phys_end[1];

static char text[1 << 20];

static void check_events(void)
{
	static char avail[4096];
	u32 mask = trace_event_mask;
	int lines = 0;

	if (mask & ~KNOWN_EVENTS || probes_mask != mask)
		abort();
	if (pseudo_read(DIR "available_events", avail, sizeof(avail)) <= 0 ||
	    pseudo_read(DIR "set_event", text, sizeof(text)) < 0)
		abort();
	for (char *l = text, *nl; *l; l = nl + 1, lines++) {
		char line[64];

		if (!(nl = strchr(l, '\n')) || (size_t)(nl - l) >= sizeof(line) - 2)
			abort();
		snprintf(line, sizeof(line), "%.*s\n", (int)(nl - l), l);
		if (!strstr(avail, line))
			abort();
	}
	if (lines != __builtin_popcount(mask))
		abort();
	if (pseudo_write(DIR "set_event", O_WRONLY | O_TRUNC, "", 0) != 0 || trace_event_mask ||
	    pseudo_write_words(DIR "set_event", text) || trace_event_mask != mask)
		abort();
}

/* FILE reads back as "N\n" with N == VAL. */
static void check_number(const char *file, u32 val)
{
	char want[16];

	snprintf(want, sizeof(want), "%u\n", val);
	if (pseudo_read(file, text, sizeof(text)) < 0 || strcmp(text, want))
		abort();
}

static void check_trace(void)
{
	unsigned entries, lines = 0;
	unsigned long long written;
	long n = pseudo_read(DIR "trace", text, sizeof(text));
	char *l;

	if (n <= 0 || (size_t)n >= sizeof(text) - 1 || strlen(text) != (size_t)n ||
	    text[n - 1] != '\n' || strncmp(text, "# tracer: nop\n", 14) ||
	    !(l = strstr(text, "entries-in-buffer/entries-written: ")) ||
	    sscanf(l, "entries-in-buffer/entries-written: %u/%llu", &entries, &written) != 2 ||
	    entries > written)
		abort();
	for (l = text; *l; l = strchr(l, '\n') + 1) {
		if (*l == '#' || !strncmp(l, "CPU:0 [LOST ", 12))
			continue;
		if (!strstr(l, ": tracing_mark_write: ") || strstr(l, ": tracing_mark_write: ") >
		    strchr(l, '\n'))
			abort();
		lines++;
	}
	if (lines != entries)
		abort();
}

static void one_op(int op, const uint8_t *data, size_t len)
{
	u32 trunc = op & 8 ? O_TRUNC : 0, kib = trace_buffer_kib();
	int on = trace_is_on();
	long r, want;
	char *val;

	switch ((op & 7) % NR_OPS) {
	case SET_EVENT:
		r = pseudo_write(DIR "set_event", O_WRONLY | trunc, data, len);
		if (r != (long)len && r != -EINVAL)
			abort();
		check_events();
		break;
	case BUFFER_SIZE_KB:
		r = pseudo_write(DIR "buffer_size_kb", O_WRONLY | trunc, data, len);
		if ((r != (long)len && r != -EINVAL) || trace_buffer_kib() < 4 ||
		    trace_buffer_kib() > 65536 || trace_buf_size != trace_buffer_kib() << 10)
			abort();
		val = strndup((const char *)data, len);
		if (r < 0 ? trace_buffer_kib() != kib : strtoull(val, NULL, 10) != trace_buffer_kib())
			abort();
		free(val);
		check_number(DIR "buffer_size_kb", trace_buffer_kib());
		break;
	case TRACING_ON:
		r = pseudo_write(DIR "tracing_on", O_WRONLY | trunc, data, len);
		if ((r != (long)len && r != -EINVAL) || (r < 0 && trace_is_on() != on) ||
		    (trace_is_on() != 0 && trace_is_on() != 1))
			abort();
		check_number(DIR "tracing_on", (u32)trace_is_on());
		break;
	case TRACE_MARKER:
		want = !len ? -EINVAL : !on ? -EBADF : (long)(len < MARKER_MAX ? len : MARKER_MAX);
		if (pseudo_write(DIR "trace_marker", O_WRONLY, data, len) != want)
			abort();
		break;
	case TRACE:
		if (pseudo_write(DIR "trace", O_WRONLY | trunc, data, len) != (long)len)
			abort();
		if (trunc && (pseudo_read(DIR "trace", text, sizeof(text)) <= 0 ||
			      !strstr(text, "entries-in-buffer/entries-written: 0/0 ")))
			abort();
		break;
	case READ_TRACE:
		check_trace();
		break;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sched_init();			/* current: the records' task */
	trace_on = 1;			/* booted with trace_event= */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 0;

	trace_set_events(0);
	if (trace_resize(4))
		abort();
	trace_set_on(1);
	for (int n = 0; n < MAX_RECORDS && i + 2 <= size; n++) {
		size_t len = data[i] & 0x80 ? size - i - 2 : data[i + 1];

		len = len < size - i - 2 ? len : size - i - 2;
		one_op(data[i], data + i + 2, len);
		i += 2 + len;
	}
	return 0;
}
