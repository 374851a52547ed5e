/*
 * arch/x86/acpi.c - find the ACPI tables, the PM timer in them, and enter
 * S5 (soft off).
 *
 * RSDP ("RSD PTR ", 16-byte aligned; checksum over 20 bytes, and over its
 * 36-byte length from revision 2 on): the copy GRUB passes in a multiboot2
 * tag (boot_info.acpi_rsdp_phys), else the BIOS areas: the first KiB of
 * the EBDA (segment in the BIOS data area word at 0x40E), then
 * 0xE0000..0xFFFFF.  It points to the RSDT (32-bit entries) or, revision
 * >= 2, the XSDT (64-bit entries; used when the RSDT address is 0).  Each
 * table has a 36-byte header {signature[4], length, revision, checksum,
 * ...}; its bytes sum to 0 mod 256.  acpi_find_table() hands any listed
 * table out by signature (the MADT, "APIC", to arch/x86/mpparse.c).
 *
 * FADT ("FACP") fields used (byte offsets; ports are I/O port numbers):
 *	40  DSDT	u32	physical address of the DSDT
 *	48  SMI_CMD	u32	port that switches to ACPI mode (0: always in it)
 *	52  ACPI_ENABLE	u8	value to write to SMI_CMD for that
 *	64  PM1a_CNT_BLK u32	port of the PM1a control register (16 bits)
 *	68  PM1b_CNT_BLK u32	port of the PM1b control register (0: none)
 *	76  PM_TMR_BLK	u32	I/O port of the PM timer (0: none)
 *	91  PM_TMR_LEN	u8	4 when the timer exists
 *	112 Flags	u32	bit 8 TMR_VAL_EXT: 32-bit counter (else 24-bit)
 *	140 X_DSDT	u64	preferred over DSDT when present, nonzero, < 4 GiB
 *	172 X_PM1a_CNT_BLK GAS	} used when the 32-bit field is 0 and the GAS
 *	184 X_PM1b_CNT_BLK GAS	} is an I/O port below 0x10000
 *	208 X_PM_TMR_BLK GAS	{space_id (1 = I/O), width, offset, size, u64 addr}
 * A field counts only if the FADT's length covers it.
 * The PM timer counts at 3.579545 MHz and wraps at 2^24 (4.69 s) or 2^32.
 *
 * S5: PM1x_CNT bit 0 SCI_EN (1: ACPI mode), bits 12:10 SLP_TYPx, bit 13
 * SLP_EN (write-only; writing 1 enters the sleep state SLP_TYPx selects).
 * SLP_TYPa/b come from the DSDT's \_S5 package (acpi_s5.c).  acpi_power_off():
 *  1. if SCI_EN is clear and SMI_CMD, ACPI_ENABLE are nonzero, write
 *     ACPI_ENABLE to SMI_CMD and poll SCI_EN (at most SCI_EN_POLLS reads);
 *  2. PM1x_CNT = (old & ~(SLP_TYP | SLP_EN | GBL_RLS)) | SLP_TYPx << 10,
 *     a then b, then the same | SLP_EN (1 << 13): the two-write order of
 *     the spec's sleeping sequence, read-modify-write preserving the
 *     other bits (GBL_RLS, bit 2, is write-1-to-signal: never echoed);
 *  3. wait at most OFF_WAIT_POLLS port reads for the power to go.
 *
 * Tables above the first MiB are mapped with ioremap() (a few pages, kept).
 * Every probe is bounded: a timer that does not move within PM_PROBE_READS
 * reads (a few ms even at 1 us per port read) is reported and not used.
 */
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/acpi.h>
#include <arch/cpu.h>
#include <arch/ioremap.h>

#define PM_PROBE_READS	10000	/* the counter moves every 279 ns */
#define MAX_TABLE_LEN	(64 * 1024)
#define MAX_DSDT_LEN	(512 * 1024)	/* laptop DSDTs run to 100s of KiB */
/* Port reads take about 1 us on real chipsets (an I/O cycle on the LPC bus). */
#define SCI_EN_POLLS	3000000	/* ~3 s: the SMI handler's time to switch modes */
#define OFF_WAIT_POLLS	1000000	/* ~1 s for the power to go after SLP_EN */

#define PM1_SCI_EN	(1u << 0)
#define PM1_GBL_RLS	(1u << 2)
#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP	(7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN	(1u << 13)

struct acpi_header {
	char signature[4];
	u32 length;
	u8 revision, checksum;
	char oem_id[6], oem_table_id[8];
	u32 oem_revision, creator_id, creator_revision;
} __attribute__((packed));

