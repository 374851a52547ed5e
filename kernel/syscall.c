/*
 * kernel/syscall.c - the syscall table: Linux i386 numbers (from the one
 * list user/syscalls.list, via build/gen/syscall_nr.h) to implementations.
 *
 * Each entry is a small adapter that takes the six raw u32 argument
 * registers from the trap frame (<arch/syscall.h>) and turns them into the
 * implementation's typed parameters, so every call is type-checked (Linux's
 * pt_regs syscall wrappers).  Unknown numbers return -ENOSYS and are logged
 * once per program (unknown_syscall).
 *
 * do_syscall() is the gate's whole C side: the arch stub (arch/x86/entry.asm)
 * saves the frame and calls it with interrupts on; it dispatches, stores the
 * result and does the return-to-user work (Linux 2.6.35's system_call /
 * syscall_exit: the work flags are tested inline, exit_to_caller() runs only
 * when one is set).
 *
 * Two tables: Linux's numbers index syscall_table directly; Granule's
 * private calls live at GRANULE_NR_BASE + k (0x47520000 + k, far above any
 * Linux number, so a Linux kernel answers them with -ENOSYS and real Linux
 * binaries never reach them here) and index granule_syscall_table by k.
 */
#include <gen/syscall_nr.h>
#include <kernel/clone.h>
#include <kernel/entry.h>
#include <kernel/errno.h>
#include <kernel/fs.h>
#include <kernel/futex.h>
#include <kernel/proc.h>
#include <kernel/random.h>
#include <kernel/sys.h>
#include <kernel/hrtimer.h>
#include <kernel/itimer.h>
#include <kernel/pipe.h>
#include <kernel/tmpfs.h>
#include <kernel/posix_timers.h>
#include <kernel/poll.h>
#include <kernel/printk.h>
#include <kernel/signal.h>
#include <kernel/smp_lock.h>
#include <kernel/trace.h>
#include <kernel/tty.h>
#include <kernel/vm.h>
#include <arch/irqflags.h>
#include <arch/syscall.h>

typedef long (*syscall_fn)(struct trap_frame *tf);

#define SYSCALL(name, call) \
	static long sc_##name(struct trap_frame *tf) { SYSCALL_ARGS(tf); return (call); }
#define P(t, a) ((t)(unsigned long)(a))

SYSCALL(exit,         (do_exit(((int)a1 & 0xff) << 8), 0))
SYSCALL(exit_group,   (do_group_exit(((int)a1 & 0xff) << 8), 0))
SYSCALL(fork,         do_fork(17 /* SIGCHLD */, 0, 0, 0, 0, tf))
SYSCALL(clone,        do_fork(a1, a2, a3, a4, a5, tf))	/* flags, newsp, ptid, tls, ctid */
SYSCALL(execve,       sys_execve(P(const char *, a1), P(char *const *, a2), P(char *const *, a3)))
SYSCALL(wait4,        do_wait4((int)a1, P(int *, a2), (int)a3, P(struct rusage32 *, a4)))
SYSCALL(getrusage,    sys_getrusage((int)a1, P(struct rusage32 *, a2)))
SYSCALL(read,         sys_read((int)a1, P(char *, a2), a3))
SYSCALL(write,        sys_write((int)a1, P(const char *, a2), a3))
SYSCALL(brk,          sys_brk(a1))
SYSCALL(getpid,       sys_getpid())
SYSCALL(gettid,       sys_gettid())
SYSCALL(getppid,      sys_getppid())
SYSCALL(getpriority,  sys_getpriority((int)a1, (int)a2))
SYSCALL(setpriority,  sys_setpriority((int)a1, (int)a2, (int)a3))
SYSCALL(uname,        sys_uname(P(struct new_utsname *, a1)))
SYSCALL(kill,         sys_kill((int)a1, (int)a2))
SYSCALL(tgkill,       sys_tgkill((int)a1, (int)a2, (int)a3))
SYSCALL(sched_yield,  sched_yield())
SYSCALL(sched_setattr, sys_sched_setattr((int)a1, P(struct sched_attr *, a2), a3))
SYSCALL(sched_getattr, sys_sched_getattr((int)a1, P(struct sched_attr *, a2), a3, a4))
SYSCALL(sched_setscheduler, sys_sched_setscheduler((int)a1, (int)a2, P(const void *, a3)))
SYSCALL(sched_setparam, sys_sched_setparam((int)a1, P(const void *, a2)))
SYSCALL(sched_getscheduler, sys_sched_getscheduler((int)a1))
SYSCALL(sched_getparam, sys_sched_getparam((int)a1, P(void *, a2)))
SYSCALL(sched_get_priority_max, sys_sched_get_priority_max((int)a1))
SYSCALL(sched_get_priority_min, sys_sched_get_priority_min((int)a1))
SYSCALL(sched_rr_get_interval, sys_sched_rr_get_interval((int)a1, P(void *, a2)))
SYSCALL(sched_rr_get_interval_time64, sys_sched_rr_get_interval_time64((int)a1, P(void *, a2)))
SYSCALL(nanosleep,    sys_nanosleep(P(const struct timespec32 *, a1), P(struct timespec32 *, a2)))
SYSCALL(clock_gettime, sys_clock_gettime((int)a1, P(struct timespec32 *, a2)))
SYSCALL(clock_nanosleep, sys_clock_nanosleep((int)a1, (int)a2, P(const struct timespec32 *, a3),
					      P(struct timespec32 *, a4)))
