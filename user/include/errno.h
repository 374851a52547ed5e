/* errno.h - the error numbers (Linux i386, shared with the kernel) and errno. */
#ifndef _ERRNO_H
#define _ERRNO_H

#include <kernel/errno.h>

/*
 * Set by every libc wrapper that fails (which then returns -1).  Per
 * thread, as in glibc: the errno field of the calling thread's control
 * block, found through %gs (set_thread_area at startup, CLONE_SETTLS for
 * each thread_create; user/lib/tls.c).  If the kernel has no
 * set_thread_area, one process-wide variable instead.
 */
int *__errno_location(void) __attribute__((const));
#define errno	(*__errno_location())

#endif
