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
/* kernel/proc/pgrp.c: process groups and sessions */
long sys_setpgid(int pid, int pgid);
long sys_getpgid(int pid);
long sys_getpgrp(void);
long sys_setsid(void);
long sys_getsid(int pid);
/* The session of a process of group PGRP, or -1 if the group is empty. */
int pgrp_session(int pgrp);
long sys_getpriority(int which, int who);
long sys_setpriority(int which, int who, int nice);
long sys_uname(struct new_utsname *u);
struct sysinfo32;
long sys_sysinfo(struct sysinfo32 *u);
long sys_getgroups(int size, u32 *list);
struct sched_attr;			/* kernel/sched/setattr.c (Linux 6.12) */
long sys_sched_setattr(int pid, struct sched_attr *uattr, unsigned int flags);
long sys_sched_getattr(int pid, struct sched_attr *uattr, unsigned int usize,
		       unsigned int flags);
long sys_sched_setscheduler(int pid, int policy, const void *param);
long sys_sched_setparam(int pid, const void *param);
long sys_sched_getscheduler(int pid);
long sys_sched_getparam(int pid, void *param);
long sys_sched_get_priority_max(int policy);
long sys_sched_get_priority_min(int policy);
long sys_sched_rr_get_interval(int pid, void *interval);
long sys_sched_rr_get_interval_time64(int pid, void *interval);
long sys_sched_getaffinity(int pid, unsigned int len, u32 *user_mask);
long sys_sched_setaffinity(int pid, unsigned int len, const u32 *user_mask);
/* kernel/reboot.c, kernel/syslog.c */
long sys_sync(void);
long sys_reboot(u32 magic1, u32 magic2, u32 cmd, const char *arg);
long sys_syslog(int type, char *buf, int len);
/* arch/x86/tls.c: Linux i386 TLS descriptors (struct user_desc, <arch/tls.h>). */
long sys_set_thread_area(struct user_desc *u_info);
long sys_get_thread_area(struct user_desc *u_info);
/* kernel/proc/creds.c: ids (root), thread start-up calls. */
struct rlimit64;
/* Linux's capable(CAP): true for everyone (all run as root), and the caller
 * is marked PF_SUPERPRIV, as Linux marks a task that used a privilege.
 * Called where Linux asks (include/linux/capability.h's numbers). */
#define CAP_IPC_LOCK	14
#define CAP_SYS_BOOT	22
#define CAP_SYS_NICE	23
#define CAP_SYS_RESOURCE	24
int capable(int cap);
long sys_getuid(void);
long sys_getresuid(u32 *r, u32 *e, u32 *s);
long sys_set_tid_address(u32 tidptr);
long sys_set_robust_list(u32 head, u32 len);
long sys_rseq(u32 rseq, u32 len, int flags, u32 sig);
/* kernel/proc/rlimit.c: getrlimit, setrlimit. */
long sys_prlimit64(int pid, int resource, const struct rlimit64 *unew, struct rlimit64 *uold);
long sys_ugetrlimit(int resource, u32 *urlim);
long sys_prctl(int option, u32 arg2);
long sys_granule_poweroff(int status);
long sys_granule_frames(void);
long sys_granule_sched_debug(void);
/* kernel/sched/tunables.c: the effective scheduler knobs as key=value lines. */
long sys_granule_sched_params(char *ubuf, int len);

#endif
