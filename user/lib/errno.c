/*
 * user/lib/errno.c - errno and the raw-result -> libc-result conversion.
 */
#include <errno.h>
#include "ulib.h"

int errno;

/* Linux: results in [-4095, -1] are -errno; everything else is a value. */
long __syscall_ret(long r)
{
	if ((unsigned long)r >= (unsigned long)-4095) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
