/*
 * tools/granule/sim/engine/common.h - shared by build/sim's subcommands (common.c).
 */
#ifndef TOOLS_SIMENG_COMMON_H
#define TOOLS_SIMENG_COMMON_H

#define MSEC		1000000ULL

/* "sim: " + FMT (with A, B) on stderr, then exit 2. */
void die(const char *fmt, const char *a, const char *b) __attribute__((noreturn));
/* "2ms", "500us", "1s", "3000000" (ns); -1 on a bad value. */
long long parse_time(const char *v);
/* knob_apply(NAME, VALUE); a refusal prints the kernel's line and exits 2. */
void apply_knob(const char *name, const char *value);
/* --hz: 100, 250, 300 or 1000, else one line and exit 2. */
void apply_hz(const char *v);

int cmd_tasks(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_rtapp(int argc, char **argv);

#endif
