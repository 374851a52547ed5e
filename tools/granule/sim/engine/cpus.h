/*
 * tools/granule/sim/engine/cpus.h - the simulated machine's CPUs (cpus.c):
 * `--cpus N`, and the boot of N CPUs as the image boots at -smp N.
 */
#ifndef TOOLS_SIMENG_CPUS_H
#define TOOLS_SIMENG_CPUS_H

#define SIM_MAX_CPUS	8

/* --cpus N among ARGV (1 if absent); a bad N stops the run with one line. */
int cpus_arg(int argc, char **argv);
/* Before the knobs: NCPUS' per-CPU areas, masks and idle tasks, and
 * sched_init() (at one CPU only sched_init(): the machine of before). */
void cpus_boot(int ncpus);
/* After the knobs, at more than one CPU: the sched domains of the online
 * CPUs and the root domain (sched_init_smp()), the SMP paths on. */
void cpus_online(int ncpus);

#endif
