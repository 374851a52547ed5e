/* sys/types.h - the i386 Linux ABI's basic types. */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int pid_t;
typedef int ssize_t;
typedef long off_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef long time_t;		/* 32-bit on i386 */
typedef long suseconds_t;
typedef int clockid_t;
typedef int timer_t;		/* the kernel's timer id (glibc wraps it in a pointer) */
typedef int id_t;

#endif
