/*
 * user/bench/microbench.c - lmbench-style kernel microbenchmarks in virtual time.
 *
 *	microbench [-n LIST] [-s SCALE_LIST] [-w WINDOW_MS] [-q]
 *	microbench -x		(exit at once: the exec target)
 *
 * Under QEMU -icount shift=0 one guest instruction takes 1 virtual ns, so
 * every time below is also an instruction count (the "instr" column);
 * under plain TCG, KVM or on Linux the ns are real and "instr" is not.
 *
 * Operations (ns per operation = elapsed CLOCK_MONOTONIC / count):
 *   null syscall          getppid(), raw int 0x80
 *   clock_gettime         CLOCK_MONOTONIC
 *   ctxsw 2 procs yield   two processes calling sched_yield() in a loop;
 *			   per context switch = elapsed / switches, the switch
 *			   count from granule_sched_params' nr_switches (a yield
 *			   does not always switch: CFS re-picks the caller when
 *			   it is still leftmost); includes one yield syscall
 *   fork+exit+wait        fork, child _exit(0), parent waitpid
 *   fork+exec+exit+wait   as above, the child execs "microbench -x"
 *   thread create+join    thread_create + thread_join of an empty thread
 *   pipe ping-pong        two processes pass a one-byte token over two
 *			   pipes (lat_ctx / perf bench sched pipe): per
 *			   switch = elapsed / (2 x round trips); includes a
 *			   read and a write system call per switch
 *   timer wake late       a one-shot CLOCK_MONOTONIC POSIX timer
 *			   (SIGEV_SIGNAL, the signal blocked) armed 100 us
 *			   ahead with TIMER_ABSTIME, taken by sigwaitinfo;
 *			   late = clock read after the return - expiry time,
 *			   averaged over the wakes (the system is idle)
 * Scheduler scaling, for N in SCALE_LIST (default 1,10,100,1000):
 *   switch(N)  N processes in a sched_yield() ring: elapsed / switches
 *		while the parent yields ROUNDS times (N = 1: no switch, "-")
 *   tick(N)    the parent at nice -20 and N-1 spinners at nice 19: the
 *		parent reads the TSC in a tight loop; every gap between two
 *		reads that is longer than GAP_MIN and shorter than GAP_TICK
 *		is a timer interrupt that did not switch (a switch-out lasts
 *		at least one tick of another task).  Per tick = mean gap -
 *		the loop's own step.  Needs the TSC to count ns (icount).
 * N beyond what fork allows (TASK_MAX) is reported as skipped.
 * Last, the yield switch again with schedstats both ways
 * (/proc/sys/kernel/sched_schedstats written 1, then 0, then put back):
 * ctxsw_yield_schedstats_on_ns and _off_ns; Linux 6.1's figure was taken
 * with them off, its default.
 * Last line: RESULT {json} with every figure (ns; -1 = not measured), and
 * for each operation that has a Linux figure below, KEY_vs_linux: Granule's
 * ns divided by Linux's (0.5 = half Linux's cost).
 */
#include <errno.h>
#include <granule.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <gen/user_syscalls.h>

#define SCALE_MAX	8
#define GAP_MIN		300ULL		/* ns: longer than one loop step */
#define GAP_TICK	100000ULL	/* ns: shorter than any switch-out */
#define NR_FIELDS	16

static const char *prog = "microbench";
static int quiet;
static char params[1024];

/* ---- helpers ------------------------------------------------------------ */

static unsigned long long mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long)ts.tv_nsec;
}

static inline unsigned long long rdtsc(void)
{
	unsigned long long v;

	__asm__ __volatile__("rdtsc" : "=A"(v));
	return v;
}

/* The kernel's "key=value" text (granule_sched_params), refreshed. */
static const char *sched_params(void)
{
	if (sys_granule_sched_params((long)params, sizeof(params)) < 0)
		params[0] = '\0';
	return params;
}

/* Numeric value of KEY in the text, or -1. */
static long long param_num(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; *l; ) {
		if (!strncmp(l, key, kl) && l[kl] == '=')
			return strtoll(l + kl + 1, NULL, 0);
		l = strchr(l, '\n');
		if (!l)
			break;
		l++;
	}
	return -1;
}

