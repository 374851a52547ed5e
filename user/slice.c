/*
 * user/slice.c - run a command with a custom EEVDF slice, like chrt(1)'s
 * --sched-runtime for SCHED_OTHER (util-linux), through sched_setattr(2):
 *
 *	slice US COMMAND [ARG...]	set this process's slice to US
 *					microseconds (Linux 6.12 clamps it to
 *					100..100000; 0 = the base slice), keep
 *					its policy and nice, then exec COMMAND
 *					(/bin/COMMAND if it has no '/')
 *	slice -p [PID]			print PID's (default: own) policy,
 *					nice and slice, from sched_getattr(2)
 *
 * The slice is inherited by COMMAND's children and threads (fork copies
 * it, unless SCHED_FLAG_RESET_ON_FORK).  Only the EEVDF class
 * (sched_preset=linux-6.12) uses it; CFS ignores it and reports 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gen/user_syscalls.h>
#include <sched.h>

#define SCHED_FLAG_KEEP_POLICY	0x08

static int usage(void)
{
	fprintf(stderr, "usage: slice US COMMAND [ARG...] | slice -p [PID]\n");
	return 2;
}

static int show(int pid)
{
	static const char *const names[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
					     "SCHED_BATCH", "SCHED_ISO", "SCHED_IDLE" };
	struct sched_attr a;
	long r = sys_sched_getattr(pid, (long)&a, sizeof(a), 0);

	if (r < 0) {
		fprintf(stderr, "slice: sched_getattr(%d): error %ld\n", pid, -r);
		return 1;
	}
	printf("pid %d: policy %s, nice %d, slice %llu ns%s\n", pid ? pid : getpid(),
	       a.sched_policy < 6 ? names[a.sched_policy] : "?", a.sched_nice,
	       a.sched_runtime, a.sched_flags & 1 ? ", reset-on-fork" : "");
	return 0;
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, "usage: slice US COMMAND [ARG...] | slice -p [PID]\nRun COMMAND with an EEVDF slice of US microseconds (sched_setattr), or show a\ntask's slice.\n");
	struct sched_attr a;
	char path[128];
	char *end;
	long us, r;

	if (argc >= 2 && !strcmp(argv[1], "-p"))
		return argc > 3 ? usage() : show(argc == 3 ? atoi(argv[2]) : 0);
	if (argc < 3)
		return usage();
	us = strtol(argv[1], &end, 10);
	if (*end || us < 0 || us > 4000000) {
		fprintf(stderr, "slice: slice '%s' us: want 0..4000000\n", argv[1]);
		return 2;
	}

	memset(&a, 0, sizeof(a));
	if ((r = sys_sched_getattr(0, (long)&a, sizeof(a), 0)) < 0) {
		fprintf(stderr, "slice: sched_getattr: error %ld\n", -r);
		return 1;
	}
	a.size = sizeof(a);
	a.sched_flags = SCHED_FLAG_KEEP_POLICY;		/* policy, nice stay */
	a.sched_runtime = (unsigned long long)us * 1000;
	if ((r = sys_sched_setattr(0, (long)&a, 0)) < 0) {
		fprintf(stderr, "slice: sched_setattr: error %ld\n", -r);
		return 1;
	}
	if (strchr(argv[2], '/'))
		snprintf(path, sizeof(path), "%s", argv[2]);
	else
		snprintf(path, sizeof(path), "/bin/%s", argv[2]);
	execv(path, argv + 2);
	fprintf(stderr, "slice: cannot run %s\n", path);
	return 127;
}
