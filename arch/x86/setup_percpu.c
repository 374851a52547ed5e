/*
 * arch/x86/setup_percpu.c - every possible CPU's per-CPU area (Linux
 * 2.6.35's arch/x86/kernel/setup_percpu.c, i386).
 *
 * The linker gathers the DEFINE_PER_CPU variables between __per_cpu_start
 * and __per_cpu_end (linker.ld); that section is the template.  For each
 * possible CPU: whole pages from the frame allocator (an area keeps the
 * template's alignment within a page), the template copied in, and
 *	__per_cpu_offset[cpu] = area - __per_cpu_start
 *	per_cpu(this_cpu_off, cpu) = that offset   (this_cpu_ptr's base)
 *	per_cpu(cpu_number, cpu)   = cpu           (smp_processor_id())
 * and the CPU's own GDT gets its TSS and per-CPU segment
 * (gdt_setup_cpu()).  The boot CPU ran on the template until now, so its
 * copy carries what it wrote there; smp_prepare_boot_cpu() moves it onto
 * its own area.  Deliberate difference: Linux embeds the areas in one
 * allocation with the dynamic per-CPU allocator's chunk ("PERCPU: Embedded
 * N pages/cpu"); Granule has no alloc_percpu(), only static variables.
 */
#include <kernel/percpu.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <arch/desc.h>
#include <arch/tlbflush.h>

extern char __per_cpu_start[], __per_cpu_end[];

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(struct tlb_state, cpu_tlbstate);

void setup_per_cpu_areas(void)
{
	u32 size = (u32)(__per_cpu_end - __per_cpu_start);
	unsigned int order = 0, cpu;

	while ((PAGE_SIZE << order) < size)
		order++;
	for_each_possible_cpu(cpu) {
		phys_addr_t pa = alloc_pages(order);

		if (!pa)	/* at boot, before any task: Linux panics too */
			panic("percpu: no memory for CPU%u's area (%u bytes)", cpu, size);
		memcpy(__va(pa), __per_cpu_start, size);
		__per_cpu_offset[cpu] = (unsigned long)__va(pa) - (unsigned long)__per_cpu_start;
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = (int)cpu;
		gdt_setup_cpu(cpu);
	}
	printk("PERCPU: %u pages/cpu for %u CPUs, %u bytes of per-CPU variables\n",
	       1u << order, nr_cpu_ids, size);
}

/* Linux's native_smp_prepare_boot_cpu(): the boot CPU onto its own area. */
void smp_prepare_boot_cpu(void)
{
	switch_to_new_gdt(0);
}
