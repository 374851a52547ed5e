/* sys/resource.h - nice values and resource usage. */
#ifndef _SYS_RESOURCE_H
#define _SYS_RESOURCE_H

#include <sys/types.h>

#define PRIO_PROCESS	0
#define PRIO_PGRP	1
#define PRIO_USER	2

struct timeval {
	time_t tv_sec;
	suseconds_t tv_usec;
};

/* Linux's struct rusage (72 bytes on i386). */
struct rusage {
	struct timeval ru_utime, ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt,
	     ru_nswap, ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv,
	     ru_nsignals, ru_nvcsw, ru_nivcsw;
};

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#define RUSAGE_THREAD	1

/*
 * What the process used (SELF: every thread, exited ones too), its reaped
 * children (CHILDREN) or the calling thread (THREAD): user and system time,
 * the largest RSS in KiB, page faults, voluntary and involuntary context
 * switches, as Linux 2.6.35's.  The other fields are 0, as on Linux.
 */
int getrusage(int who, struct rusage *ru);

/*
 * Nice values -20..19.  The raw getpriority call returns 20 - nice (1..40,
 * so it never looks like an error); the wrapper converts it back, which
 * means a legitimate -1 needs errno cleared first to tell it from failure.
 */
int getpriority(int which, id_t who);
int setpriority(int which, id_t who, int nice);

#endif
