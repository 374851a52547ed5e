/*
 * user/tests/ut_futex_pi.c - usertests: priority-inheritance futexes and
 * the robust list (kernel/proc/futex_pi.c, futex_robust.c, kernel/sched/
 * rtmutex.c) through the raw futex(2) calls glibc's PTHREAD_PRIO_INHERIT
 * mutexes make:
 *   futex_pi_errnos     uncontended lock/unlock, -EDEADLK, -EPERM, -EFAULT,
 *                       -EINVAL, -ESRCH, -ENOSYS for a clock on LOCK_PI,
 *                       glibc's start-up probe (UNLOCK_PI of 0: not ENOSYS)
 *   futex_pi_contended  TRYLOCK_PI of a held lock -> EAGAIN (FUTEX_WAITERS
 *                       set, as 2.6.35); LOCK_PI's
 *                       absolute CLOCK_REALTIME timeout -> ETIMEDOUT, and
 *                       the word keeps its owner with FUTEX_WAITERS
 *   futex_pi_signal     a handled signal interrupts a blocked LOCK_PI, which
 *                       restarts (-ERESTARTNOINTR) and still times out
 *   futex_pi_boost      a SCHED_FIFO 10 owner is boosted past a FIFO 20
 *                       spinner by a FIFO 30 waiter, so the waiter gets the
 *                       lock before the spinner finishes (the order is
 *                       recorded, not timed)
 *   futex_pi_chain      T1 drops below C while both wait for T2's lock and
 *                       T2 waits for T3's: the walk goes on past the
 *                       deboost to T3 (the prios /proc/PID/sched shows)
 *   futex_pi_expired    a LOCK_PI whose timeout has passed fails before it
 *                       boosts the owner (which keeps its place)
 *   futex_pi_rr_interval sched_rr_get_interval of a SCHED_OTHER owner boosted
 *                       into rt: 0, as the rt class answers for SCHED_RR only
 *   futex_pi_owner_died the owner dies holding a robust PI lock: its
 *                       waiter gets it with FUTEX_OWNER_DIED; a plain
 *                       robust futex's waiter is woken with it too
 *   robust_list_hostile a circular or unmapped robust list ends quietly;
 *                       get_robust_list's answers and errnos
 * The helpers are CLONE_VM children (ut_clone): raw calls only.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ut.h"

#define FUTEX_LOCK_PI		6
#define FUTEX_UNLOCK_PI		7
#define FUTEX_TRYLOCK_PI	8
#define FUTEX_LOCK_PI2		13
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_WAITERS		0x80000000u
#define FUTEX_OWNER_DIED	0x40000000u
#define CLOCK_REALTIME		0
#define SCHED_FIFO		1
#define SIGCHLD_			17
#define NO_TID			99999

static char stack[4][16384] __attribute__((aligned(16)));

static long pi_op(volatile uint32_t *w, int op)
{
	return sys_futex((long)w, op, 0, 0, 0, 0);
}

static void setfifo(long tid, int prio)
{
	EXPECT_RET(sys_sched_setscheduler(tid, SCHED_FIFO, (long)&prio), 0);
}

/* Sleep on *W while it is 0 (a flag another task sets and wakes). */
static void wait_flag(volatile int *w)
{
	while (!*w)
		sys_futex((long)w, FUTEX_WAIT, 0, 0, 0, 0);
}

static void set_flag(volatile int *w)
{
	*w = 1;
	sys_futex((long)w, FUTEX_WAKE, 1, 0, 0, 0);
}

/* A task of our address space that only sleeps until RELEASE is set. */
static volatile int release;
/* The i386 timespec FUTEX_LOCK_PI reads: an absolute CLOCK_REALTIME time. */
struct ts32 {
	int32_t sec, nsec;
};