static void param_str(const char *key, char *out, size_t len)
{
	size_t kl = strlen(key), i = 0;
	const char *l = params;

	strncpy(out, "unknown", len);
	while (l && *l) {
		if (!strncmp(l, key, kl) && l[kl] == '=') {
			for (l += kl + 1; *l && *l != '\n' && i + 1 < len; l++)
				out[i++] = *l;
			out[i] = '\0';
			return;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
}

static long long nr_switches(void)
{
	return param_num(sched_params(), "nr_switches");
}

/* ---- results --------------------------------------------------------------- */

struct result {
	char key[32];		/* JSON name */
	char label[40];		/* table label */
	unsigned long long n;	/* operations timed */
	long long ns10;		/* ns per op x 10; -1 = not measured */
	char note[48];
};

static struct result res[NR_FIELDS + 2 * SCALE_MAX];
static int nres;

static void report(const char *key, const char *label, unsigned long long n,
		   long long ns10, const char *note)
{
	struct result *r = &res[nres++];

	strncpy(r->key, key, sizeof(r->key) - 1);
	strncpy(r->label, label, sizeof(r->label) - 1);
	strncpy(r->note, note ? note : "", sizeof(r->note) - 1);
	r->n = n;
	r->ns10 = ns10;
}

/* elapsed / n in tenths of a ns */
static long long per10(unsigned long long elapsed, unsigned long long n)
{
	return n ? (long long)((elapsed * 10 + n / 2) / n) : -1;
}

/*
 * Linux 6.1 (Debian's kernel, mitigations=off, HZ=250, glibc's vDSO
 * clock_gettime) running the same operations under the same QEMU -icount
 * shift=0, in instructions: the reference docs/FASTPATHS.md compares with.
 */
static const struct { const char *key; long long ns; } linux_ns[] = {
	{ "null_syscall_ns", 338 },	{ "clock_gettime_ns", 74 },
	{ "ctxsw_yield_ns", 2159 },	{ "fork_ns", 157508 },
	{ "fork_exec_ns", 255086 },	{ "thread_ns", 48499 },
	{ "pipe_pingpong_ns", 6489 },	{ "timer_wake_late_ns", 4416 },
	{ "ctxsw_yield_schedstats_off_ns", 2159 },
};

static long long linux_figure(const char *key)
{
	for (unsigned i = 0; i < sizeof(linux_ns) / sizeof(linux_ns[0]); i++)
		if (!strcmp(linux_ns[i].key, key))
			return linux_ns[i].ns;
	return -1;
}

/* Granule / Linux in thousandths, or -1. */
static long long ratio1000(const struct result *r)
{
	long long l = linux_figure(r->key);

	return l > 0 && r->ns10 >= 0 ? (r->ns10 * 100 + l / 2) / l : -1;
}

/* ---- the operations ------------------------------------------------------------ */

/*
 * The two tight loops are functions of their own (noinline), so their
 * few instructions of loop overhead, part of each figure, keep one shape
 * whatever main() around them becomes (inlined, a growing main() moved
 * clock_gettime_ns from 73.1 to 75.1 through its register allocation).
 */
static __attribute__((__noinline__)) void bench_null_syscall(unsigned long long n)
{
	unsigned long long t0 = mono();

	for (unsigned long long i = 0; i < n; i++)
		sys_getppid();
	report("null_syscall_ns", "null syscall (getppid)", n, per10(mono() - t0, n), NULL);
}

static __attribute__((__noinline__)) void bench_clock(unsigned long long n)
{
	unsigned long long t0 = mono();

	for (unsigned long long i = 0; i < n; i++)
		mono();
	report("clock_gettime_ns", "clock_gettime(MONOTONIC)", n, per10(mono() - t0, n), NULL);
}

/* Kill and reap the PIDS[0..n). */
static void reap(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
}

/*
 * Fork N children running FN (which never returns); the pids go to PIDS.
 * The parent forks at nice -20 and each child first renices itself to 19,
 * so that N busy children hardly slow the forking down (weight 88761
 * against 15 each).  Returns how many were made; the parent stays at -20.
 */
static int spawn(pid_t *pids, int n, void (*fn)(void))
{
	int made = 0;

	setpriority(PRIO_PROCESS, 0, -20);
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0)
			break;
		if (p == 0) {
			setpriority(PRIO_PROCESS, 0, 19);
			fn();
		}
		pids[made++] = p;
	}
	return made;
}