SYSCALL(clock_getres, sys_clock_getres((int)a1, P(struct timespec32 *, a2)))
SYSCALL(rt_sigaction, sys_rt_sigaction((int)a1, P(const struct k_sigaction *, a2),
				       P(struct k_sigaction *, a3), a4))
SYSCALL(rt_sigprocmask, sys_rt_sigprocmask((int)a1, P(const u64 *, a2), P(u64 *, a3), a4))
SYSCALL(rt_sigpending, sys_rt_sigpending(P(u64 *, a1), a2))
SYSCALL(rt_sigtimedwait, sys_rt_sigtimedwait(P(const u64 *, a1), P(struct ksiginfo *, a2),
					     P(const void *, a3), a4))
SYSCALL(sigreturn,    sys_sigreturn(tf))
SYSCALL(rt_sigreturn, sys_rt_sigreturn(tf))
SYSCALL(timer_create, sys_timer_create((int)a1, P(const void *, a2), P(int *, a3)))
SYSCALL(timer_settime, sys_timer_settime((int)a1, (int)a2, P(const struct itimerspec32 *, a3),
					 P(struct itimerspec32 *, a4)))
SYSCALL(timer_gettime, sys_timer_gettime((int)a1, P(struct itimerspec32 *, a2)))
SYSCALL(timer_getoverrun, sys_timer_getoverrun((int)a1))
SYSCALL(timer_delete, sys_timer_delete((int)a1))
SYSCALL(alarm,        sys_alarm(a1))
SYSCALL(setitimer,    sys_setitimer((int)a1, P(const struct itimerval32 *, a2),
				    P(struct itimerval32 *, a3)))
SYSCALL(getitimer,    sys_getitimer((int)a1, P(struct itimerval32 *, a2)))
SYSCALL(set_thread_area, sys_set_thread_area(P(struct user_desc *, a1)))
SYSCALL(get_thread_area, sys_get_thread_area(P(struct user_desc *, a1)))
SYSCALL(futex,        sys_futex(a1, (int)a2, a3, P(const struct timespec32 *, a4), a6))
SYSCALL(futex_time64, sys_futex_time64(a1, (int)a2, a3, P(const struct kernel_timespec *, a4), a6))
SYSCALL(getuid,       sys_getuid())	/* and every other uid/gid getter: root */
SYSCALL(getresuid,    sys_getresuid(P(u32 *, a1), P(u32 *, a2), P(u32 *, a3)))
SYSCALL(set_tid_address, sys_set_tid_address(a1))
SYSCALL(set_robust_list, sys_set_robust_list(a1, a2))
SYSCALL(get_robust_list, sys_get_robust_list((int)a1, P(u32 *, a2), P(u32 *, a3)))
SYSCALL(rseq,         sys_rseq(a1, a2, (int)a3, a4))
SYSCALL(ugetrlimit,   sys_ugetrlimit((int)a1, P(u32 *, a2)))
SYSCALL(prlimit64,    sys_prlimit64((int)a1, (int)a2, P(const struct rlimit64 *, a3),
				    P(struct rlimit64 *, a4)))
