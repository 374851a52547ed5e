/*
 * user/tests/ut_tls.c - usertests: thread-local storage the Linux i386 way.
 *
 * set_thread_area (243) / get_thread_area (244) on GDT TLS entries, the
 * libc's per-thread errno behind %gs (user/lib/tls.c), %fs/%gs surviving
 * syscalls, signal handlers, context switches and fork, selectors from a
 * sigcontext that do not load on the way back to user mode (Linux 2.6.35:
 * a data selector is silently nulled, the others kept; a bad cs/ss is
 * SIGILL), and clone(CLONE_SETTLS) with a bad user_desc (fails, creates
 * nothing).
 *
 * On Granule the TLS entries are 6..8 and libc takes the first for %gs;
 * the tests use the two others through %fs.
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <thread.h>
#include <time.h>
#include <unistd.h>
#include "../lib/tls.h"
#include "ut.h"

#define TLS_MIN		6
#define TLS_MAX		8
#define SEL(idx)	(((unsigned)(idx) << 3) | 3)
#define USER_DS		0x23
#define L(x)		((long)(x))


static inline unsigned get_gs(void)
{
	unsigned v;
	__asm__ __volatile__("movl %%gs, %0" : "=r"(v));
	return v & 0xffff;
}

static inline unsigned get_fs(void)
{
	unsigned v;
	__asm__ __volatile__("movl %%fs, %0" : "=r"(v));
	return v & 0xffff;
}

static inline void set_gs(unsigned sel) { __asm__ __volatile__("movw %w0, %%gs" :: "r"(sel)); }
static inline void set_fs(unsigned sel) { __asm__ __volatile__("movw %w0, %%fs" :: "r"(sel)); }

static inline unsigned read_gs0(void)
{
	unsigned v;
	__asm__ __volatile__("movl %%gs:0, %0" : "=r"(v));
	return v;
}

static inline unsigned read_fs0(void)
{
	unsigned v;
	__asm__ __volatile__("movl %%fs:0, %0" : "=r"(v));
	return v;
}

/* A flat 4 GiB data segment based at BASE, in entry IDX (-1: any free). */
static void flat_desc(struct user_desc *u, int idx, const void *base)
{
	memset(u, 0, sizeof(*u));
	u->entry_number = (unsigned)idx;
	u->base_addr = (unsigned)base;
	u->limit = 0xfffff;
	u->seg_32bit = 1;
	u->limit_in_pages = 1;
}

/* Linux's LDT_empty pattern: clears entry IDX. */
static void empty_desc(struct user_desc *u, int idx)
{
	memset(u, 0, sizeof(*u));
	u->entry_number = (unsigned)idx;
	u->read_exec_only = 1;
	u->seg_not_present = 1;
}

/* A new TLS entry based at BASE; its number. */
static int new_area(const void *base)
{
	struct user_desc u;

	flat_desc(&u, -1, base);
	EXPECT_RET(sys_set_thread_area(L(&u)), 0);
	CHECK(u.entry_number >= TLS_MIN && u.entry_number <= TLS_MAX, "entry %u", u.entry_number);
	return (int)u.entry_number;
}

static void clear_area(int idx)
{
	struct user_desc u;

	empty_desc(&u, idx);
	EXPECT_RET(sys_set_thread_area(L(&u)), 0);
}


