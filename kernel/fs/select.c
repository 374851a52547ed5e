/*
 * kernel/fs/select.c - poll, ppoll, select and pselect6 (both time ABIs).
 *
 * Step by step Linux's fs/select.c (2.6.35), on Granule's files:
 *
 *  - the arguments are read first: nfds > RLIMIT_NOFILE is -EINVAL (poll),
 *    n < 0 is -EINVAL and n is cut to the fd table's size (select), an
 *    unreadable array, bitmap, timeout or sigmask is -EFAULT, a timeout
 *    with tv_nsec outside [0, 1e9) or a negative second is -EINVAL;
 *  - then one pass over the files asks each ->poll (kernel/fs/poll.c) what
 *    is ready, registering the caller on its wait queues; if nothing is,
 *    the caller sleeps until a queue is woken, the timeout's hrtimer fires
 *    or a signal comes, and looks again;
 *  - poll: a negative fd is skipped (revents 0), a closed one reports
 *    POLLNVAL; revents = ready & (events | POLLERR | POLLHUP); the result
 *    is how many entries have revents != 0.  select: a set bit for a closed
 *    fd is -EBADF; the result is how many bits are set in the three sets.
 *  - a signal ends a call that found nothing: -ERESTARTNOHAND, which is
 *    restarted when no handler runs and is -EINTR when one does.  ppoll,
 *    pselect6 and select write the time left back to their timeout first
 *    (a zero timeout is left alone), so a restart waits only what is left.
 *
 * Deliberate difference: Linux restarts an interrupted poll() with the time
 * that was left (restart_block, -ERESTART_RESTARTBLOCK); here it restarts
 * with the timeout it was given, since poll's millisecond argument cannot
 * be updated and Granule has no restart_syscall.
 *
 * Time is sched_clock() ns (CLOCK_MONOTONIC), as Linux's ktime_get_ts.
 */
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/kmalloc.h>
#include <kernel/file.h>
#include <kernel/hrtimer.h>
#include <kernel/poll.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/uaccess.h>
#include <arch/irqflags.h>

struct pollfd { s32 fd; s16 events, revents; };
struct timeval32 { s32 tv_sec, tv_usec; };

#define NO_TIMEOUT	(~0ull)		/* deadline of a call without a timeout */

/* Linux's select event classes (fs/select.c). */
#define POLLIN_SET	(POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET	(POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET	(POLLPRI)

/* ---- timeouts ---- */

/* A relative timeout of NS -> absolute deadline (saturating); 0 stays 0
 * ("do not sleep"). */
static u64 deadline_after(u64 ns)
{
	u64 now = sched_clock();

	if (!ns)
		return 0;
	return ns > NO_TIMEOUT - 1 - now ? NO_TIMEOUT - 1 : now + ns;
}

static u64 time_left(u64 deadline)
{
	u64 now = sched_clock();

	return deadline > now ? deadline - now : 0;
}

/*
 * The loop shared by poll and select: SCAN(arg, pt) looks at every file
 * (registering on their queues while PT is not NULL) and returns how many
 * are ready, or < 0.  Returns the count, 0 at the deadline, -ENOMEM if a
 * wait entry could not be had and nothing is ready, or -EINTR.
 */
static long poll_loop(long (*scan)(void *arg, struct poll_table *pt), void *arg, u64 deadline)
{
	struct poll_table table;
	struct poll_table *pt = &table;
	struct hrtimer_sleeper timer;
	unsigned long flags;
	int timed_out = deadline == 0;
	long count;

	poll_initwait(&table);
	hrtimer_init_sleeper(&timer, current);
	if (timed_out)
		pt = NULL;	/* a zero timeout only looks */
	else if (deadline != NO_TIMEOUT)
		hrtimer_start(&timer.timer, deadline);
	for (;;) {
		count = scan(arg, pt);
		pt = NULL;	/* registered on every queue once */
		if (!count) {
			count = table.error;
			if (signal_pending(current))
				count = -EINTR;
		}
		if (count || timed_out)
			break;
		local_irq_save(flags);
		if (!table.triggered && !timer.expired && !signal_pending(current)) {
			current->state = TASK_INTERRUPTIBLE;
			schedule();
		}
		local_irq_restore(flags);
		table.triggered = 0;
		if (timer.expired)
			timed_out = 1;
	}
	hrtimer_cancel(&timer.timer);
	poll_freewait(&table);
	return count;
}

