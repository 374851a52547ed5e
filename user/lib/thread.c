/*
 * user/lib/thread.c - threads over clone(2), join by futex, a futex lock.
 *
 * Life of a thread (see <thread.h>):
 *   thread_create: malloc a block of twice the stack size, put the
 *     struct thread (the TCB) at its size-aligned start and use the rest
 *     of that aligned region as the stack; write T at the 16-byte-aligned
 *     top of the stack; __thread_clone() does the clone
 *     system call.  The kernel stores the child's tid in t->tid before
 *     either side runs on (CLONE_PARENT_SETTID).
 *   child: starts at the instruction after `int 0x80` with eax = 0 and
 *     esp = the new stack, where T is the word at [esp]; it clears ebp
 *     (the outermost frame) and calls __thread_start(T), which runs
 *     fn(arg), stores the result and calls exit(2) - the THREAD's exit,
 *     not exit_group: the other threads go on.
 *   exit: the kernel writes 0 to t->tid and wakes FUTEX_WAIT sleepers on
 *     it (CLONE_CHILD_CLEARTID); from then on the kernel never touches the
 *     thread's user stack, so a joiner may free it.
 *   detached threads: whoever of thread_detach() and the exiting thread
 *     comes second pushes T on the `graveyard` (a lock-free stack);
 *     thread_create() frees every graveyard entry whose tid word is 0.
 *
 * Clone's i386 argument order (as Linux): ebx flags, ecx new stack,
 * edx parent tid pointer, esi tls (struct user_desc *), edi child tid
 * pointer.  With TLS available (user/lib/tls.c) every thread gets
 * CLONE_SETTLS: its %gs entry is based at its own struct tcb, the first
 * member of its struct thread, so errno is per thread.
 */
#include <thread.h>
#include <sched.h>
#include <stdlib.h>
#include <errno.h>
#include <gen/syscall_nr.h>
#include "tls.h"
#include "ulib.h"

#define FUTEX_WAIT_PRIVATE	(0 | 128)
#define FUTEX_WAKE_PRIVATE	(1 | 128)

#define THREAD_CLONE_FLAGS	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
				 CLONE_THREAD | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

/* state: who finishes the thread's bookkeeping (see the header comment). */
#define T_RUNNING	0	/* joinable, still running fn */
#define T_DETACHED	1	/* detached while running */
#define T_EXITED	2	/* fn returned, nobody detached it yet */

#define THREAD_MAGIC	0x74687264	/* "thrd" */

/*
 * The thread control block sits at the bottom of the thread's stack
 * region, which is STACK_SIZE (a power of two) bytes aligned to its size:
 * thread_self() = %esp rounded down to that alignment, for any %esp inside
 * [stk_lo, stk_hi) (every stack ever made lies there; the main thread's
 * stack is far above the brk heap).
 */
struct thread {
	struct tcb tcb;			/* first: %gs base of this thread (tls.h) */
	unsigned magic;			/* THREAD_MAGIC */
	size_t size;			/* stack region size (power of two) */
	void *specific;			/* thread_setspecific() */
	volatile int tid;		/* set by the kernel; 0 once exited */
	volatile int state;		/* T_* */
	void *(*fn)(void *);
	void *arg;
	void *ret;
	void *stack;			/* malloc'ed block holding this struct and the stack */
	struct thread *next;		/* graveyard link */
};

static char *volatile stk_lo = (char *)~0ul, *volatile stk_hi;
static volatile size_t stk_size;	/* the one region size in use (set on first create) */

static struct thread *volatile graveyard;
static volatile int nr_running;

/* long __thread_clone(flags, stack_top, ptid, ctid, tls): raw result in the parent. */
long __thread_clone(unsigned long flags, void *sp, volatile int *ptid, volatile int *ctid,
		    struct user_desc *tls);
__attribute__((noreturn, used)) void __thread_start(struct thread *t);

#define STR_(x)	#x
#define STR(x)	STR_(x)
__asm__(".text\n"
	".globl __thread_clone\n"
	".type __thread_clone, @function\n"
	"__thread_clone:\n"
	"\tpushl %ebx\n"
	"\tpushl %esi\n"
	"\tpushl %edi\n"
	"\tmovl 16(%esp), %ebx\n"	/* flags */
	"\tmovl 20(%esp), %ecx\n"	/* child stack: [ecx] = struct thread * */
	"\tmovl 24(%esp), %edx\n"	/* parent tid pointer */
	"\tmovl 28(%esp), %edi\n"	/* child tid pointer */
	"\tmovl 32(%esp), %esi\n"	/* tls: struct user_desc * (CLONE_SETTLS) */
	"\tmovl $" STR(__NR_clone) ", %eax\n"
	"\tint $0x80\n"
	"\ttestl %eax, %eax\n"
	"\tjz 1f\n"
	"\tpopl %edi\n"			/* parent (or error): back to C */
	"\tpopl %esi\n"
	"\tpopl %ebx\n"
	"\tret\n"
	"1:\n"				/* child: esp = 16-aligned, [esp] = t */
	"\txorl %ebp, %ebp\n"
	"\tcall __thread_start\n"	/* argument = [esp] before the call */
	"\tud2\n"
	".size __thread_clone, . - __thread_clone\n");

long futex_wait(volatile int *addr, int val)
{
	return sys_futex(L(addr), FUTEX_WAIT_PRIVATE, val, 0, 0, 0);
}

long futex_wake(volatile int *addr, int nr)
{
	return sys_futex(L(addr), FUTEX_WAKE_PRIVATE, nr, 0, 0, 0);
}

