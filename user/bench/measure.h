/*
 * measure.h - any program as the experiment's measurement
 * (experiment measure="cyclictest -t1 -i 10000 -l 1000 -h 20000 -q").
 */
#ifndef _MEASURE_H
#define _MEASURE_H

#include <stddef.h>
#include <stdint.h>

#define MEASURE_MAX_ARGS	32	/* words of the command, program included */

/*
 * Is CMD a program and its arguments that can run?  0, or -1 with WHY (a
 * phrase for "experiment: measure=CMD: WHY") filled in: no words, too many
 * words, or no executable program by that name in /usr/bin, /bin or /.
 */
int measure_check(const char *cmd, char *why, size_t len);

/*
 * Run CMD with its standard output passed through line by line (and read for
 * its figures), then print one line
 *   RESULT {"bench":"<program>",<kernel parameters>,"load":LOAD,"measure":CMD,
 *           "status":S,"wall_ms":W,"ctxsw":C,"ctxsw_per_s":R,<the program's figures>}
 * status: the exit status, or 128 + the signal that killed it; wall_ms: how
 * long it ran (CLOCK_MONOTONIC); ctxsw: /proc/stat's ctxt over that time (the
 * whole system's context switches; -1 without /proc/stat).  The program's
 * figures: cyclictest's samples, min_us, avg_us, max_us and overflows (from
 * its -h summary lines or its "T: 0" line); hackbench's time_s.
 * Returns the status (and the wall time in *WALL_NS), or -1 if the program
 * could not be started.
 */
int measure_run(const char *cmd, const char *load, int64_t *wall_ns);

#endif
