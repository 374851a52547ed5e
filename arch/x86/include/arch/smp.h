/*
 * arch/smp.h - the x86 side of several CPUs: how CPU numbers map to APIC
 * ids (arch/x86/mpparse.c fills it), and the first C function of a
 * started CPU (arch/x86/smpboot.c).
 */
#ifndef ARCH_SMP_H
#define ARCH_SMP_H

#include <kernel/types.h>
#include <kernel/threads.h>

extern u32 boot_cpu_physical_apicid;	/* the boot CPU's APIC id */
extern u32 x86_cpu_to_apicid[NR_CPUS];	/* CPU number -> APIC id */
extern u8 apic_version[256];		/* APIC id -> its APIC's version */

/* Where arch/x86/trampoline.asm ends up: no return. */
__attribute__((noreturn)) void start_secondary(void);

/* The IPI vectors' handlers (arch/x86/ipi.c). */
void ipi_init(void);

#endif