SYSCALL(sysinfo,      sys_sysinfo(P(struct sysinfo32 *, a1)))
SYSCALL(getgroups,    sys_getgroups((int)a1, P(u32 *, a2)))
SYSCALL(fcntl64,      sys_fcntl64((int)a1, a2, a3))
SYSCALL(open,         sys_open(P(const char *, a1), a2, a3))
SYSCALL(openat,       sys_openat((int)a1, P(const char *, a2), a3, a4))
SYSCALL(close,        sys_close((int)a1))
SYSCALL(lseek,        sys_lseek((int)a1, (s32)a2, (int)a3))
SYSCALL(_llseek,      sys_llseek((int)a1, a2, a3, P(long long *, a4), (int)a5))
SYSCALL(getdents64,   sys_getdents64((int)a1, P(void *, a2), a3))
SYSCALL(dup,          sys_dup((int)a1))
SYSCALL(dup2,         sys_dup2((int)a1, (int)a2))
SYSCALL(dup3,         sys_dup3((int)a1, (int)a2, a3))
SYSCALL(chdir,        sys_chdir(P(const char *, a1)))
SYSCALL(fchdir,       sys_fchdir((int)a1))
SYSCALL(sendfile64,   sys_sendfile64((int)a1, (int)a2, P(void *, a3), a4))
SYSCALL(prctl,        sys_prctl((int)a1, a2))
SYSCALL(getrandom,    sys_getrandom(P(void *, a1), a2, a3))
SYSCALL(mmap2,        sys_mmap2(a1, a2, a3, a4, (int)a5, a6))
SYSCALL(munmap,       sys_munmap(a1, a2))
SYSCALL(mprotect,     sys_mprotect(a1, a2, a3))
SYSCALL(writev,       sys_writev((int)a1, P(const struct iovec32 *, a2), (int)a3))
SYSCALL(ioctl,        sys_ioctl((int)a1, a2, a3))
SYSCALL(stat64,       sys_stat64(P(const char *, a1), P(struct stat64 *, a2)))
SYSCALL(lstat64,      sys_lstat64(P(const char *, a1), P(struct stat64 *, a2)))
SYSCALL(fstat64,      sys_fstat64((int)a1, P(struct stat64 *, a2)))
SYSCALL(fstatat64,    sys_fstatat64((int)a1, P(const char *, a2), P(struct stat64 *, a3), (int)a4))
SYSCALL(statx,        sys_statx((int)a1, P(const char *, a2), (int)a3, a4, P(struct statx *, a5)))
SYSCALL(readlink,     sys_readlink(P(const char *, a1), P(char *, a2), (int)a3))
SYSCALL(readlinkat,   sys_readlinkat((int)a1, P(const char *, a2), P(char *, a3), (int)a4))
SYSCALL(access,       sys_access(P(const char *, a1), (int)a2))
SYSCALL(faccessat,    sys_faccessat((int)a1, P(const char *, a2), (int)a3))
SYSCALL(faccessat2,   sys_faccessat2((int)a1, P(const char *, a2), (int)a3, (int)a4))
SYSCALL(getcwd,       sys_getcwd(P(char *, a1), a2))
SYSCALL(clock_gettime64, sys_clock_gettime64((int)a1, P(struct kernel_timespec *, a2)))
SYSCALL(clock_getres_time64, sys_clock_getres_time64((int)a1, P(struct kernel_timespec *, a2)))
SYSCALL(clock_nanosleep_time64, sys_clock_nanosleep_time64((int)a1, (int)a2,
				P(const struct kernel_timespec *, a3), P(struct kernel_timespec *, a4)))
