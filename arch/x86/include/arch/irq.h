/*
 * arch/irq.h - hardware interrupt plumbing inside arch/x86/.
 *
 * Legacy IRQs 0..15 arrive through the 8259 pair remapped to vectors
 * 0x20..0x2f; the local APIC timer uses LOCAL_TIMER_VECTOR.  Handlers run
 * with interrupts disabled; EOI is sent by the dispatcher after the handler.
 */
#ifndef ARCH_IRQ_H
#define ARCH_IRQ_H

#include <arch/segment.h>

typedef void (*irq_handler_t)(struct trap_frame *tf);

/* Install HANDLER for legacy IRQ line IRQ (0..15) and unmask it. */
void request_irq(int irq, irq_handler_t handler);
/* Install HANDLER for a raw vector (APIC vectors); the handler sends EOI. */
void set_vector_handler(int vector, irq_handler_t handler);

void pic_init(void);
void pic_unmask(int irq);
void pic_eoi(int irq);

#endif