/* *TS = CLOCK_REALTIME now + NS (NS below a second). */
static void realtime_in(struct ts32 *ts, int32_t ns)
{
	long t[2];

	sys_clock_gettime(CLOCK_REALTIME, (long)t);
	ts->sec = (int32_t)t[0];
	ts->nsec = (int32_t)t[1] + ns;
	if (ts->nsec >= 1000000000) {
		ts->sec++;
		ts->nsec -= 1000000000;
	}
}

static void sleeper(void)
{
	wait_flag(&release);
}

static long start(void (*fn)(void), int i)
{
	long tid = ut_clone(CLONE_VM | SIGCHLD_, stack[i], sizeof(stack[i]), 0, 0, fn);

	CHECK(tid > 0, "clone: %ld", tid);
	return tid;
}

static void futex_pi_errnos(void)
{
	static volatile uint32_t w;
	uint32_t tid = (uint32_t)sys_gettid();
	long other;
	pid_t child;

	EXPECT_RET(pi_op(&w, FUTEX_UNLOCK_PI), -EPERM);	/* glibc's probe */
	EXPECT_RET(pi_op(&w, FUTEX_LOCK_PI), 0);
	CHECK(w == tid, "word %#x after LOCK_PI, want %#x", w, tid);
	EXPECT_RET(pi_op(&w, FUTEX_LOCK_PI), -EDEADLK);
	EXPECT_RET(pi_op(&w, FUTEX_TRYLOCK_PI), -EDEADLK);
	EXPECT_RET(pi_op(&w, FUTEX_UNLOCK_PI), 0);
	CHECK(w == 0, "word %#x after UNLOCK_PI", w);
	EXPECT_RET(pi_op(&w, FUTEX_TRYLOCK_PI | 128), 0);	/* private */
	CHECK(w == tid, "word %#x after TRYLOCK_PI", w);
	EXPECT_RET(pi_op(&w, FUTEX_UNLOCK_PI | 128), 0);
	EXPECT_RET(pi_op(&w, FUTEX_LOCK_PI2 | FUTEX_CLOCK_REALTIME), 0);
	EXPECT_RET(pi_op(&w, FUTEX_UNLOCK_PI), 0);
	EXPECT_RET(pi_op(&w, FUTEX_LOCK_PI | FUTEX_CLOCK_REALTIME), -ENOSYS);

	w = tid + 1;				/* someone else's */
	EXPECT_RET(pi_op(&w, FUTEX_UNLOCK_PI), -EPERM);
	w = tid | FUTEX_OWNER_DIED;		/* ours, after its owner died: freed */
	EXPECT_RET(pi_op(&w, FUTEX_UNLOCK_PI), 0);
	CHECK(w == 0, "word %#x after UNLOCK_PI of an OWNER_DIED word", w);
	w = NO_TID;				/* nobody's */
	EXPECT_RET(pi_op(&w, FUTEX_LOCK_PI), -ESRCH);
	EXPECT_RET(pi_op(&w, FUTEX_TRYLOCK_PI), -ESRCH);	/* 2.6.35: looked up too */
	child = (pid_t)sys_fork();		/* a task, but of another address space */
	if (!child) {
		static volatile int never;

		for (;;)
			sys_futex((long)&never, FUTEX_WAIT, 0, 0, 0, 0);
	}
	w = (uint32_t)child;
	EXPECT_RET(pi_op(&w, FUTEX_LOCK_PI), -ESRCH);
	sys_kill(child, 9);
	ut_wait(child);

	for (uint32_t bad = 0xC0000000u; bad; bad = bad == 0xC0000000u ? 0x40000000u : 0) {
		EXPECT_RET(sys_futex(bad, FUTEX_LOCK_PI, 0, 0, 0, 0), -EFAULT);
		EXPECT_RET(sys_futex(bad, FUTEX_UNLOCK_PI, 0, 0, 0, 0), -EFAULT);
		EXPECT_RET(sys_futex(bad, FUTEX_TRYLOCK_PI, 0, 0, 0, 0), -EFAULT);
	}
	EXPECT_RET(sys_futex((long)&w + 1, FUTEX_LOCK_PI, 0, 0, 0, 0), -EINVAL);
	other = start(sleeper, 0);		/* a live owner of our address space */
	w = (uint32_t)other;
	EXPECT_RET(sys_futex(0xC0000000u, FUTEX_LOCK_PI, 0, 0xC0000000u, 0, 0), -EFAULT);
	set_flag(&release);
	ut_wait((pid_t)other);
	release = 0;
}