/* ---- poll ---- */

struct poll_args {
	struct pollfd *fds;
	u32 nfds;
};

static long poll_scan(void *arg, struct poll_table *pt)
{
	struct poll_args *a = arg;
	long count = 0;
	u32 i;

	for (i = 0; i < a->nfds; i++) {
		struct pollfd *p = &a->fds[i];
		struct file *f;
		unsigned mask = 0;

		if (p->fd >= 0) {
			f = fget(p->fd);
			mask = POLLNVAL;
			if (f)
				mask = file_poll(f, pt) & ((u16)p->events | POLLERR | POLLHUP);
		}
		p->revents = mask;
		if (mask) {
			count++;
			pt = NULL;	/* one ready file: no need to wait on more */
		}
	}
	return count;
}

/* poll's body: -EINVAL, -EFAULT, the count, or -EINTR. */
#define POLL_STACK_FDS	64	/* pollfds kept on the kernel stack; more are kmalloc'd */

static long do_sys_poll(struct pollfd *ufds, u32 nfds, u64 deadline)
{
	struct pollfd stack_fds[POLL_STACK_FDS], *fds = stack_fds;
	struct poll_args a = { fds, nfds };
	long ret;
	u32 i;

	if (nfds > task_rlimit(current, RLIMIT_NOFILE))
		return -EINVAL;
	if (nfds > POLL_STACK_FDS && !(fds = a.fds = kmalloc(nfds * sizeof(*fds))))
		return -ENOMEM;
	ret = nfds && copy_from_user(fds, ufds, nfds * sizeof(fds[0])) ? -EFAULT :
	      poll_loop(poll_scan, &a, deadline);
	for (i = 0; ret != -EFAULT && i < nfds; i++)
		if (copy_to_user(&ufds[i].revents, &fds[i].revents, sizeof(fds[i].revents)))
			ret = -EFAULT;
	if (fds != stack_fds)
		kfree(fds);
	return ret;
}

long sys_poll(struct pollfd *ufds, u32 nfds, int timeout_ms)
{
	u64 deadline = NO_TIMEOUT;
	long ret;

	if (timeout_ms >= 0)
		deadline = deadline_after((u64)timeout_ms * NSEC_PER_MSEC);
	ret = do_sys_poll(ufds, nfds, deadline);
	return ret == -EINTR ? -ERESTARTNOHAND : ret;
}

/* Write the time left back (Linux's poll_select_copy_remaining): nothing
 * for no timeout or a zero one; a fault is not an error (the call's result
 * stands) but the call then cannot be restarted. */
static long copy_remaining(void *utime, int kind, u64 deadline, long ret)
{
	u64 left;
	int fault;

	if (!utime || deadline == NO_TIMEOUT || deadline == 0)
		return ret;
	left = time_left(deadline);
	if (kind == 0) {
		struct timespec32 ts = ns_to_timespec(left);
		fault = copy_to_user(utime, &ts, sizeof(ts));
	} else if (kind == 1) {
		fault = put_timespec64(utime, left) != 0;
	} else {
		struct timespec32 ts = ns_to_timespec(left);
		struct timeval32 tv = { ts.tv_sec, ts.tv_nsec / 1000 };
		fault = copy_to_user(utime, &tv, sizeof(tv));
	}
	if (fault && ret == -ERESTARTNOHAND)
		ret = -EINTR;
	return ret;
}

/* The timeout of ppoll/pselect6: NULL = none; KIND 0 timespec32, 1 the
 * 64-bit one.  0, -EFAULT or -EINVAL. */
