/*
 * user/tests/fuzz_gen.c - the fuzzer's call generator and its workers
 * (user/tests/fuzz.c runs the batches).
 *
 * In the manner of trinity: each call picks a number (every listed call,
 * the Granule-private ones except granule_poweroff, unlisted and absurd
 * numbers) and fills each argument from its type's "interesting" values -
 * 0, -1, page edges, kernel addresses, unmapped ranges, huge lengths, valid
 * pointers into the worker's own scratch buffer (pre-filled with small
 * struct-like words so timespecs, sigactions and sigevents are often
 * plausible).  Every choice comes from the worker's splitmix64 stream, so
 * a (seed, batch) pair always makes the same calls.
 *
 * The harness protects itself, nothing else: kill/tgkill/setpriority never
 * name init or the driver, munmap/mprotect never touch its memory; the
 * generator never calls granule_poweroff.
 * A fork or clone child exits at once (in assembly, touching no stack);
 * sigreturn runs on a random frame in the scratch buffer.
 */
#include "fuzz.h"

#include <errno.h>
#include <gen/user_syscalls.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>

#define PAGE_SIZE	4096u
#define SIGCHLD		17
#define SA_SIGINFO	0x00000004u
#define SA_RESTORER	0x04000000u

#define STR_(x)	#x
#define STR(x)	STR_(x)

int fuzz_protected_pid[2];
struct fuzz_worker fuzz_workers[FUZZ_MAX_WORKERS];
int fuzz_nworkers;
int fuzz_verbose;
/* First page above the heap at startup: pointers just below it straddle
 * the end of the mapping (set by the driver). */
unsigned long fuzz_brk_edge;

void __restore_rt(void);	/* user/lib/signal.c's trampolines */
void __restore(void);

/* ---- raw calls ---------------------------------------------------------- */

long fuzz_raw(long nr, long a, long b, long c, long d, long e, long f);
long fuzz_raw_fork(long nr, long a, long b, long c, long d, long e);
long fuzz_raw_sigreturn(long nr, void *frame, unsigned long *save_esp);
long fuzz_clone_start(unsigned long flags, void *top, volatile int *ctid);

__asm__(".text\n"
	/* fuzz_raw(nr, a..f): int 0x80 with all six argument registers. */
	".globl fuzz_raw\n"
	"fuzz_raw:\n"
	"\tpushl %ebp\n\tpushl %edi\n\tpushl %esi\n\tpushl %ebx\n"
	"\tmovl 20(%esp), %eax\n\tmovl 24(%esp), %ebx\n\tmovl 28(%esp), %ecx\n"
	"\tmovl 32(%esp), %edx\n\tmovl 36(%esp), %esi\n\tmovl 40(%esp), %edi\n"
	"\tmovl 44(%esp), %ebp\n"
	"\tint $0x80\n"
	"\tpopl %ebx\n\tpopl %esi\n\tpopl %edi\n\tpopl %ebp\n\tret\n"
	/* fuzz_raw_fork: the same for fork/clone/vfork; a child (eax == 0) exits
	 * at once without touching the stack, which may be anything. */
	".globl fuzz_raw_fork\n"
	"fuzz_raw_fork:\n"
	"\tpushl %ebp\n\tpushl %edi\n\tpushl %esi\n\tpushl %ebx\n"
	"\tmovl 20(%esp), %eax\n\tmovl 24(%esp), %ebx\n\tmovl 28(%esp), %ecx\n"
	"\tmovl 32(%esp), %edx\n\tmovl 36(%esp), %esi\n\tmovl 40(%esp), %edi\n"
	"\tint $0x80\n"
	"\ttestl %eax, %eax\n\tjnz 1f\n"
	"\tmovl $" STR(__NR_exit) ", %eax\n\txorl %ebx, %ebx\n\tint $0x80\n\tud2\n"
	"1:\tpopl %ebx\n\tpopl %esi\n\tpopl %edi\n\tpopl %ebp\n\tret\n"
	/* fuzz_raw_sigreturn(nr, frame, save): the call with %esp = frame;
	 * if the kernel returns (it refused the frame), %esp comes back. */
	".globl fuzz_raw_sigreturn\n"
	"fuzz_raw_sigreturn:\n"
	"\tpushl %ebp\n\tpushl %edi\n\tpushl %esi\n\tpushl %ebx\n"
	"\tmovl 20(%esp), %eax\n\tmovl 24(%esp), %ecx\n\tmovl 28(%esp), %ebx\n"
	"\tmovl %esp, (%ebx)\n\tmovl %ecx, %esp\n"
	"\tint $0x80\n"
	"\tmovl (%ebx), %esp\n"
	"\tpopl %ebx\n\tpopl %esi\n\tpopl %edi\n\tpopl %ebp\n\tret\n"
	/* fuzz_clone_start(flags, top, ctid): a worker on stack TOP, whose
	 * word [top] is the worker's index; it runs fuzz_worker_main(i). */
	".globl fuzz_clone_start\n"
	"fuzz_clone_start:\n"
	"\tpushl %ebp\n\tpushl %edi\n\tpushl %esi\n\tpushl %ebx\n"
	"\tmovl 20(%esp), %ebx\n\tmovl 24(%esp), %ecx\n\tmovl 28(%esp), %edi\n"
	"\txorl %edx, %edx\n\txorl %esi, %esi\n"
	"\tmovl $" STR(__NR_clone) ", %eax\n"
	"\tint $0x80\n"
	"\ttestl %eax, %eax\n\tjz 1f\n"
	"\tpopl %ebx\n\tpopl %esi\n\tpopl %edi\n\tpopl %ebp\n\tret\n"
	"1:\txorl %ebp, %ebp\n\tcall fuzz_worker_main\n\tud2\n");

