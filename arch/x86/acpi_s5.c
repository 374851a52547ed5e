/*
 * arch/x86/acpi_s5.c - find SLP_TYPa/SLP_TYPb for S5 (soft off) in AML.
 *
 * A pure function over a byte buffer (no ACPI interpreter, no I/O), so the
 * host unit tests (tests/host/acpi) compile this file unchanged.
 *
 * Firmware declares the S5 values as a named package in the DSDT:
 *
 *	Name (_S5, Package (4) { SLP_TYPa, SLP_TYPb, reserved, reserved })
 *
 * acpi_parse_s5() scans for the four bytes "_S5_" and accepts the first
 * occurrence laid out as (hex bytes, [] optional):
 *
 *	[08 [5C]] | [5C]   NameOp, root prefix '\' (or the name starts the buffer)
 *	5F 53 35 5F        "_S5_"
 *	12                 PackageOp
 *	PkgLength          1..4 bytes: lead byte bits 7-6 = number of following
 *	                   bytes N; N = 0: length = bits 5-0; else length =
 *	                   bits 3-0 | next byte << 4 | ... << 12 | ... << 20.
 *	                   The length counts itself and the package's body.
 *	NumElements        one byte, >= 2
 *	SLP_TYPa, SLP_TYPb each one of: 00 (ZeroOp), 01 (OneOp),
 *	                   0A bb (BytePrefix), 0B bb bb (WordPrefix),
 *	                   0C bb bb bb bb (DWordPrefix); the value must fit
 *	                   SLP_TYP's 3 bits (0..7)
 *
 * Invariants: every read is at an index < len, and also inside the
 * package (a PkgLength reaching past len is malformed); the scan is one
 * pass over the buffer (O(len)).  Anything else - OnesOp, a name or method
 * call as an element, a package that is too short - makes that occurrence
 * not count, and the scan goes on to the next one.
 */
#include <arch/acpi.h>

#define AML_ZERO_OP	0x00
#define AML_ONE_OP	0x01
#define AML_NAME_OP	0x08
#define AML_BYTE_PREFIX	0x0a
#define AML_WORD_PREFIX	0x0b
#define AML_DWORD_PREFIX 0x0c
#define AML_PACKAGE_OP	0x12
#define AML_ROOT_CHAR	0x5c	/* '\' */

#define SLP_TYP_MAX	7	/* PM1x_CNT bits 12:10 */

/*
 * One integer element at aml[*pos], which must end by END (<= buffer
 * length).  Advances *pos past it; -1 if it is not a small integer.
 */
static int parse_small_int(const u8 *aml, u32 *pos, u32 end, u8 *out)
{
	u32 p = *pos, v, n;

	if (p >= end)
		return -1;
	switch (aml[p]) {
	case AML_ZERO_OP:
	case AML_ONE_OP:
		*out = aml[p];
		*pos = p + 1;
		return 0;
	case AML_BYTE_PREFIX:	n = 1; break;
	case AML_WORD_PREFIX:	n = 2; break;
	case AML_DWORD_PREFIX:	n = 4; break;
	default:
		return -1;
	}
	if (end - (p + 1) < n)
		return -1;
	v = 0;
	for (u32 i = 0; i < n; i++)	/* little endian */
		v |= (u32)aml[p + 1 + i] << (8 * i);
	if (v > SLP_TYP_MAX)
		return -1;
	*out = (u8)v;
	*pos = p + 1 + n;
	return 0;
}

/*
 * A PkgLength at aml[pos] (pos < len).  Returns the offset just past the
 * package (pos + length), or 0 if the encoding is bad or runs past LEN.
 */
static u32 parse_pkg_end(const u8 *aml, u32 pos, u32 len)
{
	u8 lead = aml[pos];
	u32 extra = lead >> 6, plen;

	if (extra == 0) {
		plen = lead & 0x3f;
	} else {
		if (len - pos - 1 < extra)
			return 0;
		plen = lead & 0x0f;
		for (u32 i = 0; i < extra; i++)
			plen |= (u32)aml[pos + 1 + i] << (4 + 8 * i);
	}
	/* at least the PkgLength itself, NumElements and two 1-byte elements */
	if (plen < extra + 1 + 1 + 2 || plen > len - pos)
		return 0;
	return pos + plen;
}

/* Is the "_S5_" at aml[at] a name being declared (see the header comment)? */
static int name_context_ok(const u8 *aml, u32 at)
{
	if (at == 0)
		return 1;
	return aml[at - 1] == AML_NAME_OP || aml[at - 1] == AML_ROOT_CHAR;
}

/* The package after the "_S5_" at aml[at]; 0 and the values, or -1. */
static int parse_s5_at(const u8 *aml, u32 len, u32 at, u8 *typa, u8 *typb)
{
	u32 pos = at + 4, end;
	u8 a, b;

	if (!name_context_ok(aml, at))
		return -1;
	if (len - pos < 2 || aml[pos] != AML_PACKAGE_OP)	/* PackageOp, PkgLength */
		return -1;
	end = parse_pkg_end(aml, pos + 1, len);
	if (!end)
		return -1;
	pos += 2 + (aml[pos + 1] >> 6);		/* past PackageOp and PkgLength */
	if (pos >= end || aml[pos] < 2)		/* NumElements */
		return -1;
	pos++;
	if (parse_small_int(aml, &pos, end, &a) || parse_small_int(aml, &pos, end, &b))
		return -1;
	*typa = a;
	*typb = b;
	return 0;
}

int acpi_parse_s5(const u8 *aml, u32 len, u8 *typa, u8 *typb)
{
	if (!aml || len < 4)
		return -1;
	for (u32 i = 0; i <= len - 4; i++) {
		if (aml[i] != '_' || aml[i + 1] != 'S' || aml[i + 2] != '5' || aml[i + 3] != '_')
			continue;
		if (!parse_s5_at(aml, len, i, typa, typb))
			return 0;
	}
	return -1;
}
