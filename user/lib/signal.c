/*
 * user/lib/signal.c - sigaction and friends over rt_sig* (sigsetsize 8).
 *
 * The kernel's struct for rt_sigaction on i386 is
 *	{ handler, flags, restorer, mask (8 bytes) }
 * which differs from the user struct sigaction in field order; sigaction()
 * converts, and always supplies SA_RESTORER with a trampoline the signal
 * frame's return address points to.  As on Linux i386 (and as glibc
 * does), the frame type depends on SA_SIGINFO:
 *   SA_SIGINFO:  rt frame (signo, &siginfo, &ucontext); __restore_rt
 *                calls rt_sigreturn (173) with esp just past the return
 *                address;
 *   otherwise:   legacy frame (signo, struct sigcontext); __restore pops
 *                the signal number, then calls sigreturn (119).
 */
#include <signal.h>
#include <unistd.h>
#include <errno.h>
#include <time.h>
#include <gen/syscall_nr.h>
#include "ulib.h"

#define STR_(x)	#x
#define STR(x)	STR_(x)

void __restore_rt(void);
void __restore(void);
__asm__(".text\n"
	".globl __restore_rt\n"
	".type __restore_rt, @function\n"
	"__restore_rt:\n"
	"\tmovl $" STR(__NR_rt_sigreturn) ", %eax\n"
	"\tint $0x80\n"
	".size __restore_rt, . - __restore_rt\n"
	".globl __restore\n"
	".type __restore, @function\n"
	"__restore:\n"
	"\tpopl %eax\n"
	"\tmovl $" STR(__NR_sigreturn) ", %eax\n"
	"\tint $0x80\n"
	".size __restore, . - __restore\n");

struct k_sigaction {
	void *handler;
	unsigned long flags;
	void (*restorer)(void);
	sigset_t mask;
};

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct k_sigaction kact, kold = { 0 };
	long r;

	if (act) {
		kact.handler = (void *)act->sa_handler;
		kact.flags = (unsigned long)act->sa_flags | SA_RESTORER;
		kact.restorer = (act->sa_flags & SA_SIGINFO) ? __restore_rt : __restore;
		kact.mask = act->sa_mask;
	}
	r = SYSRET(sys_rt_sigaction(sig, act ? L(&kact) : 0, old ? L(&kold) : 0,
				    sizeof(sigset_t)));
	if (r == 0 && old) {
		old->sa_handler = (sighandler_t)kold.handler;
		old->sa_flags = (int)kold.flags;
		old->sa_restorer = kold.restorer;
		old->sa_mask = kold.mask;
	}
	return (int)r;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa = { .sa_flags = SA_RESTART }, old = { 0 };

	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return SYSRET(sys_rt_sigprocmask(how, L(set), L(old), sizeof(sigset_t)));
}

int sigpending(sigset_t *set)
{
	return SYSRET(sys_rt_sigpending(L(set), sizeof(sigset_t)));
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	return SYSRET(sys_rt_sigtimedwait(L(set), L(info), L(timeout), sizeof(sigset_t)));
}

int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return sigtimedwait(set, info, NULL);
}

int kill(pid_t pid, int sig)
{
	return SYSRET(sys_kill(pid, sig));
}

int tgkill(pid_t tgid, pid_t tid, int sig)
{
	return SYSRET(sys_tgkill(tgid, tid, sig));
}

int raise(int sig)
{
	return tgkill(getpid(), gettid(), sig);
}

int sigemptyset(sigset_t *set)
{
	set->sig[0] = set->sig[1] = 0;
	return 0;
}

int sigfillset(sigset_t *set)
{
	set->sig[0] = set->sig[1] = ~0ul;
	return 0;
}

static int sig_ok(int sig)
{
	if (sig < 1 || sig > _NSIG) {
		errno = EINVAL;
		return 0;
	}
	return 1;
}

int sigaddset(sigset_t *set, int sig)
{
	if (!sig_ok(sig))
		return -1;
	set->sig[(sig - 1) / 32] |= 1ul << ((sig - 1) % 32);
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	if (!sig_ok(sig))
		return -1;
	set->sig[(sig - 1) / 32] &= ~(1ul << ((sig - 1) % 32));
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	if (!sig_ok(sig))
		return -1;
	return (set->sig[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1;
}
