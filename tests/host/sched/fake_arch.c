/*
 * tests/host/sched/fake_arch.c - the host stand-ins described in fake.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"
#include <kernel/time.h>
#include <kernel/hrtick.h>
#include <kernel/printk.h>
#include <kernel/machine.h>
#include <kernel/cmdline.h>
#include <arch/thread.h>
#include "../../../kernel/sched/sched.h"

/* ---- time ---- */
u64 fake_clock_ns = FAKE_CLOCK_START;
u64 fake_clock_step;
unsigned long fake_clock_reads;
unsigned int HZ = 1000;
volatile u64 jiffies;
u32 tick_nsec = 1000000;	/* kernel_stat.h: a tick at HZ=1000 */

u64 sched_clock(void)
{
	u64 now = fake_clock_ns;

	fake_clock_reads++;
	fake_clock_ns += fake_clock_step;
	return now;
}

/* ---- processes: task_list holds the pool's tasks (debug.c and the PI
 * chain check walk it), user copies ---- */
LIST_HEAD(task_list);

int copy_to_user(void *udst, const void *src, size_t n)
{
	if (!udst)
		return -14;	/* -EFAULT */
	memcpy(udst, src, n);
	return 0;
}

/* ---- arch ---- */
struct switch_recorder switches;

void switches_reset(void)
{
	memset(&switches, 0, sizeof(switches));
}

const struct switch_record *switch_last(unsigned int i)
{
	if (i >= switches.count || i >= SWITCH_LOG_LEN)
		return NULL;
	return &switches.log[(switches.count - 1 - i) % SWITCH_LOG_LEN];
}

void arch_switch_to(struct task *prev, struct task *next)
{
	struct switch_record *r = &switches.log[switches.count % SWITCH_LOG_LEN];

	r->prev = prev;
	r->next = next;
	r->when = fake_clock_ns;
	r->prev_on_cpu = prev->on_cpu;
	r->next_on_cpu = next->on_cpu;
	switches.count++;
	/* never to a dead task, never to a task that is not queued (but idle) */
	if (next->state == TASK_DEAD ||
	    (next != sched_idle_task() && !next->se.on_rq))
		switches.bad++;
}

void arch_thread_init(struct task *t, void (*entry)(void *), void *arg)
{
}

/* ---- hrtick ---- */
struct fake_hrtick fake_hrtick;

int hrtick_available(void)
{
	return fake_hrtick.available;
}

void hrtick_arm(u64 delay_ns)
{
	fake_hrtick.armed = 1;
	fake_hrtick.last_delay = delay_ns;
	fake_hrtick.expires = fake_clock_ns + delay_ns;
	fake_hrtick.arms++;
}

void hrtick_cancel(void)
{
	fake_hrtick.armed = 0;
	fake_hrtick.cancels++;
}

/* ---- machine (printk.c's panic needs them) ---- */
void machine_power_off(int status)
{
	fprintf(stderr, "machine_power_off(%d)\n", status);
	abort();
}

void machine_halt(void)
{
	abort();
}

/* ---- console ---- */
char capture_buf[CAPTURE_LEN];
size_t capture_len;

static void capture_write(const char *s, size_t n)
{
	if (n > CAPTURE_LEN - 1 - capture_len)
		n = CAPTURE_LEN - 1 - capture_len;
	memcpy(capture_buf + capture_len, s, n);
	capture_len += n;
	capture_buf[capture_len] = '\0';
}

static struct console capture_console = { .name = "test", .write = capture_write };

void capture_reset(void)
{
	register_console(&capture_console);	/* once; later calls no-ops */
	capture_len = 0;
	capture_buf[0] = '\0';
}

int capture_contains(const char *needle)
{
	return strstr(capture_buf, needle) != NULL;
}

/* ---- tasks ---- */
static struct task pool[TASK_POOL];
static int pool_used;
static int next_pid = 1;

struct task *task_alloc(const char *name)
{
	struct task *t;

