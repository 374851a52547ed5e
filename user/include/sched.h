/*
 * sched.h - giving up the CPU.
 * Threads (clone with CLONE_VM and CLONE_SETTLS, a per-thread errno, a
 * futex lock) are in <thread.h> (user/lib/thread.c); the generated
 * sys_clone stub only works for fork-like use (child_stack = 0), since a
 * child on a new stack cannot return through it.
 */
#ifndef _SCHED_H
#define _SCHED_H

#include <kernel/clone.h>	/* CLONE_VM ... (Linux's values, the kernel's own copy) */

int sched_yield(void);

#endif