static int acpi_done, acpi_result = -1;
static u32 rsdp_phys;
static const u8 *acpi_rsdp;	/* once acpi_init() found it */
static struct acpi_pm_timer pm_timer;
static u32 pm_mask;

/* From the FADT: what acpi_power_off() needs (0: absent). */
static struct {
	u16 pm1a_cnt, pm1b_cnt, smi_cmd;
	u8 acpi_enable;
	u32 dsdt;	/* physical address */
} fadt_pm1;

const struct acpi_pm_timer *acpi_pm_timer(void) { return &pm_timer; }

u32 acpi_pm_read(void)
{
	return inl(pm_timer.port) & pm_mask;
}

static u8 sum_bytes(const u8 *p, u32 n)
{
	u8 s = 0;
	while (n--)
		s += *p++;
	return s;
}

/*
 * Low memory is always mapped at PAGE_OFFSET; the rest goes through the
 * fixmap.  The tables usually share a few pages, so earlier mappings are
 * remembered and reused rather than spending fixmap pages on each lookup.
 */
#define MAP_CACHE	16
static struct { u32 phys, len; const u8 *va; } map_cache[MAP_CACHE];
static int map_cached;

static const void *map_phys(u32 phys, u32 len)
{
	/* Firmware data: phys + len may wrap past 4 GiB; never add them. */
	if (len <= 0x100000 && phys <= 0x100000 - len)
		return __va(phys);
	if (!len || phys > 0xffffffffu - (len - 1))
		return NULL;
	for (int i = 0; i < map_cached; i++)
		if (phys >= map_cache[i].phys && len <= map_cache[i].len &&
		    phys - map_cache[i].phys <= map_cache[i].len - len)
			return map_cache[i].va + (phys - map_cache[i].phys);
	/* whole pages: [phys & ~0xfff, end of the last page) */
	u32 first = phys & ~0xfffu, end = ((phys + len - 1) | 0xfffu) + 1;
	const u8 *va = ioremap_nopanic(first, end - first);
	if (!va)
		return NULL;
	if (map_cached < MAP_CACHE)
		map_cache[map_cached++] = (typeof(map_cache[0])){ first, end - first, va };
	return va + (phys - first);
}

static int rsdp_valid(const u8 *p)
{
	if (memcmp(p, "RSD PTR ", 8) || sum_bytes(p, 20))
		return 0;
	return p[15] < 2 || !sum_bytes(p, 36);	/* revision at byte 15 */
}

static u32 scan_rsdp(u32 start, u32 len)
{
	for (u32 a = start; a + 36 <= start + len; a += 16)
		if (rsdp_valid(__va(a)))
			return a;
	return 0;
}

/*
 * Map a whole table with signature SIG and check it; NULL if bad.  A bad
 * checksum makes the table unusable, except with LENIENT (the DSDT: like
 * ACPICA, which only warns, since firmware ships DSDTs with stale sums).
 */
static const struct acpi_header *map_table_chk(u32 phys, const char *sig, u32 max_len, int lenient)
{
	const struct acpi_header *h = map_phys(phys, sizeof(*h));
	u32 len;

	if (!h)
		return NULL;
	len = h->length;
	if (memcmp(h->signature, sig, 4) || len < sizeof(*h) || len > max_len)
		return NULL;
	h = map_phys(phys, len);
	if (!h)
		return NULL;
	if (sum_bytes((const u8 *)h, len)) {
		if (!lenient)
			return NULL;
		printk("ACPI: %.4s at 0x%08x has a bad checksum; using it anyway\n", sig, phys);
	}
	return h;
}

static const struct acpi_header *map_table(u32 phys, const char *sig)
{
	return map_table_chk(phys, sig, MAX_TABLE_LEN, 0);
}

static u32 rd32(const void *base, u32 off) { u32 v; memcpy(&v, (const u8 *)base + off, 4); return v; }
static u64 rd64(const void *base, u32 off) { u64 v; memcpy(&v, (const u8 *)base + off, 8); return v; }