static void yield_forever(void)
{
	for (;;)
		sched_yield();
}

static void spin_forever(void)
{
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * The parent yields ROUNDS times while the others yield too; returns the
 * ns per context switch x 10 (-1 if nothing switched) and the switch
 * count in *SW.
 */
static long long yield_ring(unsigned long long rounds, long long *sw)
{
	long long s0, s1;
	unsigned long long t0, t1;

	setpriority(PRIO_PROCESS, 0, 19);	/* the ring's weight: all equal */
	sched_yield();			/* let the ring settle */
	s0 = nr_switches();
	t0 = mono();
	for (unsigned long long i = 0; i < rounds; i++)
		sched_yield();
	t1 = mono();
	s1 = nr_switches();
	*sw = s0 < 0 ? -1 : s1 - s0;
	setpriority(PRIO_PROCESS, 0, 0);
	return *sw > 0 ? per10(t1 - t0, (unsigned long long)*sw) : -1;
}

static void bench_ctxsw(unsigned long long rounds)
{
	pid_t pid;
	long long sw, ns10;
	char note[48];

	if (spawn(&pid, 1, yield_forever) != 1) {
		report("ctxsw_yield_ns", "ctxsw 2 procs (sched_yield)", 0, -1, "fork failed");
		return;
	}
	ns10 = yield_ring(rounds, &sw);
	reap(&pid, 1);
	snprintf(note, sizeof(note), "%lld switches / %llu yields", sw, rounds);
	report("ctxsw_yield_ns", "ctxsw 2 procs (sched_yield)", sw > 0 ? (unsigned long long)sw : 0,
	       ns10, note);
}

#define SCHEDSTATS_FILE	"/proc/sys/kernel/sched_schedstats"

/* Write "0" or "1" (ON) to SCHEDSTATS_FILE; the old value ('0'/'1'), or -1. */
static int set_schedstats(int on)
{
	char old[4] = "", val = on ? '1' : '0';
	long fd = sys_open((long)SCHEDSTATS_FILE, 0 /* O_RDONLY */, 0);

	if (fd < 0)
		return -1;
	sys_read(fd, (long)old, 1);
	sys_close(fd);
	fd = sys_open((long)SCHEDSTATS_FILE, 1 /* O_WRONLY */, 0);
	if (fd < 0 || sys_write(fd, (long)&val, 1) != 1)
		return -1;
	sys_close(fd);
	return old[0];
}

/* The yield switch with schedstats on, then off; then as they were. */
static void bench_ctxsw_schedstats(unsigned long long rounds)
{
	static const char *const key[2] = { "ctxsw_yield_schedstats_off_ns",
					    "ctxsw_yield_schedstats_on_ns" };
	static const char *const label[2] = { "ctxsw 2 procs, schedstats off",
					      "ctxsw 2 procs, schedstats on" };
	int old = -1;

	for (int on = 1; on >= 0; on--) {
		pid_t pid;
		long long sw, ns10;
		int was = set_schedstats(on);

		if (was < 0) {
			report(key[on], label[on], 0, -1, "no " SCHEDSTATS_FILE);
			continue;
		}
		if (old < 0)
			old = was;
		if (spawn(&pid, 1, yield_forever) != 1) {
			report(key[on], label[on], 0, -1, "fork failed");
			continue;
		}
		ns10 = yield_ring(rounds, &sw);
		reap(&pid, 1);
		report(key[on], label[on], sw > 0 ? (unsigned long long)sw : 0, ns10, "");
	}
	if (old >= 0)
		set_schedstats(old == '1');
}

static void bench_fork(unsigned long long n, int do_exec)
{
	char *const argv[] = { (char *)prog, "-x", NULL };
	unsigned long long t0 = mono(), done = 0;

	for (unsigned long long i = 0; i < n; i++) {
		pid_t p = fork();
		int status;

		if (p < 0)
			break;
		if (p == 0) {
			if (do_exec)
				execv(prog, argv);
			_exit(0);
		}
		if (waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status))
			break;
		done++;
	}
	if (do_exec)
		report("fork_exec_ns", "fork+exec+exit+wait", done, per10(mono() - t0, done),
		       done < n ? "failed" : NULL);
	else
		report("fork_ns", "fork+exit+wait", done, per10(mono() - t0, done),
		       done < n ? "failed" : NULL);
}

