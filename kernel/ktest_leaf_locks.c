/*
 * kernel/ktest_leaf_locks.c - ktest=smp's check of the leaf locks
 * (zone->lock, the kmalloc caches' list_lock, logbuf_lock;
 * docs/ARCHITECTURE.md, "Locking"): the only exclusion a CPU without the
 * giant lock has.
 *
 * CPU 1, in a cross call (so in its IPI handler, without the giant lock),
 * and this CPU, holding it, run the same two loops at the same time.
 * LEAF_ROUNDS rounds each take LEAF_HELD frames and LEAF_HELD kmalloc
 * blocks of mixed sizes (slab classes and one large block), write the
 * CPU's mark into each (every LEAF_STRIDE bytes of a frame, every 8th byte
 * of a block: quick, so that the allocators' own code is most of the
 * loop), check the marks, and give everything back.  Then each prints
 * LEAF_LINES numbered lines.  QEMU runs the two CPUs in turns of about
 * half a millisecond of guest time (-icount: at each timer deadline), so
 * the loops must last several turns for a turn to end inside an
 * allocator's or printk's critical section: at 4000 rounds and 500 lines
 * each, every one of the three locks left out fails this test (a panic of
 * the allocator's checks; lines cut into each other and the boot hung).
 * Afterwards (kmalloc_shrink() before and after, so the caches' spare
 * slabs cancel out):
 *   - the free-frame count, every cache's objects and slabs, and the large
 *     blocks are what they were, and kmalloc counted exactly the calls made;
 *   - no mark was wrong;
 *   - in the retained log (the last 16 KiB: about 180 of the lines) every
 *     line of the two CPUs is whole, after a stamp, and each CPU's numbers
 *     run on by one up to its last.
 * Prints "ktest: smp: leaf locks: ..." lines; returns the failed checks.
 */
#include <kernel/kmalloc.h>
#include <kernel/ktest.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <arch/barrier.h>

#define LEAF_ROUNDS	4000
#define LEAF_HELD	4	/* frames and blocks held at once */
#define LEAF_STRIDE	256	/* a mark every 256 bytes: quick */
#define LEAF_LINES	500	/* lines each CPU prints, the two at once */
#define LEAF_WAIT_NS	2000000000ull	/* 2 s: CPU 1's side, bounded */
#define LEAF_PREFIX	"ktest: smp: leaf locks: CPU"
#define LEAF_TAIL	": abcdefghijklmnopqrstuvwxyz0123456789\n"

static const u32 leaf_sizes[] = { 16, 40, 64, 200, 512, 1000, 2048, 6000 };

static volatile u32 leaf_started, leaf_finished;
static u32 leaf_bad[2];		/* wrong marks or failed allocations, per side */

/* One round on side S (0: this CPU, 1: CPU 1): take, mark, check, give back. */
static void leaf_round(unsigned int s, unsigned int round)
{
	phys_addr_t frames[LEAF_HELD];
	u8 *blocks[LEAF_HELD];
	u32 sizes[LEAF_HELD], i, j;
	u8 mark = (u8)(0xA0 + s);

	for (i = 0; i < LEAF_HELD; i++) {
		sizes[i] = leaf_sizes[(round + i) % ARRAY_SIZE(leaf_sizes)];
		frames[i] = alloc_frame();
		blocks[i] = kmalloc(sizes[i]);
		for (j = 0; frames[i] && j < PAGE_SIZE; j += LEAF_STRIDE)
			((u8 *)__va(frames[i]))[j] = mark;
		for (j = 0; blocks[i] && j < sizes[i]; j += 8)
			blocks[i][j] = mark;
	}
	for (i = 0; i < LEAF_HELD; i++) {
		const u8 *f = frames[i] ? __va(frames[i]) : NULL;

		if (!f || !blocks[i]) {
			leaf_bad[s]++;
		} else {
			for (j = 0; j < PAGE_SIZE; j += LEAF_STRIDE)
				leaf_bad[s] += f[j] != mark;
			for (j = 0; j < sizes[i]; j += 8)
				leaf_bad[s] += blocks[i][j] != mark;
		}
		if (frames[i])
			frame_put(frames[i]);
		kfree(blocks[i]);
	}
}

static void leaf_side(unsigned int s)
{
	unsigned int r;

	for (r = 0; r < LEAF_ROUNDS; r++)
		leaf_round(s, r);
	for (r = 0; r < LEAF_LINES; r++)
		printk(LEAF_PREFIX "%u line %03u" LEAF_TAIL, s, r);
}

/* CPU 1's side: in its IPI handler, interrupts off, no giant lock. */
static void leaf_side_remote(void *info)
{
	leaf_started = 1;
	leaf_side(1);
	smp_wmb();
	leaf_finished = 1;
}

