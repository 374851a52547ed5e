/*
 * kernel/time/posix_timers.c - per-process interval timers.
 *
 * Expiry (interrupt context) follows Linux 2.6.35 (kernel/posix-timers.c):
 * the timer's one preallocated sigqueue is queued to the process
 * (SIGEV_SIGNAL) or to one thread (SIGEV_THREAD_ID), and a periodic timer
 * then STOPS: it is re-armed only when that signal is dequeued
 * (posix_timer_dequeued = Linux's schedule_next_timer), forwarded past
 * "now" by whole intervals, the intervals skipped counting as overruns.
 * So however small the interval, a timer costs one expiry per signal its
 * process takes - its own CPU time - and a 1 ns timer cannot flood the
 * machine with interrupts.  If the entry is still queued when the timer
 * fires (re-armed by timer_settime meanwhile), overrun is incremented
 * instead.  When the signal is dequeued, si_overrun = overrun and
 * timer_getoverrun() reports that value from then on.
 *
 * A signal that is ignored (or has no live target) is not queued, so it
 * cannot re-arm the timer: as Linux, the timer is forwarded and restarted
 * at once, with its interval floored at one tick (Linux's "expire every
 * jiffy" rule for SIG_IGN, TICK_NSEC) so that it fires at most HZ times a
 * second.  SIGEV_NONE timers are never put on the hrtimer queue at all
 * (Linux's common_timer_set): timer_gettime computes them.
 *
 * SIGEV_THREAD is implemented in user space, as glibc does it (a helper
 * thread waiting with sigwaitinfo creates a thread per expiry): the kernel
 * sees a SIGEV_THREAD_ID timer.
 */
#include <kernel/errno.h>
#include <kernel/kmalloc.h>
#include <kernel/posix_timers.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

/* struct sigevent, i386: 64 bytes. */
struct sigevent32 {
	u32 sigev_value;
	s32 sigev_signo;
	s32 sigev_notify;
	s32 tid;		/* SIGEV_THREAD_ID target */
	u32 pad[12];
};

static struct task *timer_target(struct k_itimer *t)
{
	if (t->target_tid) {
		struct task *th = find_task_by_pid(t->target_tid);
		if (th && !th->exit_state && th->tgid == t->leader->tgid)
			return th;
		return NULL;	/* the thread is gone: the expiry is lost */
	}
	return signal_target(t->leader, t->signo);
}

static void add_overrun(struct k_itimer *t, u64 n)
{
	t->overrun += (int)min(n, (u64)DELAYTIMER_MAX);
	if (t->overrun < 0 || t->overrun > DELAYTIMER_MAX)
		t->overrun = DELAYTIMER_MAX;
}

static enum hrtimer_restart posix_timer_fn(struct hrtimer *h)
{
	struct k_itimer *t = container_of(h, struct k_itimer, timer);
	u64 now, floor = NSEC_PER_SEC / HZ;

	if (t->sigq.queued) {
		add_overrun(t, 1);		/* Linux send_sigqueue: si_overrun++ */
		t->requeue_pending = t->interval != 0;
		t->armed = t->requeue_pending;
		return HRTIMER_NORESTART;
	}
	/* The entry's siginfo was filled at timer_create (Linux's
	 * do_timer_create): nothing to build here. */
	struct task *to = timer_target(t);
	if (to && send_signal_info(to, t->signo, NULL, &t->sigq) == 0) {
		t->requeue_pending = t->interval != 0;	/* dequeue re-arms it */
		t->armed = t->requeue_pending;
		return HRTIMER_NORESTART;
	}
	/* Not queued (ignored, no target): forward now, at most once a tick.
	 * (The clock is read only here, as Linux's posix_timer_fn does.) */
	if (!t->interval) {
		t->armed = 0;
		return HRTIMER_NORESTART;
	}
	now = sched_clock();
	if (t->interval < floor)
		now += floor;
	u64 n = hrtimer_forward(h, now, t->interval);
	if (n > 1)
		add_overrun(t, n - 1);
	return HRTIMER_RESTART;
}