/* libc's own TLS, entry -1 picking, get == set, all three used -> ESRCH. */
static void tls_area(void)
{
	struct user_desc u, g, want;
	static unsigned blk[4] = { 0x600d };
	int a, b;

	CHECK(__tls_entry == TLS_MIN, "libc's TLS entry %d, expected %d", __tls_entry, TLS_MIN);
	CHECK(get_gs() == SEL(__tls_entry), "%%gs %#x", get_gs());
	struct tcb *self = (struct tcb *)read_gs0();
	CHECK(self && self->self == self, "%%gs:0 = %p is not a TCB", (void *)self);
	errno = 1234;
	CHECK(self->errno_val == 1234, "errno is not in the TCB");

	flat_desc(&u, -1, blk);
	EXPECT_RET(sys_set_thread_area(L(&u)), 0);
	a = (int)u.entry_number;
	CHECK(a == TLS_MIN + 1, "set_thread_area(-1) gave entry %d", a);
	memset(&g, 0xff, sizeof(g));
	g.entry_number = (unsigned)a;
	EXPECT_RET(sys_get_thread_area(L(&g)), 0);
	flat_desc(&want, a, blk);
	CHECK(!memcmp(&g, &want, sizeof(g)), "get_thread_area differs from what was set");
	b = new_area(blk + 1);
	CHECK(b == TLS_MAX, "second free entry %d", b);
	flat_desc(&u, -1, blk);
	EXPECT_RET(sys_set_thread_area(L(&u)), -ESRCH);

	set_fs(SEL(a));
	CHECK(read_fs0() == 0x600d, "%%fs:0 reads %#x", read_fs0());
	set_fs(SEL(b));
	CHECK(read_fs0() == 0, "%%fs:0 (base blk+1) reads %#x", read_fs0());
	set_fs(0);

	clear_area(a);
	g.entry_number = (unsigned)a;
	EXPECT_RET(sys_get_thread_area(L(&g)), 0);
	empty_desc(&want, a);
	CHECK(!memcmp(&g, &want, sizeof(g)), "a cleared entry does not read back empty");
	CHECK(new_area(blk) == a, "the cleared entry is not the first free one again");
	clear_area(a);
	clear_area(b);
}

/* Bad pointers -> EFAULT, bad entries and segment kinds -> EINVAL. */
static void tls_badptr(void)
{
	static const struct user_desc ro = { .entry_number = (unsigned)-1, .base_addr = 0x1000,
					     .limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1 };
	struct user_desc u;

	EXPECT_RET(sys_set_thread_area(0), -EFAULT);
	EXPECT_RET(sys_set_thread_area(TASK_SIZE), -EFAULT);
	EXPECT_RET(sys_set_thread_area(TASK_SIZE - 8), -EFAULT);
	EXPECT_RET(sys_get_thread_area(0), -EFAULT);
	EXPECT_RET(sys_get_thread_area(TASK_SIZE), -EFAULT);
	/* entry -1 in read-only memory: the number cannot be written back */
	EXPECT_RET(sys_set_thread_area(L(&ro)), -EFAULT);
	CHECK(new_area(&u) == TLS_MIN + 1, "the failed call used up an entry");
	clear_area(TLS_MIN + 1);
	EXPECT_RET(sys_get_thread_area(L(&ro)), -EINVAL);	/* ro's entry is -1 */

	int bad[] = { 0, 5, TLS_MAX + 1, 12, -2 };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		flat_desc(&u, bad[i], &u);
		EXPECT_RET(sys_set_thread_area(L(&u)), -EINVAL);
		u.entry_number = (unsigned)bad[i];
		EXPECT_RET(sys_get_thread_area(L(&u)), -EINVAL);
	}
	u.entry_number = (unsigned)-1;
	EXPECT_RET(sys_get_thread_area(L(&u)), -EINVAL);
	/* what tls_desc_okay refuses: code, 16-bit, not-present segments */
	for (int c = 2; c <= 3; c++) {
		flat_desc(&u, TLS_MAX, &u);
		u.contents = c;
		EXPECT_RET(sys_set_thread_area(L(&u)), -EINVAL);
	}
	flat_desc(&u, TLS_MAX, &u);
	u.seg_32bit = 0;
	EXPECT_RET(sys_set_thread_area(L(&u)), -EINVAL);
	flat_desc(&u, TLS_MAX, &u);
	u.seg_not_present = 1;
	EXPECT_RET(sys_set_thread_area(L(&u)), -EINVAL);
	/* an expand-down read-only data segment is fine, and reads back */
	flat_desc(&u, TLS_MAX, &u);
	u.contents = 1;
	u.read_exec_only = 1;
	u.useable = 1;
	EXPECT_RET(sys_set_thread_area(L(&u)), 0);
	struct user_desc g = { .entry_number = TLS_MAX };
	EXPECT_RET(sys_get_thread_area(L(&g)), 0);
	CHECK(!memcmp(&g, &u, sizeof(g)), "expand-down read-only entry reads back differently");
	clear_area(TLS_MAX);
}

