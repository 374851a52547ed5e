/*
 * tests/host/lib/fake_machine.c - host fakes for <kernel/machine.h>.
 * Link it into any host test that links kernel/printk.c (panic needs it).
 */
#include <stdlib.h>
#include <kernel/machine.h>
#include "host_lib.h"

jmp_buf *fake_machine_jmp;
int fake_power_off_calls, fake_power_off_status = -1, fake_halt_calls;

void machine_power_off(int status)
{
	fake_power_off_calls++;
	fake_power_off_status = status;
	if (fake_machine_jmp)
		longjmp(*fake_machine_jmp, 1);
	abort();
}

void machine_halt(void)
{
	fake_halt_calls++;
	if (fake_machine_jmp)
		longjmp(*fake_machine_jmp, 2);
	abort();
}
