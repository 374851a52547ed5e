/*
 * tools/granule/sim/engine/tasks.h - what `tools/sim tasks` (tasks.c) shares
 * with its several-CPU half (tasks_smp.c): the task SPEC and the
 * scheduling points.
 */
#ifndef TOOLS_SIMENG_TASKS_H
#define TOOLS_SIMENG_TASKS_H

#include "cpus.h"
#include "../../tests/host/sched/sim.h"

#define MAX_TASKS	16
#define MAX_POINTS	4000

struct spec_task {
	enum sim_kind kind;
	char name[16];
	int nice;
	u64 run_ns, sleep_ns, child_ns;
	int cpu;			/* :cpu=N, forked pinned on N then let go; -1 */
	int pinned;			/* :pinned, kept on that CPU alone */
};

struct point {
	u64 t;
	int cur;			/* index in the spec, -1 = idle (CPU 0's) */
	int curs[SIM_MAX_CPUS];		/* each CPU's: -1 idle, -2 child, -3 migration/N */
	signed char cpu[MAX_TASKS];	/* where each task is */
	s64 key[MAX_TASKS];		/* CFS: v - min_vruntime; EEVDF: lag */
	s64 dl[MAX_TASKS];		/* EEVDF: deadline - V */
	signed char state[MAX_TASKS];	/* 'R' queued/running, 'S' asleep, 'E' eligible */
	u64 minv;
};

extern struct point points[MAX_POINTS];

/* -1 the idle task, -2 a child a forker made, -3 a stopper, else the spec's name */
const char *who_name(const struct spec_task *sp, int i);

/* tasks_smp.c, at more than one CPU */
/* Watch SIM's steps: the migrations and refused balances, with reasons. */
void smp_watch(struct sim *s, struct sim_task **st, int n);
/* Spawn spec task I (tasks.c's sim_spawn) and note where fork balancing put it. */
struct sim_task *smp_spawn(struct sim *s, const struct spec_task *sp, int i);
/* P's CPUs and queue keys at a point (record()'s several-CPU part). */
void smp_record(struct point *p, struct sim_task **st, int n);
void smp_print_points(int np, const struct spec_task *sp, int n, int answers);
void smp_print_timeline(int np, const struct spec_task *sp, int n, u64 until);
void smp_print_migrations(const struct spec_task *sp, int answers);

#endif
