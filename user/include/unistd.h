/*
 * unistd.h - process and file-descriptor system calls, getopt.
 *
 * Every wrapper follows libc: on failure it sets errno and returns -1.  The
 * raw calls, returning -errno instead, are sys_<name>() from
 * <gen/user_syscalls.h> (generated from user/syscalls.list).
 */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#define STDIN_FILENO	0
#define STDOUT_FILENO	1
#define STDERR_FILENO	2

ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
pid_t fork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
int execv(const char *path, char *const argv[]);	/* envp = environ */
pid_t getpid(void);
pid_t getppid(void);
pid_t gettid(void);
__attribute__((noreturn)) void _exit(int status);	/* exit_group, no atexit */

/*
 * Linux brk semantics: the raw call returns the new break, or the old one
 * when it refuses; brk() maps that to 0 / -1 + ENOMEM.  sbrk(0) is the
 * current break; sbrk(n) returns the old break, or (void *)-1 + ENOMEM.
 */
int brk(void *addr);
void *sbrk(intptr_t increment);

unsigned int sleep(unsigned int seconds);	/* nanosleep; 0 or seconds left */
int usleep(unsigned int usec);
unsigned int alarm(unsigned int seconds);	/* SIGALRM in SECONDS; the old one's seconds left */

/*
 * POSIX getopt: options from OPTSTRING ("ab:c" = -a, -b ARG, -c), stops at
 * the first non-option or "--", returns '?' for an unknown option or a
 * missing argument (printing a message unless opterr == 0 or optstring
 * starts with ':', then ':' for a missing argument), -1 at the end.
 * Set optind = 1 to scan again (optreset is not needed).
 */
int getopt(int argc, char *const argv[], const char *optstring);
extern char *optarg;
extern int optind, opterr, optopt;

#endif
