/*
 * arch/mpspec.h - the firmware's list of CPUs, from ACPI's MADT
 * (arch/x86/madt.c) or the Intel MP table (arch/x86/mptable.c).  Both
 * parsers are pure (bytes in, struct mp_config out), bounded by the length
 * they are given and never trust a length field beyond it, so the host
 * tests feed them byte arrays (tests/host/smp/).  Only <kernel/types.h>
 * is included.
 *
 * MADT ("APIC", ACPI 1.0+), after the 36-byte table header:
 *	36 u32 local APIC address   40 u32 flags (bit 0: PC-AT 8259s)
 *	44 entries {u8 type, u8 length, ...}:
 *	   0 Processor Local APIC (8):  2 u8 ACPI processor id, 3 u8 APIC id,
 *	     4 u32 flags (bit 0 enabled)
 *	   5 Local APIC Address Override (12): 4 u64 address
 *	   9 Processor Local x2APIC (16): 4 u32 x2APIC id, 8 u32 flags
 *	     (counted, not used: an i686 kernel drives the xAPIC, ids < 255)
 * MP floating pointer ("_MP_", 16 bytes, 16-byte aligned, MP spec 1.4):
 *	4 u32 configuration table address   8 u8 length (1: 16 bytes)
 *	9 u8 spec revision (1 or 4)   10 u8 checksum   11 u8 default
 *	configuration (0: a table follows; 1-7: a standard two-CPU PC)
 * MP configuration table ("PCMP", 44-byte header):
 *	4 u16 length   6 u8 spec   7 u8 checksum   8 char OEM[8]
 *	16 char product[12]   34 u16 entry count   36 u32 local APIC address
 *	44 entries: 0 processor (20): 1 u8 APIC id, 2 u8 APIC version,
 *	   3 u8 flags (bit 0 enabled, bit 1 boot processor), 4 u32 signature;
 *	   1 bus, 2 I/O APIC, 3 I/O and 4 local interrupt (8 bytes each)
 * Every byte of a table or of the floating pointer sums to 0 mod 256.
 */
#ifndef ARCH_MPSPEC_H
#define ARCH_MPSPEC_H

#include <kernel/types.h>

#define MP_MAX_CPUS	256	/* one per xAPIC id */

struct mp_cpu {
	u32 apicid;
	u32 acpi_id;		/* MADT: ACPI processor id; MP table: 0 */
	u8 version;		/* MP table: the APIC's version; MADT: 0 (not listed) */
	u8 enabled;		/* usable (a disabled entry is a CPU the firmware turned off) */
	u8 bsp;			/* MP table: flagged the boot processor */
};

struct mp_config {
	u32 lapic_addr;		/* local APIC address the firmware gives */
	unsigned int nr_cpus;	/* processor entries read (at most MP_MAX_CPUS kept) */
	struct mp_cpu cpus[MP_MAX_CPUS];
	unsigned int x2apic;	/* MADT x2APIC entries seen, not used */
	u8 spec;		/* MP spec revision (1 or 4); MADT: its revision */
	char oem[9], product[13];	/* MP table header strings, NUL-terminated */
};

/* MADT T of LEN bytes (header included, checksum already checked): its
 * processors into OUT.  0, or -1 if T is too short or not a MADT. */
int madt_parse(const u8 *t, u32 len, struct mp_config *out);

/* Offset of the first valid MP floating pointer in P[0..LEN) (16-byte
 * aligned from P), or -1. */
long mpf_scan(const u8 *p, u32 len);
/* P (16 bytes) is a valid floating pointer: signature, length 1, spec 1
 * or 4, checksum. */
int mpf_valid(const u8 *p);
/* MP configuration table T with LEN bytes readable: its processors into
 * OUT.  0, or -1 if the header is bad (signature, length, version,
 * checksum, no local APIC address); a bad entry ends the walk. */
int mpc_parse(const u8 *t, u32 len, struct mp_config *out);
/* A floating pointer's default configuration TYPE (1-7): two CPUs, APIC
 * ids 0 and 1, integrated APICs from type 5 on (MP spec 1.4, chapter 5). */
void mp_default_config(int type, struct mp_config *out);

#endif
