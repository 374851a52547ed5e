/*
 * kernel/delay.h - busy waits of a given length (Linux's <linux/delay.h>):
 * the TSC counted down once it is calibrated (arch/x86/tsc.c, Linux's
 * delay_tsc), port 0x80 writes (~1 us each) before.  For hardware that
 * wants time between two steps (the INIT and STARTUP IPIs), never for
 * waiting on another CPU's work.
 */
#ifndef KERNEL_DELAY_H
#define KERNEL_DELAY_H

#include <kernel/types.h>

void udelay(u32 usecs);

static inline void mdelay(u32 msecs)
{
	while (msecs--)
		udelay(1000);
}

#endif
