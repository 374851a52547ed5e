/* kernel/tty.h - the console's input side (see kernel/tty.c; the file side is kernel/file.h). */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

#include <kernel/types.h>

/* A byte arrived from the keyboard/UART (interrupt context). */
void tty_receive(char c);

#endif
