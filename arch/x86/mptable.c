/*
 * arch/x86/mptable.c - the processors of the Intel MultiProcessor
 * Specification's tables (1.4, 1997; layout: <arch/mpspec.h>), which PCs
 * without ACPI (and QEMU's SeaBIOS with ACPI off) describe their CPUs
 * with.  The checks are Linux 2.6.35's (arch/x86/kernel/mpparse.c:
 * smp_scan_config(), smp_check_mpc(), smp_read_mpc(),
 * construct_default_ISA_mptable()).  Pure: the host tests run it on byte
 * arrays (tests/host/smp/test_mptable.c); the scan of the BIOS areas is
 * arch/x86/mpparse.c's.
 */
#include <kernel/string.h>
#include <arch/mpspec.h>

#define MPC_HDR		44
#define MP_PROCESSOR	0
#define MP_BUS		1
#define MP_IOAPIC	2
#define MP_INTSRC	3
#define MP_LINTSRC	4
#define CPU_ENABLED	1
#define CPU_BOOTPROCESSOR 2

static u8 sum_bytes(const u8 *p, u32 n)
{
	u8 s = 0;

	while (n--)
		s += *p++;
	return s;
}

static u32 get16(const u8 *p) { return p[0] | (u32)p[1] << 8; }
static u32 get32(const u8 *p) { return get16(p) | get16(p + 2) << 16; }

int mpf_valid(const u8 *p)
{
	return !memcmp(p, "_MP_", 4) && p[8] == 1 && (p[9] == 1 || p[9] == 4) &&
	       !sum_bytes(p, 16);
}

long mpf_scan(const u8 *p, u32 len)
{
	for (u32 off = 0; off + 16 <= len; off += 16)
		if (mpf_valid(p + off))
			return off;
	return -1;
}

/* The header string S of N bytes, NUL-terminated and without trailing blanks. */
static void copy_id(char *dst, const u8 *s, int n)
{
	memcpy(dst, s, n);
	dst[n] = 0;
	while (n > 0 && (dst[n - 1] == ' ' || dst[n - 1] == 0))
		dst[--n] = 0;
}

int mpc_parse(const u8 *t, u32 len, struct mp_config *out)
{
	u32 tlen, off = MPC_HDR;

	memset(out, 0, sizeof(*out));
	if (len < MPC_HDR || memcmp(t, "PCMP", 4))
		return -1;
	tlen = get16(t + 4);
	if (tlen < MPC_HDR || tlen > len || sum_bytes(t, tlen) || (t[6] != 1 && t[6] != 4) ||
	    !get32(t + 36))
		return -1;
	out->spec = t[6];
	out->lapic_addr = get32(t + 36);
	copy_id(out->oem, t + 8, 8);
	copy_id(out->product, t + 16, 12);
	while (off < tlen) {
		const u8 *e = t + off;
		u32 size = e[0] == MP_PROCESSOR ? 20 : e[0] <= MP_LINTSRC ? 8 : 0;

		if (!size || off + size > tlen)
			break;	/* an unknown type or a cut entry: "wrong mptable" */
		if (e[0] == MP_PROCESSOR) {
			if (out->nr_cpus < MP_MAX_CPUS)
				out->cpus[out->nr_cpus] = (struct mp_cpu){
					.apicid = e[1], .version = e[2],
					.enabled = e[3] & CPU_ENABLED,
					.bsp = (e[3] & CPU_BOOTPROCESSOR) != 0,
				};
			out->nr_cpus++;
		}
		off += size;
	}
	return 0;
}

void mp_default_config(int type, struct mp_config *out)
{
	memset(out, 0, sizeof(*out));
	out->spec = 1;
	out->lapic_addr = 0xfee00000u;
	out->nr_cpus = 2;
	for (int i = 0; i < 2; i++)
		out->cpus[i] = (struct mp_cpu){
			.apicid = (u32)i, .version = type > 4 ? 0x10 : 0x01,
			.enabled = 1, .bsp = i == 0,
		};
}