/* poll/select (kernel/fs/select.c), rt_sigsuspend and pause */
SYSCALL(_newselect,   sys_select((int)a1, P(u32 *, a2), P(u32 *, a3), P(u32 *, a4), P(void *, a5)))
SYSCALL(poll,         sys_poll(P(struct pollfd *, a1), a2, (int)a3))
SYSCALL(rt_sigsuspend, sys_rt_sigsuspend(P(const u64 *, a1), a2))
SYSCALL(pause,        sys_pause())
SYSCALL(pselect6,     sys_pselect6((int)a1, P(u32 *, a2), P(u32 *, a3), P(u32 *, a4),
				   P(struct timespec32 *, a5), P(const void *, a6)))
SYSCALL(ppoll,        sys_ppoll(P(struct pollfd *, a1), a2, P(const struct timespec32 *, a3),
				P(const u64 *, a4), a5))
SYSCALL(pselect6_time64, sys_pselect6_time64((int)a1, P(u32 *, a2), P(u32 *, a3), P(u32 *, a4),
					     P(struct kernel_timespec *, a5), P(const void *, a6)))
SYSCALL(ppoll_time64, sys_ppoll_time64(P(struct pollfd *, a1), a2, P(const struct kernel_timespec *, a3),
				       P(const u64 *, a4), a5))
SYSCALL(setpgid,      sys_setpgid((int)a1, (int)a2))
SYSCALL(getpgrp,      sys_getpgrp())
SYSCALL(setsid,       sys_setsid())
SYSCALL(getpgid,      sys_getpgid((int)a1))
SYSCALL(getsid,       sys_getsid((int)a1))
/* pipes and the RAM file system (kernel/fs/pipe.c, tmpfs.c) */
SYSCALL(pipe,         sys_pipe(P(int *, a1)))
SYSCALL(pipe2,        sys_pipe2(P(int *, a1), a2))
SYSCALL(unlink,       sys_unlink(P(const char *, a1)))
SYSCALL(unlinkat,     sys_unlinkat((int)a1, P(const char *, a2), (int)a3))
SYSCALL(rmdir,        sys_rmdir(P(const char *, a1)))
SYSCALL(mkdir,        sys_mkdir(P(const char *, a1), a2))
SYSCALL(mkdirat,      sys_mkdirat((int)a1, P(const char *, a2), a3))
SYSCALL(rename,       sys_rename(P(const char *, a1), P(const char *, a2)))
SYSCALL(renameat,     sys_renameat((int)a1, P(const char *, a2), (int)a3, P(const char *, a4)))
SYSCALL(ftruncate,    sys_ftruncate((int)a1, a2))
SYSCALL(ftruncate64,  sys_ftruncate64((int)a1, a2, a3))
SYSCALL(utimensat,    sys_utimensat((int)a1, P(const char *, a2), P(const s32 *, a3), (int)a4))
/* dynamic glibc programs (kernel/fs/file.c, kernel/mm/mmap.c) */
SYSCALL(pread64,      sys_pread64((int)a1, P(char *, a2), a3, ((u64)a5 << 32) | a4))
SYSCALL(mlock,        sys_mlock(a1, a2))
SYSCALL(munlock,      sys_munlock(a1, a2))
SYSCALL(mlockall,     sys_mlockall(a1))
SYSCALL(munlockall,   sys_munlockall())
SYSCALL(madvise,      sys_madvise(a1, a2, (int)a3))
/* everyday commands: poweroff/reboot, dmesg, time, times, taskset */
SYSCALL(sync,         sys_sync())
SYSCALL(times,        sys_times(P(struct tms32 *, a1)))
SYSCALL(reboot,       sys_reboot(a1, a2, a3, P(const char *, a4)))
SYSCALL(syslog,       sys_syslog((int)a1, P(char *, a2), (int)a3))
SYSCALL(vfork,        do_fork(CLONE_VM | CLONE_VFORK | 17 /* SIGCHLD */, 0, 0, 0, 0, tf))
SYSCALL(sched_setaffinity, sys_sched_setaffinity((int)a1, a2, P(const u32 *, a3)))
SYSCALL(sched_getaffinity, sys_sched_getaffinity((int)a1, a2, P(u32 *, a3)))
SYSCALL(statfs,       sys_statfs(P(const char *, a1), P(struct statfs32 *, a2)))
SYSCALL(fstatfs,      sys_fstatfs((int)a1, P(struct statfs32 *, a2)))
SYSCALL(statfs64,     sys_statfs64(P(const char *, a1), a2, P(struct statfs64 *, a3)))
SYSCALL(fstatfs64,    sys_fstatfs64((int)a1, a2, P(struct statfs64 *, a3)))
SYSCALL(granule_poweroff, sys_granule_poweroff((int)a1))
SYSCALL(granule_frames,   sys_granule_frames())
SYSCALL(granule_sched_debug, sys_granule_sched_debug())
SYSCALL(granule_sched_params, sys_granule_sched_params(P(char *, a1), (int)a2))
SYSCALL(granule_trace_marker, sys_granule_trace_marker(P(const char *, a1), (int)a2))

