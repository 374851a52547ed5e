/*
 * arch/x86/smpboot.c - starting the other CPUs (application processors,
 * APs) with INIT and STARTUP IPIs (Linux 2.6.35's arch/x86/kernel/
 * smpboot.c: native_smp_prepare_cpus(), do_boot_cpu(),
 * wakeup_secondary_cpu_via_init(), start_secondary(), smp_callin();
 * the MultiProcessor Specification 1.4, appendix B.4; xv6's lapic.c).
 *
 * smp_prepare_cpus(), once: the IPI handlers; the boot CPU's local APIC
 * if the tick did not set it up (clockevent=pit); the real-mode trampoline
 * (arch/x86/trampoline.asm) copied to a free page below 640 KiB; a page
 * directory for its first instructions with paging on (the kernel's, plus
 * the first 4 MiB mapped at 0 as well).
 *
 * __cpu_up(cpu, idle), one CPU at a time (do_boot_cpu()):
 *  1. the AP's parameters: its idle task as its `current`, its GDT, its
 *     stack; the warm-reset vector (CMOS shutdown code 0xA and the
 *     trampoline's address at 40:67) for APICs that start on INIT alone;
 *  2. INIT, level-triggered, asserted; 10 ms; INIT deasserted;
 *  3. STARTUP with the trampoline's page number as vector; 300 us; check
 *     the IPI left; 200 us; and a second STARTUP the same way (an AP that
 *     runs already ignores it; one that missed the first takes it);
 *  4. "callout": the AP may go on; wait up to 5 s for its "callin", then
 *     for it to mark itself online.
 * The AP, in start_secondary(): its TSS, LDT and IDT, its FPU, waits for
 * the callout (2 s at most), sets up its local APIC (LINT0/LINT1 masked),
 * makes its idle task the current task of its runqueue (init_idle(), which
 * 2.6.35 runs on the boot CPU in fork_idle()), calls in, goes online,
 * starts its tick (its APIC timer, periodic at HZ) and enters its idle
 * loop, which halts until need_resched and then calls schedule().  An AP that never calls in is reported ("CPU1: Not
 * responding." if the trampoline never ran, "CPU1: Stuck ??" if it did) and
 * sent INIT again, which stops it, before its idle task's stack is freed.
 */
#include <kernel/delay.h>
#include <kernel/bootinfo.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/tick.h>
#include <arch/apic.h>
#include <arch/barrier.h>
#include <arch/cpu.h>
#include <arch/desc.h>
#include <arch/fpu.h>
#include <arch/pgtable.h>
#include <arch/process.h>
#include <arch/smp.h>
#include <arch/timer.h>
#include <arch/tlbflush.h>

#define CALLIN_TIMEOUT_US	5000000	/* do_boot_cpu: 50000 x 100 us */
#define CALLOUT_TIMEOUT_US	2000000	/* smp_callin: 2 s */
#define TRAMPOLINE_STARTED	0xA5A5A5A5u

extern const u8 trampoline_data[], trampoline_end[], trampoline_status[];
extern u32 stack_start, smp_boot_pgdir, smp_boot_cr0, smp_boot_cr4, smp_boot_cr4_full;
extern struct { u16 size; u32 address; } __attribute__((packed)) early_gdt_descr;

static u32 trampoline_phys;		/* the trampoline's page, 0: none */
static struct cpumask cpu_callout_mask, cpu_callin_mask;

/*
 * The highest whole page below 640 KiB (and below the EBDA, which the
 * memory map marks reserved anyway) that the memory map calls usable and
 * no boot module overlaps; 0 if none.  Below 1 MiB nothing is the frame
 * allocator's (pmm_init keeps it out), so the page is free for good.
 */
static u32 find_trampoline_page(void)
{
	u32 best = 0;

	for (int i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.regions[i];
		u64 lo = max((r->base + 0xfff) & ~0xfffull, 0x1000ull);	/* page 0: the IVT */
		u64 hi = min(r->base + r->len, 0xa0000ull);

		if (r->type != 1 || lo >= hi)
			continue;
		for (u64 p = (hi & ~0xfffull) - 0x1000; p >= lo && p + 0x1000 <= hi; p -= 0x1000) {
			if (p < boot_info.mod_end && p + 0x1000 > boot_info.mod_start)
				continue;
			if (p > best)
				best = (u32)p;
			break;
		}
	}
	return best;
}

/* Kernel half of the kernel's directory, plus PDE 0 = PDE 768 without the
 * global bit: virtual 0..4 MiB = physical 0..4 MiB. */
static u32 make_trampoline_pgdir(void)
{
	u32 pgdir = pgdir_alloc();

	if (pgdir) {
		u32 *pd = __va(pgdir);

		pd[0] = pd[PAGE_OFFSET >> 22] & ~PTE_G;
	}
	return pgdir;
}

void smp_prepare_cpus(unsigned int max_cpus)
{
	ipi_init();
	if (num_present_cpus() < 2)
		return;
	detect_ht(smp_processor_id());	/* the boot CPU's package and core */
	if (!max_cpus) {
		printk("SMP mode deactivated.\n");
		return;
	}
	if (nr_cpu_ids < 2)
		return;
	if (!apic_is_setup())
		apic_init();	/* the tick runs on the PIT: the APIC is needed for IPIs */
	trampoline_phys = find_trampoline_page();
	smp_boot_pgdir = trampoline_phys ? make_trampoline_pgdir() : 0;
	if (!smp_boot_pgdir) {
		printk("smpboot: no %s for the AP trampoline: only the boot CPU runs\n",
		       trampoline_phys ? "page directory" : "usable page below 640 KiB");
		trampoline_phys = 0;
		return;
	}
	memcpy(__va(trampoline_phys), trampoline_data, (u32)(trampoline_end - trampoline_data));
	smp_boot_cr0 = read_cr0();
	smp_boot_cr4_full = read_cr4();
	smp_boot_cr4 = smp_boot_cr4_full & ~(1u << 7);	/* no PGE before the identity map goes */
}

