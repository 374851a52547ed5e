/*
 * tests/host/sched/fake.h - what the scheduler's host tests put under the
 * unchanged kernel/sched/ code (tests/host/sched/fake_arch.c):
 *   - a fake sched_clock() the test sets and advances by hand (or that
 *     moves by a step at every read, to see which reads a path makes);
 *   - a switch recorder filled by arch_switch_to();
 *   - a fake one-shot hrtick (<kernel/hrtick.h>);
 *   - a console capturing everything printk/console_write emit;
 *   - a pool of struct task (the scheduler itself never allocates);
 *   - sched_test_reset(): knobs to defaults, verify on, sched_init().
 */
#ifndef TESTS_HOST_SCHED_FAKE_H
#define TESTS_HOST_SCHED_FAKE_H

#include <stddef.h>
#include <kernel/types.h>
#include <kernel/task.h>
#include <kernel/time.h>

/* ---- clock ---- */
extern u64 fake_clock_ns;			/* sched_clock() returns this */
extern u64 fake_clock_step;			/* ... then adds this (0: a still clock) */
extern unsigned long fake_clock_reads;		/* sched_clock() calls since reset */
static inline void fake_clock_set(u64 ns) { fake_clock_ns = ns; }
static inline void fake_clock_advance(u64 ns) { fake_clock_ns += ns; }
#define FAKE_CLOCK_START	1000000000ULL	/* 1 s: 0 means "unset" in places */

/* ---- switch recorder ---- */
struct switch_record {
	struct task *prev, *next;
	u64 when;				/* fake clock at the switch */
	int prev_on_cpu, next_on_cpu;		/* their on_cpu during it */
};
#define SWITCH_LOG_LEN		64		/* the newest N are kept */
struct switch_recorder {
	unsigned long count;			/* switches since reset */
	unsigned long bad;			/* to a dead / unqueued task */
	struct switch_record log[SWITCH_LOG_LEN];
};
extern struct switch_recorder switches;
void switches_reset(void);
/* The i-th most recent switch (0 = last). */
const struct switch_record *switch_last(unsigned int i);

/* ---- topology: 0 one package per CPU (the default), N packages of N cores */
extern unsigned int host_cores_per_package;

/* ---- IPIs: reschedule IPIs sent to each CPU (smp_send_reschedule) ---- */
extern unsigned long fake_resched_ipis[];

/* ---- hrtick ---- */
struct fake_hrtick {
	int available;				/* hrtick_available() result */
	int armed;
	u64 expires;				/* fake clock at expiry */
	u64 last_delay;				/* the last hrtick_arm() delay */
	unsigned long arms, cancels;
};
extern struct fake_hrtick fake_hrtick;

/* ---- console ---- */
#define CAPTURE_LEN		(1 << 20)
extern char capture_buf[CAPTURE_LEN];
extern size_t capture_len;
void capture_reset(void);			/* empties the buffer */
int capture_contains(const char *needle);

/* ---- tasks ---- */
#define TASK_POOL		512
struct task *task_alloc(const char *name);	/* zeroed, pid assigned */
/* Fork NAME from current, nice NICE, and wake it (wake_up_new_task). */
struct task *spawn(const char *name, int nice);

/* ---- driving the scheduler like the arch code would ---- */
/* One timer interrupt: clock += 1/HZ, jiffies++, scheduler_tick(), then
 * preempt_schedule_irq() if need_resched (the irq-exit path).  An armed
 * fake hrtick expiring before that fires first (hrtick_fire()). */
void tick(void);
void ticks(int n);
/* Tick while COND holds, for at most 10 s of ticks; the test fails if it
 * still holds then (a broken scheduler, as a lab's stub, then fails the test
 * instead of hanging it).  For files that include <cmocka.h>. */
#define TICK_WHILE(cond) do {						\
	for (unsigned int tick_while_ = 0; tick_while_ < 10 * HZ && (cond);	\
	     tick_while_++)						\
		tick();							\
	assert_false(cond);						\
} while (0)
/* The syscall-exit path: schedule() if current->need_resched. */
void resched_if_needed(void);
/* current blocks: state = STATE, schedule(). */
void block_current(long state);

/* Knobs to defaults, sched_verify on, clock at 1 s, sched_init(). */
void sched_test_reset(void);
/* cmocka fixtures: reset before a test; after it, no invariant broken,
 * no verify failure, no switch to a dead or unqueued task. */
int sched_test_setup(void **state);

/* cpu_stop: the last stop_one_cpu_nowait() recorded; run it as its CPU's
 * stopper would (fake_arch.c). */
extern struct cpu_stop_work *host_stop_work;
extern unsigned int host_stop_cpu;
int host_stop_run(void);
/* stop_one_cpu() runs its work at once on that CPU; counted here. */
extern unsigned long host_stop_calls;
int sched_test_teardown(void **state);
/* Apply one knob ("name", "value") and fail the test if refused. */
void knob_set_ok(const char *name, const char *value);

#endif