/* Interrupts off (dequeue_signal).  Linux's do_schedule_next_timer. */
void posix_timer_dequeued(struct k_itimer *t, struct ksiginfo *info)
{
	if (t->requeue_pending) {
		u64 n = hrtimer_forward(&t->timer, sched_clock(), t->interval);
		if (n > 1)
			add_overrun(t, n - 1);	/* expiries missed while queued */
		t->requeue_pending = 0;
		hrtimer_start(&t->timer, t->timer.expires);
	}
	info->timer.overrun = t->overrun;
	t->overrun_last = t->overrun;
	t->overrun = 0;
}

/* Timer ID of the current process (the list may also hold the timers of
 * another process sharing the signal state: they are not ours to touch). */
static struct k_itimer *find_timer(int id)
{
	struct k_itimer *t;

	list_for_each_entry(t, &current->sig->posix_timers, list)
		if (t->id == id && t->leader == current->group_leader)
			return t;
	return NULL;
}

long sys_timer_create(int clock, const void *usev, int *uid)
{
	struct signal_state *s = current->sig;
	struct sigevent32 ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct k_itimer *t;
	unsigned long flags;

	long err = clock_timer_check(clock);

	if (err)
		return err;
	if (usev && copy_from_user(&ev, usev, sizeof(ev)))
		return -EFAULT;
	/* SIGEV_THREAD is libc's business; the kernel, as Linux's
	 * good_sigevent, takes it as SIGEV_SIGNAL (this said -EINVAL). */
	if (ev.sigev_notify == SIGEV_THREAD)
		ev.sigev_notify = SIGEV_SIGNAL;
	if (ev.sigev_notify != SIGEV_SIGNAL && ev.sigev_notify != SIGEV_NONE &&
	    ev.sigev_notify != SIGEV_THREAD_ID)
		return -EINVAL;
	if (ev.sigev_notify != SIGEV_NONE && (ev.sigev_signo < 1 || ev.sigev_signo > _NSIG))
		return -EINVAL;
	if (ev.sigev_notify == SIGEV_THREAD_ID) {
		struct task *th = find_task_by_pid(ev.tid);
		if (!th || th->tgid != current->tgid || th->exit_state)
			return -EINVAL;
	}
	if (!access_ok((u32)uid, sizeof(int)))
		return -EFAULT;
	if (s->nr_timers >= POSIX_TIMER_MAX)
		return -EAGAIN;
	t = kzalloc(sizeof(*t));
	if (!t)
		return -EAGAIN;		/* Linux: -EAGAIN when no memory for a timer */
	t->clock = clock;
	t->notify = ev.sigev_notify;
	t->signo = ev.sigev_signo;
	t->value = usev ? ev.sigev_value : 0;
	t->target_tid = ev.sigev_notify == SIGEV_THREAD_ID ? ev.tid : 0;
	t->leader = current->group_leader;
	t->sigq.timer = t;
	INIT_LIST_HEAD(&t->sigq.list);
	hrtimer_init(&t->timer, posix_timer_fn);
	local_irq_save(flags);
	t->id = s->next_timer_id++;
	if (!usev)
		t->value = t->id;	/* Linux: sigev_value defaults to the timer id */
	/* The queue entry's siginfo, once: every expiry queues it as it is;
	 * si_overrun is set on the copy the dequeue hands out. */
	t->sigq.info.si_signo = t->signo;
	t->sigq.info.si_code = SI_TIMER;
	t->sigq.info.timer.tid = t->id;
	t->sigq.info.timer.value = t->value;
	list_add_tail(&t->list, &s->posix_timers);
	s->nr_timers++;
	local_irq_restore(flags);
	if (put_user(t->id, uid)) {
		sys_timer_delete(t->id);
		return -EFAULT;
	}
	return 0;
}

/* Remaining time and interval of T, as itimerspec. */
static struct itimerspec32 timer_state(struct k_itimer *t)
{
	struct itimerspec32 v = { { 0, 0 }, { 0, 0 } };
	unsigned long flags;
	u64 now = sched_clock();