static void futex_pi_contended(void)
{
	static volatile uint32_t w;
	struct ts32 ts;
	long other = start(sleeper, 0);

	w = (uint32_t)other;			/* as if it had taken it */
	EXPECT_RET(pi_op(&w, FUTEX_TRYLOCK_PI), -EAGAIN);
	/* 2.6.35 sets FUTEX_WAITERS before it tries: the owner's unlock comes in */
	CHECK(w == ((uint32_t)other | FUTEX_WAITERS), "word %#x after TRYLOCK_PI", w);
	w = (uint32_t)other;

	realtime_in(&ts, 2000000);		/* 2 ms from now, absolute */
	EXPECT_RET(sys_futex((long)&w, FUTEX_LOCK_PI, 0, (long)&ts, 0, 0), -ETIMEDOUT);
	CHECK(w == ((uint32_t)other | FUTEX_WAITERS), "word %#x after a timeout", w);
	ts.sec = 1;				/* long past: at once */
	EXPECT_RET(sys_futex((long)&w, FUTEX_LOCK_PI, 0, (long)&ts, 0, 0), -ETIMEDOUT);
	ts.nsec = 1000000000;
	EXPECT_RET(sys_futex((long)&w, FUTEX_LOCK_PI, 0, (long)&ts, 0, 0), -EINVAL);
	EXPECT_RET(sys_futex((long)&w, FUTEX_LOCK_PI, 0, 0xC0000000u, 0, 0), -EFAULT);
	set_flag(&release);
	ut_wait((pid_t)other);
	release = 0;
}

static volatile int handled;
static long blocked_tid;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* Runs once the caller blocks (FIFO 10 below its FIFO 30): signals it. */
static void signaller(void)
{
	sys_tgkill(blocked_tid, blocked_tid, SIGUSR1);	/* our main thread: tid = tgid */
}

static void futex_pi_signal(void)
{
	static volatile uint32_t w;
	struct ts32 ts;
	long owner, sig;

	CHECK(signal(SIGUSR1, on_usr1) != SIG_ERR, "signal");
	blocked_tid = sys_gettid();
	setfifo(0, 30);
	owner = start(sleeper, 0);
	w = (uint32_t)owner;
	sig = start(signaller, 1);
	setfifo(sig, 10);
	realtime_in(&ts, 5000000);		/* 5 ms from now, absolute */
	EXPECT_RET(sys_futex((long)&w, FUTEX_LOCK_PI, 0, (long)&ts, 0, 0), -ETIMEDOUT);
	CHECK(handled == 1, "the handler ran %d times", handled);
	ut_wait((pid_t)sig);
	set_flag(&release);
	ut_wait((pid_t)owner);
	release = 0;
}

/* ---- the inversion: L (FIFO 10) holds, M (FIFO 20) spins, H (FIFO 30) waits -- */

static volatile uint32_t inv_lock;
static volatile int l_locked, h_waiting, order_n;
static volatile char order[4];

static void low(void)
{
	EXPECT_RET(pi_op(&inv_lock, FUTEX_LOCK_PI), 0);
	set_flag(&l_locked);
	while (!h_waiting)		/* runs only when boosted past M */
		;
	EXPECT_RET(pi_op(&inv_lock, FUTEX_UNLOCK_PI), 0);
}

