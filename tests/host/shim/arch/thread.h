/*
 * tests/host/shim/arch/thread.h - host stand-in for arch/thread.h.
 *
 * Same struct and prototypes as the real header.  A host test binary that
 * links kernel/sched/core.c provides the two functions; the scheduler's
 * tests (tests/host/sched/fake_arch.c) make arch_switch_to() append
 * (prev, next) to a switch recorder and return at once, so on the host
 * schedule() returns with current == next, and arch_thread_init() a no-op.
 */
#ifndef ARCH_THREAD_H
#define ARCH_THREAD_H

#include <kernel/types.h>

struct task;

struct arch_thread {
	u32 esp;		/* unused on the host */
	u32 esp0;
	u32 cr3;
};

void arch_thread_init(struct task *t, void (*entry)(void *), void *arg);
void arch_switch_to(struct task *prev, struct task *next);

#endif