/* ---- per-thread errno ---- */

#define ERRNO_ROUNDS	300
static volatile int errno_bad;

static void *errno_worker(void *arg)
{
	int base = (int)(uintptr_t)arg;

	for (int i = 0; i < ERRNO_ROUNDS; i++) {
		errno = base + i;
		sched_yield();
		if (errno != base + i)
			errno_bad = base + i;
		/* a real failure sets this thread's errno only */
		if (base == 1000 ? write(-1, "", 0) != -1 || errno != EBADF
				 : kill(0x7fffffff, 0) != -1 || errno != ESRCH)
			errno_bad = -base;
		sched_yield();
	}
	return (void *)read_gs0();
}

static void tls_errno(void)
{
	thread_t t1, t2;
	void *tcb1, *tcb2;

	errno = 77;
	CHECK(thread_create(&t1, errno_worker, (void *)1000) == 0, "thread_create");
	CHECK(thread_create(&t2, errno_worker, (void *)5000000) == 0, "thread_create");
	for (int i = 0; i < ERRNO_ROUNDS; i++) {
		sched_yield();
		CHECK(errno == 77, "main thread's errno became %d", errno);
	}
	CHECK(thread_join(t1, &tcb1) == 0 && thread_join(t2, &tcb2) == 0, "join");
	CHECK(errno == 77, "main thread's errno became %d", errno);
	CHECK(!errno_bad, "a thread saw another's errno (%d)", errno_bad);
	CHECK(tcb1 && tcb2 && tcb1 != tcb2 && tcb1 != (void *)read_gs0(),
	      "threads' %%gs:0: %p %p, main %#x", tcb1, tcb2, read_gs0());
}

/* %gs (libc) and %fs (ours) across plain syscalls and sleeps. */
static void tls_syscall(void)
{
	static unsigned blk[1] = { 0x12345678 };
	unsigned gs = get_gs(), gs0 = read_gs0();
	int a = new_area(blk);

	set_fs(SEL(a));
	for (int i = 0; i < 50; i++) {
		getpid();
		if (i % 10 == 0)
			ut_sleep_ns(200000);
		CHECK(get_gs() == gs && read_gs0() == gs0, "%%gs changed across a syscall");
		CHECK(get_fs() == SEL(a) && read_fs0() == 0x12345678, "%%fs changed across a syscall");
	}
	set_fs(0);
	clear_area(a);
}

/* ---- signals ---- */

static volatile unsigned seen_gs, seen_gs0, new_gs;

static void gs_handler(int sig)
{
	seen_gs = get_gs();
	seen_gs0 = read_gs0();
	set_gs(USER_DS);	/* sigreturn must bring the old %gs back */
	set_fs(0);
}

static void gs_rt_handler(int sig, siginfo_t *info, void *uc)
{
	gs_handler(sig);
	if (new_gs)
		*(unsigned *)((char *)uc + 20) = new_gs;	/* uc_mcontext.gs */
}

static void tls_signal(void)
{
	static unsigned blk[1] = { 0xf5f5 };
	struct sigaction sa;
	unsigned gs = get_gs(), gs0 = read_gs0();
	int a = new_area(blk);

	set_fs(SEL(a));
	for (int rt = 0; rt < 2; rt++) {
		memset(&sa, 0, sizeof(sa));
		if (rt) {
			sa.sa_sigaction = gs_rt_handler;
			sa.sa_flags = SA_SIGINFO;
		} else {
			sa.sa_handler = gs_handler;
		}
		CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
		seen_gs = 0;
		kill(getpid(), SIGUSR1);
		CHECK(seen_gs == gs && seen_gs0 == gs0, "handler ran with %%gs %#x", seen_gs);
		CHECK(get_gs() == gs && read_gs0() == gs0, "%%gs %#x after sigreturn (rt %d)", get_gs(), rt);
		CHECK(get_fs() == SEL(a) && read_fs0() == 0xf5f5, "%%fs %#x after sigreturn", get_fs());
	}
	/* A valid selector written into the sigcontext is what we get back. */
	new_gs = SEL(a);
	kill(getpid(), SIGUSR1);
	CHECK(get_gs() == SEL(a) && read_gs0() == 0xf5f5, "%%gs %#x, not the sigcontext's", get_gs());
	set_gs(gs);
	new_gs = 0;
	set_fs(0);
	clear_area(a);
}

