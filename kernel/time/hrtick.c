/*
 * kernel/time/hrtick.c - the scheduler's HRTICK timer (<kernel/hrtick.h>).
 *
 * One kernel timer that, when it expires, runs a "queued" tick of the
 * current task (hrtick_fire -> task_tick(rq, curr, 1): reschedule now).
 * It is only useful when timers expire at their exact time, i.e. in
 * high-resolution mode; with highres=off it would fire at the next tick
 * anyway, so hrtick_available() says no and the HRTICK feature has no
 * effect (as in Linux without hrtimer_is_hres_active()).
 */
#include <kernel/hrtick.h>
#include <kernel/percpu.h>
#include <kernel/time.h>
#include <kernel/hrtimer.h>

static enum hrtimer_restart hrtick_timer_fn(struct hrtimer *t)
{
	hrtick_fire();
	return HRTIMER_NORESTART;
}

int hrtick_timer_is(const struct hrtimer *t)
{
	return t->function == hrtick_timer_fn;
}

/* Each CPU's, as 2.6.35's rq->hrtick_timer: armed and cancelled by its
 * own CPU (the scheduler calls in with its rq locked), so it sits on that
 * CPU's queue and fires there.  Initialised at its first arming. */
static DEFINE_PER_CPU(struct hrtimer, hrtick_timer);

int hrtick_available(void)
{
	return hrtimer_highres_active();
}

void hrtick_arm(u64 delay_ns)
{
	struct hrtimer *t = this_cpu_ptr(&hrtick_timer);

	if (!t->function)
		hrtimer_init(t, hrtick_timer_fn);
	hrtimer_start(t, sched_clock() + delay_ns);
}

void hrtick_cancel(void)
{
	struct hrtimer *t = this_cpu_ptr(&hrtick_timer);

	if (t->function)
		hrtimer_cancel(t);
}
