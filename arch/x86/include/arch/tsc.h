/*
 * arch/tsc.h - TSC calibration sources (arch/x86/tsc.c).  tsc_calibrate()
 * and the sched_clock side are declared in <arch/timer.h>.
 */
#ifndef ARCH_TSC_H
#define ARCH_TSC_H

#include <kernel/types.h>

/* What calibrated the TSC: "cpuid", "pmtimer", "pit" or "none". */
extern const char *tsc_calibration_source;

/*
 * A calibration gate timed by the TSC itself once calibrated (for devices
 * such as the APIC timer on machines without a usable PIT): FN(start=1),
 * busy-wait MS milliseconds of TSC time, FN(start=0).  Returns -1 if the
 * TSC is not calibrated yet.
 */
/* sched_clock()'s TSC base and cyc2ns mult for the vDSO; 0 if not the TSC. */
int tsc_vclock(u64 *base, u32 *mult);
int tsc_gate(unsigned ms, void (*fn)(int start, void *arg), void *arg);

#endif
