/*
 * user/nice.c - nice(1) as GNU coreutils 9.1's (Debian 12's busybox has no
 * nice applet): the same options, messages and exit statuses.
 *
 *	nice				print the current niceness
 *	nice [-n N] COMMAND [ARG...]	run COMMAND with the niceness raised
 *					by N (default 10); also -N, --N
 *					(negative), --adjustment=N and
 *					--adjustment N
 *	nice --help, --version
 *
 * N is clamped to -39..39 (1 - 2 * NZERO .. 2 * NZERO - 1, NZERO = 20) and
 * the kernel clamps the result to -20..19, as glibc's nice(3) does through
 * getpriority/setpriority.  A refused change (EPERM, EACCES) is a warning
 * ("cannot set niceness") and COMMAND runs anyway; other errors exit 125.
 * COMMAND is searched in $PATH (default /bin:/usr/bin) as execvp(3).
 * Exit status: 125 for nice's own errors, 126 if COMMAND was found but
 * could not be run, 127 if it was not found, else COMMAND's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gen/user_syscalls.h>

#define EXIT_CANCELED	125
#define EXIT_CANNOT_INVOKE 126
#define EXIT_ENOENT	127
#define NZERO		20
#define PRIO_PROCESS	0

static int try_help(void)
{
	fprintf(stderr, "Try 'nice --help' for more information.\n");
	return EXIT_CANCELED;
}

static int help(void)
{
	printf("Usage: nice [OPTION] [COMMAND [ARG]...]\n"
	       "Run COMMAND with an adjusted niceness, which affects process scheduling.\n"
	       "With no COMMAND, print the current niceness.  Niceness values range from\n"
	       "-20 (most favorable to the process) to 19 (least favorable to the process).\n"
	       "\n"
	       "Mandatory arguments to long options are mandatory for short options too.\n"
	       "  -n, --adjustment=N   add integer N to the niceness (default 10)\n"
	       "      --help        display this help and exit\n"
	       "      --version     output version information and exit\n");
	return 0;
}

/* execvp(3): NAME with a '/' as is, else each directory of $PATH. */
static void exec_path(char **argv)
{
	const char *path = getenv("PATH");
	char buf[256];
	int saw_eacces = 0;

	if (strchr(argv[0], '/')) {
		execv(argv[0], argv);
		return;
	}
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? path : ".", argv[0]);
		execv(buf, argv);
		if (errno == EACCES)
			saw_eacces = 1;
		path += len + (path[len] == ':');
	}
	errno = saw_eacces ? EACCES : ENOENT;
}

/* The adjustment's text: -N, --N, -n N, -nN, --adjustment=N, --adjustment N. */
static const char *parse_options(int argc, char **argv, int *i)
{
	const char *adj = NULL;

	for (*i = 1; *i < argc && argv[*i][0] == '-'; (*i)++) {
		char *a = argv[*i];

		if ((a[1] >= '0' && a[1] <= '9') || (a[1] == '-' && a[2] >= '0' && a[2] <= '9') ||
		    (a[1] == '+' && a[2] >= '0' && a[2] <= '9'))
			adj = a[1] == '-' ? a + 1 : a + 1 + (a[1] == '+');
		else if (!strcmp(a, "-n") || !strcmp(a, "--adjustment")) {
			if (++*i >= argc) {
				fprintf(stderr, "nice: option requires an argument -- 'n'\n");
				return (const char *)-1;
			}
			adj = argv[*i];
		} else if (!strncmp(a, "-n", 2))
			adj = a + 2;
		else if (!strncmp(a, "--adjustment=", 13))
			adj = a + 13;
		else if (!strcmp(a, "--")) {
			(*i)++;
			break;
		} else {
			fprintf(stderr, a[1] == '-' ? "nice: unrecognized option '%s'\n" :
				"nice: invalid option -- '%s'\n", a[1] == '-' ? a : a + 1);
			return (const char *)-1;
		}
	}
	return adj;
}

int main(int argc, char **argv)
{
	const char *adj;
	long n = 10, cur;
	char *end;
	int i;

	if (argc == 2 && !strcmp(argv[1], "--help"))
		return help();
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("nice (GNU coreutils) 9.1\n");
		return 0;
	}
	adj = parse_options(argc, argv, &i);
	if (adj == (const char *)-1)
		return try_help();
	if (adj) {
		errno = 0;
		n = strtol(adj, &end, 10);
		if (!*adj || *end || errno) {
			fprintf(stderr, "nice: invalid adjustment '%s'\n", adj);
			return try_help();
		}
		n = n < 1 - 2 * NZERO ? 1 - 2 * NZERO : n > 2 * NZERO - 1 ? 2 * NZERO - 1 : n;
	}
	cur = 20 - sys_getpriority(PRIO_PROCESS, 0);
	if (i == argc) {
		if (adj) {
			fprintf(stderr, "nice: a command must be given with an adjustment\n");
			return try_help();
		}
		printf("%ld\n", cur);
		return 0;
	}
	long r = sys_setpriority(PRIO_PROCESS, 0, cur + n);
	if (r < 0) {
		fprintf(stderr, "nice: cannot set niceness: %s\n", strerror((int)-r));
		if (r != -EPERM && r != -EACCES)
			return EXIT_CANCELED;
	}
	exec_path(argv + i);
	fprintf(stderr, "nice: '%s': %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
}