static void catch_exit(int sig)
{
	_exit(42);
}

#define CATCH_SIG	0x10000u	/* beyond a selector's 16 bits: catch SIGSEGV and SIGILL */

/*
 * Child: sigreturn to a sigcontext whose %gs (ARG) does not load.  Linux
 * 2.6.35 (and so Granule) nulls the selector on the way out, silently: no
 * signal (with CATCH_SIG, a SIGSEGV handler would exit 42), and we carry
 * on with %gs == 0.  Exit 3: %gs reads 0; 4: it reads something else.
 * No errno here: with %gs null, libc's errno (at %gs:0) would fault.
 */
static void bad_gs_child(uintptr_t arg)
{
	struct sigaction sa;

	if (arg & CATCH_SIG) {
		signal(SIGSEGV, catch_exit);
		arg &= ~CATCH_SIG;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = gs_rt_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	new_gs = (unsigned)arg;
	kill(getpid(), SIGUSR1);
	_exit(get_gs() == 0 ? 3 : 4);
}

static void expect_gs_nulled(uintptr_t arg, const char *what)
{
	int st = ut_run_child(bad_gs_child, arg);

	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3,
	      "%s: status %#x (exit 3: %%gs nulled; 4: not null; 42: SIGSEGV handler ran)", what, st);
}

static void tls_badgs(void)
{
	expect_gs_nulled(0xfff8, "gs 0xfff8 (beyond the GDT) in a sigcontext");
	expect_gs_nulled(SEL(TLS_MAX), "gs naming an empty TLS entry");
	expect_gs_nulled(0x28, "gs naming the TSS");
	expect_gs_nulled(0x13, "gs naming kernel data with RPL 3");
	/* RPL 0 (not forced to 3, as Linux): "pop gs" loads it in ring 0,
	 * the iret to ring 3 nulls it (DPL 0 < CPL 3). */
	expect_gs_nulled(0x10, "gs naming kernel data with RPL 0");
	expect_gs_nulled(0xfff8 | CATCH_SIG, "gs 0xfff8 with a SIGSEGV handler installed");
}

/* ---- other selectors in a sigcontext ---- */

/* i386 ucontext: uc_mcontext (struct sigcontext) at +20; its gs, fs, es, ds
 * at +0/+4/+8/+12, eip at +56, cs at +60, ss at +72. */
#define UC_GS	20
#define UC_FS	24
#define UC_ES	28
#define UC_DS	32
#define UC_EIP	76
#define UC_CS	80
#define UC_SS	92

static volatile unsigned patch_off[3], patch_val[3];	/* offset 0: unused */

static void patch_rt_handler(int sig, siginfo_t *info, void *uc)
{
	for (int i = 0; i < 3; i++)
		if (patch_off[i])
			*(unsigned *)((char *)uc + patch_off[i]) = patch_val[i];
}

static void set_patch(int i, unsigned off, unsigned val)
{
	patch_off[i] = off;
	patch_val[i] = val;
}

/* SIGUSR1 -> patch_rt_handler; with CATCH, SIGSEGV and SIGILL -> exit 42. */
static void patch_on_usr1(int catch)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = patch_rt_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	if (catch) {
		signal(SIGSEGV, catch_exit);
		signal(SIGILL, catch_exit);
	}
}

/*
 * Child: a garbage %fs in the sigcontext (ARG: with CATCH_SIG, a SIGSEGV
 * handler is installed, which used to lose %gs too).  After sigreturn %fs
 * is null and %gs still the libc TLS selector, errno works.  Exit 0: all
 * good; 5: %fs not null; 6: %gs changed; 7: %gs:0 changed; 8: errno.
 */