	assert_true(pool_used < TASK_POOL);
	t = &pool[pool_used++];
	memset(t, 0, sizeof(*t));
	t->pid = t->tgid = next_pid++;
	list_add_tail(&t->tasks, &task_list);
	snprintf(t->comm, sizeof(t->comm), "%s", name);
	return t;
}

struct task *spawn(const char *name, int nice)
{
	struct task *t = task_alloc(name);

	sched_fork(t);
	if (nice)
		set_user_nice(t, nice);
	wake_up_new_task(t);
	return t;
}

void tick(void)
{
	u64 next = fake_clock_ns + 1000000000ULL / HZ;

	/* an hrtick expiring before the tick fires first, at its time */
	while (fake_hrtick.armed && fake_hrtick.expires <= next) {
		fake_clock_set(fake_hrtick.expires);
		fake_hrtick.armed = 0;
		hrtick_fire();
		if (current->need_resched)
			preempt_schedule_irq();
	}
	fake_clock_set(next);
	jiffies++;
	scheduler_tick();
	if (current->need_resched)
		preempt_schedule_irq();
}

void ticks(int n)
{
	while (n-- > 0)
		tick();
}

void resched_if_needed(void)
{
	if (current->need_resched)
		schedule();
}

void block_current(long state)
{
	current->state = state;
	schedule();
}

void knob_set_ok(const char *name, const char *value)
{
	assert_int_equal(knob_apply(name, value), 0);
}

void sched_test_reset(void)
{
	pool_used = 0;
	next_pid = 1;
	INIT_LIST_HEAD(&task_list);
	knobs_init();
	sysctl_sched_verify = 1;
	fake_clock_set(FAKE_CLOCK_START);
	fake_clock_step = 0;
	fake_clock_reads = 0;
	jiffies = 0;
	HZ = 1000;
	memset(&fake_hrtick, 0, sizeof(fake_hrtick));
	switches_reset();
	sched_init();
	capture_reset();
}

int sched_test_setup(void **state)
{
	sched_test_reset();
	return 0;
}

int sched_test_teardown(void **state)
{
	assert_int_equal(sched_verify(), 0);
	assert_int_equal(sched_verify_failures, 0);
	assert_int_equal(switches.bad, 0);
	return 0;
}

/*
 * <kernel/topology.h>: by default one package of one core per CPU; with
 * host_cores_per_package = N, packages of N cores (QEMU's -smp N since 6.2:
 * one package of N cores, tools/sim's machine).
 */
unsigned int host_cores_per_package;

unsigned int topology_physical_package_id(unsigned int cpu)
{
	return host_cores_per_package ? cpu / host_cores_per_package : cpu;
}

unsigned int topology_core_id(unsigned int cpu)
{
	return host_cores_per_package ? cpu % host_cores_per_package : 0;
}

/*
 * cpu_stop (kernel/stop_machine.c, not linked here): the host tests have
 * no stopper threads, so a queued work is only recorded; a test runs it
 * with host_stop_run() as if it were that CPU's migration thread.
 */
struct cpu_stop_work *host_stop_work;
unsigned int host_stop_cpu;

void stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			 struct cpu_stop_work *work_buf)
{
	work_buf->fn = fn;
	work_buf->arg = arg;
	work_buf->done = NULL;
	host_stop_work = work_buf;
	host_stop_cpu = cpu;
}

int host_stop_run(void)
{
	struct cpu_stop_work *work = host_stop_work;
	int saved = host_cpu, ret;

	host_stop_work = NULL;
	host_cpu = (int)host_stop_cpu;
	ret = work->fn(work->arg);
	host_cpu = saved;
	return ret;
}

/* stop_one_cpu(): the work runs at once, as CPU's stopper, and returns
 * its value; host_stop_calls counts the calls. */
unsigned long host_stop_calls;

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg)
{
	int saved = host_cpu, ret;

	host_stop_calls++;
	host_cpu = (int)cpu;
	ret = fn(arg);
	host_cpu = saved;
	return ret;
}

/* ---- IPIs ---- */
unsigned long fake_resched_ipis[NR_CPUS];

void smp_send_reschedule(int cpu)
{
	fake_resched_ipis[cpu]++;
}
