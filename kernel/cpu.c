/*
 * kernel/cpu.c - the CPU masks (Linux 2.6.35's kernel/cpu.c and init/main.c
 * boot_cpu_init()).  Only the boot CPU runs so far.
 */
#include <kernel/smp.h>

struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
unsigned int nr_cpu_ids = 1;

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
