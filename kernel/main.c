/*
 * kernel/main.c - kmain, entered from boot/multiboot.asm in the higher half
 * with paging on (the first 64 MiB mapped), interrupts off, on the boot stack.
 */
#include <kernel/arch.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/hrtimer.h>
#include <kernel/initrd.h>
#include <kernel/kmalloc.h>
#include <kernel/ktest.h>
#include <kernel/lockdep.h>
#include <kernel/machine.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/stop_machine.h>
#include <kernel/topology.h>
#include <kernel/string.h>
#include <kernel/tick.h>
#include <kernel/trace.h>
#include <kernel/time.h>
#include <arch/irqflags.h>
#include <arch/pgtable.h>

extern const u8 __kernel_phys_start[], __kernel_phys_end[];
void start_init(void);
__attribute__((noreturn)) void cpu_idle(void);

static char cmdline_copy[BOOT_CMDLINE_MAX];	/* cmdline_parse() splits it in place */


/*
 * Show that the clock event really ticks, and how fast: time HZ/10 ticks
 * from one tick edge to another on sched_clock (ideally 100 ms).
 */
static void tick_report(void)
{
	u64 n = HZ / 10, j0 = jiffies, t0;

	while (jiffies == j0)		/* align to a tick edge */
		__asm__ __volatile__("hlt");
	j0 = jiffies;
	t0 = sched_clock();
	while (jiffies - j0 < n)
		__asm__ __volatile__("hlt");
	printk("timer: %llu ticks in %llu us (HZ=%u)\n", n, (sched_clock() - t0) / 1000, HZ);
}

/*
 * Print the memory map, hand its usable parts (minus the kernel image) to
 * the frame allocator and return where lowmem ends.
 */
static u32 memory_init(void)
{
	struct mem_region usable[BOOT_MAX_REGIONS];
	struct mem_region kernel[3] = {
		{ (u32)__kernel_phys_start, (u32)(__kernel_phys_end - __kernel_phys_start) },
	};
	unsigned nr_kernel = 1;

	if (trace_on)
		kernel[nr_kernel++] = trace_image_region();
	if (boot_info.mod_end > boot_info.mod_start)	/* a module archive: the initrd's second part */
		kernel[nr_kernel++] = (struct mem_region){ boot_info.mod_start,
							   boot_info.mod_end - boot_info.mod_start };
	u64 top = 0;
	unsigned n = 0;

	for (int i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.regions[i];
		printk("  mem: [0x%09llx-0x%09llx] %s\n", r->base, r->base + r->len - 1,
		       r->type == 1 ? "usable" : "reserved");
		if (r->type == 1) {
			usable[n++] = (struct mem_region){ r->base, r->len };
			top = max(top, r->base + r->len);
		}
	}
	printk("Memory: %lluK usable RAM\n", boot_usable_ram() >> 10);
	pmm_init(usable, n, kernel, nr_kernel);
	printk("Memory: %luK free in %lu frames, kernel image %uK\n",
	       nr_free_frames() * 4, nr_free_frames(), (u32)kernel[0].len >> 10);
	return (u32)min(top, (u64)LOWMEM_LIMIT);
}

void kmain(u32 magic, u32 info_phys)
{
	boot_cpu_init();		/* CPU 0 online: the masks' first bit */
	int bad_magic = arch_early_init(magic, info_phys); /* serial, GDT, IDT, PIC, boot info */

	printk("Granule %s (i686) booting\n", GRANULE_VERSION);
	if (bad_magic)
		panic("not booted by a multiboot loader (magic 0x%08x)", magic);
	printk("Boot loader: %s (multiboot%d)\n", boot_info.loader, boot_info.multiboot);
	printk("Command line: %s\n", boot_info.cmdline);

	strlcpy(cmdline_copy, boot_info.cmdline, sizeof(cmdline_copy));
	knobs_init();			/* every registered knob to its default */
	cmdline_clip(cmdline_copy, boot_info.cmdline_len, boot_info.cmdline_next);
	cmdline_parse(cmdline_copy);	/* left to right; errors keep the default */
	lockdep_init();			/* lockdep=1: the lock validator's hooks on */
	trace_early_init();		/* trace_event=: probe the traced functions */

	arch_cpu_init();		/* CPUID: vendor, model, features */
	time_init();			/* TSC calibration, APIC or PIT tick at HZ */
	hrtimers_init();		/* highres: one-shot clock event, first tick set */
	rtc_init();			/* CLOCK_REALTIME from the CMOS clock */
	paging_init(memory_init());	/* frame allocator; map all lowmem at 3 GiB */
	kmalloc_init();			/* kernel heap (size classes) */
	arch_find_cpus();		/* MADT or MP table: present and possible CPUs */
	setup_per_cpu_areas();		/* a copy of the per-CPU template for each */
	smp_prepare_boot_cpu();		/* this CPU onto its own area, GDT and TSS */
	init_hrtimers_cpu();		/* this CPU's timers; highres: its emulated tick */
	trace_init();			/* trace_event=: the ring buffer */
	sched_init();			/* runqueue; this context becomes the idle task */
	proc_init();			/* task table, pid 0's kernel stack */
	initrd_init();			/* index the initrd's files (kernel/fs/initrd.c) */
	printk("Kernel parameters:\n");
	knobs_print();			/* the effective value of every knob */
	sched_print_tunables();		/* the sched sysctls in `sysctl -a` form */

	arch_devices_init();		/* UART receive interrupt */
	local_irq_enable();
	smp_init();			/* start the other CPUs; they idle */
	/*
	 * Their sched domains (sched_debug prints them).  At one CPU every
	 * level would be dropped (2.6.35 builds them anyway and attaches NULL);
	 * skipping it keeps the -smp 1 boot as long as the uniprocessor's
	 * (docs/FASTPATHS.md, "Per-CPU runqueues").
	 */
	if (num_online_cpus() > 1)
		sched_init_smp();
	tick_report();			/* prove the tick runs (from a tick edge) */
	ktest_run();			/* ktest=NAME fault and SMP tests */

	printk("Boot complete\n");
	start_init();			/* pid 1 execs init= with run= */
	cpu_stop_init();		/* migration/N at more than one CPU */
	ktest_run_late();		/* ktest=smp's stopper check */
	cpu_idle();			/* pid 0 from now on */
}
