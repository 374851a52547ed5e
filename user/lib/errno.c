/*
 * user/lib/errno.c - the raw-result -> libc-result conversion (errno
 * itself is per thread: __errno_location, user/lib/tls.c).
 */
#include <errno.h>
#include "ulib.h"

/* Linux: results in [-4095, -1] are -errno; everything else is a value. */
long __syscall_ret(long r)
{
	if ((unsigned long)r >= (unsigned long)-4095) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