static void bad_fs_child(uintptr_t arg)
{
	static unsigned blk[1] = { 0xf00d };
	unsigned gs = get_gs(), gs0 = read_gs0();
	int a = new_area(blk);

	set_fs(SEL(a));		/* a valid %fs before the signal */
	patch_on_usr1(arg & CATCH_SIG);
	set_patch(0, UC_FS, (unsigned)arg & 0xffff);
	kill(getpid(), SIGUSR1);
	if (get_fs() != 0)
		_exit(5);
	if (get_gs() != gs)
		_exit(6);
	if (read_gs0() != gs0)
		_exit(7);
	errno = 4321;
	if (errno != 4321 || ((struct tcb *)read_gs0())->errno_val != 4321)
		_exit(8);
	errno = 0;
	_exit(0);
}

static void tls_badfs(void)
{
	static const unsigned bad[] = { 0xfff8, SEL(TLS_MAX), 0x28, 0x13, 0x10 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (unsigned c = 0; c < 2; c++) {
			int st = ut_run_child(bad_fs_child, bad[i] | (c ? CATCH_SIG : 0));
			CHECK(st == 0, "fs %#x in a sigcontext%s: status %#x (5: %%fs not null, 6/7: %%gs "
			      "lost, 8: errno, 42: SIGSEGV)", bad[i], c ? " (SIGSEGV caught)" : "", st);
		}
}

/*
 * ds_probe: sigreturn lands here (the sigcontext's eip).  Exit status
 * 3 + (ds | es): 3 when both were nulled.  ds/es are made flat again
 * first: nothing here touches memory before that.
 */
void ds_probe(void);
__asm__(".text\n"
	".globl ds_probe\n"
	"ds_probe:\n"
	"	xorl %ebx, %ebx\n"
	"	movw %ds, %bx\n"
	"	xorl %ecx, %ecx\n"
	"	movw %es, %cx\n"
	"	orl %ecx, %ebx\n"
	"	addl $3, %ebx\n"
	"	movl $0x23, %ecx\n"
	"	movw %cx, %ds\n"
	"	movw %cx, %es\n"
	"	movl $1, %eax\n"	/* __NR_exit */
	"	int $0x80\n"
	"	hlt\n");

/* Child: garbage %ds and %es (ARG) in the sigcontext, eip = ds_probe. */
static void bad_ds_child(uintptr_t arg)
{
	patch_on_usr1(1);
	set_patch(0, UC_DS, (unsigned)arg);
	set_patch(1, UC_ES, (unsigned)arg);
	set_patch(2, UC_EIP, (unsigned)(uintptr_t)ds_probe);
	kill(getpid(), SIGUSR1);
	_exit(4);		/* sigreturn did not go to ds_probe */
}

/* Child: a bad cs or ss (ARG: the sigcontext offset and the value). */
static void bad_cs_child(uintptr_t arg)
{
	patch_on_usr1(arg & CATCH_SIG);
	set_patch(0, (unsigned)(arg >> 24) & 0xff, (unsigned)arg & 0xffff);
	kill(getpid(), SIGUSR1);
	_exit(4);		/* must not get here */
}

#define CS_ARG(off, val)	(((uintptr_t)(off) << 24) | (val))

/*
 * Linux 2.6.35 restore_sigcontext: ds/es/fs/gs as saved, a data selector
 * that does not load is nulled (no signal); cs/ss with RPL 3 forced, one
 * the iret refuses is SIGILL (do_iret_error; a SIGILL handler runs).
 */
static void sig_badsegs(void)
{
	int st;

	st = ut_run_child(bad_ds_child, 0xfff8);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3,
	      "ds/es 0xfff8 in a sigcontext: status %#x (exit 3: both nulled)", st);
	st = ut_run_child(bad_ds_child, 0x10);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3,
	      "ds/es 0x10 (kernel data) in a sigcontext: status %#x (exit 3: both nulled)", st);
	ut_expect_killed(bad_cs_child, CS_ARG(UC_CS, USER_DS), SIGILL, "cs = user data in a sigcontext");
	ut_expect_killed(bad_cs_child, CS_ARG(UC_CS, 0x08), SIGILL, "cs = kernel code in a sigcontext");
	ut_expect_killed(bad_cs_child, CS_ARG(UC_SS, 0x1b), SIGILL, "ss = user code in a sigcontext");
	ut_expect_killed(bad_cs_child, CS_ARG(UC_SS, 0), SIGILL, "ss = null in a sigcontext");
	st = ut_run_child(bad_cs_child, CS_ARG(UC_CS, 0xfff8) | CATCH_SIG);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "bad cs: SIGILL handler not run: status %#x", st);
}

