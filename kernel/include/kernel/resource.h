/*
 * kernel/include/kernel/resource.h - resource limits (Linux's
 * include/asm-generic/resource.h and struct rlimit), kept per process in
 * the group leader's task as Linux keeps them in signal_struct: fork copies
 * them, threads share them, exec keeps them (kernel/proc/rlimit.c).
 */
#ifndef KERNEL_RESOURCE_H
#define KERNEL_RESOURCE_H

#include <kernel/types.h>

/* Resource numbers (Linux's i386 values). */
#define RLIMIT_CPU		0	/* CPU time, s */
#define RLIMIT_FSIZE		1	/* largest file, bytes */
#define RLIMIT_DATA		2	/* heap size, bytes */
#define RLIMIT_STACK		3	/* stack size, bytes */
#define RLIMIT_CORE		4	/* core file size, bytes */
#define RLIMIT_RSS		5	/* resident set, bytes (advisory: nothing enforces it) */
#define RLIMIT_NPROC		6	/* processes */
#define RLIMIT_NOFILE		7	/* open files */
#define RLIMIT_MEMLOCK		8	/* locked memory, bytes */
#define RLIMIT_AS		9	/* address space, bytes */
#define RLIMIT_LOCKS		10	/* file locks */
#define RLIMIT_SIGPENDING	11	/* queued signals */
#define RLIMIT_MSGQUEUE		12	/* POSIX message queue bytes */
#define RLIMIT_NICE		13	/* nice ceiling, 20 - nice */
#define RLIMIT_RTPRIO		14	/* real-time priority ceiling */
#define RLIMIT_RTTIME		15	/* real-time CPU time without a sleep, us */
#define RLIM_NLIMITS		16

/* i386's unsigned long RLIM_INFINITY; prlimit64 widens it to ~0ull. */
#define RLIM_INFINITY		0xffffffffu

struct rlimit {
	u32 rlim_cur;		/* the soft limit: what is enforced */
	u32 rlim_max;		/* the hard limit: the ceiling for rlim_cur */
};

/* Fill RLIM with the limits init starts with (kernel/proc/rlimit.c). */
void rlimit_init(struct rlimit *rlim);

#endif