static long sc_ni_syscall(struct trap_frame *tf);

/* Every hole is sc_ni_syscall (Linux's sys_ni_syscall), so the dispatch
 * needs only the range check.  The named entries override the range. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const syscall_fn syscall_table[] = {
	[0 ... NR_syscalls - 1] = sc_ni_syscall,
	[__NR_exit] = sc_exit,
	[__NR_exit_group] = sc_exit_group,
	[__NR_fork] = sc_fork,
	[__NR_clone] = sc_clone,
	[__NR_execve] = sc_execve,
	[__NR_wait4] = sc_wait4,
	[__NR_getrusage] = sc_getrusage,
	[__NR_read] = sc_read,
	[__NR_write] = sc_write,
	[__NR_brk] = sc_brk,
	[__NR_getpid] = sc_getpid,
	[__NR_gettid] = sc_gettid,
	[__NR_getppid] = sc_getppid,
	[__NR_getpriority] = sc_getpriority,
	[__NR_setpriority] = sc_setpriority,
	[__NR_uname] = sc_uname,
	[__NR_kill] = sc_kill,
	[__NR_tgkill] = sc_tgkill,
	[__NR_sched_yield] = sc_sched_yield,
	[__NR_sched_setattr] = sc_sched_setattr,
	[__NR_sched_getattr] = sc_sched_getattr,
	[__NR_sched_setscheduler] = sc_sched_setscheduler,
	[__NR_sched_setparam] = sc_sched_setparam,
	[__NR_sched_getscheduler] = sc_sched_getscheduler,
	[__NR_sched_getparam] = sc_sched_getparam,
	[__NR_sched_get_priority_max] = sc_sched_get_priority_max,
	[__NR_sched_get_priority_min] = sc_sched_get_priority_min,
	[__NR_sched_rr_get_interval] = sc_sched_rr_get_interval,
	[__NR_sched_rr_get_interval_time64] = sc_sched_rr_get_interval_time64,
	[__NR_nanosleep] = sc_nanosleep,
	[__NR_clock_gettime] = sc_clock_gettime,
	[__NR_clock_nanosleep] = sc_clock_nanosleep,
	[__NR_futex] = sc_futex,
	[__NR_set_thread_area] = sc_set_thread_area,
	[__NR_get_thread_area] = sc_get_thread_area,
	[__NR_clock_getres] = sc_clock_getres,
	[__NR_rt_sigaction] = sc_rt_sigaction,
	[__NR_rt_sigprocmask] = sc_rt_sigprocmask,
	[__NR_rt_sigpending] = sc_rt_sigpending,
	[__NR_rt_sigtimedwait] = sc_rt_sigtimedwait,
	[__NR_sigreturn] = sc_sigreturn,
	[__NR_rt_sigreturn] = sc_rt_sigreturn,
	[__NR_timer_create] = sc_timer_create,
	[__NR_timer_settime] = sc_timer_settime,
	[__NR_timer_gettime] = sc_timer_gettime,
	[__NR_timer_getoverrun] = sc_timer_getoverrun,
	[__NR_timer_delete] = sc_timer_delete,
	[__NR_alarm] = sc_alarm,
	[__NR_setitimer] = sc_setitimer,
	[__NR_getitimer] = sc_getitimer,
	/* what glibc's static start-up and busybox's applets call */
	[__NR_getuid] = sc_getuid,
	[__NR_getgid] = sc_getuid,
	[__NR_geteuid] = sc_getuid,
	[__NR_getegid] = sc_getuid,
	[__NR_getuid32] = sc_getuid,
	[__NR_getgid32] = sc_getuid,
	[__NR_geteuid32] = sc_getuid,
	[__NR_getegid32] = sc_getuid,
	[__NR_getresuid32] = sc_getresuid,
	[__NR_getresgid32] = sc_getresuid,
	[__NR_set_tid_address] = sc_set_tid_address,
	[__NR_set_robust_list] = sc_set_robust_list,
	[__NR_get_robust_list] = sc_get_robust_list,
	[__NR_rseq] = sc_rseq,
	[__NR_ugetrlimit] = sc_ugetrlimit,
	[__NR_prlimit64] = sc_prlimit64,
	[__NR_prctl] = sc_prctl,
	[__NR_chdir] = sc_chdir,
	[__NR_fchdir] = sc_fchdir,
	[__NR_sendfile] = sc_sendfile64,
	[__NR_pread64] = sc_pread64,
	[__NR_mlock] = sc_mlock,
	[__NR_munlock] = sc_munlock,
	[__NR_mlockall] = sc_mlockall,
	[__NR_madvise] = sc_madvise,
	[__NR_munlockall] = sc_munlockall,
	[__NR_sendfile64] = sc_sendfile64,
	[__NR_open] = sc_open,
	[__NR_openat] = sc_openat,
	[__NR_close] = sc_close,
	[__NR_lseek] = sc_lseek,
	[__NR__llseek] = sc__llseek,
	[__NR_getdents64] = sc_getdents64,
	[__NR_dup] = sc_dup,
	[__NR_dup2] = sc_dup2,
	[__NR_dup3] = sc_dup3,
	[__NR_sysinfo] = sc_sysinfo,
	[__NR_getgroups] = sc_getgroups,
	[__NR_getgroups32] = sc_getgroups,
	[__NR_fcntl] = sc_fcntl64,
	[__NR_fcntl64] = sc_fcntl64,
	[__NR_getrandom] = sc_getrandom,
	[__NR_mmap2] = sc_mmap2,
	[__NR_munmap] = sc_munmap,
	[__NR_mprotect] = sc_mprotect,
	[__NR_writev] = sc_writev,
	[__NR_ioctl] = sc_ioctl,
	[__NR_stat64] = sc_stat64,
	[__NR_lstat64] = sc_lstat64,
	[__NR_fstat64] = sc_fstat64,
	[__NR_fstatat64] = sc_fstatat64,
	[__NR_statx] = sc_statx,
	[__NR_readlink] = sc_readlink,
	[__NR_readlinkat] = sc_readlinkat,
	[__NR_access] = sc_access,
	[__NR_faccessat] = sc_faccessat,
	[__NR_faccessat2] = sc_faccessat2,
	[__NR_getcwd] = sc_getcwd,
	[__NR_clock_gettime64] = sc_clock_gettime64,
	[__NR_clock_getres_time64] = sc_clock_getres_time64,
	[__NR_clock_nanosleep_time64] = sc_clock_nanosleep_time64,
	[__NR_futex_time64] = sc_futex_time64,
	/* poll/select and rt_sigsuspend */
	[__NR__newselect] = sc__newselect,
	[__NR_poll] = sc_poll,
	[__NR_rt_sigsuspend] = sc_rt_sigsuspend,
	[__NR_pause] = sc_pause,
	[__NR_pselect6] = sc_pselect6,
	[__NR_ppoll] = sc_ppoll,
	[__NR_pselect6_time64] = sc_pselect6_time64,
	[__NR_ppoll_time64] = sc_ppoll_time64,
	/* process groups and sessions */
	[__NR_setpgid] = sc_setpgid,
	[__NR_getpgrp] = sc_getpgrp,
	[__NR_setsid] = sc_setsid,
	[__NR_getpgid] = sc_getpgid,
	[__NR_getsid] = sc_getsid,
	/* pipes and the RAM file system */
	[__NR_pipe] = sc_pipe,
	[__NR_pipe2] = sc_pipe2,
	[__NR_unlink] = sc_unlink,
	[__NR_unlinkat] = sc_unlinkat,
	[__NR_rmdir] = sc_rmdir,
	[__NR_mkdir] = sc_mkdir,
	[__NR_mkdirat] = sc_mkdirat,
	[__NR_rename] = sc_rename,
	[__NR_renameat] = sc_renameat,
	[__NR_ftruncate] = sc_ftruncate,
	[__NR_ftruncate64] = sc_ftruncate64,
	[__NR_utimensat] = sc_utimensat,
	/* everyday commands */
	[__NR_sync] = sc_sync,
	[__NR_times] = sc_times,
	[__NR_reboot] = sc_reboot,
	[__NR_syslog] = sc_syslog,
	[__NR_vfork] = sc_vfork,
	[__NR_sched_setaffinity] = sc_sched_setaffinity,
	[__NR_sched_getaffinity] = sc_sched_getaffinity,
	[__NR_statfs] = sc_statfs,
	[__NR_fstatfs] = sc_fstatfs,
	[__NR_statfs64] = sc_statfs64,
	[__NR_fstatfs64] = sc_fstatfs64,
};
#pragma GCC diagnostic pop

