/*
 * kernel/main.c - kmain, entered from boot/multiboot.asm in the higher half
 * with paging on (the first 64 MiB mapped), interrupts off, on the boot stack.
 */
#include <kernel/arch.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/ktest.h>
#include <kernel/machine.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/tick.h>
#include <kernel/time.h>
#include <arch/irqflags.h>

#ifndef GRANULE_VERSION
#define GRANULE_VERSION "0.1"
#endif

static char cmdline_copy[BOOT_CMDLINE_MAX];	/* cmdline_parse() splits it in place */

static int poweroff_at_end = 1;
DEFINE_KNOB_BOOL(poweroff, poweroff_at_end, 1, "power off when init ends (0: halt and keep the screen)");

/* Show that the clock event really ticks: wait 100 ms of sched_clock time. */
static void tick_report(void)
{
	u64 j0 = jiffies, t0 = sched_clock();

	while (sched_clock() - t0 < 100 * NSEC_PER_MSEC)
		__asm__ __volatile__("hlt");
	printk("timer: %llu ticks in 100 ms (HZ=%u)\n", jiffies - j0, HZ);
}

static void print_memory(void)
{
	u64 ram = boot_usable_ram();

	for (int i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.regions[i];
		printk("  mem: [0x%09llx-0x%09llx] %s\n", r->base, r->base + r->len - 1,
		       r->type == 1 ? "usable" : "reserved");
	}
	printk("Memory: %lluK usable RAM\n", ram >> 10);
}

void kmain(u32 magic, u32 info_phys)
{
	int bad_magic = arch_early_init(magic, info_phys); /* serial, GDT, IDT, PIC, boot info */

	printk("Granule %s (i686) booting\n", GRANULE_VERSION);
	if (bad_magic)
		panic("not booted by a multiboot loader (magic 0x%08x)", magic);
	printk("Boot loader: %s (multiboot%d)\n", boot_info.loader, boot_info.multiboot);
	printk("Command line: %s\n", boot_info.cmdline);

	strlcpy(cmdline_copy, boot_info.cmdline, sizeof(cmdline_copy));
	knobs_init();			/* every registered knob to its default */
	cmdline_parse(cmdline_copy);	/* left to right; errors keep the default */

	arch_cpu_init();		/* CPUID: vendor, model, features */
	time_init();			/* TSC calibration, APIC or PIT tick at HZ */
	print_memory();			/* the multiboot memory map */
	printk("Kernel parameters:\n");
	knobs_print();			/* the effective value of every knob */

	arch_devices_init();		/* UART receive interrupt */
	local_irq_enable();
	tick_report();			/* prove the tick runs */
	ktest_run();			/* ktest=NAME fault tests */

	printk("Boot complete\n");
	if (poweroff_at_end)
		machine_power_off(EXIT_OK);
	machine_halt();
}