	v.it_interval = ns_to_timespec(t->interval);
	local_irq_save(flags);
	if (!t->armed) {
		local_irq_restore(flags);
		return v;
	}
	/* Stopped until its signal is dequeued, or SIGEV_NONE: computed
	 * (Linux's common_timer_get). */
	if (t->interval && (t->requeue_pending || t->notify == SIGEV_NONE)) {
		u64 n = hrtimer_forward(&t->timer, now, t->interval);
		if (n > 1)
			add_overrun(t, n - 1);
	}
	if (t->timer.expires > now)
		v.it_value = ns_to_timespec(t->timer.expires - now);
	else if (t->notify != SIGEV_NONE)
		v.it_value = ns_to_timespec(1);	/* due, not yet run: still pending */
	else
		t->armed = 0;			/* a one-shot SIGEV_NONE timer expired */
	local_irq_restore(flags);
	return v;
}

long sys_timer_settime(int id, int flags, const struct itimerspec32 *unew, struct itimerspec32 *uold)
{
	struct k_itimer *t = find_timer(id);
	struct itimerspec32 nv, old;
	u64 value, interval, now, expires;
	long err;

	if (!t)
		return -EINVAL;
	if (!unew)
		return -EINVAL;
	if (copy_from_user(&nv, unew, sizeof(nv)))
		return -EFAULT;
	/* Flags other than TIMER_ABSTIME are not checked (Linux's
	 * do_timer_settime reads that bit alone; this said -EINVAL). */
	if ((err = timespec_to_ns(&nv.it_value, &value)) || (err = timespec_to_ns(&nv.it_interval, &interval)))
		return err;
	old = timer_state(t);
	hrtimer_cancel(&t->timer);	/* a signal already queued stays queued (Linux) */
	t->overrun = t->overrun_last = 0;
	t->interval = interval;
	t->armed = 0;
	t->requeue_pending = 0;
	if (value) {
		clock_read(t->clock, &now);
		expires = (flags & TIMER_ABSTIME) ? value : now + value;
		/* Convert to the monotonic line the hrtimer queue runs on. */
		if (t->clock == CLOCK_REALTIME)
			expires = expires > boot_realtime_ns ? expires - boot_realtime_ns : 0;
		t->armed = 1;
		if (t->notify == SIGEV_NONE)
			t->timer.expires = expires;	/* never queued: see timer_state() */
		else
			hrtimer_start(&t->timer, expires);
	}
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_timer_gettime(int id, struct itimerspec32 *ucur)
{
	struct k_itimer *t = find_timer(id);

	if (!t)
		return -EINVAL;
	struct itimerspec32 v = timer_state(t);
	return copy_to_user(ucur, &v, sizeof(v));
}

long sys_timer_getoverrun(int id)
{
	struct k_itimer *t = find_timer(id);

	return t ? t->overrun_last : -EINVAL;
}

static void itimer_delete(struct signal_state *s, struct k_itimer *t)
{
	unsigned long flags;

	hrtimer_cancel(&t->timer);
	local_irq_save(flags);
	sigqueue_cancel(&t->sigq);	/* no stray signal after timer_delete */
	list_del(&t->list);
	s->nr_timers--;
	local_irq_restore(flags);
	kfree(t);
}

long sys_timer_delete(int id)
{
	struct k_itimer *t = find_timer(id);

	if (!t)
		return -EINVAL;
	itimer_delete(current->sig, t);
	return 0;
}

/*
 * Delete the timers LEADER's process made in S, and with them any of their
 * signals still queued: as Linux's exit_itimers, when the last thread of the
 * process exits (do_exit), and on execve (de_thread).  S may also hold
 * another process's timers if the two share it (clone with CLONE_SIGHAND
 * but not CLONE_THREAD): those stay.  Deleting them with the process, not
 * with S, keeps the timers' LEADER pointer valid: a leader is freed only
 * after its whole group is dead.  LEADER NULL: every timer in S (S's last
 * user is gone).
 */
void exit_itimers(struct signal_state *s, struct task *leader)
{
	struct k_itimer *t, *n;

	list_for_each_entry_safe(t, n, &s->posix_timers, list)
		if (!leader || t->leader == leader)
			itimer_delete(s, t);
}
