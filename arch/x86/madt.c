/*
 * arch/x86/madt.c - the processors of ACPI's MADT (layout: <arch/mpspec.h>),
 * as Linux 2.6.35's acpi_parse_madt_lapic_entries() reads them: every
 * Processor Local APIC entry in table order, enabled or not, and a Local
 * APIC Address Override replacing the header's address.  Pure: the host
 * tests run it on byte arrays (tests/host/smp/test_madt.c).
 */
#include <kernel/string.h>
#include <arch/mpspec.h>

#define MADT_HDR		44	/* table header 36 + address 4 + flags 4 */
#define MADT_LAPIC		0
#define MADT_LAPIC_OVERRIDE	5
#define MADT_X2APIC		9
#define ACPI_MADT_ENABLED	1

static u32 get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

int madt_parse(const u8 *t, u32 len, struct mp_config *out)
{
	u32 off = MADT_HDR;

	memset(out, 0, sizeof(*out));
	if (len < MADT_HDR || memcmp(t, "APIC", 4) || get32(t + 4) < MADT_HDR)
		return -1;
	if (get32(t + 4) < len)
		len = get32(t + 4);	/* the table's own length, if shorter */
	out->spec = t[8];
	out->lapic_addr = get32(t + 36);
	/* entries of at least 2 bytes, wholly inside the table (BAD_MADT_ENTRY) */
	while (off + 2 <= len && t[off + 1] >= 2 && off + t[off + 1] <= len) {
		const u8 *e = t + off;

		if (e[0] == MADT_LAPIC && e[1] >= 8) {
			if (out->nr_cpus < MP_MAX_CPUS)
				out->cpus[out->nr_cpus] = (struct mp_cpu){
					.apicid = e[3], .acpi_id = e[2],
					.enabled = get32(e + 4) & ACPI_MADT_ENABLED,
				};
			out->nr_cpus++;
		} else if (e[0] == MADT_LAPIC_OVERRIDE && e[1] >= 12) {
			u32 lo = get32(e + 4), hi = get32(e + 8);

			if (!hi)	/* above 4 GiB: out of an i686's reach */
				out->lapic_addr = lo;
		} else if (e[0] == MADT_X2APIC && e[1] >= 16) {
			out->x2apic++;
		}
		off += e[1];
	}
	return 0;
}