static void medium(void)
{
	for (volatile int i = 0; i < 2000000; i++)
		;
	order[order_n++] = 'M';
}

static void high(void)
{
	h_waiting = 1;
	EXPECT_RET(pi_op(&inv_lock, FUTEX_LOCK_PI), 0);
	/* handed on with FUTEX_WAITERS, though no one else waits (2.6.35) */
	CHECK(inv_lock == ((uint32_t)sys_gettid() | FUTEX_WAITERS), "word %#x", inv_lock);
	order[order_n++] = 'H';
	EXPECT_RET(pi_op(&inv_lock, FUTEX_UNLOCK_PI), 0);
}

static void futex_pi_boost(void)
{
	long l, m, h;

	setfifo(0, 40);				/* we decide who starts */
	l = start(low, 0);
	setfifo(l, 10);
	wait_flag(&l_locked);			/* L owns the lock */
	m = start(medium, 1);
	setfifo(m, 20);
	h = start(high, 2);
	setfifo(h, 30);
	/* we sleep: H blocks (boosting L to 30), L unlocks, H runs, then M */
	ut_wait((pid_t)h);
	ut_wait((pid_t)m);
	ut_wait((pid_t)l);
	CHECK(order_n == 2 && order[0] == 'H' && order[1] == 'M',
	      "order %.2s: the waiter did not get the lock before the spinner ended",
	      (const char *)order);
	CHECK(inv_lock == 0, "word %#x at the end", inv_lock);
}

/* ---- the chain walk past a deboost (2.6.35's rt_mutex_adjust_prio_chain) -- */

static volatile uint32_t ch_m1, ch_m2;
static volatile int ch_go[4], ch_release;

