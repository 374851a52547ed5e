/* kernel/ktest.h - in-kernel fault tests (ktest=NAME), see kernel/ktest.c. */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

void ktest_run(void);
/* After the stoppers exist (cpu_stop_init()): ktest=smp's cpu_stop check. */
void ktest_run_late(void);
/* ktest=smp (kernel/ktest_smp.c): cross calls, IPIs, TLB shootdown. */
void ktest_smp(void);
void ktest_smp_cpu_stop(void);
/* Its leaf locks' check (kernel/ktest_leaf_locks.c): the failed checks. */
unsigned int ktest_smp_leaf_locks(void);
/* ktest=lockdep (kernel/ktest_lockdep.c): each lock validator report. */
void ktest_lockdep(void);

#endif
