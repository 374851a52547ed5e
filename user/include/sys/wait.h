/* sys/wait.h - waiting for children (wait4 with Linux's status encoding). */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H

#include <sys/types.h>
#include <sys/resource.h>

#define WNOHANG		1
#define WUNTRACED	2

/* status = exit code << 8, or the killing signal (| 0x80 if core dumped). */
#define WEXITSTATUS(s)	(((s) >> 8) & 0xff)
#define WTERMSIG(s)	((s) & 0x7f)
#define WIFEXITED(s)	(WTERMSIG(s) == 0)
#define WIFSIGNALED(s)	(((signed char)(((s) & 0x7f) + 1) >> 1) > 0)
#define WIFSTOPPED(s)	(((s) & 0xff) == 0x7f)
#define WSTOPSIG(s)	WEXITSTATUS(s)
#define WCOREDUMP(s)	((s) & 0x80)

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru);
pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait(int *status);

#endif
