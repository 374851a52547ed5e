/* user/lib/ulib.h - internal helpers of the user library. */
#ifndef USER_LIB_ULIB_H
#define USER_LIB_ULIB_H

#include <gen/user_syscalls.h>

/* A raw result -> the libc convention (-1 and errno on failure). */
long __syscall_ret(long r);

#define SYSRET(call)	__syscall_ret(call)
#define L(x)		((long)(x))

/* The vDSO's __vdso_clock_gettime, or NULL (vdso.c). */
struct timespec;
extern int (*__vdso_clock_gettime_fn)(int, struct timespec *);
void __libc_vdso_init(char **envp);
void *__libc_vdso_sym(const char *name);
void *__libc_vdso_vsym(const char *name, const char *version);

/* SIGEV_THREAD's CPU-time accounting (timer.c): totals since the start. */
struct timer_thread_cpu {
	long long helper_ns;		/* the helper's CPU clock after its last expiry */
	long long notify_ns;		/* sum of the notification threads' CPU clocks */
	int expiries;			/* expiries the helper handled */
	int threads;			/* notification threads that finished fn */
	int pad_us;			/* notify_pad_us from the environment (0: none) */
};
void __timer_thread_cpu(struct timer_thread_cpu *t);

#endif