static long get_timeout(const void *utime, int kind, u64 *deadline)
{
	u64 ns;
	long err;

	*deadline = NO_TIMEOUT;
	if (!utime)
		return 0;
	err = kind ? get_timespec64(utime, &ns) : get_timespec(utime, &ns);
	if (err)
		return err;
	*deadline = deadline_after(ns);
	return 0;
}

/* The temporary mask of ppoll/pselect6: NULL = none.  0, -EINVAL, -EFAULT. */
static long get_sigmask(const u64 *umask, u32 size, u64 *mask)
{
	if (!umask)
		return 0;
	if (size != sizeof(u64))
		return -EINVAL;
	return copy_from_user(mask, umask, sizeof(*mask)) ? -EFAULT : 0;
}

static long do_ppoll(struct pollfd *ufds, u32 nfds, void *utime, int kind,
		     const u64 *umask, u32 size)
{
	u64 deadline, mask;
	long ret;

	if ((ret = get_timeout(utime, kind, &deadline)) || (ret = get_sigmask(umask, size, &mask)))
		return ret;
	if (umask)
		set_temporary_sigmask(mask);
	ret = do_sys_poll(ufds, nfds, deadline);
	if (umask)
		end_temporary_sigmask(ret == -EINTR);
	if (ret == -EINTR)
		ret = -ERESTARTNOHAND;
	return copy_remaining(utime, kind, deadline, ret);
}

long sys_ppoll(struct pollfd *ufds, u32 nfds, const struct timespec32 *tsp, const u64 *sigmask, u32 size)
{
	return do_ppoll(ufds, nfds, (void *)tsp, 0, sigmask, size);
}

long sys_ppoll_time64(struct pollfd *ufds, u32 nfds, const struct kernel_timespec *tsp,
		      const u64 *sigmask, u32 size)
{
	return do_ppoll(ufds, nfds, (void *)tsp, 1, sigmask, size);
}

/* ---- select ---- */

#define FDS_WORDS	(NR_OPEN / 32)	/* an fd_set: FD_SETSIZE = 1024 bits */

/* The caller's sets and the results, IN/OUT/EX each FDS_WORDS words. */
struct select_args {
	int n;
	u32 set[3][FDS_WORDS];
	u32 res[3][FDS_WORDS];
};

static const unsigned select_mask[3] = { POLLIN_SET, POLLOUT_SET, POLLEX_SET };

static long select_scan(void *arg, struct poll_table *pt)
{
	struct select_args *a = arg;
	long count = 0;

	memset(a->res, 0, sizeof(a->res));
	for (int fd = 0; fd < a->n; fd++) {
		u32 w = fd / 32, bit = 1u << (fd % 32);
		struct file *f;
		unsigned mask;

		if (!((a->set[0][w] | a->set[1][w] | a->set[2][w]) & bit) || !(f = fget(fd)))
			continue;	/* (closed by another thread meanwhile: skipped) */
		mask = file_poll(f, pt);
		for (int k = 0; k < 3; k++)
			if ((a->set[k][w] & bit) && (mask & select_mask[k])) {
				a->res[k][w] |= bit;
				count++;
				pt = NULL;
			}
	}
	return count;
}

/* One fd_set of N bits from user memory (NULL: empty).  Whole 32-bit
 * words are read, as Linux's get_fd_set reads FDS_BYTES(n). */
static int get_fd_set(int n, const u32 *uset, u32 *set)
{
	u32 nwords = (n + 31) / 32;

	memset(set, 0, FDS_WORDS * 4);
	if (!uset)
		return 0;
	if (copy_from_user(set, uset, nwords * 4))
		return -EFAULT;
	if (n % 32)
		set[nwords - 1] &= (1u << (n % 32)) - 1;
	return 0;
}

static int set_fd_set(int n, u32 *uset, const u32 *set)
{
	if (!uset)
		return 0;
	return copy_to_user(uset, set, ((n + 31) / 32) * 4) ? -EFAULT : 0;
}

