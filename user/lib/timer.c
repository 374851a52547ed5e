/*
 * user/lib/timer.c - SIGEV_THREAD timers in user space, as glibc does them.
 *
 * The kernel knows SIGEV_SIGNAL, SIGEV_NONE and SIGEV_THREAD_ID only.
 * timer_create(SIGEV_THREAD) (user/lib/time.c) lands here:
 *
 *   1. Once per process, SIGTIMER (= SIGRTMIN, 32) is blocked in the
 *      calling thread and a helper thread is started; it inherits that
 *      mask and loops in sigwaitinfo({SIGTIMER}).  Threads started later
 *      by the caller inherit the blocked SIGTIMER too (as glibc reserves
 *      it in every thread), so only the helper ever takes it.
 *   2. The kernel timer is created as SIGEV_THREAD_ID aimed at the
 *      helper's tid, signal SIGTIMER, sigev_value = a record holding the
 *      user's function and value.
 *   3. At each expiry the helper dequeues the signal (si_code SI_TIMER,
 *      si_value = the record) and creates a NEW detached thread that runs
 *      fn(value) and exits.  That thread_create -> clone -> fork-placement
 *      path (task_fork_fair, START_DEBIT, wake_up_new_task) is what the
 *      2010 SIGEV_THREAD latency measurements exercised.
 *
 * timer_getoverrun() in a notification thread returns the overrun of ITS
 * expiry (si_overrun, latched when the helper dequeued the signal and
 * handed to the thread through thread_setspecific): glibc returns the
 * kernel's latest count instead, which belongs to a later expiry when
 * notification threads overlap - and a latency tool that claims expiry
 * indices with it then counts folds twice (negative latencies).
 * Records of deleted timers are marked dead and never freed (a signal of
 * the timer may still be queued to the helper): 16 bytes per deleted
 * SIGEV_THREAD timer.
 *
 * CPU-time accounting (__timer_thread_cpu): after each expiry the helper
 * reads its own CPU-time clock (CLOCK_THREAD_CPUTIME_ID: the kernel's
 * sum_exec_runtime, system time included) and each notification thread
 * adds its own after fn returns, so a caller gets the CPU per expiry of
 * both parts of the path on any kernel the binary runs on.
 *
 * notify_pad_us=N (environment word, read when the helper starts, 0..1000):
 * the helper burns N µs of its own CPU time (a loop on its CPU-time clock)
 * after each dequeue, before it creates the thread.  It makes the path
 * cost the same on two kernels whose system calls cost different amounts
 * (docs/EXPERIMENT.md, "The notification path's cost").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <thread.h>
#include <time.h>
#include "ulib.h"

#define SIGTIMER	SIGRTMIN

struct sev_thread_rec {
	void (*fn)(union sigval);
	union sigval value;
	timer_t id;			/* the kernel's timer id */
	volatile int live;		/* 0 after timer_delete */
	struct sev_thread_rec *next;
};

static ulock_t timer_lock = ULOCK_INIT;	/* guards the fields below */
static thread_t helper;			/* NULL until the first SIGEV_THREAD timer */
static struct sev_thread_rec *recs;	/* every record ever made */
static int pad_ns;			/* notify_pad_us, in ns */
static volatile long long helper_cpu_ns, notify_cpu_ns;
static volatile int helper_expiries, notify_threads;

#define NOTIFY_PAD_MAX_US	1000

