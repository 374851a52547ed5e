/*
 * tests/host/trace/test_ring.c - the trace ring buffer (overwrite mode)
 * and the ftrace text of the events.
 *
 * Records carry a sequence number and a pattern derived from it, so a
 * test can tell a dropped record (a gap at the oldest end only) from a
 * corrupted one (a wrong pattern anywhere).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../../kernel/trace/ring_buffer.h"
#include "../../../kernel/trace/events.h"

static uint8_t mem[4096 + 64];

/* Payload of record SEQ: LEN bytes, seq then (seq * 7 + i) & 0xff. */
static void fill(uint8_t *p, uint32_t seq, uint32_t len)
{
	memcpy(p, &seq, 4);
	for (uint32_t i = 4; i < len; i++)
		p[i] = (uint8_t)(seq * 7 + i);
}

static void check_record(const uint8_t *p, uint32_t len, uint32_t *seq_out)
{
	uint32_t seq;

	assert_true(len >= 4);
	memcpy(&seq, p, 4);
	for (uint32_t i = 4; i < len; i++)
		assert_int_equal(p[i], (uint8_t)(seq * 7 + i));
	*seq_out = seq;
}

/* Walk the buffer: consecutive sequence numbers ending at LAST, intact. */
static void check_contents(const struct ring_buffer *rb, uint32_t last)
{
	struct rb_iter it;
	uint32_t n = 0, len, seq, prev = 0;
	void *p;

	rb_iter_start(rb, &it);
	while ((p = rb_iter_next(rb, &it, &len))) {
		check_record(p, len, &seq);
		if (n)
			assert_int_equal(seq, prev + 1);
		prev = seq;
		n++;
	}
	assert_int_equal(n, rb->entries);
	if (n)
		assert_int_equal(prev, last);
	assert_true(rb->used <= rb->size);
	assert_int_equal(rb->written, (uint64_t)rb->entries + rb->overrun);
}

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 16;
}

static void test_empty(void **state)
{
	struct ring_buffer rb;
	struct rb_iter it;

	rb_init(&rb, mem, 4096);
	rb_iter_start(&rb, &it);
	assert_null(rb_iter_next(&rb, &it, NULL));
	assert_int_equal(rb.entries, 0);
}

/* Until it is full nothing is lost; then the oldest go first, counted. */
static void test_fill_then_overwrite(void **state)
{
	struct ring_buffer rb;
	uint32_t seq;

	rb_init(&rb, mem, 4096);
	for (seq = 1; seq <= 4096 / 64; seq++) {	/* exactly full: 64 x 64 bytes */
		uint8_t *p = rb_reserve(&rb, 60);

		assert_non_null(p);
		fill(p, seq, 60);
	}
	assert_int_equal(rb.entries, 64);
	assert_int_equal(rb.overrun, 0);
	check_contents(&rb, 64);

	for (; seq <= 200; seq++)
		fill(rb_reserve(&rb, 60), seq, 60);
	assert_int_equal(rb.entries, 64);
	assert_int_equal(rb.overrun, 200 - 64);
	assert_int_equal(rb.written, 200);
	check_contents(&rb, 200);
}

/* Random sizes: wrap padding, drops across the padding, never corruption. */
static void test_random_sizes(void **state)
{
	struct ring_buffer rb;

	rb_init(&rb, mem, 4000);	/* not a power of two */
	for (uint32_t seq = 1; seq <= 20000; seq++) {
		uint32_t len = 4 * (1 + next_rand() % 75);	/* payloads keep whole words */
		uint8_t *p = rb_reserve(&rb, len);

		assert_non_null(p);
		assert_true(p >= mem && p + len <= mem + 4000);
		fill(p, seq, len);
		if (seq % 97 == 0 || seq > 19990)
			check_contents(&rb, seq);
	}
	assert_true(rb.overrun > 0);
	check_contents(&rb, 20000);
}

/*
 * A reader that keeps its place (record number, offset) between calls
 * while the writer goes on, as the trace file's cursor (trace.c): while
 * its record is still live (number >= overrun) rb_next_at() hands it the
 * records in order across the padding; once the writer dropped it, it
 * starts again at the tail and counts what it lost.  It starts at the tail
 * too when its record is the oldest: a padding record it stood on (having
 * caught up with the writer at the end of the array) may be gone then.
 */
static void test_reader_keeps_its_place(void **state)
{
	struct ring_buffer rb;
	uint64_t seq = 0, lost = 0, read = 0;
	uint32_t pos, len, got;

	rb_init(&rb, mem, 4000);
	pos = rb.tail;
	for (uint32_t w = 1; w <= 20000; w++) {
		uint32_t n = 4 * (1 + next_rand() % 75);

		fill(rb_reserve(&rb, n), w, n);
		for (uint32_t r = next_rand() % 3; r > 0; r--) {
			void *p;

			if (seq <= rb.overrun) {		/* see trace_cursor_next() */
				lost += rb.overrun - seq;
				seq = rb.overrun;
				pos = rb.tail;
			}
			if (seq >= rb.written)
				break;
			p = rb_next_at(&rb, &pos, &len);
			assert_non_null(p);
			check_record(p, len, &got);
			assert_int_equal(got, seq + 1);		/* record numbers from 0, payloads from 1 */
			seq++;
			read++;
		}
	}
	assert_true(lost > 0 && read > 1000);
	assert_true(read + lost <= rb.written);
}

