/*
 * kernel/clone.h - the Linux clone(2) flags Granule implements (Linux's
 * values).  No includes: user space's <sched.h> includes it too, as glibc's
 * <sched.h> carries the same names, so kernel and programs share one copy.
 */
#ifndef KERNEL_CLONE_H
#define KERNEL_CLONE_H

#define CSIGNAL			0x000000ff	/* exit signal in the low byte */
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_VFORK		0x00004000	/* the parent sleeps until the child execs or exits */
#define CLONE_THREAD		0x00010000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_CHILD_SETTID	0x01000000

#endif