/* The table with signature SIG listed in the RSDT (or XSDT), checked; NULL if none. */
static const struct acpi_header *find_table(const u8 *rsdp, const char *sig)
{
	u32 rsdt = rd32(rsdp, 16);
	u64 xsdt = rsdp[15] >= 2 ? rd64(rsdp, 24) : 0;
	const struct acpi_header *sdt;
	int wide = 0;

	if (rsdt) {
		sdt = map_table(rsdt, "RSDT");
	} else if (xsdt && xsdt < 0x100000000ull) {
		sdt = map_table((u32)xsdt, "XSDT");
		wide = 1;
	} else {
		return NULL;
	}
	if (!sdt)
		return NULL;
	u32 n = (sdt->length - sizeof(*sdt)) / (wide ? 8 : 4);
	for (u32 i = 0; i < n; i++) {
		u64 a = wide ? rd64(sdt + 1, i * 8) : rd32(sdt + 1, i * 4);
		if (a >= 0x100000000ull)
			continue;
		const struct acpi_header *h = map_phys((u32)a, sizeof(*h));
		if (h && !memcmp(h->signature, sig, 4))
			return map_table((u32)a, sig);
	}
	return NULL;
}

/* The port, or 0, from the FADT; the width from its flags. */
static void read_pm_timer(const struct acpi_header *fadt)
{
	u32 len = fadt->length, port = len >= 80 ? rd32(fadt, 76) : 0;

	if (!port && len >= 220) {
		const u8 *gas = (const u8 *)fadt + 208;
		u64 addr = rd64(gas, 4);
		if (gas[0] == 1 && addr && addr < 0x10000)
			port = (u32)addr;
	}
	if (len >= 92 && rd32(fadt, 76) && ((const u8 *)fadt)[91] != 4)
		port = 0;	/* PM_TMR_LEN must be 4 */
	if (!port || port > 0xffff)
		return;
	pm_timer.port = (u16)port;
	pm_timer.bits = (len >= 116 && (rd32(fadt, 112) & (1u << 8))) ? 32 : 24;
	pm_mask = pm_timer.bits == 32 ? 0xffffffffu : 0xffffffu;
}

/* An I/O port from a 32-bit FADT field at OFF, else from the GAS at XOFF; 0: none. */
static u16 fadt_port(const struct acpi_header *fadt, u32 off, u32 xoff)
{
	u32 len = fadt->length, port = len >= off + 4 ? rd32(fadt, off) : 0;

	if (!port && len >= xoff + 12) {
		const u8 *gas = (const u8 *)fadt + xoff;
		u64 addr = rd64(gas, 4);
		if (gas[0] == 1 && addr < 0x10000)
			port = (u32)addr;
	}
	return port <= 0xffff ? (u16)port : 0;
}

/* The PM1 control ports, the ACPI-mode switch and the DSDT address. */
static void read_pm1_control(const struct acpi_header *fadt)
{
	u32 len = fadt->length, smi = len >= 53 ? rd32(fadt, 48) : 0;
	u64 xdsdt = len >= 148 ? rd64(fadt, 140) : 0;

	fadt_pm1.pm1a_cnt = fadt_port(fadt, 64, 172);
	fadt_pm1.pm1b_cnt = fadt_port(fadt, 68, 184);
	if (smi && smi <= 0xffff) {
		fadt_pm1.smi_cmd = (u16)smi;
		fadt_pm1.acpi_enable = ((const u8 *)fadt)[52];
	}
	if (xdsdt && xdsdt < 0x100000000ull)
		fadt_pm1.dsdt = (u32)xdsdt;
	else if (len >= 44)
		fadt_pm1.dsdt = rd32(fadt, 40);
}

/* Does the counter move within a bounded number of reads? */
static int pm_timer_ticks(void)
{
	u32 first = acpi_pm_read();

	for (int i = 0; i < PM_PROBE_READS; i++)
		if (acpi_pm_read() != first)
			return 1;
	return 0;
}

int acpi_init(void)
{
	const u8 *rsdp = NULL;
	const struct acpi_header *fadt;
	const char *where = "multiboot2 tag";

	if (acpi_done)
		return acpi_result;
	acpi_done = 1;

	if (boot_info.acpi_rsdp_phys && boot_info.acpi_rsdp_phys < 0x100000000ull) {
		u32 p = (u32)boot_info.acpi_rsdp_phys;
		rsdp = map_phys(p, 36);
		if (rsdp && rsdp_valid(rsdp))
			rsdp_phys = p;
		else
			rsdp = NULL;
	}
	if (!rsdp) {
		u32 ebda = (u32)*(const u16 *)__va(0x40e) << 4;
		where = "BIOS area";
		if (ebda >= 0x80000 && ebda < 0xa0000)
			rsdp_phys = scan_rsdp(ebda, 1024);
		if (!rsdp_phys)
			rsdp_phys = scan_rsdp(0xe0000, 0x20000);
		if (rsdp_phys)
			rsdp = __va(rsdp_phys);
	}
	if (!rsdp) {
		printk("ACPI: no RSDP found (multiboot2 tag, EBDA, 0xE0000-0xFFFFF)\n");
		return -1;
	}
	if (!(fadt = find_table(rsdp, "FACP"))) {
		printk("ACPI: RSDP at 0x%08x (%s, revision %u), but no valid FADT\n",
		       rsdp_phys, where, rsdp[15]);
		return -1;
	}
	acpi_rsdp = rsdp;
	read_pm_timer(fadt);
	read_pm1_control(fadt);
	if (pm_timer.port && !pm_timer_ticks()) {
		printk("ACPI: PM timer at port 0x%x does not tick: not used\n", pm_timer.port);
		pm_timer.port = 0;
	}
	printk("ACPI: RSDP at 0x%08x (%s, revision %u), FADT revision %u, PM timer %s",
	       rsdp_phys, where, rsdp[15], fadt->revision, pm_timer.port ? "" : "none\n");
	if (pm_timer.port)
		printk("at port 0x%x (%u-bit)\n", pm_timer.port, pm_timer.bits);
	acpi_result = 0;
	return 0;
}

