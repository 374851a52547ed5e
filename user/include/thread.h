/*
 * thread.h - user threads over clone(), and the futex lock malloc uses.
 *
 * A thread is a task of the caller's thread group made with
 *	clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
 *	      CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | CLONE_SETTLS)
 * on a malloc'ed stack (THREAD_STACK_SIZE, 64 KiB, aligned to its size so
 * that thread_self() finds the thread's control block from %esp).  The kernel writes the
 * new tid into t->tid before the child runs (PARENT_SETTID) and, when the
 * thread exits, writes 0 there and does FUTEX_WAKE on it (CHILD_CLEARTID):
 * thread_join() sleeps in FUTEX_WAIT until that word is 0, then frees the
 * stack.  A detached thread's stack is freed by a later thread_create()
 * once its tid word reads 0 (the kernel no longer uses the stack then).
 *
 * The new thread inherits the creator's signal mask (as pthread_create).
 * TLS the Linux i386 way: clone also gets CLONE_SETTLS with a user_desc
 * based at the thread's control block (user/lib/tls.h: self pointer at
 * %gs:0, then errno), so errno is per thread.  Only on a kernel without
 * set_thread_area is errno one process-wide variable.
 */
#ifndef _THREAD_H
#define _THREAD_H

#include <stddef.h>

#define THREAD_STACK_SIZE	(64u * 1024u)

typedef struct thread *thread_t;

/* Start FN(ARG) in a new thread; 0, or -1 + errno (ENOMEM, EAGAIN ...). */
int thread_create(thread_t *t, void *(*fn)(void *), void *arg);
/* Same with a stack of STACK_SIZE bytes (>= 4 KiB, rounded up to a power of
 * two; every thread of a process must use the same size: else EINVAL). */
int thread_create_stack(thread_t *t, void *(*fn)(void *), void *arg, size_t stack_size);
/* Wait for T to exit, store FN's result in *RET (if RET), free T.  0 or -1 + EINVAL. */
int thread_join(thread_t t, void **ret);
/* Nobody will join T: its memory is reclaimed after it exits. */
int thread_detach(thread_t t);
/* The kernel tid of T (as gettid() returns inside it). */
int thread_tid(thread_t t);
/*
 * The calling thread's handle, or NULL in a thread not made by
 * thread_create (the main thread).  Found from %esp: no system call.
 */
thread_t thread_self(void);
/* One pointer of per-thread data; -1 + EINVAL in the main thread. */
int thread_setspecific(void *p);
void *thread_getspecific(void);		/* NULL in the main thread */
/* Number of threads made by thread_create() that have not finished yet. */
int thread_running(void);

/*
 * A futex mutex (Drepper's three states: 0 free, 1 locked, 2 locked with
 * waiters).  Zero-initialised = unlocked.  Not recursive.
 */
typedef struct {
	volatile int state;
} ulock_t;
#define ULOCK_INIT	{ 0 }
void ulock_lock(ulock_t *l);
void ulock_unlock(ulock_t *l);

/* futex(2) FUTEX_WAIT / FUTEX_WAKE on a private word; raw result (-errno). */
long futex_wait(volatile int *addr, int val);
long futex_wake(volatile int *addr, int nr);

#endif
