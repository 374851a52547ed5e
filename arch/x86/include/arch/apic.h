/*
 * arch/apic.h - the local APIC's registers and interrupt command register,
 * for the code that talks to other CPUs (arch/x86/smpboot.c, ipi.c).  The
 * timer's side is <arch/timer.h>.  Register names and bits are Linux's
 * (asm/apicdef.h).
 *
 * Every CPU has its own local APIC at the same physical address
 * (IA32_APIC_BASE, 0xfee00000): one mapping serves them all, and each CPU
 * reaching it talks to its own.
 */
#ifndef ARCH_APIC_H
#define ARCH_APIC_H

#include <kernel/types.h>

#define APIC_ID			0x020	/* bits 31:24: this CPU's APIC id */
#define APIC_LVR		0x030	/* version (7:0), max LVT entry (23:16) */
#define APIC_TASKPRI		0x080
#define APIC_EOI		0x0b0
#define APIC_SPIV		0x0f0	/* spurious vector, bit 8: software enable */
#define APIC_ESR		0x280	/* error status (write, then read) */
#define APIC_ICR		0x300	/* interrupt command, low word: sends */
#define APIC_ICR2		0x310	/* ... high word: the destination */
#define APIC_LVTT		0x320
#define APIC_LVT0		0x350
#define APIC_LVT1		0x360
#define APIC_LVTERR		0x370
#define APIC_TDCR		0x3e0

#define APIC_ICR_BUSY		0x01000	/* delivery status: still sending */
#define APIC_DEST_PHYSICAL	0x00000
#define APIC_INT_LEVELTRIG	0x08000
#define APIC_INT_ASSERT		0x04000
#define APIC_DM_FIXED		0x00000
#define APIC_DM_NMI		0x00400
#define APIC_DM_INIT		0x00500
#define APIC_DM_STARTUP		0x00600
#define APIC_DM_EXTINT		0x00700
#define APIC_LVT_MASKED		(1u << 16)
#define SET_APIC_DEST_FIELD(id)	((u32)(id) << 24)

#define GET_APIC_VERSION(lvr)	((lvr) & 0xff)
#define GET_APIC_MAXLVT(lvr)	(((lvr) >> 16) & 0xff)
/* An APIC inside the CPU (version 1x), not a discrete 82489DX (0x): only
 * those understand STARTUP IPIs (Linux's APIC_INTEGRATED). */
#define APIC_INTEGRATED(ver)	((ver) & 0xf0)

/* IPI vectors, Linux's numbers (asm/irq_vectors.h); the timer's is 0xef. */
#define RESCHEDULE_VECTOR		0xfd
#define CALL_FUNCTION_VECTOR		0xfc
#define CALL_FUNCTION_SINGLE_VECTOR	0xfb

extern volatile u32 *apic_regs;

static inline u32 apic_read(u32 reg)		{ return apic_regs[reg / 4]; }
static inline void apic_write(u32 reg, u32 v)	{ apic_regs[reg / 4] = v; }

/* Map the local APIC (once) and enable it in IA32_APIC_BASE; 0, or -1
 * when the CPU has none. */
int apic_map(void);
/* This CPU's APIC id (the register, or CPUID's initial id unmapped). */
u32 read_apic_id(void);
/* Set up this (non-boot) CPU's local APIC: LINT0/LINT1 masked (the 8259
 * and NMIs go to the boot CPU), its timer on LOCAL_TIMER_VECTOR but
 * masked, then software-enabled. */
void setup_secondary_APIC(void);
/* True once apic_init() ran on the boot CPU. */
int apic_is_setup(void);

/* The interrupt command register (arch/x86/ipi.c). */
int apic_wait_icr_idle(void);		/* 0, or -1 after ~1 s of busy */
void apic_icr_write(u32 low, u32 apicid);
/* VECTOR to the CPU whose APIC id is APICID (fixed delivery, physical). */
void apic_send_IPI(u32 apicid, int vector);

#endif
