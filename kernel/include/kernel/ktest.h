/* kernel/ktest.h - in-kernel fault tests (ktest=NAME), see kernel/ktest.c. */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

void ktest_run(void);
/* ktest=smp (kernel/ktest_smp.c): cross calls, IPIs, TLB shootdown. */
void ktest_smp(void);
/* ktest=lockdep (kernel/ktest_lockdep.c): each lock validator report. */
void ktest_lockdep(void);

#endif
