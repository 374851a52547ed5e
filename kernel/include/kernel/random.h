/*
 * kernel/random.h - random bytes for AT_RANDOM and getrandom(2).
 *
 * Not cryptographic: a splitmix64 generator whose state is seeded from
 * sched_clock() at the first call and stirred with it at every call.
 * Under QEMU -icount the clock follows the instruction count, so a run
 * draws the same bytes every time (Granule's runs are reproducible by
 * design); on real hardware the TSC makes them differ from boot to boot.
 */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include <kernel/types.h>

void get_random_bytes(void *buf, size_t n);

/* getrandom(buf, count, flags): GRND_NONBLOCK, GRND_RANDOM, GRND_INSECURE. */
long sys_getrandom(void *ubuf, u32 count, u32 flags);

#endif