static void *empty_thread(void *arg)
{
	return arg;
}

static void bench_thread(unsigned long long n)
{
	unsigned long long t0 = mono(), done = 0;

	for (unsigned long long i = 0; i < n; i++) {
		thread_t t;

		if (thread_create(&t, empty_thread, NULL) < 0 || thread_join(t, NULL) < 0)
			break;
		done++;
	}
	report("thread_ns", "thread create+join", done, per10(mono() - t0, done),
	       done < n ? "failed" : NULL);
}

/*
 * Pipe ping-pong: the parent writes a byte into TO, the child reads it and
 * writes it back into FROM, ROUNDS times.  Each round trip is two switches
 * (the reader of each pipe is asleep when the byte arrives).
 */
static void bench_pipe(unsigned long long rounds)
{
	int to[2], from[2];
	unsigned long long t0, t1, done = 0;
	char c = 'x';
	pid_t pid;

	if (sys_pipe((long)to) < 0 || sys_pipe((long)from) < 0) {
		report("pipe_pingpong_ns", "pipe ping-pong, per switch", 0, -1, "pipe failed");
		return;
	}
	pid = fork();
	if (pid == 0) {
		sys_close(to[1]);		/* so the parent's close is EOF */
		sys_close(from[0]);
		for (;;) {
			if (sys_read(to[0], (long)&c, 1) != 1)
				_exit(0);		/* EOF: the parent is done */
			if (sys_write(from[1], (long)&c, 1) != 1)
				_exit(1);
		}
	}
	sys_close(to[0]);
	sys_close(from[1]);
	if (pid < 0) {
		report("pipe_pingpong_ns", "pipe ping-pong, per switch", 0, -1, "fork failed");
		sys_close(to[1]);
		sys_close(from[0]);
		return;
	}
	/* one round first, so both sides are in their loops */
	if (sys_write(to[1], (long)&c, 1) == 1 && sys_read(from[0], (long)&c, 1) == 1) {
		t0 = mono();
		for (; done < rounds; done++)
			if (sys_write(to[1], (long)&c, 1) != 1 || sys_read(from[0], (long)&c, 1) != 1)
				break;
		t1 = mono();
	} else {
		t0 = t1 = 0;
	}
	sys_close(to[1]);
	sys_close(from[0]);
	waitpid(pid, NULL, 0);
	report("pipe_pingpong_ns", "pipe ping-pong, per switch", 2 * done,
	       per10(t1 - t0, 2 * done), done < rounds ? "failed" : NULL);
}

/*
 * One-shot timer wake: N times, arm a CLOCK_MONOTONIC timer (SIGEV_SIGNAL,
 * SIGRTMIN+1 blocked) for T = now + 100 us with TIMER_ABSTIME, wait in
 * sigwaitinfo and read the clock: late = now - T.  Reports the mean.
 */
#define WAKE_AHEAD_NS	100000ULL