/* ---- the call table ----------------------------------------------------- */

/* Argument kinds: how an argument's value is chosen. */
enum {
	A_ANY, A_PTR, A_LEN, A_FD, A_PID, A_SIG, A_CLOCK, A_FLAGS, A_TIMER,
	A_NICE, A_WHICH, A_CLONE, A_PATH, A_VEC, A_FUTEXOP, A_SIGSZ, A_HOW,
	A_SIGACT, A_SIGEV, A_TIMESPEC, A_ITIMER, A_DESC, A_SMALL
};

struct fuzz_call {
	long nr;
	const char *name;
	unsigned char nargs, weight;
	unsigned char arg[6];
};

/* The kinds of every listed call's arguments (unlisted calls get A_ANY). */
static const struct { long nr; unsigned char arg[6]; } kinds[] = {
	{ __NR_exit,		{ A_SMALL } },
	{ __NR_read,		{ A_FD, A_PTR, A_LEN } },
	{ __NR_write,		{ A_FD, A_PTR, A_LEN } },
	{ __NR_execve,		{ A_PATH, A_VEC, A_VEC } },
	{ __NR_kill,		{ A_PID, A_SIG } },
	{ __NR_brk,		{ A_PTR } },
	{ __NR_getrusage,	{ A_WHICH, A_PTR } },
	{ __NR_getpriority,	{ A_WHICH, A_PID } },
	{ __NR_setpriority,	{ A_WHICH, A_PID, A_NICE } },
	{ __NR_wait4,		{ A_PID, A_PTR, A_FLAGS, A_PTR } },
	{ __NR_clone,		{ A_CLONE, A_PTR, A_PTR, A_DESC, A_PTR } },
	{ __NR_uname,		{ A_PTR } },
	{ __NR_nanosleep,	{ A_TIMESPEC, A_PTR } },
	{ __NR_rt_sigaction,	{ A_SIG, A_SIGACT, A_PTR, A_SIGSZ } },
	{ __NR_rt_sigprocmask,	{ A_HOW, A_PTR, A_PTR, A_SIGSZ } },
	{ __NR_rt_sigpending,	{ A_PTR, A_SIGSZ } },
	{ __NR_rt_sigtimedwait,	{ A_PTR, A_PTR, A_TIMESPEC, A_SIGSZ } },
	{ __NR_futex,		{ A_PTR, A_FUTEXOP, A_SMALL, A_TIMESPEC, A_PTR, A_SMALL } },
	{ __NR_set_thread_area,	{ A_DESC } },
	{ __NR_get_thread_area,	{ A_DESC } },
	{ __NR_exit_group,	{ A_SMALL } },
	{ __NR_timer_create,	{ A_CLOCK, A_SIGEV, A_PTR } },
	{ __NR_timer_settime,	{ A_TIMER, A_FLAGS, A_ITIMER, A_PTR } },
	{ __NR_timer_gettime,	{ A_TIMER, A_PTR } },
	{ __NR_timer_getoverrun, { A_TIMER } },
	{ __NR_timer_delete,	{ A_TIMER } },
	{ __NR_clock_gettime,	{ A_CLOCK, A_PTR } },
	{ __NR_clock_getres,	{ A_CLOCK, A_PTR } },
	{ __NR_clock_nanosleep,	{ A_CLOCK, A_FLAGS, A_TIMESPEC, A_PTR } },
	{ __NR_tgkill,		{ A_PID, A_PID, A_SIG } },
	{ __NR_granule_sched_params, { A_PTR, A_LEN } },
};