static volatile u32 *trampoline_status_word(void)
{
	return (volatile u32 *)__va(trampoline_phys + (u32)(trampoline_status - trampoline_data));
}

/* CMOS shutdown code 0xA: "jump through 40:67" after an INIT, for an APIC
 * that starts the CPU on INIT alone (82489DX); restored once all are up. */
static void set_warm_reset_vector(u32 start_eip)
{
	outb(0x70, 0x0f);
	outb(0x71, start_eip ? 0x0a : 0x00);
	*(volatile u16 *)__va(0x469) = (u16)(start_eip >> 4);	/* segment */
	*(volatile u16 *)__va(0x467) = (u16)(start_eip & 0xf);	/* offset */
}

/* Steps 2 and 3: 0, or the send/accept status that failed. */
static u32 wakeup_secondary_cpu_via_init(u32 apicid, u32 start_eip)
{
	u32 maxlvt = GET_APIC_MAXLVT(apic_read(APIC_LVR)), send_status, accept_status = 0;
	int num_starts = APIC_INTEGRATED(apic_version[apicid]) ? 2 : 0;

	if (num_starts) {		/* clear stale errors first */
		if (maxlvt > 3)
			apic_write(APIC_ESR, 0);
		apic_read(APIC_ESR);
	}
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
	send_status = (u32)apic_wait_icr_idle();
	mdelay(10);
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
	send_status |= (u32)apic_wait_icr_idle();
	for (int j = 1; j <= num_starts; j++) {
		if (maxlvt > 3)
			apic_write(APIC_ESR, 0);
		apic_read(APIC_ESR);
		apic_icr_write(APIC_DM_STARTUP | (start_eip >> 12), apicid);
		udelay(300);
		send_status = (u32)apic_wait_icr_idle();
		udelay(200);
		if (maxlvt > 3)
			apic_write(APIC_ESR, 0);
		accept_status = apic_read(APIC_ESR) & 0xef;
		if (send_status || accept_status)
			break;
	}
	if (send_status)
		printk("APIC never delivered???\n");
	if (accept_status)
		printk("APIC delivery error (%x).\n", accept_status);
	return send_status | accept_status;
}

/* Wait up to US microseconds for CPU's bit in MASK. */
static int wait_for_cpu(const struct cpumask *mask, unsigned int cpu, u32 us)
{
	for (u32 t = 0; !cpumask_test_cpu(cpu, mask); t += 100) {
		if (t >= us)
			return -1;
		udelay(100);
	}
	return 0;
}

int __cpu_up(unsigned int cpu, struct task *idle)
{
	u32 apicid = x86_cpu_to_apicid[cpu];

	if (!trampoline_phys)
		return -1;
	per_cpu(current_task, cpu) = idle;
	early_gdt_descr.size = sizeof(struct gdt_page) - 1;
	early_gdt_descr.address = (u32)per_cpu(gdt_page, cpu).gdt;
	stack_start = (u32)task_pt_regs(idle);
	*trampoline_status_word() = 0;
	smp_mb();

	printk("smpboot: Booting Node 0 Processor %u APIC 0x%x\n", cpu, apicid);
	set_warm_reset_vector(trampoline_phys);
	if (!wakeup_secondary_cpu_via_init(apicid, trampoline_phys)) {
		cpumask_set_cpu(cpu, &cpu_callout_mask);
		if (!wait_for_cpu(&cpu_callin_mask, cpu, CALLIN_TIMEOUT_US) &&
		    !wait_for_cpu(cpu_online_mask, cpu, CALLIN_TIMEOUT_US))
			return 0;
		printk("CPU%u: %s\n", cpu,
		       *trampoline_status_word() == TRAMPOLINE_STARTED ? "Stuck ??" : "Not responding.");
	}
	/* park it again (wait-for-STARTUP) before its stack goes */
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
	apic_wait_icr_idle();
	cpumask_clear_cpu(cpu, &cpu_callout_mask);
	per_cpu(current_task, cpu) = NULL;
	return -1;
}

void smp_cpus_done(unsigned int max_cpus)
{
	if (!trampoline_phys)
		return;
	set_warm_reset_vector(0);
	free_frame(smp_boot_pgdir);
	smp_boot_pgdir = 0;
}

/* This CPU's tables and FPU (Linux's cpu_init()), on its idle stack. */
static void cpu_init(void)
{
	load_cpu_tables();			/* TR, LDTR, IDT */
	tss_set_esp0(current->thread.esp0);
	this_cpu_write(cpu_tlbstate.loaded_pgdir, kernel_pgdir);
	fpu_cpu_init();
}

void start_secondary(void)
{
	unsigned int cpu = smp_processor_id();

	cpu_init();
	detect_ht(cpu);			/* identify_secondary_cpu(): this CPU's ids */
	/* smp_callin(): the boot CPU lets us go only after both STARTUPs */
	if (wait_for_cpu(&cpu_callout_mask, cpu, CALLOUT_TIMEOUT_US))
		for (;;)
			hlt();		/* interrupts are off: stopped for good */
	setup_secondary_APIC();
	init_idle(current, (int)cpu);	/* this CPU's rq: its idle task runs */
	cpumask_set_cpu(cpu, &cpu_callin_mask);
	set_cpu_online(cpu, 1);
	secondary_tick_start();
	cpu_idle_smp();
}
