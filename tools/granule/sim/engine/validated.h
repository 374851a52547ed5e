/*
 * tools/granule/sim/engine/validated.h - a run's settings, and the warning for one
 * outside what was cross-validated against QEMU (validated.c).
 */
#ifndef TOOLS_SIMENG_VALIDATED_H
#define TOOLS_SIMENG_VALIDATED_H

struct run_settings {
	int cpus;			/* 1: not named (the one-CPU machine) */
	const char *load;
	long period_ms, pad_us, slice_us;
	int thread_mode;
};

/* The run's settings: R's and the scheduler's effective tunables. */
void settings_collect(const struct run_settings *r);
/* Print them, one "NAME VALUE" a line (experiment --settings). */
void settings_print(void);
/* One line on stderr if a setting lies outside what PATH says was validated. */
void validated_check(const char *path);

#endif
