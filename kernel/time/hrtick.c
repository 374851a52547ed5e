/*
 * kernel/time/hrtick.c - the scheduler's HRTICK timer (<kernel/hrtick.h>).
 *
 * One kernel timer that, when it expires, runs a "queued" tick of the
 * current task (hrtick_fire -> task_tick(rq, curr, 1): reschedule now).
 * It is only useful when timers expire at their exact time, i.e. with
 * high-resolution timers; on the periodic tick it would fire at the next
 * tick anyway, so hrtick_available() says no until highres mode exists,
 * and the HRTICK feature then has no effect (as in Linux without
 * hrtimer_is_hres_active()).
 */
#include <kernel/hrtick.h>
#include <kernel/time.h>
#include <kernel/timer.h>

static struct timer hrtick_timer;
static int highres_active;	/* set by the high-resolution timer mode */

static void hrtick_timer_fn(struct timer *t)
{
	hrtick_fire();
}

int hrtick_available(void)
{
	return highres_active;
}

void hrtick_arm(u64 delay_ns)
{
	hrtick_timer.fn = hrtick_timer_fn;
	timer_add(&hrtick_timer, sched_clock() + delay_ns);
}

void hrtick_cancel(void)
{
	timer_del(&hrtick_timer);
}
