/*
 * arch/x86/rtc.c - read the CMOS real-time clock once at boot for
 * CLOCK_REALTIME.  The MC146818 keeps seconds..year at CMOS 0x00..0x09,
 * in BCD unless status B bit 2 says binary, 12-hour unless bit 1.  We wait
 * for "update in progress" (status A bit 7) to clear, bounded, and read
 * twice until two reads agree.  QEMU's tests pin the RTC with
 * -rtc base=...,clock=vm so the value is deterministic.
 */
#include <kernel/hrtimer.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <arch/cpu.h>

static u8 cmos_read(u8 reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static void read_raw(u8 v[7])
{
	for (int spins = 0; (cmos_read(0x0a) & 0x80) && spins < 100000; spins++)
		;
	v[0] = cmos_read(0x00); v[1] = cmos_read(0x02); v[2] = cmos_read(0x04);
	v[3] = cmos_read(0x07); v[4] = cmos_read(0x08); v[5] = cmos_read(0x09);
	v[6] = cmos_read(0x32);	/* century (ACPI default register), may be 0 */
}

static unsigned bcd(u8 x) { return (x & 0x0f) + (x >> 4) * 10; }

/* Days from 1970-01-01 to Y-M-D (proleptic Gregorian). */
static u64 days_from_civil(unsigned y, unsigned m, unsigned d)
{
	y -= m <= 2;
	unsigned era = y / 400, yoe = y - era * 400;
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (u64)era * 146097 + doe - 719468;
}

void rtc_init(void)
{
	u8 a[7], b[7];
	int tries = 0;

	do {
		read_raw(a);
		read_raw(b);
	} while (__builtin_memcmp(a, b, sizeof(a)) && ++tries < 5);
	u8 status_b = cmos_read(0x0b);
	unsigned sec, min, hour, day, mon, year;
	int pm = b[2] & 0x80;
	b[2] &= 0x7f;
	if (!(status_b & 0x04)) {
		sec = bcd(b[0]); min = bcd(b[1]); hour = bcd(b[2]);
		day = bcd(b[3]); mon = bcd(b[4]); year = bcd(b[5]);
	} else {
		sec = b[0]; min = b[1]; hour = b[2]; day = b[3]; mon = b[4]; year = b[5];
	}
	if (!(status_b & 0x02) && pm)
		hour = (hour % 12) + 12;
	year += year < 70 ? 2000 : 1900;
	if (mon < 1 || mon > 12 || day < 1 || day > 31) {
		printk("rtc: unreadable (%02u-%02u), CLOCK_REALTIME starts at the epoch\n", mon, day);
		return;
	}
	u64 secs = days_from_civil(year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
	boot_realtime_ns = secs * 1000000000ull - sched_clock();
	printk("rtc: %04u-%02u-%02u %02u:%02u:%02u UTC\n", year, mon, day, hour, min, sec);
}
