/*
 * kernel/sys.h - every syscall implementation the table in kernel/syscall.c
 * dispatches to (argument types as Linux i386 declares them).
 */
#ifndef KERNEL_SYS_H
#define KERNEL_SYS_H

#include <kernel/types.h>

struct timespec32;
struct new_utsname;
struct user_desc;

long sys_getpid(void);
long sys_gettid(void);
long sys_getppid(void);
long sys_getpriority(int which, int who);
long sys_setpriority(int which, int who, int nice);
long sys_uname(struct new_utsname *u);
long sys_sched_yield(void);
/* arch/x86/tls.c: Linux i386 TLS descriptors (struct user_desc, <arch/tls.h>). */
long sys_set_thread_area(struct user_desc *u_info);
long sys_get_thread_area(struct user_desc *u_info);
long sys_granule_poweroff(int status);
long sys_granule_frames(void);
long sys_granule_sched_debug(void);
/* kernel/sched/tunables.c: the effective scheduler knobs as key=value lines. */
long sys_granule_sched_params(char *ubuf, int len);

#endif