static void bury(struct thread *t)
{
	struct thread *old;

	do {
		old = graveyard;
		t->next = old;
	} while (!__sync_bool_compare_and_swap(&graveyard, old, t));
}

/* Free every buried thread the kernel is done with; keep the others. */
static void reap_graveyard(void)
{
	struct thread *list = __sync_lock_test_and_set(&graveyard, NULL), *next;

	for (; list; list = next) {
		next = list->next;
		if (list->tid == 0) {
			list->magic = 0;
			free(list->stack);
		} else {
			bury(list);
		}
	}
}

void __thread_start(struct thread *t)
{
	t->ret = t->fn(t->arg);
	__sync_fetch_and_sub(&nr_running, 1);
	if (__sync_val_compare_and_swap(&t->state, T_RUNNING, T_EXITED) == T_DETACHED)
		bury(t);
	for (;;)
		sys_exit(0);		/* this thread only; the kernel clears t->tid */
}

static void widen(char *volatile *bound, char *v, int lower)
{
	char *old;

	do {
		old = *bound;
		if (lower ? v >= old : v <= old)
			return;
	} while (!__sync_bool_compare_and_swap(bound, old, v));
}

int thread_create_stack(thread_t *tp, void *(*fn)(void *), void *arg, size_t stack_size)
{
	struct thread *t;
	struct user_desc tls;
	size_t size = 4096;
	char *raw, *top;
	long r;

	while (size < stack_size && size < (1u << 30))
		size <<= 1;
	if (stack_size < 4096 || (stk_size && size != stk_size)) {
		errno = EINVAL;		/* one region size per process (thread_self) */
		return -1;
	}
	stk_size = size;
	if (graveyard)
		reap_graveyard();
	raw = malloc(2 * size);		/* room to align a SIZE region to SIZE */
	if (!raw)
		return -1;
	t = (struct thread *)(((unsigned long)raw + size - 1) & ~(unsigned long)(size - 1));
	__tls_init_tcb(&t->tcb, t, &tls);
	t->magic = THREAD_MAGIC;
	t->size = size;
	t->specific = NULL;
	t->stack = raw;
	t->tid = -1;		/* nonzero until the kernel sets / clears it */
	t->state = T_RUNNING;
	t->fn = fn;
	t->arg = arg;
	t->ret = NULL;
	t->next = NULL;
	widen(&stk_lo, (char *)t, 1);
	widen(&stk_hi, (char *)t + size, 0);
	top = (char *)(((unsigned long)t + size) & ~15ul) - 16;
	*(struct thread **)top = t;
	__sync_fetch_and_add(&nr_running, 1);
	r = __thread_clone(THREAD_CLONE_FLAGS | (__tls_entry >= 0 ? CLONE_SETTLS : 0), top,
			   &t->tid, &t->tid, &tls);
	if (r < 0) {
		__sync_fetch_and_sub(&nr_running, 1);
		t->magic = 0;
		free(raw);
		errno = (int)-r;
		return -1;
	}
	*tp = t;
	return 0;
}

thread_t thread_self(void)
{
	char *sp = (char *)__builtin_frame_address(0);
	struct thread *t;

	if (sp < stk_lo || sp >= stk_hi || !stk_size)
		return NULL;
	t = (struct thread *)((unsigned long)sp & ~(unsigned long)(stk_size - 1));
	return t->magic == THREAD_MAGIC ? t : NULL;
}

void *thread_getspecific(void)
{
	thread_t t = thread_self();

	return t ? t->specific : NULL;
}

int thread_setspecific(void *p)
{
	thread_t t = thread_self();

	if (!t) {
		errno = EINVAL;
		return -1;
	}
	t->specific = p;
	return 0;
}

int thread_create(thread_t *tp, void *(*fn)(void *), void *arg)
{
	return thread_create_stack(tp, fn, arg, THREAD_STACK_SIZE);
}

int thread_join(thread_t t, void **ret)
{
	int tid;

	if (!t || t->state == T_DETACHED) {
		errno = EINVAL;
		return -1;
	}
	/* A shared (non-private) wait, as CLONE_CHILD_CLEARTID's wake is on Linux. */
	while ((tid = t->tid) != 0)
		sys_futex(L(&t->tid), 0 /* FUTEX_WAIT */, tid, 0, 0, 0);	/* EAGAIN/EINTR: look again */
	if (ret)
		*ret = t->ret;
	t->magic = 0;
	free(t->stack);
	return 0;
}

int thread_detach(thread_t t)
{
	if (!t) {
		errno = EINVAL;
		return -1;
	}
	if (__sync_val_compare_and_swap(&t->state, T_RUNNING, T_DETACHED) == T_EXITED)
		bury(t);	/* it already finished: we do its burial */
	return 0;
}

int thread_tid(thread_t t)
{
	return t->tid;
}

int thread_running(void)
{
	return nr_running;
}

/*
 * Drepper, "Futexes Are Tricky", mutex 2: 0 free, 1 locked, 2 contended.
 * lock: cmpxchg 0->1; otherwise mark 2 and sleep while it stays 2.
 * unlock: atomic decrement; if it was 2, store 0 and wake one sleeper.
 */
void ulock_lock(ulock_t *l)
{
	int c = __sync_val_compare_and_swap(&l->state, 0, 1);

	if (c == 0)
		return;
	if (c != 2)
		c = __sync_lock_test_and_set(&l->state, 2);
	while (c != 0) {
		futex_wait(&l->state, 2);
		c = __sync_lock_test_and_set(&l->state, 2);
	}
}

void ulock_unlock(ulock_t *l)
{
	if (__sync_fetch_and_sub(&l->state, 1) != 1) {
		l->state = 0;
		futex_wake(&l->state, 1);
	}
}
