/*
 * arch/acpi.h - the little of ACPI Granule reads (arch/x86/acpi.c): the
 * RSDP, the RSDT/XSDT, the FADT's power-management timer and PM1 control
 * blocks, and the DSDT's \_S5 package for soft power off
 * (arch/x86/acpi_s5.c).  Only <kernel/types.h> is included, so the host
 * unit tests can use this header too.
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
/* The table with signature SIG (4 characters, e.g. "APIC", the MADT),
 * mapped and checksummed, header included, with its length in *LEN; NULL
 * if ACPI or the table is missing or bad. */
const void *acpi_find_table(const char *sig, u32 *len);
/* The FADT's PM timer (port 0 if none, or if it never ticked in a bounded probe). */
const struct acpi_pm_timer *acpi_pm_timer(void);
/* Read the PM timer's counter (masked to its width). */
u32 acpi_pm_read(void);

/*
 * Enter S5 (soft off) the ACPI way: SLP_TYPa/b from the DSDT's \_S5
 * package, written with SLP_EN to the FADT's PM1a (and PM1b) control
 * ports, after switching to ACPI mode (SMI_CMD <- ACPI_ENABLE) if SCI_EN is
 * clear.  Call with interrupts off.  Returns only if that did not work:
 * -ENODEV if ACPI gave nothing to try (no FADT, no PM1a_CNT_BLK, no valid
 * DSDT or no usable \_S5), -EIO if the write was made but the machine is
 * still running after about a second.
 */
int acpi_power_off(void);

/*
 * Find SLP_TYPa/SLP_TYPb in the AML byte code AML[0..LEN) (a DSDT without
 * its 36-byte header); 0 on success, -1 if there is no usable \_S5 package.
 * Pure and bounded: reads only AML[0..LEN).  Encodings: acpi_s5.c.
 */
int acpi_parse_s5(const u8 *aml, u32 len, u8 *typa, u8 *typb);

#endif