/* Indexed by k = nr - GRANULE_NR_BASE. */
static const syscall_fn granule_syscall_table[NR_granule_syscalls] = {
#define GRANULE_ENTRY(k, name, nargs) [k] = sc_##name,
	GRANULE_SYSCALL_LIST(GRANULE_ENTRY)
#undef GRANULE_ENTRY
};

/*
 * -ENOSYS, and one line the first time the program (its mm: a new one at
 * every exec; a forked child inherits what its parent logged) makes this
 * call, so that what a real binary misses shows:
 * "busybox[7]: unknown syscall 123".  Numbers outside
 * Linux's range share one bit.
 */
static long unknown_syscall(u32 nr)
{
	struct mm *mm = current->mm;
	u32 bit = nr < 1024 ? nr : 1024;

	if (mm && !(mm->nosys_seen[bit / 32] & (1u << (bit % 32)))) {
		mm->nosys_seen[bit / 32] |= 1u << (bit % 32);
		printk("%s[%d]: unknown syscall %u\n", current->comm, current->tgid, nr);
	}
	return -ENOSYS;
}

static long sc_ni_syscall(struct trap_frame *tf)
{
	return unknown_syscall(syscall_get_nr(tf));
}

/* Beyond Linux's table: a Granule-private call, or unknown. */
static noinline long other_syscall(u32 nr, struct trap_frame *tf)
{
	syscall_fn fn = NULL;

	if (nr - GRANULE_NR_BASE < ARRAY_SIZE(granule_syscall_table))
		fn = granule_syscall_table[nr - GRANULE_NR_BASE];
	return fn ? fn(tf) : unknown_syscall(nr);
}