/* Calls that end the caller or print a page: rarer, so most workers
 * live long enough to make most of their calls. */
static int call_weight(long nr)
{
	switch (nr) {
	case __NR_exit: case __NR_exit_group: case __NR_execve:
	case __NR_sigreturn: case __NR_rt_sigreturn:
		return 1;
	case __NR_granule_sched_debug:
		return 0;	/* never: a 60-line runqueue dump per call would drown the log */
	case __NR_reboot:
		return 0;	/* never: with the magic numbers it would end (or halt) the run */
	default:
		return 8;
	}
}

#define FUZZ_ENTRY(n, nm, na)	{ n, #nm, na, 0, { 0 } },
#define FUZZ_PRIV(k, nm, na)	{ GRANULE_NR_BASE + (k), #nm, na, 0, { 0 } },
static struct fuzz_call calls[FUZZ_NSLOTS - 1] = {
	SYSCALL_LIST(FUZZ_ENTRY)
	GRANULE_SYSCALL_LIST(FUZZ_PRIV)
};
static int total_weight;

const char *fuzz_slot_name(int i)
{
	return i < FUZZ_SLOT_UNKNOWN ? calls[i].name : "unknown";
}

static void table_init(void)
{
	if (total_weight)
		return;
	for (int i = 0; i < FUZZ_SLOT_UNKNOWN; i++) {
		struct fuzz_call *c = &calls[i];

		c->weight = c->nr == __NR_granule_poweroff ? 0 : call_weight(c->nr);
		for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (kinds[k].nr == c->nr)
				for (int a = 0; a < 6; a++)
					c->arg[a] = kinds[k].arg[a];
		total_weight += c->weight;
	}
}

/* ---- values ------------------------------------------------------------- */

static uint32_t pick(uint64_t *r, const uint32_t *v, unsigned n)
{
	return v[fuzz_below(r, n)];
}
#define PICK(r, arr)	pick(r, arr, sizeof(arr) / sizeof(arr[0]))

static const uint32_t ints[] = {
	0, 1, 2, 3, 7, 8, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 255, 256,
	0xfff, 0x1000, 0x1001, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
	0x80000001, 0xfffffffe, 0xffffffff, 0xfffff000, 0xc0000000, 1000000000,
	999999999,
};

/* Words for structures in the scratch buffer: mostly small. */
static uint32_t small_word(uint64_t *r)
{
	switch (fuzz_below(r, 8)) {
	case 0: case 1: case 2: return 0;
	case 3: return fuzz_below(r, 4);
	case 4: return fuzz_below(r, 1000);
	case 5: return PICK(r, ints);
	case 6: return fuzz_below(r, 1000000000);
	default: return (uint32_t)fuzz_rand(r);
	}
}

static uint32_t int_value(uint64_t *r)
{
	switch (fuzz_below(r, 4)) {
	case 0: return PICK(r, ints);
	case 1: return fuzz_below(r, 64);
	case 2: return (uint32_t)fuzz_rand(r);
	default: return -(uint32_t)fuzz_below(r, 16);
	}
}

/* A pointer: valid into the worker's scratch (half the time), else
 * NULL, a page edge, the kernel, an unmapped range, read-only text. */