/* TID's prio as /proc/TID/sched shows it (the boosted one), or -1. */
static int sched_prio(long tid)
{
	char path[32], buf[2048], *l;

	snprintf(path, sizeof(path), "/proc/%ld/sched", tid);
	if (ut_slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	l = strstr(buf, "\nprio ");
	return l ? atoi(strchr(l, ':') + 1) : -1;
}

static void ch_t3(void)		/* FIFO 1: holds M2, sleeps */
{
	wait_flag(&ch_go[3]);
	EXPECT_RET(pi_op(&ch_m2, FUTEX_LOCK_PI), 0);
	wait_flag(&ch_release);
	EXPECT_RET(pi_op(&ch_m2, FUTEX_UNLOCK_PI), 0);
}

static void ch_t2(void)		/* FIFO 2: holds M1, waits for M2 */
{
	wait_flag(&ch_go[2]);
	EXPECT_RET(pi_op(&ch_m1, FUTEX_LOCK_PI), 0);
	EXPECT_RET(pi_op(&ch_m2, FUTEX_LOCK_PI), 0);
	EXPECT_RET(pi_op(&ch_m2, FUTEX_UNLOCK_PI), 0);
	EXPECT_RET(pi_op(&ch_m1, FUTEX_UNLOCK_PI), 0);
}

static void ch_waiter(int i)	/* C (FIFO 20) and T1 (FIFO 30): wait for M1 */
{
	wait_flag(&ch_go[i]);
	EXPECT_RET(pi_op(&ch_m1, FUTEX_LOCK_PI), 0);
	EXPECT_RET(pi_op(&ch_m1, FUTEX_UNLOCK_PI), 0);
}

static void ch_c(void) { ch_waiter(0); }
static void ch_t1(void) { ch_waiter(1); }

/*
 * T3 (FIFO 1) holds M2; T2 (FIFO 2) holds M1 and waits for M2; C (FIFO 20)
 * then T1 (FIFO 30) wait for M1: T2 and T3 run at 30.  T1 drops to FIFO 10
 * (pthread_setschedparam): C becomes M1's top waiter, and the walk goes on
 * past T2 (now 20) to T3, which must drop to 20 too.  We run as SCHED_OTHER,
 * so each step happens when we raise a flag, and is done when we run again:
 * on one CPU, where a woken FIFO task preempts us.  On two, it may wake on
 * the other CPU while we read its priority before it has blocked.
 */
static void futex_pi_chain(void)
{
	void (*fn[4])(void) = { ch_c, ch_t1, ch_t2, ch_t3 };
	static const int rtprio[4] = { 20, 30, 2, 1 };
	long tid[4];

	ut_one_cpu();				/* the threads too */
	for (int i = 0; i < 4; i++) {
		tid[i] = start(fn[i], i);
		setfifo(tid[i], rtprio[i]);		/* it runs, and waits for its flag */
	}
	set_flag(&ch_go[3]);			/* T3 takes M2 */
	set_flag(&ch_go[2]);			/* T2 takes M1, blocks on M2 */
	set_flag(&ch_go[0]);			/* C blocks on M1 */
	set_flag(&ch_go[1]);			/* T1 blocks on M1 */
	CHECK(sched_prio(tid[2]) == 99 - 30 && sched_prio(tid[3]) == 99 - 30,
	      "before: T2 at prio %d, T3 at %d, want %d", sched_prio(tid[2]),
	      sched_prio(tid[3]), 99 - 30);
	setfifo(tid[1], 10);
	CHECK(sched_prio(tid[2]) == 99 - 20, "T2 at prio %d, want %d", sched_prio(tid[2]), 99 - 20);
	CHECK(sched_prio(tid[3]) == 99 - 20, "T3 at prio %d after T1 dropped to FIFO 10, want %d",
	      sched_prio(tid[3]), 99 - 20);
	set_flag(&ch_release);
	for (int i = 0; i < 4; i++)
		CHECK(ut_wait((pid_t)tid[i]) == 0, "a chain task failed");
	CHECK(ch_m1 == 0 && ch_m2 == 0, "words %#x %#x at the end", ch_m1, ch_m2);
}

/* ---- sched_rr_get_interval of a boosted SCHED_OTHER task ------------------- */

static volatile uint32_t rr_lock;
static volatile int spin_stop;

static void spinner(void)
{
	while (!spin_stop)
		;
}

static void rr_waiter(void)
{
	EXPECT_RET(pi_op(&rr_lock, FUTEX_LOCK_PI), 0);
	EXPECT_RET(pi_op(&rr_lock, FUTEX_UNLOCK_PI), 0);
}

/*
 * We are SCHED_OTHER beside a fair spinner: our interval is our slice, in
 * whole jiffies.  EEVDF's slice is 6.12's base slice (0.70 ms by
 * default), under a jiffy at HZ 250, so 6.12 itself answers 0; a
 * 100 ms custom slice (sched_setattr's sched_runtime, which CFS ignores)
 * makes it 25 jiffies, and "boosted means 0" means something.  A
 * FIFO 30 waiter boosts us into the rt class, which answers for us by our
 * policy (2.6.35's get_rr_interval_rt): not SCHED_RR, so 0.  On one CPU,
 * where the waiter preempts us and blocks before we look; on another it
 * may not have reached the lock yet.
 */
static void futex_pi_rr_interval(void)
{
	int32_t ts[2] = { -1, -1 };
	struct sched_attr a;
	long s, w;

	ut_one_cpu();				/* the spinner and the waiter too */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);			/* SCHED_OTHER, nice 0 */
	a.sched_runtime = 100000000ULL;
	EXPECT_RET(sys_sched_setattr(0, (long)&a, 0), 0);
	EXPECT_RET(pi_op(&rr_lock, FUTEX_LOCK_PI), 0);
	s = start(spinner, 0);
	EXPECT_RET(sys_sched_rr_get_interval(0, (long)ts), 0);
	CHECK(ts[0] == 0 && ts[1] > 0, "our fair interval %d.%09d", ts[0], ts[1]);
	w = start(rr_waiter, 1);
	setfifo(w, 30);				/* it blocks on our lock at once */
	CHECK(sched_prio(sys_getpid()) == 99 - 30, "not boosted: prio %d",
	      sched_prio(sys_getpid()));
	EXPECT_RET(sys_sched_rr_get_interval(0, (long)ts), 0);
	CHECK(ts[0] == 0 && ts[1] == 0, "a boosted SCHED_OTHER task's interval %d.%09d",
	      ts[0], ts[1]);
	EXPECT_RET(pi_op(&rr_lock, FUTEX_UNLOCK_PI), 0);
	CHECK(ut_wait((pid_t)w) == 0, "the waiter failed");
	spin_stop = 1;
	ut_wait((pid_t)s);
	a.sched_runtime = 0;			/* back to the base slice */
	EXPECT_RET(sys_sched_setattr(0, (long)&a, 0), 0);
}