/*
 * Whether the way back to user mode may have anything to do: a reschedule,
 * a temporary signal mask to put back, any pending signal (blocked ones
 * too: exit_to_caller() asks signal_pending() itself) or a group stop
 * (Linux's _TIF_ALLWORK_MASK test).
 */
static inline int exit_work_pending(struct task *t)
{
	return t->need_resched | t->restore_sigmask || t->sig_pending ||
	       t->group_leader->group_stop;
}

static __attribute__((always_inline)) inline void __do_syscall(struct trap_frame *tf, const int smp)
{
	u32 nr = syscall_get_nr(tf);
	long ret;

	if (likely(nr < ARRAY_SIZE(syscall_table)))
		ret = syscall_table[nr](tf);
	else
		ret = other_syscall(nr, tf);
	syscall_set_return_value(tf, ret);
	local_irq_disable();
	if (unlikely(exit_work_pending(current))) {
		if (smp)
			exit_to_caller_smp(tf, 1);
		else
			exit_to_caller(tf, 1);
	}
}

void do_syscall(struct trap_frame *tf)
{
	__do_syscall(tf, 0);
}

/*
 * The calls that run without the giant lock at more than one CPU (2.6's
 * unlocked_ioctl split, per entry): those whose whole path touches nothing
 * the giant lock covers - only the caller's own task (its pid, its flags
 * through signal_pending(), its restart block, its CPU time), the clocks,
 * its CPU's hrtimer queue (under that queue's lock) and the runqueues
 * (under their locks, in schedule() and the wakeup).  Their user copies take
 * the lock themselves, for the copy alone (kernel/mm/uaccess.c), and the
 * way out takes it to deliver a signal (exit_to_caller_smp()).
 * LOCK_FREE_BUT_PROCESS_CLOCK: clock_gettime, but for
 * CLOCK_PROCESS_CPUTIME_ID, which walks the thread group.
 */