static uint32_t ptr_value(uint64_t *r, struct fuzz_worker *w)
{
	static const uint32_t bad[] = {
		0, 1, 0xffffffff, 0xfffff000, 0xc0000000, 0xc0100000, 0xc0001000,
		0xbffff000, 0xbfffffff, 0x40000000, 0x10000000, 0x08048000, 0x1000,
	};
	uint32_t base = (uint32_t)(uintptr_t)w->scratch;

	switch (fuzz_below(r, 8)) {
	case 0: case 1: case 2:
		return base + 64 * fuzz_below(r, FUZZ_SCRATCH_SIZE / 64 - 2);
	case 3:
		return base + fuzz_below(r, FUZZ_SCRATCH_SIZE);
	case 4:
		return fuzz_brk_edge - 1 - fuzz_below(r, 16);	/* straddles the end */
	case 5:
		return 0xc0000000u + (uint32_t)(fuzz_rand(r) % 0x40000000u);
	default:
		return PICK(r, bad);
	}
}

static uint32_t len_value(uint64_t *r)
{
	static const uint32_t lens[] = {
		0, 1, 2, 4, 8, 16, 64, 4095, 4096, 4097, 8192, 65536, 0x100000,
		0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0xc0000000,
	};
	return fuzz_below(r, 3) ? PICK(r, lens) : fuzz_below(r, 256);
}

static int is_protected(int32_t pid)
{
	return pid == 1 || pid == fuzz_protected_pid[0] || pid == fuzz_protected_pid[1];
}

static uint32_t pid_value(uint64_t *r, struct fuzz_worker *w)
{
	struct fuzz_worker *o = &fuzz_workers[fuzz_below(r, fuzz_nworkers)];
	/* -1 is left out: kill(-1, SIGKILL) ends every process but init and
	 * the caller, the driver included; -3 is a process group nobody has. */
	static const uint32_t odd[] = { 0, 0xfffffffd, 0x80000000, 0x7fffffff, 99999, 0xfffffffe };

	switch (fuzz_below(r, 6)) {
	case 0: return w->pid;
	case 1: return w->tgid;
	case 2: return o->pid;
	case 3: return o->tgid;
	case 4: return fuzz_below(r, 64);
	default: return PICK(r, odd);
	}
}

/* No stop signal (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU = 19-22): one that
 * hits the driver (a pid below 64) would stop it for good, a hang that is
 * the signal's meaning, not a kernel bug.  Their numbers become 23-26. */
static uint32_t sig_value(uint64_t *r)
{
	static const uint32_t sigs[] = {
		0, 1, 2, 9, 10, 11, 12, 14, 15, 17, 18, 28, 32, 33, 34, 63, 64,
		65, 128, 255, 0xffffffff,
	};
	uint32_t sig = fuzz_below(r, 4) ? PICK(r, sigs) : fuzz_below(r, 70);

	return sig >= 19 && sig <= 22 ? sig + 4 : sig;
}

static uint32_t clone_value(uint64_t *r)
{
	static const uint32_t flags[] = {
		CLONE_VM, CLONE_FS, CLONE_FILES, CLONE_SIGHAND, CLONE_THREAD,
		CLONE_SETTLS, CLONE_PARENT_SETTID, CLONE_CHILD_CLEARTID,
		CLONE_CHILD_SETTID, 0x00008000 /* CLONE_PARENT (unsupported) */,
		0x00004000 /* CLONE_VFORK (unsupported) */,
	};
	static const uint32_t exitsig[] = { 0, 1, 9, 10, 33, 64, 65, 255 };
	uint32_t f = fuzz_below(r, 8) ? SIGCHLD : PICK(r, exitsig);
	int n = fuzz_below(r, 5);

	while (n--)
		f |= PICK(r, flags);
	return fuzz_below(r, 16) ? f : (uint32_t)fuzz_rand(r);
}

/* Fill N words of the scratch buffer at P with small struct-like words. */
static void fill(uint64_t *r, uint32_t *p, int n)
{
	while (n--)
		*p++ = small_word(r);
}

/* A pointer to a prepared structure at scratch offset OFF (or, 1 in 4, a
 * bad pointer from ptr_value). */
static uint32_t *slot(uint64_t *r, struct fuzz_worker *w, int off, uint32_t *ret)
{
	if (!fuzz_below(r, 4)) {
		*ret = ptr_value(r, w);
		return NULL;
	}
	*ret = (uint32_t)(uintptr_t)(w->scratch + off);
	return (uint32_t *)(w->scratch + off);
}

static void fuzz_handler(int sig)
{
	(void)sig;
}

