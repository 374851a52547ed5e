/*
 * kernel/sched/features_eevdf.h - the feature bits of the EEVDF class, one
 * SCHED_FEAT(NAME, default) line each, in the order of Linux 6.12's
 * kernel/sched/features.h (Debian's 6.12 stable; the x86-64 build's list,
 * so the bits that exist only for SMP, NUMA or RT are listed too, and have
 * no effect here).  An X-macro like features.h: the order is the bit
 * numbering; test a bit with sched_feat(NAME) inside eevdf*.c (eevdf.h
 * points sched_feat at this mask); set/clear with sched_features= after
 * sched_preset=linux-6.12.
 */

/* Preserve lag across sleep and wakeup: place at V - lag (strategy #1). */
SCHED_FEAT(PLACE_LAG, 1)
/* A new task's first deadline is half a vslice away. */
SCHED_FEAT(PLACE_DEADLINE_INITIAL, 1)
/* A non-sleep dequeue keeps deadline - vruntime and restores it. */
SCHED_FEAT(PLACE_REL_DEADLINE, 1)
/* Once picked, current keeps the CPU until its deadline (no wakeup
 * preemption) while it stays eligible. */
SCHED_FEAT(RUN_TO_PARITY, 1)
/* A woken task with a shorter slice may cancel RUN_TO_PARITY. */
SCHED_FEAT(PREEMPT_SHORT, 1)
/* A woken task becomes the next buddy (off). */
SCHED_FEAT(NEXT_BUDDY, 0)
/* The next buddy is picked first if it is eligible. */
SCHED_FEAT(PICK_BUDDY, 1)
/* SMP only: buddies are cache-hot for migration. */
SCHED_FEAT(CACHE_HOT_BUDDY, 1)
/* A sleeper with negative lag stays queued until its lag reaches zero. */
SCHED_FEAT(DELAY_DEQUEUE, 1)
/* ... and leaves with its positive lag clipped to zero. */
SCHED_FEAT(DELAY_ZERO, 1)
/* Wakeups may preempt current (if the pick would now choose the wakee). */
SCHED_FEAT(WAKEUP_PREEMPTION, 1)
/* High-resolution slice-end preemption: not implemented for EEVDF here. */
SCHED_FEAT(HRTICK, 0)
SCHED_FEAT(HRTICK_DL, 0)
SCHED_FEAT(DOUBLE_TICK, 0)
/* The rest concern SMP, NUMA, RT or debugging; no effect on one CPU. */
SCHED_FEAT(NONTASK_CAPACITY, 1)
SCHED_FEAT(TTWU_QUEUE, 1)
SCHED_FEAT(SIS_UTIL, 1)
SCHED_FEAT(WARN_DOUBLE_CLOCK, 0)
SCHED_FEAT(RT_PUSH_IPI, 1)
SCHED_FEAT(RT_RUNTIME_SHARE, 0)
SCHED_FEAT(LB_MIN, 0)
SCHED_FEAT(ATTACH_AGE_LOAD, 1)
SCHED_FEAT(WA_IDLE, 1)
SCHED_FEAT(WA_WEIGHT, 1)
SCHED_FEAT(WA_BIAS, 1)
SCHED_FEAT(UTIL_EST, 1)
SCHED_FEAT(LATENCY_WARN, 0)
SCHED_FEAT(NI_RANDOM, 1)
