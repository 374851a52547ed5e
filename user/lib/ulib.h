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

#endif
