/*
 * arch/x86/acpi.c - find the ACPI tables and the PM timer in them.
 *
 * RSDP ("RSD PTR ", 16-byte aligned; checksum over 20 bytes, and over its
 * 36-byte length from revision 2 on): the copy GRUB passes in a multiboot2
 * tag (boot_info.acpi_rsdp_phys), else the BIOS areas: the first KiB of
 * the EBDA (segment in the BIOS data area word at 0x40E), then
 * 0xE0000..0xFFFFF.  It points to the RSDT (32-bit entries) or, revision
 * >= 2, the XSDT (64-bit entries; used when the RSDT address is 0).  Each
 * table has a 36-byte header {signature[4], length, revision, checksum,
 * ...}; its bytes sum to 0 mod 256.
 *
 * FADT ("FACP") fields used (byte offsets):
 *	76  PM_TMR_BLK	u32	I/O port of the PM timer (0: none)
 *	91  PM_TMR_LEN	u8	4 when the timer exists
 *	112 Flags	u32	bit 8 TMR_VAL_EXT: 32-bit counter (else 24-bit)
 *	208 X_PM_TMR_BLK GAS	{space_id (1 = I/O), width, offset, size, u64 addr}
 * The PM timer counts at 3.579545 MHz and wraps at 2^24 (4.69 s) or 2^32.
 *
 * Tables above the first MiB are mapped with ioremap() (a few pages, kept).
 * Every probe is bounded: a timer that does not move within PM_PROBE_READS
 * reads (a few ms even at 1 us per port read) is reported and not used.
 */
#include <kernel/bootinfo.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/acpi.h>
#include <arch/cpu.h>
#include <arch/ioremap.h>

#define PM_PROBE_READS	10000	/* the counter moves every 279 ns */
#define MAX_TABLE_LEN	(64 * 1024)

struct acpi_header {
	char signature[4];
	u32 length;
	u8 revision, checksum;
	char oem_id[6], oem_table_id[8];
	u32 oem_revision, creator_id, creator_revision;
} __attribute__((packed));

static int acpi_done, acpi_result = -1;
static u32 rsdp_phys;
static struct acpi_pm_timer pm_timer;
static u32 pm_mask;

u32 acpi_rsdp(void) { return rsdp_phys; }
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
	if (phys + len <= 0x100000)
		return __va(phys);
	for (int i = 0; i < map_cached; i++)
		if (phys >= map_cache[i].phys && phys + len <= map_cache[i].phys + map_cache[i].len)
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

/* Map a whole table with signature SIG and check it; NULL if bad. */
static const struct acpi_header *map_table(u32 phys, const char *sig)
{
	const struct acpi_header *h = map_phys(phys, sizeof(*h));
	u32 len;

	if (!h)
		return NULL;
	len = h->length;
	if (memcmp(h->signature, sig, 4) || len < sizeof(*h) || len > MAX_TABLE_LEN)
		return NULL;
	h = map_phys(phys, len);
	if (!h || sum_bytes((const u8 *)h, len))
		return NULL;
	return h;
}

static u32 rd32(const void *base, u32 off) { u32 v; memcpy(&v, (const u8 *)base + off, 4); return v; }
static u64 rd64(const void *base, u32 off) { u64 v; memcpy(&v, (const u8 *)base + off, 8); return v; }

static const struct acpi_header *find_fadt(const u8 *rsdp)
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
		if (h && !memcmp(h->signature, "FACP", 4))
			return map_table((u32)a, "FACP");
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
	if (!(fadt = find_fadt(rsdp))) {
		printk("ACPI: RSDP at 0x%08x (%s, revision %u), but no valid FADT\n",
		       rsdp_phys, where, rsdp[15]);
		return -1;
	}
	read_pm_timer(fadt);
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
