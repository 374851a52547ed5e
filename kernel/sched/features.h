/*
 * kernel/sched/features.h - the scheduler feature bits, one
 * SCHED_FEAT(NAME, default) line each (Linux's kernel/sched_features.h).
 *
 * This file is an X-macro: it has no include guard and is included three
 * times with different SCHED_FEAT definitions, giving
 *   - the enum __SCHED_FEAT_NAME = bit number  (kernel/sched/sched.h),
 *   - the default mask sysctl_sched_features   (kernel/sched/tunables.c),
 *   - the name table used to print and parse   (kernel/sched/tunables.c),
 * so the order of the lines IS the bit numbering.
 *
 * Bits 0-13 are Linux 2.6.35's list, unchanged (identical in 2.6.36);
 * default mask 0x3C6F.  Bits 14 and up are the seed variants Granule adds
 * (all default off, so the default mask stays 0x3C6F).  Test a bit with
 * sched_feat(NAME); set/clear at boot with sched_features=NAME,NO_NAME.
 */

/*
 * Halve the sleeper credit: a woken long sleeper is placed latency/2
 * (3 ms) before min_vruntime instead of a full latency (6 ms).
 */
SCHED_FEAT(GENTLE_FAIR_SLEEPERS, 1)

/*
 * A fork starts one vslice after min_vruntime, i.e. in the next period,
 * so forking cannot take CPU time already due to the queued tasks.
 */
SCHED_FEAT(START_DEBIT, 1)

/*
 * Wakeups may preempt the running task (beyond wakeup_gran), and the tick
 * check runs its steps 3-5 (the vruntime-lead test).
 */
SCHED_FEAT(WAKEUP_PREEMPT, 1)

/* Defined but referenced nowhere in 2.6.35 (dead). */
SCHED_FEAT(AFFINE_WAKEUPS, 1)

/*
 * The next buddy: the most recently woken task is picked ahead of the
 * leftmost if within one wakeup_gran of it (it probably shares data with
 * its waker).  Only while nr_running >= sched_nr_latency.
 */
SCHED_FEAT(NEXT_BUDDY, 0)

/*
 * The last buddy: a task just preempted by a wakeup is picked back ahead
 * of the leftmost if within one wakeup_gran of it (its cache is still
 * warm).  Only while nr_running >= sched_nr_latency.
 */
SCHED_FEAT(LAST_BUDDY, 1)

/* Buddies count as cache-hot for migration (SMP only; no effect here). */
SCHED_FEAT(CACHE_HOT_BUDDY, 1)

/* Per-architecture CPU capacity hooks (SMP only; no effect here). */
SCHED_FEAT(ARCH_POWER, 0)

/* High-resolution slice-end preemption (<kernel/hrtick.h>). */
SCHED_FEAT(HRTICK, 0)

/* With HRTICK: also run the periodic tick's preemption check while an
 * hrtick is armed (if 0, an armed hrtick makes the tick skip it). */
SCHED_FEAT(DOUBLE_TICK, 0)

/* Load-balancing bias, group-share update, asymmetric effective load
 * (SMP / group scheduling only; no effect here). */
SCHED_FEAT(LB_BIAS, 1)
SCHED_FEAT(LB_SHARES_UPDATE, 1)
SCHED_FEAT(ASYM_EFF_LOAD, 1)

/* Spin on the owner of a mutex (SMP only; no effect here). */
SCHED_FEAT(OWNER_SPIN, 1)

/* ---- Granule additions: the September 2010 seed variants ---------------- */

/*
 * [SN] START_NICE v2: after a fork, parent and child advance vruntime
 * 2^penalty times faster until the parent's slice ends (the patch adds
 * this line after START_DEBIT; it is appended here to keep 2.6.35's bit
 * numbers).
 */
SCHED_FEAT(START_NICE, 0)

/*
 * [M1/2] "dynamically adapt granularity with nr_running": the period
 * stretches only beyond sched_nr_latency_max tasks and the tick's
 * minimum-run gate becomes __sched_gran(nr_running).  The patch changed
 * the code outright; here it is a bit so presets can switch it.
 */
SCHED_FEAT(DYN_GRAN, 0)

/*
 * DEADLINE, OUR RECONSTRUCTION of Peter Zijlstra's unpublished Sept. 2010
 * idea ([LWN], docs/DEBATE.md): a new task that has not run one period after
 * its fork is run at once.
 */
SCHED_FEAT(DEADLINE, 0)

/*
 * cpt-fix, A GUESS standing in for the unidentified "check_preempt
 * vruntime vs runtime comparison" patch cited by [SN]: check_preempt_tick
 * step 5 compares the vruntime lead with calc_delta_fair(ideal, curr).
 */
SCHED_FEAT(CPT_FIX, 0)