const void *acpi_find_table(const char *sig, u32 *len)
{
	const struct acpi_header *h;

	if (acpi_init() < 0 || !(h = find_table(acpi_rsdp, sig)))
		return NULL;
	*len = h->length;
	return h;
}

/* SLP_TYPa/b from the DSDT's \_S5 package; 0, or -1 if none usable. */
static int find_s5(u8 *typa, u8 *typb)
{
	const struct acpi_header *dsdt;

	if (!fadt_pm1.dsdt || !(dsdt = map_table_chk(fadt_pm1.dsdt, "DSDT", MAX_DSDT_LEN, 1)))
		return -1;
	return acpi_parse_s5((const u8 *)(dsdt + 1), dsdt->length - sizeof(*dsdt), typa, typb);
}

/* Step 1 of the sequence in the header comment: make sure SCI_EN is set. */
static void acpi_enable_mode(void)
{
	u16 cnt = fadt_pm1.pm1a_cnt;

	if ((inw(cnt) & PM1_SCI_EN) || !fadt_pm1.smi_cmd || !fadt_pm1.acpi_enable)
		return;
	outb(fadt_pm1.smi_cmd, fadt_pm1.acpi_enable);
	for (u32 i = 0; i < SCI_EN_POLLS; i++) {
		if (inw(cnt) & PM1_SCI_EN) {
			printk("ACPI: SCI_EN set after writing 0x%x to SMI_CMD 0x%x\n",
			       fadt_pm1.acpi_enable, fadt_pm1.smi_cmd);
			return;
		}
	}
	printk("ACPI: SCI_EN still clear after writing 0x%x to SMI_CMD 0x%x; trying S5 anyway\n",
	       fadt_pm1.acpi_enable, fadt_pm1.smi_cmd);
}

/* PM1x_CNT with SLP_TYP = TYP and SLP_EN as given, the other bits kept. */
static void pm1_cnt_write(u16 port, u8 typ, u16 slp_en)
{
	u16 v = inw(port) & ~(PM1_SLP_TYP | PM1_SLP_EN | PM1_GBL_RLS);

	outw(port, v | (u16)(typ << PM1_SLP_TYP_SHIFT) | slp_en);
}

int acpi_power_off(void)
{
	static int tried;
	u16 a, b;
	u8 typa, typb;

	if (tried++)		/* a panic on the way here must not loop */
		return -EIO;
	if (acpi_init() < 0 || !(a = fadt_pm1.pm1a_cnt))
		return -ENODEV;
	if (find_s5(&typa, &typb)) {
		printk("ACPI: no usable \\_S5 package in the DSDT at 0x%08x\n", fadt_pm1.dsdt);
		return -ENODEV;
	}
	b = fadt_pm1.pm1b_cnt;
	acpi_enable_mode();
	printk("ACPI: S5 via PM1a_CNT 0x%x SLP_TYP %u", a, typa);
	if (b)
		printk(", PM1b_CNT 0x%x SLP_TYP %u", b, typb);
	printk("\n");

	pm1_cnt_write(a, typa, 0);
	if (b)
		pm1_cnt_write(b, typb, 0);
	pm1_cnt_write(a, typa, PM1_SLP_EN);
	if (b)
		pm1_cnt_write(b, typb, PM1_SLP_EN);
	for (u32 i = 0; i < OFF_WAIT_POLLS; i++)
		(void)inw(a);
	printk("ACPI: still running after S5 (PM1a_CNT 0x%x reads 0x%04x)\n", a, inw(a));
	return -EIO;
}