/*
 * Three separate blocks as one ring (a trace buffer over 4 MiB): records
 * never cross a block, come back oldest first across the block ends, and
 * the ring holds three blocks' worth before it drops anything.
 */
static void test_chunks(void **state)
{
	static uint8_t b0[1000], b1[1000], b2[1000];
	void *blocks[3] = { b2, b0, b1 };		/* any order, any addresses */
	struct ring_buffer rb;
	uint32_t kept = 0;

	rb_init_chunks(&rb, blocks, 3, 1000);
	assert_int_equal(rb.size, 3000);
	for (uint32_t seq = 1; seq <= 20000; seq++) {
		uint32_t len = 4 * (1 + next_rand() % 75);
		uint8_t *p = rb_reserve(&rb, len);
		int inside = 0;

		assert_non_null(p);
		for (int i = 0; i < 3; i++)
			inside += p - 4 >= (uint8_t *)blocks[i] && p + len <= (uint8_t *)blocks[i] + 1000;
		assert_int_equal(inside, 1);
		fill(p, seq, len);
		if (!rb.overrun)
			kept = rb.used;
		if (seq % 89 == 0 || seq > 19990)
			check_contents(&rb, seq);
	}
	assert_true(kept > 2000);	/* more than two blocks filled before the first drop */
	check_contents(&rb, 20000);
}

/* A record over half the buffer is refused and changes nothing. */
static void test_too_large(void **state)
{
	struct ring_buffer rb;

	rb_init(&rb, mem, 4096);
	fill(rb_reserve(&rb, 100), 1, 100);
	assert_null(rb_reserve(&rb, 2048));
	assert_int_equal(rb.entries, 1);
	assert_int_equal(rb.written, 1);
	check_contents(&rb, 1);
	assert_non_null(rb_reserve(&rb, 2048 - 4));	/* exactly half: accepted */
}

static void entry(struct trace_entry *e, int type, int pid, const char *comm, uint64_t ts)
{
	e->type = (uint16_t)type;
	e->flags = TRACE_FLAG_IRQS_OFF;
	e->pid = pid;
	e->ts = ts;
	strcpy(e->comm, comm);
}

/* Linux 6.1's context columns and TP_printk, byte for byte. */
static void test_format_switch(void **state)
{
	struct ev_sched_switch s = { 0 };
	char line[400];

	entry(&s.ent, TRACE_SCHED_SWITCH, 12, "kbuild-load", 4368590123ULL);
	strcpy(s.prev_comm, "kbuild-load");
	s.prev_pid = 12;
	s.prev_prio = 120;
	s.prev_state = TRACE_STATE_S;
	strcpy(s.next_comm, "swapper");
	s.next_pid = 0;
	s.next_prio = 120;
	trace_format_line(&s.ent, 0, line, sizeof(line));
	assert_string_equal(line,
		"     kbuild-load-12      [000] d....     4.368590: sched_switch: prev_comm=kbuild-load "
		"prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n");

	s.prev_state = 0;
	s.ent.flags |= TRACE_FLAG_NEED_RESCHED;
	trace_format_line(&s.ent, 0, line, sizeof(line));
	assert_non_null(strstr(line, "dN... "));
	assert_non_null(strstr(line, "prev_state=R ==>"));

	/* the CPU column is the buffer's CPU, three digits as ftrace's "[%03d]" */
	trace_format_line(&s.ent, 1, line, sizeof(line));
	assert_non_null(strstr(line, "-12      [001] dN... "));
}

static void test_format_others(void **state)
{
	struct ev_sched_stat_runtime r = { 0 };
	struct ev_sched_place p = { 0 };
	char line[400];

	entry(&r.ent, TRACE_SCHED_STAT_RUNTIME, 0, "swapper", 999999);
	strcpy(r.comm, "init");
	r.pid = 1;
	r.runtime = 2759;
	r.vruntime = 8267782;
	trace_format_line(&r.ent, 0, line, sizeof(line));
	assert_string_equal(line, "          <idle>-0       [000] d....     0.000999: sched_stat_runtime: "
			    "comm=init pid=1 runtime=2759 [ns] vruntime=8267782 [ns]\n");

	entry(&p.ent, TRACE_SCHED_PLACE, 3, "sh", 1000000000);
	strcpy(p.comm, "sh");
	p.pid = 4;
	p.old_vruntime = 10;
	p.vruntime = 6000010;
	p.min_vruntime = 10;
	p.delta = 6000000;
	p.reason = PLACE_INITIAL;
	trace_format_line(&p.ent, 0, line, sizeof(line));
	assert_non_null(strstr(line, "     1.000000: sched_place: comm=sh pid=4 old_vruntime=10 "
			       "vruntime=6000010 min_vruntime=10 delta=6000000 reason=initial\n"));
	assert_int_equal(trace_event_lookup("sched_place"), TRACE_SCHED_PLACE);
	assert_int_equal(trace_event_lookup("sched_nope"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_fill_then_overwrite),
		cmocka_unit_test(test_random_sizes),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_reader_keeps_its_place),
		cmocka_unit_test(test_format_switch),
		cmocka_unit_test(test_format_others),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