static void bench_timer_wake(unsigned long long n)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 1 };
	unsigned long long late = 0, done = 0;
	sigset_t set, old;
	timer_t id;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (timer_create(CLOCK_MONOTONIC, &sev, &id) < 0) {
		report("timer_wake_late_ns", "timer 100us -> sigwaitinfo, late", 0, -1,
		       "timer_create failed");
		sigprocmask(SIG_SETMASK, &old, NULL);
		return;
	}
	for (; done < n; done++) {
		unsigned long long due = mono() + WAKE_AHEAD_NS, now;
		struct itimerspec its = { { 0, 0 }, { (time_t)(due / 1000000000ULL),
						     (long)(due % 1000000000ULL) } };
		siginfo_t si;

		if (timer_settime(id, TIMER_ABSTIME, &its, NULL) < 0 ||
		    sigwaitinfo(&set, &si) != SIGRTMIN + 1)
			break;
		now = mono();
		late += now - due;
	}
	timer_delete(id);
	sigprocmask(SIG_SETMASK, &old, NULL);
	report("timer_wake_late_ns", "timer 100us -> sigwaitinfo, late", done, per10(late, done),
	       done < n ? "failed" : NULL);
}

/*
 * tick(N): the parent (nice -20) reads the TSC for WINDOW ns of TSC time;
 * returns the mean interrupt gap minus the loop step, x 10, and the number
 * of gaps in *NG.  The TSC is taken to count ns (true under icount).
 */
static long long tick_cost(unsigned long long window, unsigned long long *ng)
{
	unsigned long long start, last, now, step = ~0ULL, sum = 0, n = 0;

	setpriority(PRIO_PROCESS, 0, -20);	/* (spawn() left it there) */
	start = last = rdtsc();
	do {
		unsigned long long d;

		now = rdtsc();
		d = now - last;
		if (d < step)
			step = d;
		if (d > GAP_MIN && d < GAP_TICK) {
			sum += d;
			n++;
		}
		last = now;
	} while (now - start < window);
	setpriority(PRIO_PROCESS, 0, 0);
	*ng = n;
	return n ? (long long)(((sum - n * step) * 10 + n / 2) / n) : -1;
}

static void bench_scale(int n, unsigned long long window_ns)
{
	static pid_t pids[1024];
	char key[32], label[40], note[48];
	long long sw, ns10;
	unsigned long long ng;
	int made;

	/* switch(N): N-1 yielders and the parent */
	made = spawn(pids, n - 1, yield_forever);
	snprintf(key, sizeof(key), "switch_%d_ns", n);
	snprintf(label, sizeof(label), "ctxsw, %d runnable (yield ring)", n);
	if (made < n - 1) {
		reap(pids, made);
		setpriority(PRIO_PROCESS, 0, 0);
		snprintf(note, sizeof(note), "skipped: fork failed after %d", made);
		report(key, label, 0, -1, note);
		snprintf(key, sizeof(key), "tick_%d_ns", n);
		snprintf(label, sizeof(label), "tick, %d runnable", n);
		report(key, label, 0, -1, note);
		return;
	}
	if (n > 1) {
		ns10 = yield_ring((unsigned long long)(200 + 20000 / n), &sw);
		snprintf(note, sizeof(note), "%lld switches", sw);
		report(key, label, sw > 0 ? (unsigned long long)sw : 0, ns10, note);
	} else {
		report(key, label, 0, -1, "no other task");
	}
	reap(pids, made);

	/* tick(N): N-1 nice-19 spinners and the parent at nice -20 */
	made = spawn(pids, n - 1, spin_forever);
	snprintf(key, sizeof(key), "tick_%d_ns", n);
	snprintf(label, sizeof(label), "tick, %d runnable", n);
	if (made < n - 1) {
		snprintf(note, sizeof(note), "skipped: fork failed after %d", made);
		report(key, label, 0, -1, note);
	} else {
		ns10 = tick_cost(window_ns, &ng);
		snprintf(note, sizeof(note), "%llu ticks seen", ng);
		report(key, label, ng, ns10, note);
	}
	reap(pids, made);
	setpriority(PRIO_PROCESS, 0, 0);
}

/* ---- main ------------------------------------------------------------------- */

static int parse_list(const char *s, int *out, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || v < 1 || v > 1024)
			return -1;
		out[n++] = (int)v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

