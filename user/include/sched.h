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
#include <stdint.h>

/* Linux's struct sched_attr (include/uapi/linux/sched/types.h), 56 bytes:
 * sched_setattr(2) and sched_getattr(2). */
struct sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
} __attribute__((packed));

int sched_yield(void);

#endif