static uint32_t timespec_nsec(uint64_t *r)
{
	static const uint32_t ns[] = {
		0, 0, 0, 1, 100, 1000, 100000, 1000000, 10000000, 999999999,
		1000000000, 0xffffffff,
	};
	return PICK(r, ns);
}

/* A value for an argument of kind K (W's stream, W's buffers). */
static uint32_t arg_value(uint64_t *r, struct fuzz_worker *w, int k, int i)
{
	uint32_t v, *p;

	switch (k) {
	case A_PTR: return ptr_value(r, w);
	case A_LEN: return len_value(r);
	case A_FD: return fuzz_below(r, 4) ? fuzz_below(r, 5) : int_value(r);
	case A_PID: return pid_value(r, w);
	case A_SIG: return sig_value(r);
	case A_CLOCK: return fuzz_below(r, 4) ? fuzz_below(r, 8) : int_value(r);
	case A_FLAGS: return fuzz_below(r, 2) ? fuzz_below(r, 4) : int_value(r);
	case A_TIMER: return fuzz_below(r, 4) ? fuzz_below(r, 4) : int_value(r);
	case A_NICE: return (uint32_t)((int)fuzz_below(r, 81) - 40);
	case A_WHICH: return fuzz_below(r, 4) ? 0 : int_value(r);
	case A_CLONE: return clone_value(r);
	case A_FUTEXOP: return fuzz_below(r, 4) ? (fuzz_below(r, 2) ? 128 : 0) | fuzz_below(r, 3)
						 : int_value(r);
	case A_SIGSZ: return fuzz_below(r, 4) ? 8 : int_value(r);
	case A_HOW: return fuzz_below(r, 4) ? fuzz_below(r, 3) : int_value(r);
	case A_SMALL: return fuzz_below(r, 2) ? fuzz_below(r, 4) : int_value(r);
	case A_PATH: {
		static const char *const paths[] = { "hello", "notelf", "nosuchprogram", "" };
		return fuzz_below(r, 2) ? (uint32_t)(uintptr_t)paths[fuzz_below(r, 4)]
					: ptr_value(r, w);
	}
	case A_VEC:	/* argv/envp: { "hello", junk..., NULL } at 3072 + 64 i */
		if (!(p = slot(r, w, 3072 + 64 * i, &v)))
			return v;
		p[0] = (uint32_t)(uintptr_t)"hello";
		p[1] = fuzz_below(r, 2) ? 0 : ptr_value(r, w);
		p[2] = 0;
		return v;
	case A_SIGACT:	/* { handler, flags, restorer, mask[2] } */
		if (!(p = slot(r, w, 256, &v)))
			return v;
		fill(r, p, 5);
		if (fuzz_below(r, 2)) {
			p[1] = SA_RESTORER | (fuzz_below(r, 2) ? SA_SIGINFO : 0) |
			       (fuzz_below(r, 2) ? 0 : small_word(r) & 0x5c000003u);
			p[2] = (uint32_t)(uintptr_t)(p[1] & SA_SIGINFO ? __restore_rt : __restore);
		}
		switch (fuzz_below(r, 4)) {
		case 0: p[0] = 0; break;	/* SIG_DFL */
		case 1: p[0] = 1; break;	/* SIG_IGN */
		case 2: p[0] = (uint32_t)(uintptr_t)fuzz_handler; break;
		}
		return v;
	case A_SIGEV:	/* { value, signo, notify, tid } */
		if (!(p = slot(r, w, 512, &v)))
			return v;
		fill(r, p, 16);
		p[1] = sig_value(r);
		p[2] = fuzz_below(r, 4) ? (uint32_t[]){ 0, 1, 4 }[fuzz_below(r, 3)] : small_word(r);
		p[3] = pid_value(r, w);
		if (is_protected((int32_t)p[3]))
			p[3] = w->pid;
		return v;
	case A_TIMESPEC:	/* { sec, nsec } */
		if (!(p = slot(r, w, 768 + 16 * i, &v)))
			return v;
		p[0] = fuzz_below(r, 4) ? 0 : small_word(r);
		p[1] = timespec_nsec(r);
		return v;
	case A_ITIMER:	/* { interval {sec, nsec}, value {sec, nsec} } */
		if (!(p = slot(r, w, 896, &v)))
			return v;
		p[0] = fuzz_below(r, 4) ? 0 : small_word(r);
		p[1] = timespec_nsec(r);
		p[2] = fuzz_below(r, 4) ? 0 : small_word(r);
		p[3] = timespec_nsec(r);
		return v;
	case A_DESC:	/* struct user_desc: { entry, base, limit, flags } */
		if (!(p = slot(r, w, 1024 + 16 * i, &v)))
			return v;
		p[0] = fuzz_below(r, 3) ? (uint32_t[]){ 0xffffffff, 6, 7, 8 }[fuzz_below(r, 4)]
					: int_value(r);
		p[1] = fuzz_below(r, 2) ? ptr_value(r, w) : (uint32_t)(uintptr_t)w->scratch;
		p[2] = fuzz_below(r, 2) ? 0xfffff : int_value(r);
		p[3] = (uint32_t)fuzz_rand(r) & 0x7f;
		return v;
	default:
		return int_value(r);
	}
}

