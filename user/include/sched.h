/*
 * sched.h - giving up the CPU.
 * Threads (clone with CLONE_VM, a per-thread errno, a malloc lock) are not
 * here yet: they belong in user/lib/thread.c + <pthread.h> when the kernel
 * supports clone(); the generated sys_clone stub only works for
 * fork-like use (child_stack = 0), since a child on a new stack cannot
 * return through it.
 */
#ifndef _SCHED_H
#define _SCHED_H

int sched_yield(void);

#endif
