/*
 * arch/x86/ipi.c - interprocessor interrupts through the local APIC's
 * interrupt command register (Linux 2.6.35's apic/ipi.c and smp.c, for the
 * xAPIC in physical destination mode).
 *
 * Sending: wait until the ICR's delivery-status bit says the previous IPI
 * left, write the destination APIC id to ICR2, then the vector and
 * delivery mode to ICR, whose write sends.  Interrupts stay off from the
 * wait to the send, so a handler on this CPU cannot slip an IPI of its own
 * in between.  A mask of CPUs gets one IPI each, in CPU order (Linux's
 * default_send_IPI_mask_sequence_phys).
 *
 * Receiving (trap_dispatch -> the vector's handler, interrupts off): EOI
 * first, as every local APIC handler does (arch/x86/time.c), then the
 * generic work (kernel/smp.c) and the CPU's count of it (irq_stat).
 *	RESCHEDULE_VECTOR		nothing more: the return path looks at
 *					need_resched (Linux's
 *					smp_reschedule_interrupt)
 *	CALL_FUNCTION_VECTOR		generic_smp_call_function_interrupt()
 *	CALL_FUNCTION_SINGLE_VECTOR	generic_smp_call_function_single_interrupt()
 */
#include <kernel/delay.h>
#include <kernel/smp.h>
#include <arch/apic.h>
#include <arch/barrier.h>
#include <arch/hardirq.h>
#include <arch/irq.h>
#include <arch/irqflags.h>
#include <arch/smp.h>
#include <arch/timer.h>

#define ICR_IDLE_WAIT_US	100000	/* 100 ms, Linux's safe_apic_wait_icr_idle */

int apic_wait_icr_idle(void)
{
	for (u32 us = 0; apic_read(APIC_ICR) & APIC_ICR_BUSY; us += 100) {
		if (us >= ICR_IDLE_WAIT_US)
			return -1;
		udelay(100);
	}
	return 0;
}

void apic_icr_write(u32 low, u32 apicid)
{
	apic_write(APIC_ICR2, SET_APIC_DEST_FIELD(apicid));
	apic_write(APIC_ICR, low);
}

void apic_send_IPI(u32 apicid, int vector)
{
	unsigned long flags;

	local_irq_save(flags);
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY)	/* __xapic_wait_icr_idle */
		cpu_relax();
	apic_icr_write(APIC_DEST_PHYSICAL | APIC_DM_FIXED | (u32)vector, apicid);
	local_irq_restore(flags);
}

void arch_send_call_function_single_ipi(int cpu)
{
	apic_send_IPI(x86_cpu_to_apicid[cpu], CALL_FUNCTION_SINGLE_VECTOR);
}

void arch_send_call_function_ipi_mask(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		apic_send_IPI(x86_cpu_to_apicid[cpu], CALL_FUNCTION_VECTOR);
}

void arch_send_reschedule(int cpu)
{
	apic_send_IPI(x86_cpu_to_apicid[cpu], RESCHEDULE_VECTOR);
}

static void smp_reschedule_interrupt(struct trap_frame *tf)
{
	apic_eoi();
	inc_irq_stat(irq_resched_count);
}

static void smp_call_function_interrupt(struct trap_frame *tf)
{
	apic_eoi();
	generic_smp_call_function_interrupt();
	inc_irq_stat(irq_call_count);
}

static void smp_call_function_single_interrupt(struct trap_frame *tf)
{
	apic_eoi();
	generic_smp_call_function_single_interrupt();
	inc_irq_stat(irq_call_count);
}

void ipi_init(void)
{
	set_vector_handler(RESCHEDULE_VECTOR, smp_reschedule_interrupt);
	set_vector_handler(CALL_FUNCTION_VECTOR, smp_call_function_interrupt);
	set_vector_handler(CALL_FUNCTION_SINGLE_VECTOR, smp_call_function_single_interrupt);
}
