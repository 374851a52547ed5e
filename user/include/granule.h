/*
 * granule.h - Granule-private system calls (numbers
 * GRANULE_NR_BASE + k, "G+k" in user/syscalls.list).  On Linux they fail with ENOSYS.
 */
#ifndef _GRANULE_H
#define _GRANULE_H

/* Power the machine off; STATUS becomes the test harness's exit status. */
int granule_poweroff(int status);
/* Free physical frames (4 KiB each) right now, or -1 + errno. */
long granule_frames(void);
/* Print the scheduler's runqueue state on the kernel console. */
int granule_sched_debug(void);

#endif