/* Linux's core_sys_select: -EINVAL, -EFAULT, -EBADF, the count, or
 * -ERESTARTNOHAND. */
static long core_sys_select(int n, u32 *inp, u32 *outp, u32 *exp, u64 deadline)
{
	struct select_args *a;
	long ret = 0;
	int fd;

	if (n < 0)
		return -EINVAL;
	if (current->files && n > current->files->max_fds)
		n = current->files->max_fds;	/* the fd table's size now, as Linux's max_fds */
	if (!(a = kmalloc(sizeof(*a))))	/* 768 bytes: not on the kernel stack */
		return -ENOMEM;
	a->n = n;
	if (get_fd_set(n, inp, a->set[0]) || get_fd_set(n, outp, a->set[1]) ||
	    get_fd_set(n, exp, a->set[2]))
		ret = -EFAULT;
	for (fd = 0; !ret && fd < n; fd++)
		if (((a->set[0][fd / 32] | a->set[1][fd / 32] | a->set[2][fd / 32]) >> (fd % 32) & 1) &&
		    !fget(fd))
			ret = -EBADF;
	if (!ret)
		ret = poll_loop(select_scan, a, deadline);
	if (ret == -EINTR)
		ret = -ERESTARTNOHAND;
	if ((ret >= 0 || ret == -ERESTARTNOHAND) &&
	    (set_fd_set(n, inp, a->res[0]) || set_fd_set(n, outp, a->res[1]) ||
	     set_fd_set(n, exp, a->res[2])))
		ret = -EFAULT;
	kfree(a);
	return ret;
}

long sys_select(int n, u32 *inp, u32 *outp, u32 *exp, void *utv)
{
	u64 deadline = NO_TIMEOUT;
	long ret;

	if (utv) {
		struct timeval32 tv;
		s64 sec, nsec;
		if (copy_from_user(&tv, utv, sizeof(tv)))
			return -EFAULT;
		/* Linux: sec + usec / 1e6 and (usec % 1e6) * 1000 must make a
		 * valid timespec. */
		sec = (s64)tv.tv_sec + tv.tv_usec / 1000000;
		nsec = (s64)(tv.tv_usec % 1000000) * 1000;
		if (sec < 0 || nsec < 0)
			return -EINVAL;
		deadline = deadline_after((u64)sec * NSEC_PER_SEC + (u64)nsec);
	}
	ret = core_sys_select(n, inp, outp, exp, deadline);
	return copy_remaining(utv, 2, deadline, ret);
}

/* pselect6's sixth argument: { const sigset_t *ss; size_t ss_len; }. */
static long do_pselect(int n, u32 *inp, u32 *outp, u32 *exp, void *utime, int kind, const void *usig)
{
	u32 sig[2] = { 0, 0 };
	u64 deadline, mask;
	const u64 *umask;
	long ret;

	if ((ret = get_timeout(utime, kind, &deadline)))
		return ret;
	if (usig && copy_from_user(sig, usig, sizeof(sig)))
		return -EFAULT;
	umask = (const u64 *)(unsigned long)sig[0];
	if ((ret = get_sigmask(umask, sig[1], &mask)))
		return ret;
	if (umask)
		set_temporary_sigmask(mask);
	ret = core_sys_select(n, inp, outp, exp, deadline);
	ret = copy_remaining(utime, kind, deadline, ret);
	if (umask)
		end_temporary_sigmask(ret == -ERESTARTNOHAND);
	return ret;
}

long sys_pselect6(int n, u32 *inp, u32 *outp, u32 *exp, struct timespec32 *tsp, const void *sig)
{
	return do_pselect(n, inp, outp, exp, tsp, 0, sig);
}

long sys_pselect6_time64(int n, u32 *inp, u32 *outp, u32 *exp, struct kernel_timespec *tsp,
			 const void *sig)
{
	return do_pselect(n, inp, outp, exp, tsp, 1, sig);
}
