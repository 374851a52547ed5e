/*
 * signal.h - signals with the Linux i386 rt_sig* ABI.
 *
 * sigset_t covers the 64 Linux signals (the kernel's sigsetsize is 8).
 * sigaction() always installs SA_RESTORER with a trampoline, so the kernel
 * needs no vdso/sigreturn page: rt_sigreturn (173) for SA_SIGINFO
 * handlers, which get Linux's rt frame, and sigreturn (119) for the
 * others, which get the legacy i386 frame (see user/lib/signal.c).
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H

#include <sys/types.h>
#include <kernel/signal_nr.h>

struct timespec;

typedef struct {
	unsigned long sig[2];	/* bit (n - 1) = signal n */
} sigset_t;

union sigval {
	int sival_int;
	void *sival_ptr;
};

/* Linux's siginfo_t: 128 bytes, the fields Granule produces. */
typedef struct {
	int si_signo;
	int si_errno;
	int si_code;		/* SI_USER, SI_TKILL, SI_TIMER, CLD_* ... */
	union {
		int __pad[29];
		struct { pid_t pid; uid_t uid; } kill;
		struct { int tid; int overrun; union sigval value; } timer;
		struct { pid_t pid; uid_t uid; union sigval value; } rt;
		struct { pid_t pid; uid_t uid; int status; long utime, stime; } chld;
	} __f;
} siginfo_t;
#define si_pid		__f.kill.pid
#define si_uid		__f.kill.uid
#define si_timerid	__f.timer.tid
#define si_overrun	__f.timer.overrun
#define si_value	__f.timer.value
#define si_status	__f.chld.status

#define SI_USER		0
#define SI_KERNEL	0x80
#define SI_QUEUE	(-1)
#define SI_TIMER	(-2)
#define SI_TKILL	(-6)
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3

/* struct sigevent (64 bytes) for timer_create. */
#define SIGEV_SIGNAL	0
#define SIGEV_NONE	1
#define SIGEV_THREAD	2
#define SIGEV_THREAD_ID	4
struct sigevent {
	union sigval sigev_value;
	int sigev_signo;
	int sigev_notify;
	union {
		int __pad[13];
		int tid;	/* SIGEV_THREAD_ID */
		struct {	/* SIGEV_THREAD (user space: user/lib/timer.c) */
			void (*function)(union sigval);
			void *attribute;	/* ignored */
		} thread;
	} __u;
};
#define sigev_notify_thread_id	__u.tid
#define sigev_notify_function	__u.thread.function
#define sigev_notify_attributes	__u.thread.attribute

typedef void (*sighandler_t)(int);
#define SIG_DFL	((sighandler_t)0)
#define SIG_IGN	((sighandler_t)1)
#define SIG_ERR	((sighandler_t)-1)

struct sigaction {
	union {
		sighandler_t sa_handler;
		void (*sa_sigaction)(int, siginfo_t *, void *);
	} __h;
	sigset_t sa_mask;
	int sa_flags;
	void (*sa_restorer)(void);	/* set by sigaction() itself */
};
#define sa_handler	__h.sa_handler
#define sa_sigaction	__h.sa_sigaction

#define SA_NOCLDSTOP	0x00000001
#define SA_NOCLDWAIT	0x00000002
#define SA_SIGINFO	0x00000004
#define SA_RESTORER	0x04000000
#define SA_ONSTACK	0x08000000
#define SA_RESTART	0x10000000
#define SA_NODEFER	0x40000000
#define SA_RESETHAND	0x80000000

#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
sighandler_t signal(int sig, sighandler_t handler);	/* SA_RESTART semantics */
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigpending(sigset_t *set);
int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout);
int sigwaitinfo(const sigset_t *set, siginfo_t *info);
int kill(pid_t pid, int sig);
int tgkill(pid_t tgid, pid_t tid, int sig);
int raise(int sig);			/* tgkill(getpid(), gettid(), sig) */

int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);		/* -1 + EINVAL outside 1..64 */
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);

#endif