/* ---- a past timeout fails LOCK_PI before any boost ------------------------ */

static volatile char ex_order[3];
static volatile int ex_n;

static void ex_x(void) { ex_order[ex_n++] = 'X'; }
static void ex_o(void) { ex_order[ex_n++] = 'O'; }

/*
 * X and then O wait at FIFO 10; the word names O.  Our LOCK_PI (FIFO 30)
 * with a timeout long past fails -ETIMEDOUT before it queues a waiter, as
 * 2.6.35's __rt_mutex_slowlock checks first: O is never boosted, and so not
 * deboosted either, which would put it back at the head of its list
 * (rt_mutex_setprio's ENQUEUE_HEAD), ahead of X.
 */
static void futex_pi_expired(void)
{
	static volatile uint32_t w;
	struct ts32 ts = { 1, 0 };		/* 1970: long past */
	long x, o;

	ut_one_cpu();				/* X and O take turns: the threads too */
	setfifo(0, 30);
	x = start(ex_x, 0);
	setfifo(x, 10);
	o = start(ex_o, 1);
	setfifo(o, 10);
	w = (uint32_t)o;			/* as if O had taken it */
	EXPECT_RET(sys_futex((long)&w, FUTEX_LOCK_PI, 0, (long)&ts, 0, 0), -ETIMEDOUT);
	ut_wait((pid_t)x);
	ut_wait((pid_t)o);
	CHECK(ex_n == 2 && ex_order[0] == 'X' && ex_order[1] == 'O',
	      "order %.2s: the owner was boosted and deboosted", (const char *)ex_order);
}

/* ---- robust lists ---------------------------------------------------------- */

struct robust_entry {			/* what glibc links in: next, then the word */
	uint32_t next;
	uint32_t word;
};
struct robust_head {
	uint32_t next;
	int32_t futex_offset;
	uint32_t list_op_pending;
};

static struct robust_head rhead;
static struct robust_entry rpi, rplain;
static volatile int dier_locked;

/* Takes the PI lock and the plain one, lists both, exits holding them. */
static void dier(void)
{
	uint32_t tid = (uint32_t)sys_gettid();

	rhead.next = (uint32_t)&rpi | 1;		/* bit 0: a PI futex */
	rhead.futex_offset = 4;
	rhead.list_op_pending = 0;
	rpi.next = (uint32_t)&rplain;
	rplain.next = (uint32_t)&rhead;
	EXPECT_RET(sys_set_robust_list((long)&rhead, 12), 0);
	EXPECT_RET(pi_op(&rpi.word, FUTEX_LOCK_PI), 0);
	rplain.word = tid;
	set_flag(&dier_locked);
}

static volatile int plain_woken;
static void plain_waiter(void)
{
	uint32_t v = rplain.word;

	EXPECT_RET(sys_futex((long)&rplain.word, FUTEX_WAIT, v, 0, 0, 0), 0);
	plain_woken = 1;
}