/*
 * LDT selectors (TI=1, bit 2).  There is no LDT and LDTR is null, so none
 * can be valid.  sigreturn refuses a TI=1 data selector (it comes back
 * null, no signal); a TI=1 cs or ss reaches the iret, which raises #GP:
 * SIGILL.  A TI=1 load in user mode is a plain #GP: SIGSEGV.  Before LDTR
 * was loaded, each of these read a "descriptor" at linear address 0 and
 * the kernel panicked on the NULL page in its return path.
 */
static void ldt_load_child(uintptr_t sel)
{
	__asm__ __volatile__("movw %w0, %%ds" :: "r"(sel) : "memory");
	_exit(4);		/* the load succeeded: there is an LDT */
}

static void sig_ldtsegs(void)
{
	static const unsigned ldt[] = { 0x04, 0x07, 0x0f, 0x1f, 0x27, 0xfffc, 0xffff };

	for (unsigned i = 0; i < sizeof(ldt) / sizeof(ldt[0]); i++) {
		unsigned sel = ldt[i];
		int st;

		expect_gs_nulled(sel, "gs naming the LDT in a sigcontext");
		expect_gs_nulled(sel | CATCH_SIG, "gs naming the LDT, SIGSEGV handler installed");
		st = ut_run_child(bad_fs_child, sel);
		CHECK(st == 0, "fs %#x (LDT) in a sigcontext: status %#x (5: %%fs not null)", sel, st);
		st = ut_run_child(bad_ds_child, sel);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3,
		      "ds/es %#x (LDT) in a sigcontext: status %#x (exit 3: both nulled)", sel, st);
		ut_expect_killed(bad_cs_child, CS_ARG(UC_CS, sel), SIGILL, "cs naming the LDT in a sigcontext");
		ut_expect_killed(bad_cs_child, CS_ARG(UC_SS, sel), SIGILL, "ss naming the LDT in a sigcontext");
		ut_expect_killed(ldt_load_child, sel, SIGSEGV, "a user load of an LDT selector");
	}
	int st = ut_run_child(bad_cs_child, CS_ARG(UC_CS, 0x0f) | CATCH_SIG);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "LDT cs: SIGILL handler not run: status %#x", st);
}

/* Clearing the entry %fs names makes %fs null (not a fault). */
static void tls_clear_loaded(void)
{
	static unsigned blk[1] = { 1 };
	int a = new_area(blk);

	set_fs(SEL(a));
	clear_area(a);
	CHECK(get_fs() == 0, "%%fs %#x after its entry was cleared", get_fs());
}

/* ---- context switches, fork, clone ---- */

static volatile int switch_bad;

