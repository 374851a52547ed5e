/* errno.h - the error numbers (Linux i386, shared with the kernel) and errno. */
#ifndef _ERRNO_H
#define _ERRNO_H

#include <kernel/errno.h>

/*
 * Set by every libc wrapper that fails (which then returns -1).  One
 * process-wide variable: when threads arrive it must become per-thread
 * (e.g. a field of the thread control block reached through %gs).
 */
extern int errno;

#endif
