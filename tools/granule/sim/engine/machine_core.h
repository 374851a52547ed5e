/*
 * tools/granule/sim/engine/machine_core.h - machine.c's own steps that
 * machine_calls.c's program calls take: inside the engine only.
 */
#ifndef TOOLS_SIMENG_MACHINE_CORE_H
#define TOOLS_SIMENG_MACHINE_CORE_H

#include "machine.h"

/* try_to_wake_up(P) from the running context (traced). */
void mc_wake(struct mproc *p);
/* P (current) sleeps: TASK_INTERRUPTIBLE, schedule(). */
void mc_block(struct machine *m, struct mproc *p);
/* A switch happened: free a dead thread's slot, charge the switch-in. */
void mc_after_event(struct machine *m);
/* sched_fork + wake_up_new_task from current: fork()'s scheduler half. */
struct mproc *mc_new_thread(struct machine *m, const char *comm, mprog_fn prog);

/* machine_rr.c, QEMU's round robin at several CPUs: each CPU's APIC
 * deadline at T into D (for CPU AFTER, past those due by T; -1: none);
 * 1 if CPU takes its interrupts due at T now (not if its turn
 * is ahead); CPU's next interrupt, at its turn if it waits for one; the
 * waits served by T forgotten. */
void mrr_deadlines(struct machine *m, u64 t, int after, u64 *d);
int mrr_ready(struct machine *m, int cpu, u64 t, const u64 *d);
u64 mrr_next(struct machine *m, int cpu, const u64 *d);
void mrr_served(struct machine *m, u64 t);

#endif
