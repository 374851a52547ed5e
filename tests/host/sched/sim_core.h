/*
 * tests/host/sched/sim_core.h - what sim.c shares with sim_smp.c, the
 * simulator's several-CPU half (not for the tests: they use sim.h).
 */
#ifndef TESTS_HOST_SCHED_SIM_CORE_H
#define TESTS_HOST_SCHED_SIM_CORE_H

#include "sim.h"

/* The sim_task of T; NULL for this CPU's idle task. */
struct sim_task *sim_of(struct task *t);
/* A free slot, zeroed, with a pid; NULL if none. */
struct sim_task *sim_slot_alloc(struct sim *s);
/* The CPU need of ST's next burst. */
u64 sim_first_burst(struct sim *s, struct sim_task *st);
/* Switch-ins noted, dead slots freed, this CPU's invariants checked. */
void sim_after_event(struct sim *s);
/* The irq-exit path: (several CPUs: the softirq,) then preemption. */
void sim_irq_exit(struct sim *s);
/* The running task's burst is over: its system call. */
void sim_act(struct sim *s, struct sim_task *cur);

/* The earliest timer wakeup before T, else T. */
u64 sim_next_wake(struct sim *s, u64 t);
/* CUR (NULL: the idle task) ran DT ns: its CPU time, its burst. */
void sim_charge(struct sim *s, struct sim_task *cur, u64 dt);
/* ST's sleep ends now: try_to_wake_up() from the timer, the irq exit. */
void sim_timer_wake(struct sim *s, struct sim_task *st);

/* sim_smp.c */
void sim_run_smp(struct sim *s, u64 duration);
void sim_smp_irq_exit(struct sim *s);
void sim_stopper_act(struct sim *s, struct sim_task *cur);

#endif
