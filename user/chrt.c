/*
 * user/chrt.c - util-linux's chrt(1): show or set a task's scheduling
 * policy and real-time priority (sched_setscheduler(2) family), with its
 * options and output:
 *
 *	chrt [-f|-r|-o|-b|-i] [-R] PRIO COMMAND [ARG...]   run COMMAND so
 *	chrt [-f|-r|-o|-b|-i] [-R] -p PRIO PID             change PID
 *	chrt -p PID                                        show PID:
 *	    pid N's current scheduling policy: SCHED_FIFO
 *	    pid N's current scheduling priority: 50
 *	chrt -m                                            min/max priorities
 *
 * The default policy when setting is SCHED_RR, as util-linux's.  COMMAND
 * without a '/' is looked up as /bin/COMMAND.  Long options: --fifo,
 * --rr, --other, --batch, --idle, --reset-on-fork, --pid, --max,
 * --verbose, --help.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gen/user_syscalls.h>

#define SCHED_RESET_ON_FORK	0x40000000

static const char *const policy_names[] = {
	"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "SCHED_ISO",
	"SCHED_IDLE", "SCHED_DEADLINE",
};

static const char usage_text[] =
	"Usage: chrt [options] <priority> <command> [<arg>...]\n"
	"Show or change the real-time scheduling attributes of a process.\n\n"
	"Set policy:\n"
	" chrt [options] <priority> <command> [<arg>...]\n"
	" chrt [options] --pid <priority> <pid>\n\n"
	"Get policy:\n"
	" chrt [options] -p <pid>\n\n"
	"Policy options:\n"
	" -b, --batch          set policy to SCHED_BATCH\n"
	" -f, --fifo           set policy to SCHED_FIFO\n"
	" -i, --idle           set policy to SCHED_IDLE\n"
	" -o, --other          set policy to SCHED_OTHER\n"
	" -r, --rr             set policy to SCHED_RR (default)\n"
	" -R, --reset-on-fork  set SCHED_RESET_ON_FORK for FIFO or RR\n\n"
	"Scheduling options:\n"
	" -m, --max            show min and max valid priorities\n"
	" -p, --pid            operate on existing given pid\n"
	" -v, --verbose        display status information\n\n"
	" -h, --help           display this help\n";

static const char *policy_name(int policy)
{
	policy &= ~SCHED_RESET_ON_FORK;
	return policy >= 0 && policy < 7 ? policy_names[policy] : "unknown";
}

static int show(int pid)
{
	long pol = sys_sched_getscheduler(pid);
	int prio = 0;
	long r;

	if (pol < 0) {
		fprintf(stderr, "chrt: failed to get pid %d's policy: %s\n", pid, strerror((int)-pol));
		return 1;
	}
	if ((r = sys_sched_getparam(pid, (long)&prio)) < 0) {
		fprintf(stderr, "chrt: failed to get pid %d's attributes: %s\n", pid, strerror((int)-r));
		return 1;
	}
	printf("pid %d's current scheduling policy: %s%s\n", pid ? pid : getpid(),
	       policy_name((int)pol), pol & SCHED_RESET_ON_FORK ? "|SCHED_RESET_ON_FORK" : "");
	printf("pid %d's current scheduling priority: %d\n", pid ? pid : getpid(), prio);
	return 0;
}

static int show_max(void)
{
	static const int order[] = { 0, 1, 2, 3, 5, 6 };

	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		long min = sys_sched_get_priority_min(order[i]);
		long max = sys_sched_get_priority_max(order[i]);

		if (min >= 0 && max >= 0)
			printf("%s min/max priority\t: %ld/%ld\n", policy_names[order[i]], min, max);
		else		/* SCHED_DEADLINE on a 2.6.35 kernel */
			printf("%s not supported?\n", policy_names[order[i]]);
	}
	return 0;
}

/* "--fifo" -> "-f" etc., in place, so that getopt sees short options. */
static void long_to_short(int argc, char **argv)
{
	static const char *const longs[][2] = {
		{ "--batch", "-b" }, { "--fifo", "-f" }, { "--idle", "-i" },
		{ "--other", "-o" }, { "--rr", "-r" }, { "--reset-on-fork", "-R" },
		{ "--max", "-m" }, { "--pid", "-p" }, { "--verbose", "-v" },
	};
	for (int i = 1; i < argc && argv[i][0] == '-'; i++)
		for (unsigned j = 0; j < sizeof(longs) / sizeof(longs[0]); j++)
			if (!strcmp(argv[i], longs[j][0]))
				argv[i] = (char *)longs[j][1];
}

static int number(const char *s, const char *what, long *out)
{
	char *end;

	*out = strtol(s, &end, 10);
	if (!*s || *end) {
		fprintf(stderr, "chrt: invalid %s argument: '%s'\n", what, s);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	help_exit(argc, argv, usage_text);
	int policy = 2, reset = 0, use_pid = 0, verbose = 0, c;
	long prio, pid = 0, r;
	char path[128];

	long_to_short(argc, argv);
	while ((c = getopt(argc, argv, "bfiorRmpvh")) != -1) {
		switch (c) {
		case 'b': policy = 3; break;
		case 'f': policy = 1; break;
		case 'i': policy = 5; break;
		case 'o': policy = 0; break;
		case 'r': policy = 2; break;
		case 'R': reset = 1; break;
		case 'm': return show_max();
		case 'p': use_pid = 1; break;
		case 'v': verbose = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default:
			fprintf(stderr, "Try 'chrt --help' for more information.\n");
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (use_pid && argc == 1) {
		if (number(argv[0], "PID", &pid))
			return 1;
		return show((int)pid);
	}
	if (argc < 2 || (use_pid && argc != 2)) {
		fprintf(stderr, "chrt: bad usage\nTry 'chrt --help' for more information.\n");
		return 1;
	}
	if (number(argv[0], "priority", &prio))
		return 1;
	if (use_pid && number(argv[1], "PID", &pid))
		return 1;
	if (prio < sys_sched_get_priority_min(policy) || prio > sys_sched_get_priority_max(policy)) {
		fprintf(stderr, "chrt: unsupported priority value for the policy: %ld "
			"(see --max for valid range)\n", prio);
		return 1;
	}
	int p = (int)prio;
	r = sys_sched_setscheduler((int)pid, policy | (reset ? SCHED_RESET_ON_FORK : 0), (long)&p);
	if (r < 0) {
		fprintf(stderr, "chrt: failed to set pid %ld's policy: %s\n", pid, strerror((int)-r));
		return 1;
	}
	if (verbose)
		show((int)pid);
	if (use_pid)
		return 0;
	if (strchr(argv[1], '/'))
		snprintf(path, sizeof(path), "%s", argv[1]);
	else
		snprintf(path, sizeof(path), "/bin/%s", argv[1]);
	execv(path, argv + 1);
	fprintf(stderr, "chrt: failed to execute %s: %s\n", argv[1], strerror(errno));
	return 127;
}
