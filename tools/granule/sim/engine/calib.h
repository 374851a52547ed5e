/*
 * tools/granule/sim/engine/calib.h - reading the calibration file (calib.c).
 */
#ifndef TOOLS_SIMENG_CALIB_H
#define TOOLS_SIMENG_CALIB_H

#include <stddef.h>
#include "machine.h"

/* Fill C from PATH, with the eevdf.* lines over the base ones if EEVDF;
 * any error is one line and exit 2. */
void calib_load(const char *path, struct sim_costs *c, int eevdf);
/* At HZ: where in a tick period the experiment starts, and the image's tick
 * period (the lapic counts whole counts per tick; 10^9 / HZ if 0). */
void calib_hz(const struct sim_costs *c, unsigned hz, u64 *phase, u64 *period);

#endif
