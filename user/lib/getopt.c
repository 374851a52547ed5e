/*
 * user/lib/getopt.c - POSIX getopt (short options only; see <unistd.h>).
 * State between calls: optind (next argv element) and a static position
 * inside a cluster like "-abc".
 */
#include <unistd.h>
#include <string.h>
#include <stdio.h>

char *optarg;
int optind = 1, opterr = 1, optopt;

int getopt(int argc, char *const argv[], const char *optstring)
{
	static int pos;		/* index in argv[optind] of the next option char */
	static int last_optind;	/* detects a caller resetting optind */
	int colon = optstring[0] == ':';
	const char *spec;
	char *arg;
	int c;

	if (optind != last_optind || optind < 1)
		pos = 0;
	optarg = NULL;
	if (pos == 0) {
		if (optind < 1)
			optind = 1;
		if (optind >= argc || !argv[optind] || argv[optind][0] != '-' ||
		    argv[optind][1] == '\0') {
			last_optind = optind;
			return -1;
		}
		if (strcmp(argv[optind], "--") == 0) {
			last_optind = ++optind;
			return -1;
		}
		pos = 1;
	}
	arg = argv[optind];
	c = (unsigned char)arg[pos++];
	spec = c == ':' ? NULL : strchr(optstring + colon, c);
	if (!spec) {
		optopt = c;
		if (opterr && !colon)
			dprintf(2, "%s: invalid option -- '%c'\n", argv[0], c);
		c = '?';
	} else if (spec[1] == ':') {
		if (arg[pos]) {			/* -bVALUE */
			optarg = &arg[pos];
		} else if (optind + 1 < argc) {	/* -b VALUE */
			optarg = argv[++optind];
		} else {
			optopt = c;
			if (opterr && !colon)
				dprintf(2, "%s: option requires an argument -- '%c'\n",
					argv[0], c);
			c = colon ? ':' : '?';
		}
		pos = 0;
		optind++;
	}
	if (pos && !arg[pos]) {			/* cluster finished */
		pos = 0;
		optind++;
	}
	last_optind = optind;
	return c;
}
