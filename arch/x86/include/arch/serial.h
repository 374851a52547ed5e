/* arch/serial.h - COM1 console (see arch/x86/serial.c). */
#ifndef ARCH_SERIAL_H
#define ARCH_SERIAL_H

void serial_init(void);			/* probe, program 115200 8N1, register console */
void serial_enable_rx_irq(void);	/* after the IDT and PIC are up */

#endif