static void *spin_check(void *arg)
{
	unsigned me = read_gs0(), fs_want = (unsigned)(uintptr_t)arg;
	struct timespec end, now;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += 20000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	do {
		for (int i = 0; i < 5000; i++)
			if (read_gs0() != me || (fs_want && read_fs0() != fs_want))
				switch_bad = 1;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	return NULL;
}

static void tls_switch(void)
{
	static unsigned blk[1] = { 0x5a5a };
	thread_t t[4];
	int a = new_area(blk);

	set_fs(SEL(a));		/* the threads inherit %fs and the entry */
	for (int i = 0; i < 4; i++)
		CHECK(thread_create(&t[i], spin_check, (void *)0x5a5a) == 0, "thread_create");
	spin_check((void *)0x5a5a);
	for (int i = 0; i < 4; i++)
		CHECK(thread_join(t[i], NULL) == 0, "join");
	CHECK(!switch_bad, "%%gs:0 or %%fs:0 changed across context switches");
	set_fs(0);
	clear_area(a);
}

static void tls_fork(void)
{
	static unsigned blk[1] = { 0xabcd };
	struct user_desc pg = { 0 }, cg = { 0 };
	int st, a = new_area(blk);

	set_fs(SEL(a));
	pg.entry_number = (unsigned)a;
	EXPECT_RET(sys_get_thread_area(L(&pg)), 0);
	long pid = sys_fork();
	if (pid == 0) {
		cg.entry_number = (unsigned)a;
		if (sys_get_thread_area(L(&cg)) || memcmp(&cg, &pg, sizeof(cg)))
			_exit(2);
		if (get_fs() != SEL(a) || read_fs0() != 0xabcd || get_gs() != SEL(__tls_entry))
			_exit(3);
		errno = 9;
		if (((struct tcb *)read_gs0())->errno_val != 9)
			_exit(4);
		clear_area(a);		/* the child's entry only */
		_exit(0);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	st = ut_wait(pid);
	CHECK(st == 0, "child status %#x (2: entry, 3: selectors, 4: errno)", st);
	cg.entry_number = (unsigned)a;
	EXPECT_RET(sys_get_thread_area(L(&cg)), 0);
	CHECK(!memcmp(&cg, &pg, sizeof(cg)) && read_fs0() == 0xabcd, "the child's clear reached us");
	set_fs(0);
	clear_area(a);
}

static char clone_stack[4096] __attribute__((aligned(16)));

/* CLONE_SETTLS with a bad user_desc fails before anything exists; a good one works. */
static void tls_settls(void)
{
	static unsigned blk[2] = { 0x7e57, 0 };
	struct user_desc u, g = { .entry_number = (unsigned)__tls_entry };
	volatile int ptid = -1;
	long before = ut_frames(), r;
	long top = (long)(clone_stack + sizeof(clone_stack) - 16);

	EXPECT_RET(sys_clone(SIGCHLD | CLONE_SETTLS, 0, 0, 0, 0), -EFAULT);
	EXPECT_RET(sys_clone(SIGCHLD | CLONE_SETTLS | CLONE_PARENT_SETTID, 0, L(&ptid), TASK_SIZE, 0),
		   -EFAULT);
	CHECK(ptid == -1, "parent tid written (%d) by a failed clone", ptid);
	EXPECT_RET(sys_clone(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_SETTLS, top, 0,
			     TASK_SIZE - 4, 0), -EFAULT);
	flat_desc(&u, -1, blk);		/* clone cannot pick an entry */
	EXPECT_RET(sys_clone(SIGCHLD | CLONE_SETTLS, 0, 0, L(&u), 0), -EINVAL);
	flat_desc(&u, __tls_entry, blk);
	u.contents = 3;
	EXPECT_RET(sys_clone(SIGCHLD | CLONE_SETTLS, 0, 0, L(&u), 0), -EINVAL);
	EXPECT_RET(sys_wait4(-1, 0, WNOHANG, 0), -ECHILD);
	if (before >= 0) {
		long after = ut_frames_settle(before, 50);
		CHECK(after == before, "failed clones lost %ld frames", before - after);
	}

	/* A good one: the child's %gs entry is based at blk, ours unchanged. */
	flat_desc(&u, __tls_entry, blk);
	r = sys_clone(SIGCHLD | CLONE_SETTLS, 0, 0, L(&u), 0);
	if (r == 0)
		_exit(read_gs0() == 0x7e57 ? 0 : 5);	/* no errno here: blk is no TCB */
	CHECK(r > 0, "clone(CLONE_SETTLS): %ld", r);
	CHECK(ut_wait((pid_t)r) == 0, "the child's %%gs:0 is not its new TLS base");
	EXPECT_RET(sys_get_thread_area(L(&g)), 0);
	CHECK(g.base_addr == read_gs0(), "our own TLS entry changed: base %#x", g.base_addr);
}

const struct ut_test ut_tls_tests[] = {
	{ tls_area, "tls_area" },
	{ tls_badptr, "tls_badptr" },
	{ tls_errno, "tls_errno" },
	{ tls_syscall, "tls_syscall" },
	{ tls_signal, "tls_signal" },
	{ tls_badgs, "tls_badgs" },
	{ tls_badfs, "tls_badfs" },
	{ sig_badsegs, "sig_badsegs" },
	{ sig_ldtsegs, "sig_ldtsegs" },
	{ tls_clear_loaded, "tls_clear_loaded" },
	{ tls_switch, "tls_switch" },
	{ tls_fork, "tls_fork" },
	{ tls_settls, "tls_settls" },
	{ NULL, NULL },
};