/* A number: a listed call (by weight), an unlisted or absurd number. */
static int pick_call(uint64_t *r, long *nr)
{
	uint32_t x;

	if (fuzz_below(r, 16)) {
		int32_t t = fuzz_below(r, total_weight);

		for (int i = 0; i < FUZZ_SLOT_UNKNOWN; i++)
			if ((t -= calls[i].weight) < 0) {
				*nr = calls[i].nr;
				return i;
			}
	}
	switch (fuzz_below(r, 5)) {
	case 0: x = fuzz_below(r, NR_syscalls + 64); break;
	case 1: x = GRANULE_NR_BASE + FUZZ_NR_PRIVATE + fuzz_below(r, 16); break;
	case 2: x = GRANULE_NR_BASE - 1 - fuzz_below(r, 4); break;
	case 3: x = PICK(r, ints); break;
	default: x = (uint32_t)fuzz_rand(r); break;
	}
	*nr = (long)x;
	for (int i = 0; i < FUZZ_SLOT_UNKNOWN; i++)
		if (calls[i].nr == *nr)
			return calls[i].weight ? i : -1;	/* never poweroff */
	return FUZZ_SLOT_UNKNOWN;
}

static enum fuzz_outcome outcome(long ret)
{
	if (ret >= 0 || ret < -4095)
		return FUZZ_OK;
	switch (-ret) {
	case EFAULT: return FUZZ_EFAULT;
	case EINVAL: return FUZZ_EINVAL;
	case ENOSYS: return FUZZ_ENOSYS;
	case ESRCH: return FUZZ_ESRCH;
	case EAGAIN: return FUZZ_EAGAIN;
	case ENOMEM: return FUZZ_ENOMEM;
	default: return FUZZ_OTHER;
	}
}

/* The random frame sigreturn restores: selectors of every kind (user,
 * kernel, TLS, LDT, junk) and words that are never our own code. */
static void *sigframe(uint64_t *r, struct fuzz_worker *w)
{
	static const uint32_t sel[] = { 0, 0x1b, 0x23, 0x33, 0x3b, 0x43, 0x08, 0x10, 0x0f, 0xffff, 3 };
	uint32_t *f = (uint32_t *)(w->scratch + 4096);

	for (int i = 0; i < 512; i++)
		f[i] = fuzz_below(r, 3) ? PICK(r, sel) : fuzz_below(r, 2) ? PICK(r, ints) : small_word(r);
	return f;
}