static void usage(void)
{
	printf("usage: microbench [-n ITER_SCALE] [-s 1,10,100,1000] [-w WINDOW_MS] [-q]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: microbench [-n ITER_SCALE] [-s 1,10,100,1000] [-w WINDOW_MS] [-q]\nThe kernel's fast paths in virtual ns (docs/FASTPATHS.md).\n");
	int scale[SCALE_MAX] = { 1, 10, 100, 1000 }, nscale = 4, c;
	unsigned long long k = 1, window_ms = 100;
	static char line[4096];
	char preset[40];
	size_t len;

	if (argc > 0 && argv[0])
		prog = argv[0];
	if (argc == 2 && !strcmp(argv[1], "-x"))
		return 0;			/* the exec target */
	while ((c = getopt(argc, argv, "n:s:w:q")) != -1) {
		switch (c) {
		case 'n': k = strtoul(optarg, NULL, 0); break;
		case 's':
			nscale = parse_list(optarg, scale, SCALE_MAX);
			if (nscale < 0)
				usage();
			break;
		case 'w': window_ms = strtoul(optarg, NULL, 0); break;
		case 'q': quiet = 1; break;
		default: usage();
		}
	}
	if (!k || !window_ms)
		usage();

	sched_params();
	param_str("sched_preset", preset, sizeof(preset));

	bench_null_syscall(10000 * k);
	bench_clock(10000 * k);
	bench_ctxsw(1000 * k);
	bench_fork(50 * k, 0);
	bench_fork(20 * k, 1);
	bench_thread(50 * k);
	bench_pipe(1000 * k);
	bench_timer_wake(100 * k);
	for (int i = 0; i < nscale; i++)
		bench_scale(scale[i], window_ms * 1000000ULL);
	bench_ctxsw_schedstats(1000 * k);	/* last: the rows above keep their timing */

	if (!quiet) {
		printf("microbench: preset %s, HZ %lld; under -icount shift=0 1 ns = 1 instruction\n",
		       preset, param_num(params, "hz"));
		printf("%-34s %8s %12s %12s %10s %7s  %s\n", "operation", "count", "ns/op", "instr",
		       "Linux 6.1", "x Linux", "note");
		for (int i = 0; i < nres; i++) {
			struct result *r = &res[i];
			long long l = linux_figure(r->key), q = ratio1000(r);
			char lin[16] = "-", rat[16] = "-";

			if (l > 0)
				snprintf(lin, sizeof(lin), "%lld", l);
			if (q >= 0)
				snprintf(rat, sizeof(rat), "%lld.%03lld", q / 1000, q % 1000);
			if (r->ns10 < 0)
				printf("%-34s %8llu %12s %12s %10s %7s  %s\n", r->label, r->n, "-", "-",
				       lin, rat, r->note);
			else
				printf("%-34s %8llu %10lld.%01lld %12lld %10s %7s  %s\n", r->label, r->n,
				       r->ns10 / 10, r->ns10 % 10, (r->ns10 + 5) / 10, lin, rat, r->note);
		}
	}

	len = (size_t)snprintf(line, sizeof(line),
			       "RESULT {\"bench\":\"microbench\",\"preset\":\"%s\",\"hz\":%lld",
			       preset, param_num(params, "hz"));
	for (int i = 0; i < nres && len < sizeof(line); i++) {
		struct result *r = &res[i];

		if (r->ns10 < 0)
			len += (size_t)snprintf(line + len, sizeof(line) - len, ",\"%s\":-1", r->key);
		else
			len += (size_t)snprintf(line + len, sizeof(line) - len, ",\"%s\":%lld.%01lld",
						r->key, r->ns10 / 10, r->ns10 % 10);
	}
	for (int i = 0; i < nres && len < sizeof(line); i++) {
		long long q = ratio1000(&res[i]);
		size_t kl = strlen(res[i].key) - 3;	/* without "_ns" */

		if (q >= 0)
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						",\"%.*s_vs_linux\":%lld.%03lld", (int)kl, res[i].key,
						q / 1000, q % 1000);
	}
	if (len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, "}\n");
	printf("%s", line);
	return 0;
}
