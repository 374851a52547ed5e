/*
 * kernel/pipe.h - pipes (kernel/fs/pipe.c).
 */
#ifndef KERNEL_PIPE_H
#define KERNEL_PIPE_H

#include <kernel/types.h>

#define PIPE_SIZE	4096u		/* the ring; Linux 2.6.35: 16 pages */
#define PIPE_BUF	4096u		/* writes up to this size are atomic (POSIX, Linux) */
#define PIPE_MAX	512		/* live pipes; one more is -ENFILE (hackbench -p: 20 a group) */

long sys_pipe(int *ufds);
long sys_pipe2(int *ufds, u32 flags);

#endif
