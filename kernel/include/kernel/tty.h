/* kernel/tty.h - console file descriptors (see kernel/tty.c). */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

#include <kernel/types.h>

/* A byte arrived from the keyboard/UART (interrupt context). */
void tty_receive(char c);
long sys_write(int fd, const char *ubuf, u32 count);
long sys_read(int fd, char *ubuf, u32 count);

#endif