/* The line at P (just after LEAF_PREFIX) if whole: its number, its CPU in
 * *CPU; -1 if not "N line NNN" LEAF_TAIL after a stamp's "] ". */
static int leaf_line(const char *log, const char *p, unsigned int *cpu)
{
	const char *q = p + strlen(LEAF_PREFIX);

	if (p < log + 2 || p[-2] != ']' || p[-1] != ' ')
		return -1;
	if ((q[0] != '0' && q[0] != '1') || strncmp(q + 1, " line ", 6))
		return -1;
	if (q[7] < '0' || q[7] > '9' || q[8] < '0' || q[8] > '9' || q[9] < '0' || q[9] > '9')
		return -1;
	if (strncmp(q + 10, LEAF_TAIL, strlen(LEAF_TAIL)))
		return -1;
	*cpu = (unsigned int)(q[0] - '0');
	return (q[7] - '0') * 100 + (q[8] - '0') * 10 + (q[9] - '0');
}

/*
 * The retained log (its first, maybe cut, line skipped): every line of
 * the two CPUs' is whole, and each CPU's numbers run on by one up to its
 * last; at least LOG_BUF_LEN / 128 lines are there.  The failed checks.
 */
static unsigned int leaf_lines_whole(unsigned int *seen)
{
	static char log[LOG_BUF_LEN + 1];
	u32 first, end, next;
	unsigned int bad = 0, cpu, want[2] = { ~0u, ~0u };
	const char *start, *p;
	size_t n;
	int line;

	printk_log_bounds(&first, &end);
	n = printk_log_copy(log, first, LOG_BUF_LEN, &next);
	log[n] = '\0';
	start = strchr(log, '\n');
	*seen = 0;
	for (p = start ? strstr(start, LEAF_PREFIX) : NULL; p; p = strstr(p + 1, LEAF_PREFIX)) {
		line = leaf_line(log, p, &cpu);
		if (line < 0) {
			bad++;
			continue;
		}
		bad += want[cpu] != ~0u && (unsigned int)line != want[cpu];
		want[cpu] = (unsigned int)line + 1;
		(*seen)++;
	}
	/* a CPU whose lines the other's pushed out of the ring shows none */
	for (cpu = 0; cpu < 2; cpu++)
		bad += want[cpu] != ~0u && want[cpu] != LEAF_LINES;
	return bad + (*seen < LOG_BUF_LEN / 128);
}

static unsigned int leaf_counts_differ(const struct kmalloc_stats *a, const struct kmalloc_stats *b,
				       u64 calls)
{
	unsigned int i, bad = 0;

	for (i = 0; i < KMALLOC_NR_CACHES; i++)
		bad += a->cache[i].active_objs != b->cache[i].active_objs ||
		       a->cache[i].slabs != b->cache[i].slabs;
	bad += a->large_allocs != b->large_allocs || a->frames != b->frames;
	bad += b->nr_alloc - a->nr_alloc != calls || b->nr_free - a->nr_free != calls;
	return bad + (a->nr_fail != b->nr_fail);
}

unsigned int ktest_smp_leaf_locks(void)
{
	struct kmalloc_stats before, after;
	unsigned long free_before, free_after;
	unsigned int failed = 0, lines, counts, seen;
	u64 end;

	if (num_online_cpus() < 2) {
		printk("ktest: smp: leaf locks: one CPU, never taken\n");
		return 0;
	}
	kmalloc_shrink();
	kmalloc_get_stats(&before);
	free_before = nr_free_frames();
	leaf_bad[0] = leaf_bad[1] = 0;
	leaf_started = leaf_finished = 0;
	smp_call_function_single(1, leaf_side_remote, NULL, 0);
	end = sched_clock() + LEAF_WAIT_NS;
	while (!leaf_started && sched_clock() < end)
		cpu_relax();
	leaf_side(0);
	while (!leaf_finished && sched_clock() < end)
		cpu_relax();
	smp_rmb();
	kmalloc_shrink();
	kmalloc_get_stats(&after);
	free_after = nr_free_frames();

	counts = leaf_counts_differ(&before, &after, 2ull * LEAF_ROUNDS * LEAF_HELD);
	lines = leaf_lines_whole(&seen);
	printk("ktest: smp: leaf locks: %u rounds a CPU, CPU1 %s; free frames %lu -> %lu, "
	       "kmalloc counts %s, bad marks %u + %u; %u lines in the log, %u broken or out of order\n",
	       LEAF_ROUNDS, leaf_finished ? "done" : "NOT done", free_before, free_after,
	       counts ? "DIFFER" : "exact", leaf_bad[0], leaf_bad[1], seen, lines);
	failed += !leaf_finished;
	failed += free_before != free_after;
	failed += counts != 0;
	failed += leaf_bad[0] + leaf_bad[1] != 0;
	failed += lines != 0;
	return failed;
}
