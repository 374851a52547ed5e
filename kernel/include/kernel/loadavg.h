/*
 * kernel/loadavg.h - the load average (Linux 2.6.35's include/linux/sched.h
 * constants and kernel/sched.c's calc_load, here kernel/sched/loadavg.c).
 *
 * avenrun[0..2] are the 1, 5 and 15 minute averages of the number of tasks
 * running or in uninterruptible sleep, in fixed point with FSHIFT = 11
 * fraction bits (FIXED_1 = 2048 is 1.0).  Every LOAD_FREQ = 5 s + 1 tick
 * each gets
 *	load = (load * EXP + active * (FIXED_1 - EXP)) >> FSHIFT
 * with EXP = FIXED_1 / exp(5 s / 1, 5, 15 min) = 1884, 2014, 2037.
 */
#ifndef KERNEL_LOADAVG_H
#define KERNEL_LOADAVG_H

#include <kernel/types.h>
#include <kernel/time.h>

#define FSHIFT		11		/* bits of precision */
#define FIXED_1		(1 << FSHIFT)	/* 1.0 as fixed point */
#define LOAD_FREQ	(5 * HZ + 1)	/* 5 s intervals, in ticks */
#define EXP_1		1884		/* 1/exp(5sec/1min) as fixed point */
#define EXP_5		2014		/* 1/exp(5sec/5min) */
#define EXP_15		2037		/* 1/exp(5sec/15min) */

/* The integer and hundredths of a fixed-point load, as /proc/loadavg prints
 * them (the caller adds FIXED_1/200 first to round). */
#define LOAD_INT(x)	((x) >> FSHIFT)
#define LOAD_FRAC(x)	LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/* sysinfo(2)'s loads[] are scaled to 16 fraction bits. */
#define SI_LOAD_SHIFT	16

/* Linux's unsigned long, 32 bits on i686: u32, so that the host tests and
 * the simulator compute what the kernel does. */
extern u32 avenrun[3];			/* 1, 5, 15 min */
extern u32 calc_load_update;		/* jiffies of the next global update */

/* LOADS[i] = (avenrun[i] + OFFSET) << SHIFT. */
void get_avenrun(u32 *loads, u32 offset, int shift);

/* One step of the average: (LOAD * EXP + ACTIVE * (FIXED_1 - EXP)) >> FSHIFT. */
u32 calc_load(u32 load, u32 exp, u32 active);

/* The tick's part, as 2.6.35's do_timer(): 10 ticks after every CPU folded
 * its count (calc_load_account_active), update avenrun.  Inline: the tick
 * pays one comparison when nothing is due. */
void __calc_global_load(void);
static inline void calc_global_load(void)
{
	/* time_before(jiffies, calc_load_update + 10), on the low 32 bits as
	 * Linux's unsigned long jiffies on i386 */
	if ((s32)((u32)jiffies - (calc_load_update + 10)) < 0)
		return;
	__calc_global_load();
}

#endif