enum { LOCKED, LOCK_FREE, LOCK_FREE_BUT_PROCESS_CLOCK };

static const u8 syscall_lock_free[NR_syscalls] = {
	[__NR_getpid] = LOCK_FREE,
	[__NR_gettid] = LOCK_FREE,
	[__NR_sched_yield] = LOCK_FREE,
	[__NR_nanosleep] = LOCK_FREE,
	[__NR_clock_nanosleep] = LOCK_FREE,
	[__NR_clock_nanosleep_time64] = LOCK_FREE,
	[__NR_clock_gettime] = LOCK_FREE_BUT_PROCESS_CLOCK,
	[__NR_clock_gettime64] = LOCK_FREE_BUT_PROCESS_CLOCK,
};

static int syscall_needs_kernel_lock(const struct trap_frame *tf)
{
	u32 nr = syscall_get_nr(tf);
	SYSCALL_ARGS(tf);

	if (nr >= NR_syscalls || syscall_lock_free[nr] == LOCKED)
		return 1;
	return syscall_lock_free[nr] == LOCK_FREE_BUT_PROCESS_CLOCK &&
	       (int)a1 == CLOCK_PROCESS_CPUTIME_ID;
}

/*
 * int 0x80 at more than one CPU (arch_smp_syscall_gate): a call that needs
 * the giant lock runs under it, and the way back to user mode lets it go
 * (__do_syscall() returns with interrupts off, its exit work done).  A call
 * that does not return here (exit, a new program's first entry) lets it go
 * on its own way out: schedule() to another task, or unlock_kernel() on the
 * way to user mode (kernel/entry.c, fork_child_tail(), arch_enter_user()).
 */
void do_syscall_smp(struct trap_frame *tf)
{
	if (syscall_needs_kernel_lock(tf))
		__lock_kernel_irqs_on();
	__do_syscall(tf, 1);
	__unlock_kernel();
}