static void futex_pi_owner_died(void)
{
	uint32_t tid = (uint32_t)sys_gettid();
	long d, p;

	/* D must not exit before we block on its lock: on one CPU it waits
	 * behind us (elsewhere the rt class would push it to an idle CPU) */
	ut_one_cpu();				/* the threads too */
	setfifo(0, 30);
	d = start(dier, 0);
	setfifo(d, 10);
	wait_flag(&dier_locked);		/* it holds both and is about to exit */
	rplain.word |= FUTEX_WAITERS;
	p = start(plain_waiter, 1);
	setfifo(p, 35);				/* it runs now and waits */
	/* we block on the PI lock: D is boosted, exits, and hands it to us */
	EXPECT_RET(pi_op(&rpi.word, FUTEX_LOCK_PI), 0);
	CHECK(rpi.word == (tid | FUTEX_OWNER_DIED | FUTEX_WAITERS), "PI word %#x, want %#x",
	      rpi.word, tid | FUTEX_OWNER_DIED | FUTEX_WAITERS);
	ut_wait((pid_t)d);
	ut_wait((pid_t)p);
	CHECK(plain_woken, "the plain robust futex's waiter was not woken");
	CHECK(rplain.word == (FUTEX_WAITERS | FUTEX_OWNER_DIED), "plain word %#x", rplain.word);
	EXPECT_RET(pi_op(&rpi.word, FUTEX_UNLOCK_PI), 0);
}

static struct robust_entry loop_entry;
static void circular(void)
{
	rhead.next = (uint32_t)&loop_entry;
	rhead.futex_offset = 4;
	rhead.list_op_pending = 0x40000000u;	/* unmapped */
	loop_entry.next = (uint32_t)&loop_entry;	/* never back to the head */
	loop_entry.word = (uint32_t)sys_gettid();
	EXPECT_RET(sys_set_robust_list((long)&rhead, 12), 0);
}

static void unmapped(void)
{
	EXPECT_RET(sys_set_robust_list(0x40000000, 12), 0);
}

static void robust_list_hostile(void)
{
	uint32_t head = 1, len = 0;

	EXPECT_RET(sys_set_robust_list((long)&rhead, 11), -EINVAL);
	EXPECT_RET(sys_set_robust_list((long)&rhead, 12), 0);
	EXPECT_RET(sys_get_robust_list(0, (long)&head, (long)&len), 0);
	CHECK(head == (uint32_t)&rhead && len == 12, "get_robust_list: %#x %u", head, len);
	EXPECT_RET(sys_get_robust_list(NO_TID, (long)&head, (long)&len), -ESRCH);
	EXPECT_RET(sys_get_robust_list(0, 0xC0000000u, (long)&len), -EFAULT);
	EXPECT_RET(sys_get_robust_list(0, (long)&head, 0x40000000), -EFAULT);
	EXPECT_RET(sys_set_robust_list(0, 12), 0);

	long c = start(circular, 0);
	int st = ut_wait((pid_t)c);
	CHECK(st == 0, "a circular robust list: status %#x", st);
	CHECK(loop_entry.word == FUTEX_OWNER_DIED, "its word %#x", loop_entry.word);
	c = start(unmapped, 0);
	st = ut_wait((pid_t)c);
	CHECK(st == 0, "an unmapped robust list: status %#x", st);
}

const struct ut_test ut_futex_pi_tests[] = {
	{ futex_pi_errnos, "futex_pi_errnos" },
	{ futex_pi_contended, "futex_pi_contended" },
	{ futex_pi_signal, "futex_pi_signal" },
	{ futex_pi_boost, "futex_pi_boost" },
	{ futex_pi_chain, "futex_pi_chain" },
	{ futex_pi_rr_interval, "futex_pi_rr_interval" },
	{ futex_pi_expired, "futex_pi_expired" },
	{ futex_pi_owner_died, "futex_pi_owner_died" },
	{ robust_list_hostile, "robust_list_hostile" },
	{ NULL, NULL },
};
