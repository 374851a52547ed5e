/* arch/x86/include/arch/i8042.h - the PS/2 keyboard (arch/x86/i8042.c). */
#ifndef ARCH_I8042_H
#define ARCH_I8042_H

/* Set up the controller and IRQ 1, if there is one (after the IDT and PIC). */
void i8042_init(void);

#endif
