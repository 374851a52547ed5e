/*
 * kernel/sched/sched-pelt.h - PELT's constants (Linux 6.12's generated
 * kernel/sched/sched-pelt.h; its generator is
 * Documentation/scheduler/sched-pelt.c).
 *
 * y is the per-period decay: y^32 = 1/2, so y = 0.5^(1/32) ~ 0.978572.
 *
 *   runnable_avg_yN_inv[n] = (u32)((2^32 - 1) * y^n), n = 0..31
 *	(truncated, as the generator assigns a double to an unsigned int):
 *	decay_load() multiplies by it and shifts right 32, so entry 0 is
 *	2^32 - 1, not 2^32, and decay_load(x, 0) = x - 1 for 1 <= x < 2^32.
 *   LOAD_AVG_MAX = the fixed point of max = ((max * y_inv) >> 32) + 1024,
 *	y_inv = runnable_avg_yN_inv[1]: 1024 * (1 + y + y^2 + ...) as the
 *	integer arithmetic reaches it, 47742 (the real series gives 47788).
 *
 * tests/host/sched/test_pelt.c recomputes both from the formulas.
 */
#ifndef KERNEL_SCHED_SCHED_PELT_H
#define KERNEL_SCHED_SCHED_PELT_H

#include <kernel/types.h>

static const u32 runnable_avg_yN_inv[] __attribute__((unused)) = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

#define LOAD_AVG_PERIOD	32	/* periods for the sums to halve */
#define LOAD_AVG_MAX	47742	/* the sums' limit for an entity always running */

#endif
