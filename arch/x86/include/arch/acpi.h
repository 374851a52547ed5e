/*
 * arch/acpi.h - the little of ACPI Granule reads (arch/x86/acpi.c): the
 * RSDP, the RSDT/XSDT and the FADT's power-management timer.
 */
#ifndef ARCH_ACPI_H
#define ARCH_ACPI_H

#include <kernel/types.h>

#define ACPI_PM_TIMER_HZ	3579545u	/* the PM timer's fixed input clock */

struct acpi_pm_timer {
	u16 port;	/* I/O port of the counter; 0 = none */
	u8 bits;	/* 24 or 32 (FADT flag TMR_VAL_EXT) */
};

/* Find the tables once (idempotent); 0 if an FADT was found, -1 otherwise.
 * Prints one line saying what was found or what is missing. */
int acpi_init(void);
/* Physical address of the RSDP, or 0. */
u32 acpi_rsdp(void);
/* The FADT's PM timer (port 0 if none, or if it never ticked in a bounded probe). */
const struct acpi_pm_timer *acpi_pm_timer(void);
/* Read the PM timer's counter (masked to its width). */
u32 acpi_pm_read(void);

#endif