/* The calling thread's CPU-time clock, ns. */
static long long thread_cpu_ns(void)
{
	struct timespec ts;

	if (sys_clock_gettime(CLOCK_THREAD_CPUTIME_ID, L(&ts)) < 0)
		return 0;
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* notify_pad_us: N µs of this thread's CPU, burnt in a loop on its clock. */
static void notify_pad(void)
{
	long long end;

	if (!pad_ns)
		return;
	end = thread_cpu_ns() + pad_ns;
	while (thread_cpu_ns() < end)
		;
}

/* Parse notify_pad_us once; a bad value is reported and ignored. */
static void read_notify_pad(void)
{
	const char *v = getenv("notify_pad_us");
	char *end;
	long us;

	if (!v)
		return;
	us = strtol(v, &end, 10);
	if (!*v || *end || us < 0 || us > NOTIFY_PAD_MAX_US) {
		fprintf(stderr, "notify_pad_us=%s: not an integer in 0..%d (µs); ignored\n",
			v, NOTIFY_PAD_MAX_US);
		return;
	}
	pad_ns = (int)us * 1000;
}

void __timer_thread_cpu(struct timer_thread_cpu *t)
{
	t->helper_ns = helper_cpu_ns;
	t->notify_ns = notify_cpu_ns;
	t->expiries = helper_expiries;
	t->threads = notify_threads;
	t->pad_us = pad_ns / 1000;
}

/* One expiry's notification: the helper fills it, the new thread owns it. */
struct sev_expiry {
	struct sev_thread_rec *rec;
	int overrun;			/* si_overrun latched when the helper dequeued */
};

static void *notify_thread(void *arg)
{
	struct sev_expiry *e = arg;

	thread_setspecific(e);		/* for timer_getoverrun() in fn */
	e->rec->fn(e->rec->value);
	thread_setspecific(NULL);
	free(e);
	__sync_fetch_and_add(&notify_cpu_ns, thread_cpu_ns());
	__sync_fetch_and_add(&notify_threads, 1);
	return NULL;
}

static void *helper_thread(void *unused)
{
	sigset_t set;
	siginfo_t si;
	thread_t t;

	sigemptyset(&set);
	sigaddset(&set, SIGTIMER);
	for (;;) {
		struct sev_thread_rec *r;
		struct sev_expiry *e;

		if (sigwaitinfo(&set, &si) < 0)
			continue;			/* EINTR: another signal's handler ran */
		r = si.si_value.sival_ptr;
		if (si.si_code != SI_TIMER || !r || !r->live)
			continue;
		e = malloc(sizeof(*e));
		if (!e)
			continue;
		e->rec = r;
		e->overrun = si.si_overrun;
		notify_pad();
		if (thread_create(&t, notify_thread, e) == 0)
			thread_detach(t);
		else
			free(e);
		helper_cpu_ns = thread_cpu_ns();	/* only the helper writes it */
		helper_expiries++;
	}
	return NULL;
}

/*
 * timer_getoverrun's hook: in a notification thread of timer ID, the
 * overrun of the expiry it was started for (the kernel's own count may
 * already belong to a later expiry the helper dequeued meanwhile, since
 * several notification threads can be alive at once); else -1.
 */
int __timer_thread_overrun(timer_t id)
{
	struct sev_expiry *e;

	if (!helper)
		return -1;
	e = thread_getspecific();
	if (e && e->rec->id == id)
		return e->overrun;
	return -1;
}

/* Start the helper once; its tid, or -1 + errno. */
static int helper_tid(void)
{
	sigset_t set;
	int tid = -1;

	ulock_lock(&timer_lock);
	if (!helper) {
		sigemptyset(&set);
		sigaddset(&set, SIGTIMER);
		sigprocmask(SIG_BLOCK, &set, NULL);
		read_notify_pad();
		if (thread_create(&helper, helper_thread, NULL) < 0)
			helper = NULL;
	}
	if (helper)
		tid = thread_tid(helper);
	ulock_unlock(&timer_lock);
	return tid;
}

int __timer_create_thread(clockid_t clk, const struct sigevent *sev, timer_t *id)
{
	struct sev_thread_rec *r;
	struct sigevent ksev = { 0 };
	int tid = helper_tid();
	long ret;

	if (tid < 0)
		return -1;
	r = malloc(sizeof(*r));
	if (!r)
		return -1;
	r->fn = sev->sigev_notify_function;
	r->value = sev->sigev_value;
	r->live = 1;
	ksev.sigev_value.sival_ptr = r;
	ksev.sigev_signo = SIGTIMER;
	ksev.sigev_notify = SIGEV_THREAD_ID;
	ksev.sigev_notify_thread_id = tid;
	ret = sys_timer_create(clk, L(&ksev), L(&r->id));
	if (ret < 0) {
		free(r);
		errno = (int)-ret;
		return -1;
	}
	ulock_lock(&timer_lock);
	r->next = recs;
	recs = r;
	ulock_unlock(&timer_lock);
	*id = r->id;
	return 0;
}

/* timer_delete's hook: retire the record of ID, if it is a SIGEV_THREAD timer. */
void __timer_delete_thread(timer_t id)
{
	struct sev_thread_rec *r;

	ulock_lock(&timer_lock);
	for (r = recs; r; r = r->next)
		if (r->live && r->id == id)
			r->live = 0;
	ulock_unlock(&timer_lock);
}