/* -v: each call as it is made (so a hang names it), then its result. */
static void trace(struct fuzz_worker *w, int s, long nr, const uint32_t *a, long ret, int done)
{
	char line[160];
	int n, i = (int)(w - fuzz_workers);

	if (done)
		n = snprintf(line, sizeof(line), "fuzz: w%d %s = %ld\n", i, fuzz_slot_name(s), ret);
	else
		n = snprintf(line, sizeof(line), "fuzz: w%d %s(%#lx) %x %x %x %x %x %x\n", i,
			     fuzz_slot_name(s), nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	sys_write(1, (long)line, n);
}

/* The user stack's top and the floor of the harness's own memory: the
 * image starts at 0x08048000, its heap ends at fuzz_brk_edge (+ what the
 * workers' brk calls may add, bounded by the slack below). */
#define HARNESS_IMAGE	0x08048000u
#define HARNESS_BRK_SLACK	(64u << 20)
#define HARNESS_STACK_LOW	0xbf000000u
#define HARNESS_FREE_ADDR	0x60000000u

/* Does [addr, addr + len) (wrapping lengths included) touch the harness? */
static int harness_range(uint32_t addr, uint32_t len)
{
	uint64_t lo = addr, hi = (uint64_t)addr + len;

	if (len == 0)
		hi = lo + 1;
	return (lo < fuzz_brk_edge + HARNESS_BRK_SLACK && hi > HARNESS_IMAGE) ||
	       (hi > HARNESS_STACK_LOW && lo < 0xc0000000u);
}

/* One call of worker W. */
static void one_call(struct fuzz_worker *w)
{
	uint64_t *r = &w->rng;
	uint32_t a[6] = { 0 };
	static unsigned long save_esp[FUZZ_MAX_WORKERS];
	long nr, ret;
	int s = pick_call(r, &nr), nargs = 6;
	const unsigned char *kind = NULL;

	if (s < 0)
		return;		/* granule_poweroff by number: not made */
	if (s < FUZZ_SLOT_UNKNOWN) {
		kind = calls[s].arg;
		nargs = calls[s].nargs;
	}
	for (int i = 0; i < 6; i++)
		a[i] = i < nargs ? arg_value(r, w, kind ? kind[i] : A_ANY, i) : int_value(r);

	/* The harness's own safety, nothing else. */
	if ((nr == __NR_kill || nr == __NR_getpriority || nr == __NR_setpriority) &&
	    is_protected((int32_t)a[nr == __NR_kill ? 0 : 1]))
		a[nr == __NR_kill ? 0 : 1] = w->tgid;
	if (nr == __NR_tgkill && (is_protected((int32_t)a[0]) || is_protected((int32_t)a[1]))) {
		a[0] = w->tgid;
		a[1] = w->pid;
	}
	/* munmap/mprotect never touch the harness's own image, heap or stack
	 * (the workers share the driver's memory): such a range moves to an
	 * address no one maps, where the call still runs its checks. */
	if ((nr == __NR_munmap || nr == __NR_mprotect) && harness_range(a[0], a[1]))
		a[0] = HARNESS_FREE_ADDR | (a[0] & 0xfff);
	/* Console writes/reads of user memory stay short (the log); kernel
	 * addresses keep their huge lengths (they must fail with EFAULT). */
	if ((nr == __NR_write || nr == __NR_read) && a[0] <= 2 && a[2] > 64 && a[1] < 0xc0000000u)
		a[2] &= 31;

	if (fuzz_verbose)
		trace(w, s, nr, a, 0, 0);
	w->calls++;
	w->per_slot[s]++;
	if (nr == __NR_fork || nr == __NR_clone || nr == __NR_vfork)
		ret = fuzz_raw_fork(nr, a[0], a[1], a[2], a[3], a[4]);
	else if (nr == __NR_sigreturn || nr == __NR_rt_sigreturn)
		ret = fuzz_raw_sigreturn(nr, sigframe(r, w), &save_esp[w - fuzz_workers]);
	else
		ret = fuzz_raw(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	w->outcome[outcome(ret)]++;
	if (fuzz_verbose)
		trace(w, s, nr, a, ret, 1);
}

/* Entry of every worker (from fuzz_clone_start, on its own stack). */
__attribute__((noreturn, used)) void fuzz_worker_main(int i);
void fuzz_worker_main(int i)
{
	struct fuzz_worker *w = &fuzz_workers[i];

	w->pid = sys_gettid();
	w->tgid = sys_getpid();
	for (int t = 0; t < w->nthreads; t++)
		fuzz_start_worker(i + 1 + t, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				  CLONE_THREAD | CLONE_CHILD_CLEARTID);
	for (int n = 0; n < w->ncalls; n++)
		one_call(w);
	sys_exit(0);		/* this task only */
	__builtin_unreachable();
}

long fuzz_start_worker(int i, unsigned long flags)
{
	struct fuzz_worker *w = &fuzz_workers[i];
	int *top = (int *)(w->stack + FUZZ_STACK_SIZE - 16);

	table_init();
	*top = i;
	w->ctid = 1;
	return fuzz_clone_start(flags, top, &w->ctid);
}
