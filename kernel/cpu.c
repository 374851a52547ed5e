/*
 * kernel/cpu.c - the CPU masks, maxcpus= and nosmp, and bringing the other
 * CPUs up at boot (Linux 2.6.35's kernel/cpu.c cpu_up() and init/main.c
 * smp_init(), boot_cpu_init()).
 *
 * The firmware's CPU list (arch_find_cpus(): ACPI's MADT or the MP table)
 * sets cpu_present_mask; maxcpus= caps cpu_possible_mask (Linux without
 * CPU hotplug: prefill_possible_map()).  smp_init() then starts the present
 * CPUs one by one, in CPU-number order, until maxcpus are online, each with
 * an idle task of its own, and reports:
 *	smpboot: Booting Node 0 Processor 1 APIC 0x1
 *	Brought up 4 CPUs
 * A CPU that does not answer is reported by the architecture and left out;
 * the boot goes on with the others.
 *
 * maxcpus=0 is nosmp, as in 2.6.35 (init/main.c's comment: "nosmp" or
 * "maxcpus=0" will disable SMP activation entirely): only the boot CPU
 * runs and the boot log says so; it is not an error.
 */
#include <kernel/cmdline.h>
#include <kernel/jump_label.h>
#include <kernel/kmalloc.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/smp.h>
#include <kernel/smp_copies.h>
#include <kernel/smp_lock.h>
#include <kernel/task.h>
#include <arch/irqflags.h>

struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
unsigned int nr_cpu_ids = 1;

unsigned int setup_max_cpus = NR_CPUS;
DEFINE_KNOB_UINT(maxcpus, setup_max_cpus, NR_CPUS, 0, NR_CPUS,
		 "CPUs to bring up at boot, the boot CPU included (0: as nosmp)");

static int nosmp;
static void nosmp_changed(const struct knob *k)
{
	if (nosmp)
		setup_max_cpus = 0;	/* Linux's nosmp(): setup_max_cpus = 0 */
}
__KNOB(nosmp) = {
	.name = "nosmp", .type = KNOB_BOOL, .ptr = &nosmp, .def = 0, .min = 0, .max = 1,
	.changed = nosmp_changed,
	.help = "run on the boot CPU only (maxcpus=0)",
};

/*
 * Linux's boot_cpu_init(): the boot CPU is CPU 0, online, present and
 * possible from the first instruction on.
 */
void boot_cpu_init(void)
{
	set_cpu_online(0, 1);
	set_cpu_present(0, 1);
	set_cpu_possible(0, 1);
}

/* Start CPU with an idle task of its own (Linux's cpu_up() -> _cpu_up()). */
static int cpu_up(unsigned int cpu)
{
	struct task *idle = fork_idle(cpu);

	if (!idle) {
		printk("smpboot: CPU%u: no memory for its idle task\n", cpu);
		return -1;
	}
	if (__cpu_up(cpu, idle)) {
		free_idle(idle);
		return -1;
	}
	return 0;
}

/* Each uniprocessor copy of [START, END) jumps to its _smp copy. */
void smp_copies_redirect(const struct smp_copy *start, const struct smp_copy *end)
{
	for (const struct smp_copy *c = start; c < end; c++)
		text_redirect(c->up, c->smp);
}

/*
 * The leaf locks (zone->lock, the kmalloc caches' list_lock, logbuf_lock):
 * their callers' entry points jump to the copies that take them, before a
 * second CPU can call in: the pairs SMP_COPIES put in the section
 * smp_copies (<kernel/smp_copies.h>).  At one possible CPU nothing changes
 * and none is ever taken (docs/FASTPATHS.md).  Interrupts off: a handler
 * must not run a half-patched entry.
 */
extern const struct smp_copy __start_smp_copies[], __stop_smp_copies[];

static void smp_leaf_locks_init(void)
{
	unsigned long flags;

	local_irq_save(flags);
	smp_copies_redirect(__start_smp_copies, __stop_smp_copies);
	local_irq_restore(flags);
}

void smp_init(void)
{
	unsigned int cpu;

	call_function_init();
	smp_prepare_cpus(setup_max_cpus);
	if (nr_cpu_ids > 1)
		smp_leaf_locks_init();
	for_each_present_cpu(cpu) {
		if (num_online_cpus() >= setup_max_cpus)
			break;
		if (!cpu_online(cpu))
			cpu_up(cpu);
	}
	printk("Brought up %u CPUs\n", num_online_cpus());
	smp_cpus_done(setup_max_cpus);
	smp_lock_init();	/* the giant lock, if more than one CPU runs */
}
