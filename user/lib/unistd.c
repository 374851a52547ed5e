/*
 * user/lib/unistd.c - libc wrappers of the process and I/O system calls.
 * Each one passes its arguments to the generated raw stub (sys_*) and maps
 * a -errno result to -1 + errno.
 */
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>
#include <sched.h>
#include <granule.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include "ulib.h"

ssize_t read(int fd, void *buf, size_t n)
{
	return SYSRET(sys_read(fd, L(buf), L(n)));
}

ssize_t write(int fd, const void *buf, size_t n)
{
	return SYSRET(sys_write(fd, L(buf), L(n)));
}

pid_t fork(void)
{
	return SYSRET(sys_fork());
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return SYSRET(sys_execve(L(path), L(argv), L(envp)));
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

pid_t getpid(void)  { return sys_getpid(); }	/* cannot fail */
pid_t getppid(void) { return sys_getppid(); }
pid_t gettid(void)  { return sys_gettid(); }

void _exit(int status)
{
	for (;;)
		sys_exit_group(status);
}

int brk(void *addr)
{
	if (sys_brk(L(addr)) != L(addr)) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(intptr_t increment)
{
	long cur = sys_brk(0), want = cur + increment;

	if (increment == 0)
		return (void *)cur;
	if ((increment > 0 && want < cur) || (increment < 0 && want > cur) ||
	    sys_brk(want) != want) {
		errno = ENOMEM;
		return (void *)-1;
	}
	return (void *)cur;
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	return SYSRET(sys_wait4(pid, L(status), options, L(ru)));
}

int getrusage(int who, struct rusage *ru)
{
	return SYSRET(sys_getrusage(who, L(ru)));
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	return wait4(pid, status, options, NULL);
}

pid_t wait(int *status)
{
	return wait4(-1, status, 0, NULL);
}

int getpriority(int which, id_t who)
{
	long r = SYSRET(sys_getpriority(which, who));

	return r < 0 ? -1 : 20 - (int)r;	/* raw value is 20 - nice */
}

int setpriority(int which, id_t who, int nice)
{
	return SYSRET(sys_setpriority(which, who, nice));
}

int uname(struct utsname *u)
{
	return SYSRET(sys_uname(L(u)));
}

int sched_yield(void)
{
	return SYSRET(sys_sched_yield());
}

int granule_poweroff(int status)
{
	return SYSRET(sys_granule_poweroff(status));
}

long granule_frames(void)
{
	return SYSRET(sys_granule_frames());
}

int granule_sched_debug(void)
{
	return SYSRET(sys_granule_sched_debug());
}
